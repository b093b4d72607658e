import { UserError } from '../errors.js';
import type { ResourceContext, ResourceType } from './contracts/resource-type.js';
import type { PendingOperation, ResourceState, StateSnapshot } from './contracts/state.js';
import { reveal, wrapSecrets } from '../values.js';
import { ReadPass, resourceContext } from './context.js';
import { readObjects, type ReadOutcome, type ReadRequest } from './refresh.js';
import { deposedKey, normalizeDeposed } from './deposed.js';
import { realId, recordedId } from './ids.js';
import type { EngineDeps } from './types.js';

/** How far a remote API's clock may run behind this machine's, when telling what was made since an order. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** The state after settling, and a line per settled operation for the plan. */
export interface Settled {
  resources: Record<string, ResourceState>;
  notes: string[];
}

/**
 * Settles what an apply left unfinished: operations between intent and outcome (a crash, or a call
 * whose answer was lost), and records older versions could leave doubled (see normalizeDeposed).
 *
 * A pending create is looked up remotely — by the id recorded once the order was accepted, else
 * by the ownership tags carrying its operation token or by the inputs it was ordered with (see
 * findOwned) — and adopted if found (tainted if not ready); a replacement's old object is then
 * set aside in the same step. Found nothing: the create never happened, and the object it would
 * have replaced is still current. A pending delete or update is read again: gone means gone.
 * A read that fails fails the plan, naming the resource: nothing is assumed. Every object the
 * operations name by id is read first, each type in bulk where it can (see readObjects).
 */
export async function settlePending(state: StateSnapshot, deps: EngineDeps, pass = new ReadPass()): Promise<Settled> {
  const legacy = legacyAsideSlots(state.resources);
  const { resources, notes } = normalizeDeposed(state.resources);
  if (!state.pending.length) return { resources, notes };
  const settling: Settling = { resources, notes, deps, pass, read: await readPending(state.pending, resources, deps, pass, notes) };
  for (const op of state.pending) {
    const type = deps.resourceType(op.type);
    // Dropped, the operation's object (one a create may have made) would be recorded nowhere.
    if (!type) {
      throw new UserError(
        `${op.address}: an interrupted ${op.action} of ${op.type}, a resource type this plumb does not know, cannot be settled`,
        'nothing was changed; settle it with the plumb that started it',
      );
    }
    try {
      if (op.action === 'create') {
        settling.recordedIds ??= new Set(Object.values(resources).map((r) => realId(r)));
        await settleCreate(op, type, settling);
        restoreLegacyAside(op, legacy, resources, notes);
      } else {
        await settleChange(op, type, settling);
      }
    } catch (err) {
      if (err instanceof UserError) throw err;
      throw new UserError(`${op.address}: could not settle an interrupted ${op.action}: ${(err as Error).message}`, 'nothing was changed; run the command again once the remote API answers');
    }
  }
  return { resources, notes };
}

/** What settling works on: the state as settled so far, the notes for the plan, and the objects read up front. */
interface Settling {
  resources: Record<string, ResourceState>;
  notes: string[];
  deps: EngineDeps;
  pass: ReadPass;
  /** What each object a pending operation names was found to be, by type and id. */
  read: Map<string, ReadOutcome>;
  recordedIds?: Set<string>;
}

/**
 * Reads, in bulk where a type can, every object the pending operations name by id (a create's
 * accepted order, an update's or delete's object), before any is settled.
 */
async function readPending(pending: PendingOperation[], resources: Record<string, ResourceState>, deps: EngineDeps, pass: ReadPass, notes: string[]): Promise<Map<string, ReadOutcome>> {
  const requests: ReadRequest[] = [];
  for (const op of pending) {
    const type = deps.resourceType(op.type);
    const recorded = resources[op.address];
    const target = op.id ? { id: op.id, secretId: op.secretId } : op.action === 'create' ? undefined : recorded;
    if (!type || !target) continue;
    const prior = op.action !== 'create' && recorded ? { inputs: reveal(recorded.inputs), outputs: reveal(recorded.outputs) } : undefined;
    requests.push({ address: op.address, type, id: realId(target), prior, ...(op.provider ? { provider: op.provider } : {}) });
  }
  const outcomes = await readObjects(requests, deps, { pass, concurrency: 10, warn: (address, message) => notes.push(`${address}: ${message}`) });
  return new Map(requests.map((r) => [readKey(r.type, r.id, r.provider), outcomes.get(r)!]));
}

/** Ids are unique per connection only: two accounts' objects are told apart by their provider resource. */
function readKey(type: ResourceType, id: string, provider?: string): string {
  return `${type.token}\0${id}\0${provider ?? ''}`;
}

/** The object with this id as read up front, or read now when settling an earlier operation changed what is recorded. */
async function observed(
  type: ResourceType,
  ctx: ResourceContext,
  id: string,
  prior: { inputs: unknown; outputs: unknown } | undefined,
  settling: Settling,
  provider?: string,
): Promise<Record<string, unknown> | undefined> {
  const outcome = settling.read.get(readKey(type, id, provider));
  if (!outcome) return (await type.read(ctx, id, prior)) as Record<string, unknown> | undefined;
  if ('error' in outcome) throw outcome.error;
  return outcome.observed;
}

