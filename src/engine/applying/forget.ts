import { UserError } from '../../kernel/errors.js';
import type { Disowned, ResourceType } from '../contracts/resource-type.js';
import type { PendingOperation, ResourceState, StateSnapshot } from '../contracts/state.js';
import { resourceContext } from './context.js';
import { baseAddress } from './deposed.js';
import { realId } from './ids.js';
import type { EngineDeps } from '../types.js';

/**
 * What forgetting one state key (`plumb state rm`) takes out of state: the record at it (an
 * address, or `ADDR~ID` for an object set aside by a replacement) and the interrupted operations
 * journaled for it. Nothing remote is touched by forgetting itself.
 */
export interface Forgetting {
  key: string;
  record?: ResourceState;
  pending: PendingOperation[];
  /** The state once both are gone; other keys' interrupted operations stay, for the next plan to settle. */
  after: StateSnapshot;
}

/**
 * What forgetting `key` takes out of `snapshot`. A key with neither a record nor an interrupted
 * operation is a UserError listing the keys there are. A record is not forgotten while another
 * key has interrupted operations: settling a create looks for its object among those state does
 * not hold, so it could take the forgotten object for its own. Interrupted operations alone may
 * always be forgotten: that is how a user goes on past one plumb cannot settle.
 */
export function forgetting(snapshot: StateSnapshot, key: string): Forgetting {
  const record = snapshot.resources[key];
  const pending = snapshot.pending.filter((p) => p.address === key);
  if (!record && !pending.length) {
    const keys = [...new Set([...Object.keys(snapshot.resources), ...snapshot.pending.map((p) => p.address)])].sort();
    throw new UserError(`no resource "${key}" in state, and no interrupted operation of it`, `addresses: ${keys.join(', ') || '(none)'}`);
  }
  const others = snapshot.pending.filter((p) => p.address !== key);
  if (record && others.length) {
    const addresses = [...new Set(others.map((p) => p.address))].sort();
    throw new UserError(
      `${key} is not forgotten while ${addresses.join(', ')} ${addresses.length === 1 ? 'has' : 'have'} interrupted operations: settling them looks for objects state does not hold, and could take ${record.id} for one`,
      `run plumb plan so they are settled first; one plumb cannot settle is forgotten with plumb state rm ${addresses[0]}`,
    );
  }
  const resources = { ...snapshot.resources };
  delete resources[key];
  return { key, record, pending, after: { ...snapshot, resources, pending: others } };
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

/** A line saying what an interrupted operation was, once forgotten, and what may be left of it remotely. */
export function describeForgotten(op: PendingOperation): string {
  if (op.action === 'create') {
    return op.id
      ? `forgot an interrupted create of ${op.address} (ordered ${op.id} at ${op.at}; it may exist and be billed, and plumb will not look for it again)`
      : `forgot an interrupted create of ${op.address} (begun at ${op.at}; what it ordered, if anything, may exist and be billed, and plumb will not look for it again)`;
  }
  const of = op.id ? `of ${op.id} ` : '';
  return op.action === 'delete'
    ? `forgot an interrupted delete of ${op.address} (${of}begun at ${op.at}; it may still exist and be billed)`
    : `forgot an interrupted update of ${op.address} (${of}begun at ${op.at}; the change may or may not have been made)`;
}
