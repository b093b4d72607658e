import PQueue from 'p-queue';
import type { ResourceType } from '../contracts/resource-type.js';
import type { StateSnapshot, ResourceState } from '../contracts/state.js';
import { ReadPass, resourceContext } from '../applying/context.js';
import { Secret, reveal, secretKeys, secretTexts, wrapSecrets } from '../../kernel/values.js';
import { openRecord, openedAs } from '../applying/open-record.js';
import { realId } from '../applying/ids.js';
import { sealDeclared } from '../evaluation/declared-secrets.js';
import type { EngineDeps } from '../types.js';
import { mayStillAppear, readinessOf, statusOf, withStatus } from '../applying/awaiting.js';
import { systemClock } from '../applying/wait.js';

/** The outcome of reading every resource in state. */
export interface Refreshed {
  /** State with observed inputs and outputs; resources gone remotely are removed. */
  resources: Record<string, ResourceState>;
  /** Addresses whose object no longer exists remotely. */
  gone: string[];
}

/**
 * Reads every recorded resource, each type in bulk where it can (see readObjects). Observed input
 * fields replace recorded ones; fields the API does not return keep their recorded value (so they
 * are never reported as changes).
 */
export async function refreshState(state: StateSnapshot, deps: EngineDeps, concurrency = 10, warn?: (message: string) => void, pass = new ReadPass()): Promise<Refreshed> {
  const resources: Record<string, ResourceState> = { ...state.resources };
  const gone: string[] = [];
  // The same failure of many reads (the API unreachable) is said once, naming every address.
  const failures = new Map<string, string[]>();
  const requests = readRequests(Object.values(state.resources), deps);
  const read = await readObjects(requests, deps, { pass, concurrency, warn: warn && ((address, message) => warn(`${address}: ${message}`)) });
  const now = (deps.clock ?? systemClock).now();
  for (const request of requests) {
    const prior = state.resources[request.address];
    const outcome = read.get(request)!;
    if ('error' in outcome) {
      const message = outcome.error.message;
      failures.set(message, [...(failures.get(message) ?? []), prior.address]);
    } else if (outcome.observed === undefined) {
      // An object still on its way may not be listed yet: that is no sign it is gone.
      if (prior.status === 'provisioning' && mayStillAppear(request.type, prior.orderedAt, now)) continue;
      gone.push(prior.address);
      delete resources[prior.address];
    } else {
      // An output recorded as secret as a whole (additionalSecretOutputs among them) stays secret.
      const secretOutputs = Object.keys(prior.outputs).filter((key) => prior.outputs[key] instanceof Secret);
      const sealed = wrapSecrets(outcome.observed, [...(request.type.secrets?.paths ?? []), ...secretKeys(prior.inputs), ...secretOutputs]);
      const outputs = secretTexts(await sealDeclared(request.type, prior.address, request.prior!.inputs, sealed, deps, pass, prior.provider));
      const record = { ...prior, inputs: observedInputs(prior.inputs, outputs), outputs };
      // One recorded on its way is as ready as the API now says.
      const refreshed = prior.status === 'provisioning' ? withStatus(record, statusOf(readinessOf(request.type, outputs))) : record;
      // Its values were read open: they are not opened again.
      resources[prior.address] = openedAs(refreshed, { inputs: observedInputs(request.prior!.inputs, outcome.observed), outputs: outcome.observed });
    }
  }
  if (failures.size) {
    const lines = [...failures].map(([message, addresses]) => `${addresses.length > 1 ? `${addresses.length} resources (${addresses.sort().join(', ')})` : addresses[0]}: ${message}`);
    throw new Error(`refresh failed:\n  ${lines.sort().join('\n  ')}`);
  }
  return { resources, gone: gone.sort() };
}

/**
 * Recorded inputs updated with the values the remote API reports for the same fields. An input
 * keeps the secrets it was declared with: an output sealed whole (additionalSecretOutputs, or a
 * list an older plumb sealed whole) is sealed as the recorded input is, field by field, so a list
 * or map stays one to whatever compares it.
 */
