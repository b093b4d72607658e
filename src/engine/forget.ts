import { UserError } from '../errors.js';
import type { Disowned, ResourceType } from './contracts/resource-type.js';
import type { ResourceState, StateSnapshot } from './contracts/state.js';
import { resourceContext } from './context.js';
import { baseAddress } from './deposed.js';
import { realId } from './ids.js';
import type { EngineDeps } from './types.js';

/**
 * What forgetting one state key (`plumb state rm`) takes out of state: the record at it (an
 * address, or `ADDR~ID` for an object set aside by a replacement). Nothing remote is touched by
 * forgetting itself.
 */
export interface Forgetting {
  key: string;
  record: ResourceState;
  /** The state once it is gone. */
  after: StateSnapshot;
}

/** What forgetting `key` takes out of `snapshot`; a key with no record is a UserError listing the keys there are. */
export function forgetting(snapshot: StateSnapshot, key: string): Forgetting {
  const record = snapshot.resources[key];
  if (!record) throw new UserError(`no resource "${key}" in state`, `addresses: ${Object.keys(snapshot.resources).sort().join(', ') || '(none)'}`);
  const resources = { ...snapshot.resources };
  delete resources[key];
  return { key, record, after: { ...snapshot, resources } };
}

/**
 * Removes plumb's ownership marks from a recorded object through its type's `disown`, over the
 * connection it was made through, so that another project or stack can import it. Failures
 * (unreachable API, refused credentials) are thrown as they come, for the caller to refuse on.
 */
export async function disownRecorded(type: ResourceType, record: ResourceState, deps: EngineDeps): Promise<Disowned> {
  if (!type.disown) throw new Error(`${type.token} marks its objects as plumb's but cannot remove the marks`);
  const ctx = await resourceContext(deps, type, baseAddress(record.address), { provider: record.provider });
  return type.disown(ctx, realId(record));
}