async function settleCreate(op: PendingOperation, type: ResourceType, settling: Settling): Promise<void> {
  const { resources, notes, deps } = settling;
  const recordedIds = settling.recordedIds!;
  const noted = notes.length;
  const provider = op.provider;
  const ctx = await resourceContext(deps, type, op.address, { operationToken: op.token, warn: (message) => notes.push(`${op.address}: ${message}`), pass: settling.pass, provider });
  let found: { id: string; outputs: Record<string, unknown> } | undefined;
  if (op.id) {
    const id = realId({ id: op.id, secretId: op.secretId });
    const outputs = await observed(type, ctx, id, undefined, settling, provider);
    if (outputs) found = { id, outputs };
  } else if (type.findOwned) {
    const inputs = op.inputs && (reveal(op.inputs) as never);
    found = (await type.findOwned(ctx, inputs, { earliestMs: Date.parse(op.at) - CLOCK_SKEW_MS, recorded: (id) => recordedIds.has(id) })) as typeof found;
  }
  const current = resources[op.address];
  if (found && !(current && realId(current) === found.id)) {
    const outputs = wrapSecrets(found.outputs, type.secretPaths);
    const status = (type.isReady?.(outputs) ?? true) ? 'ok' : 'tainted';
    // The inputs it was ordered with, when the intent kept them (as a finished create records).
    const inputs = op.inputs ?? inputsOf(type.inputs, outputs);
    if (current && op.replacing === current.id) resources[deposedKey(op.address, current.id)] = { ...current, address: deposedKey(op.address, current.id) };
    const under = provider === undefined ? {} : { provider };
    resources[op.address] = { address: op.address, type: op.type, ...recordedId(type, found.id), inputs, outputs, dependencies: current?.dependencies ?? [], status, ...under };
    recordedIds.add(found.id);
    const replaced = current && op.replacing === current.id ? `, and ${current.id}, which it replaces, is set aside for deletion` : '';
    notes.push(`${op.address}: an interrupted create had ordered ${recordedId(type, found.id).id}; it is adopted${status === 'tainted' ? ' (not ready, so it will be replaced)' : ''}${replaced}`);
  } else if (!found && notes.length === noted) {
    notes.push(
      op.replacing && current?.id === op.replacing
        ? `${op.address}: an interrupted replacement made nothing; ${current.id} is still current`
        : `${op.address}: an interrupted create left nothing behind; it will be created`,
    );
  }
}

async function settleChange(op: PendingOperation, type: ResourceType, settling: Settling): Promise<void> {
  const { resources, notes, deps } = settling;
  const recorded = resources[op.address];
  const target = op.id ? { id: op.id, secretId: op.secretId } : recorded;
  if (!target) return;
  const ctx = await resourceContext(deps, type, op.address, { operationToken: op.token, warn: (message) => notes.push(`${op.address}: ${message}`), pass: settling.pass, provider: op.provider });
  const outputs = await observed(type, ctx, realId(target), recorded && { inputs: reveal(recorded.inputs), outputs: reveal(recorded.outputs) }, settling, op.provider);
  if (outputs === undefined) {
    if (resources[op.address]?.id === target.id) delete resources[op.address];
    notes.push(`${op.address}: an interrupted ${op.action} finished remotely (${target.id} is gone)`);
  } else {
    notes.push(`${op.address}: an interrupted ${op.action} was checked against the remote object ${target.id}`);
  }
}

/**
 * Older versions set a replaced object aside in a `<address>~deposed` slot and cleared the address
 * before ordering the new one. The addresses left that way, with the id set aside at each.
 */
function legacyAsideSlots(resources: Record<string, ResourceState>): Map<string, string> {
  const slots = new Map<string, string>();
  for (const key of Object.keys(resources)) {
    const address = key.endsWith('~deposed') ? key.slice(0, -'~deposed'.length) : undefined;
    if (address && !resources[address]) slots.set(address, resources[key].id);
  }
  return slots;
}

/** Such an interrupted replacement that made nothing leaves the old object current again. */
function restoreLegacyAside(op: PendingOperation, legacy: Map<string, string>, resources: Record<string, ResourceState>, notes: string[]): void {
  const id = legacy.get(op.address);
  const key = id && deposedKey(op.address, id);
  if (!key || resources[op.address] || !resources[key]) return;
  resources[op.address] = { ...resources[key], address: op.address };
  delete resources[key];
  const at = notes.lastIndexOf(`${op.address}: an interrupted create left nothing behind; it will be created`);
  if (at >= 0) notes.splice(at, 1);
  notes.push(`${op.address}: an interrupted replacement made nothing; ${id}, which it was replacing, is current again`);
}

/** The input fields of an adopted object, taken from what the API reports. */
function inputsOf(schema: unknown, outputs: Record<string, unknown>): Record<string, unknown> {
  const shape = (schema as { shape?: Record<string, unknown> }).shape ?? {};
  return Object.fromEntries(
    Object.keys(shape)
      .filter((k) => outputs[k] !== undefined)
      .map((k) => [k, outputs[k]]),
  );
}