export function observedInputs(recorded: Record<string, unknown>, observed: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...recorded };
  for (const key of Object.keys(recorded)) {
    const value = observed[key];
    if (value === undefined) continue;
    const paths = value instanceof Secret && !(recorded[key] instanceof Secret) ? secretKeys({ [key]: recorded[key] }) : [];
    out[key] = paths.length ? wrapSecrets({ [key]: reveal(value) }, paths)[key] : value;
  }
  return out;
}

/** One object to read: the address it is read for, its type, its real id and what state holds of it. */
export interface ReadRequest {
  address: string;
  type: ResourceType;
  id: string;
  prior?: { inputs: Record<string, unknown>; outputs: Record<string, unknown> };
  /** The provider resource whose connection reads it; absent for the default. */
  provider?: string;
}

/** What reading one object found: its outputs, undefined when it is gone, or why it could not be read. */
export type ReadOutcome = { observed: Record<string, unknown> | undefined } | { error: Error };

/** The read requests for recorded resources whose type is known, with their recorded values open. */
export function readRequests(recorded: ResourceState[], deps: EngineDeps): ReadRequest[] {
  const out: ReadRequest[] = [];
  for (const r of recorded) {
    const type = deps.resourceType(r.type);
    if (type) out.push({ address: r.address, type, id: realId(r), prior: openRecord(r), ...(r.provider ? { provider: r.provider } : {}) });
  }
  return out;
}

/** How a pass of reads runs. */
export interface ReadOptions {
  /** Shared by every read of this pass (ResourceContext.shared). */
  pass: ReadPass;
  /** Most objects read one by one at once. */
  concurrency: number;
  /** A warning a read gave about the object at this address. */
  warn?(address: string, message: string): void;
}

/**
 * Reads objects, each outcome by its request. A type with readMany reads all its objects in one
 * call; an object that call did not list is read once more alone before it is called gone (a
 * list can lag), and a type without it reads each alone. A failed bulk read is the failure of
 * each object it was asked for: reading them one by one instead would multiply the calls to an
 * API that is already failing.
 */
export async function readObjects(requests: ReadRequest[], deps: EngineDeps, options: ReadOptions): Promise<Map<ReadRequest, ReadOutcome>> {
  const outcomes = new Map<ReadRequest, ReadOutcome>();
  const queue = new PQueue({ concurrency: Math.max(1, options.concurrency) });
  const warnFor = (address: string) => (message: string) => (options.warn ? options.warn(address, message) : deps.log.warn({ address }, message));
  const alone = (request: ReadRequest) =>
    void queue.add(async () => {
      try {
        const ctx = await resourceContext(deps, request.type, request.address, { pass: options.pass, warn: warnFor(request.address), provider: request.provider });
        outcomes.set(request, { observed: (await request.type.read(ctx, request.id, request.prior)) as Record<string, unknown> | undefined });
      } catch (err) {
        outcomes.set(request, { error: err as Error });
      }
    });
  // One bulk read per type and connection: each provider resource lists its own account's objects.
  const byType = new Map<string, { type: ResourceType; provider?: string; group: ReadRequest[] }>();
  for (const request of requests) {
    const key = `${request.type.token}\u0000${request.provider ?? ''}`;
    const entry = request.type.readMany && (byType.get(key) ?? byType.set(key, { type: request.type, provider: request.provider, group: [] }).get(key)!);
    if (entry) entry.group.push(request);
    else alone(request);
  }
  await Promise.all(
    [...byType.values()].map(async ({ type, provider, group }) => {
      let listed: Map<string, unknown>;
      try {
        const ctx = await resourceContext(deps, type, '', { pass: options.pass, provider });
        listed = await type.readMany!(
          ctx,
          group.map((r) => ({ id: r.id, prior: r.prior, warn: warnFor(r.address) })),
        );
      } catch (err) {
        for (const r of group) outcomes.set(r, { error: err as Error });
        return;
      }
      for (const r of group) {
        if (listed.has(r.id)) outcomes.set(r, { observed: listed.get(r.id) as Record<string, unknown> });
        else alone(r);
      }
    }),
  );
  await queue.onIdle();
  return outcomes;
}
