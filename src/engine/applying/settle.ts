import { AmbiguousOrder, UserError } from '../../kernel/errors.js';
import type { Created, ResourceContext, ResourceType } from '../contracts/resource-type.js';
import type { PendingOperation, ResourceState, StateSnapshot } from '../contracts/state.js';
import { reveal } from '../../kernel/values.js';
import { openRecord } from './open-record.js';
import { ReadPass, resourceContext } from './context.js';
import { readObjects, type ReadOutcome, type ReadRequest } from '../planning/refresh.js';
import { isDeposed, normalizeDeposed } from './deposed.js';
import { realId, recordedKey } from './ids.js';
import { mayStillAppear } from './awaiting.js';
import { adoptedRecords, ambiguousOrder, CLOCK_SKEW_MS } from './steps-awaiting.js';
import type { Journal, Records } from './journal.js';
import type { EngineDeps } from '../types.js';
import { systemClock } from './wait.js';

/** The state after settling, and a line per settled operation for the plan. */
export interface Settled {
  resources: Record<string, ResourceState>;
  notes: string[];
  /** Interrupted creates that may still show up (their type lists objects only once provisioned): pending, looked for by apply before it orders. */
  waiting: PendingOperation[];
  /** Every other interrupted operation, as settled: apply journals these before anything else (see recordSettled). */
  resolved: Resolved[];
}

/** An interrupted operation as settled: the records it leaves, by state key (null: none there any more), or why it left nothing. */
export interface Resolved {
  op: PendingOperation;
  records: Records;
  why: string;
}

/**
 * Settles what an apply left unfinished: operations between intent and outcome (a crash, or a call
 * whose answer was lost), and records a crash could leave doubled (see normalizeDeposed).
 *
 * A pending create is looked up remotely — by the id recorded once the order was accepted, else
 * by the ownership tags carrying its operation token or by the inputs it was ordered with (see
 * findOwned) — and adopted if found (still provisioning if not ready, tainted if the API says it
 * failed); a replacement's old object is then set aside in the same step. Found nothing: the
 * create never happened, and the object it would have replaced is still current — unless the
 * type lists new objects only once provisioned and the order is recent enough to be on its way:
 * an id the API gave is then recorded, still provisioning, and an order without one waits in
 * `waiting`. A pending delete or update is read again: gone means gone.
 * A read that fails fails the plan, naming the resource: nothing is assumed. Every object the
 * operations name by id is read first, each type in bulk where it can (see readObjects).
 */
export async function settlePending(state: StateSnapshot, deps: EngineDeps, pass = new ReadPass()): Promise<Settled> {
  const { resources, notes } = normalizeDeposed(state.resources);
  if (!state.pending.length) return { resources, notes, waiting: [], resolved: [] };
  const settling: Settling = { resources, notes, deps, pass, waiting: [], touched: new Set(), read: await readPending(state.pending, resources, deps, pass, notes) };
  const resolved: Resolved[] = [];
  for (const op of state.pending) {
    settling.touched.clear();
    const noted = notes.length;
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
        settling.recordedIds ??= new Set(Object.values(resources).map((r) => recordedKey(r.type, realId(r))));
        await settleCreate(op, type, settling);
      } else {
        await settleChange(op, type, settling);
      }
    } catch (err) {
      if (err instanceof AmbiguousOrder) throw ambiguousOrder(op, err);
      if (err instanceof UserError) throw err;
      throw new UserError(`${op.address}: could not settle an interrupted ${op.action}: ${(err as Error).message}`, 'nothing was changed; run the command again once the remote API answers');
    }
    if (!settling.waiting.includes(op)) resolved.push(resolution(op, settling.touched, resources, notes.slice(noted)));
  }
  return { resources, notes, waiting: settling.waiting, resolved };
}

/**
 * What settling one operation changed: the records at the keys it set or cleared; none changed,
 * the record at its address as it stands (its outcome is what is recorded), else nothing.
 */
function resolution(op: PendingOperation, touched: Set<string>, after: Record<string, ResourceState>, notes: string[]): Resolved {
  const records: Records = {};
  for (const key of touched) records[key] = after[key] ?? null;
  if (!touched.size && after[op.address]) records[op.address] = after[op.address];
  return { op, records, why: notes.join('; ') || `an interrupted ${op.action} was settled` };
}

/**
 * Journals what settling concluded, before apply does anything else: an apply killed later has
 * recorded outcomes built on it (a record moved by its alias, an object replaced), and settling
 * the same operation again against them would record one object twice, or lose one.
 */
export async function recordSettled(resolved: Resolved[], journal: Journal): Promise<void> {
  for (const { op, records, why } of resolved) await journal.settled(op, records, why);
}

/** What settling works on: the state as settled so far, the notes for the plan, and the objects read up front. */
interface Settling {
  resources: Record<string, ResourceState>;
  notes: string[];
  deps: EngineDeps;
  pass: ReadPass;
  /** What each object a pending operation names was found to be, by type and id. */
  read: Map<string, ReadOutcome>;
  /** The objects state records, by type and id (recordedKey). */
  recordedIds?: Set<string>;
  waiting: PendingOperation[];
  /** The state keys settling the current operation set or cleared. */
  touched: Set<string>;
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
    const prior = op.action !== 'create' && recorded ? openRecord(recorded) : undefined;
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
  const noted = notes.length;
  const provider = op.provider;
  const ctx = await resourceContext(deps, type, op.address, { operationToken: op.token, warn: (message) => notes.push(`${op.address}: ${message}`), pass: settling.pass, provider });
  const onItsWay = mayStillAppear(type, op.at, (deps.clock ?? systemClock).now());
  let found: Created<Record<string, unknown> | undefined> | undefined;
  if (op.id) {
    const id = realId({ id: op.id, secretId: op.secretId });
    const outputs = await observed(type, ctx, id, undefined, settling, provider);
    // An id the API gave is never dropped while the object may still be on its way.
    if (outputs || onItsWay) found = { id, outputs };
  } else if (type.findOwned) {
    const recordedIds = settling.recordedIds!;
    found = (await type.findOwned(ctx, op.inputs && (reveal(op.inputs) as never), {
      earliestMs: Date.parse(op.at) - CLOCK_SKEW_MS,
      recorded: (id) => recordedIds.has(recordedKey(type.token, id)),
    })) as typeof found;
    if (!found && onItsWay) {
      settling.waiting.push(op);
      notes.push(`${op.address}: a create interrupted at ${op.at} may have ordered an object that is not listed yet (it is listed once provisioned): apply looks for it before ordering anything`);
      return;
    }
  }
  const current = resources[op.address];
  if (found && !(current && realId(current) === found.id)) {
    const records = adoptedRecords(type, op, found, resources);
    for (const [key, record] of Object.entries(records)) {
      if (record) resources[key] = record;
      else delete resources[key];
      settling.touched.add(key);
    }
    settling.recordedIds?.add(recordedKey(type.token, found.id));
    notes.push(adoptionNote(op, records, found.outputs));
  } else if (!found && notes.length === noted) {
    notes.push(
      op.replacing && current?.id === op.replacing
        ? `${op.address}: an interrupted replacement made nothing; ${current.id} is still current`
        : `${op.address}: an interrupted create left nothing behind; it will be created`,
    );
  }
}

/** What settling says of an object an interrupted create made (and of the one it replaces, set aside). */
function adoptionNote(op: PendingOperation, records: Records, outputs: Record<string, unknown> | undefined): string {
  const record = records[op.address]!;
  const how = !outputs
    ? ', and it is not listed yet (it is listed once provisioned): apply waits for it, and orders nothing more'
    : record.status === 'provisioning'
      ? '; it is adopted, still provisioning: apply waits for it'
      : record.status === 'tainted'
        ? '; it is adopted, and the API reports it failed: it will be replaced'
        : '; it is adopted';
  const aside = Object.entries(records).find(([key, r]) => isDeposed(key) && r)?.[1];
  const replaced = aside ? `, and ${aside.id}, which it replaces, is set aside for deletion` : '';
  return `${op.address}: an interrupted create had ordered ${record.id}${how}${replaced}`;
}

async function settleChange(op: PendingOperation, type: ResourceType, settling: Settling): Promise<void> {
  const { resources, notes, deps } = settling;
  const recorded = resources[op.address];
  const target = op.id ? { id: op.id, secretId: op.secretId } : recorded;
  if (!target) return;
  const ctx = await resourceContext(deps, type, op.address, { operationToken: op.token, warn: (message) => notes.push(`${op.address}: ${message}`), pass: settling.pass, provider: op.provider });
  const outputs = await observed(type, ctx, realId(target), recorded && openRecord(recorded), settling, op.provider);
  if (outputs === undefined) {
    if (resources[op.address]?.id === target.id) {
      delete resources[op.address];
      settling.touched.add(op.address);
    }
    notes.push(`${op.address}: an interrupted ${op.action} finished remotely (${target.id} is gone)`);
  } else {
    notes.push(`${op.address}: an interrupted ${op.action} was checked against the remote object ${target.id}`);
    mayDependOn(op, settling);
  }
}

/**
 * An interrupted update may have made its object use what it was updated to use, or not: until
 * an update succeeds, the record depends on both (what it may use is deleted only after it).
 */
function mayDependOn(op: PendingOperation, { resources, touched }: Settling): void {
  const record = resources[op.address];
  const added = (op.dependencies ?? []).filter((d) => !record?.dependencies.includes(d));
  if (op.action !== 'update' || !record || record.id !== op.id || !added.length) return;
  resources[op.address] = { ...record, dependencies: [...record.dependencies, ...added] };
  touched.add(op.address);
}
