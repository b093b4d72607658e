import { randomUUID } from 'node:crypto';
import { AmbiguousOrder, duration, UserError, WaitTimedOut } from '../../kernel/errors.js';
import type { Created, ResourceType } from '../contracts/resource-type.js';
import type { PendingOperation, ResourceState } from '../contracts/state.js';
import { reveal, secretKeys, wrapSecrets } from '../../kernel/values.js';
import { openRecord } from './open-record.js';
import { awaitObject, readinessOf, statusOf, untilListed, withStatus } from './awaiting.js';
import { deposedKey, isDeposed } from './deposed.js';
import { inputFields } from '../planning/import.js';
import { claimsOf } from '../planning/claims.js';
import { realId, recordedId } from './ids.js';
import type { Records } from './journal.js';
import type { Step, StepRun } from './steps.js';

/** How far a remote API's clock may run behind this machine's, when telling what was made since an order. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Before a step acts on a recorded object still provisioning (or on what uses it), waits until it
 * is listed (a delete needs no more) or ready, and records what it finds. Returns the record as it
 * now stands; undefined when the object turned out gone (never listed, long after its order).
 * An object the API reports failed is recorded tainted and, unless only `listed` is wanted, stops
 * the step: the next plan replaces it. So does one recorded tainted already (an interrupted
 * create's object, adopted failed): a step that needs it ready never reports it done.
 */
export async function settleRecorded(step: Step, run: StepRun, key: string, until: 'listed' | 'ready'): Promise<ResourceState | undefined> {
  const record = run.journal.current[key];
  if (record?.status === 'tainted' && until === 'ready') throw provisioningFailed(record, run.type(record.type).provisioning?.failed?.(openRecord(record).outputs) ?? 'failed');
  if (record?.status !== 'provisioning') return record;
  const type = run.type(record.type);
  const context = () => run.context(step, type, { token: randomUUID(), timeout: 'create', provider: record.provider });
  const seen = await awaitObject(type, record, realId(record), context, run.now, until).catch((err: unknown) => {
    throw err instanceof WaitTimedOut
      ? new Error(`${err.message}; it is still recorded as provisioning, and the next apply waits for it again (customTimeouts.create sets how long)`, { cause: err })
      : err;
  });
  if (!seen) {
    await run.journal.record({ [key]: null });
    if (until === 'listed') return undefined;
    throw new Error(`${record.id} was ordered at ${record.orderedAt} and is still not listed: the order made nothing, and the next apply orders it again`);
  }
  const status = statusOf(seen.readiness);
  const outputs = wrapSecrets(seen.outputs, [...(type.secrets?.paths ?? []), ...secretKeys(record.inputs)]);
  const updated = withStatus({ ...record, outputs }, status);
  await run.journal.record({ [key]: updated });
  if (seen.readiness.state === 'failed' && until === 'ready') throw provisioningFailed(record, seen.readiness.status);
  return updated;
}

/** The error of a step whose object the API reports failed (`status`, in its word). */
function provisioningFailed(record: ResourceState, status: string): Error {
  return new Error(`the API reports ${record.id} ${status}: its provisioning failed, and the next apply replaces it`);
}

/**
 * What state records of the object an interrupted create made, once found: the object at its
 * address, with the inputs and dependencies it was ordered with and as ready as the API says; the
 * object it was replacing, if still current — at its address, or where a move (options.aliases)
 * took it while the create was still looked for — set aside at its address.
 */
export function adoptedRecords(type: ResourceType, op: PendingOperation, found: Created<Record<string, unknown> | undefined>, recorded: Record<string, ResourceState>): Records {
  // Not listed yet (undefined outputs): on its way, as far as anyone can tell.
  const status = found.outputs ? statusOf(readinessOf(type, found.outputs)) : 'provisioning';
  const outputs = wrapSecrets(found.outputs ?? {}, type.secrets?.paths);
  const under = op.provider === undefined ? {} : { provider: op.provider };
  const replaced = replacedBy(op, recorded);
  const records: Records = {
    [op.address]: {
      address: op.address,
      type: op.type,
      ...recordedId(type, found.id),
      // The inputs it was ordered with, when the intent kept them (as a finished create records).
      inputs: op.inputs ?? inputFields(type, outputs),
      outputs,
      dependencies: op.dependencies ?? (replaced?.[1] ?? recorded[op.address])?.dependencies ?? [],
      status,
      ...(status === 'provisioning' ? { orderedAt: op.at } : {}),
      ...under,
    },
  };
  if (!replaced) return records;
  const [key, old] = replaced;
  if (key !== op.address) records[key] = null;
  records[deposedKey(op.address, old.id)] = { ...old, address: deposedKey(op.address, old.id) };
  return records;
}

/** The state key and record of the object an interrupted create-first replacement replaces, if state still records it as current. */
function replacedBy(op: PendingOperation, recorded: Record<string, ResourceState>): [string, ResourceState] | undefined {
  if (op.replacing === undefined) return undefined;
  const here = recorded[op.address];
  if (here?.id === op.replacing) return [op.address, here];
  return Object.entries(recorded).find(([key, r]) => !isDeposed(key) && r.type === op.type && r.id === op.replacing);
}

/**
 * A create planned to look first for what an interrupted create of the address may have ordered
 * (its type lists objects only once provisioned): looks with the type's finder until the object
 * shows up — then adopts it — or until it would have been listed: then nothing was made, and the
 * caller orders. Returns whether it adopted one. A wait that ends before then fails the step, and
 * the interrupted create stays pending for the next run.
 */
export async function awaitInterruptedOrder(step: Step, run: StepRun, type: ResourceType, op: PendingOperation): Promise<boolean> {
  const find = type.findOwned!;
  const context = () => run.context(step, type, { token: op.token, timeout: 'create', provider: op.provider });
  const order = { earliestMs: Date.parse(op.at) - CLOCK_SKEW_MS, recorded: (id: string) => run.journal.records(type.token, id) };
  const ctx = await context();
  const left = untilListed(type, op.at, run.now());
  const listedBy = new Date(Date.parse(op.at) + (type.provisioning?.appearsWithinMs ?? 0)).toISOString();
  const found = await ctx
    .wait<Created<Record<string, unknown>> | undefined>(
      `what the create interrupted at ${op.at} ordered to be listed`,
      async () => {
        const made = (await find(await context(), op.inputs && (reveal(op.inputs) as never), order).catch((err: unknown) => {
          throw err instanceof AmbiguousOrder ? ambiguousOrder(op, err) : err;
        })) as Created<Record<string, unknown>> | undefined;
        if (made) return { done: true, value: made };
        return untilListed(type, op.at, run.now()) > 0 ? { done: false, status: 'not listed yet' } : { done: true, value: undefined };
      },
      // One look more once it would have been listed, if the wait time allows that long.
      { limitMs: Math.min(ctx.waitTimeMs, left + 1) },
    )
    .catch((err: unknown) => {
      if (!(err instanceof WaitTimedOut)) throw err;
      throw new Error(
        `${err.message}; what it may have ordered would be listed by ${listedBy}: the next apply looks for it until then, and orders only if it has not shown up (plumb state rm ${op.address} forgets the interrupted create, to order now)`,
        { cause: err },
      );
    });
  if (!found) {
    await run.journal.forget(op, `nothing an interrupted create ordered was listed ${duration(type.provisioning?.appearsWithinMs ?? 0)} after it`);
    return false;
  }
  await run.journal.resolve(op, adoptedRecords(type, op, found, run.journal.current));
  return true;
}

/** An object deleted in this apply, and what it held: what an object taking that over waits for. */
export interface Holder {
  type: ResourceType;
  record: ResourceState;
  /** The holder moved off it by an update (it stays, so it never reads as gone). */
  moved?: boolean;
}

/**
 * Notes what an object deleted in this apply held — or, given what it holds now, what an update
 * moved it off — for whatever takes it over in this apply (see awaitReleased).
 */
export function noteReleased(run: StepRun, type: ResourceType, record: ResourceState, now?: Record<string, unknown>): void {
  const kept = new Set(now ? claimsOf(type, reveal(now)).map((h) => h.key) : []);
  for (const h of claimsOf(type, openRecord(record).inputs)) if (!kept.has(h.key)) run.released.set(h.key, { type, record, moved: now !== undefined });
}

/**
 * Before an object takes over what an object deleted (or moved off it) in this apply held (a VLAN
 * on a port, a name), waits until the API has let it go: as the claim's own check says, else until
 * the old object reads as gone (or, moved off by an update, at once). Within the operation's wait
 * time; nothing is ordered before.
 */
export async function awaitReleased(step: Step, run: StepRun, type: ResourceType, desired: Record<string, unknown>, provider: string | undefined): Promise<void> {
  for (const h of claimsOf(type, reveal(desired))) {
    const holder = run.released.get(h.key);
    if (!holder) continue;
    const context = () => run.context(step, type, { token: randomUUID(), timeout: 'create', provider });
    const holderContext = () => run.context(step, holder.type, { token: randomUUID(), provider: holder.record.provider });
    const prior = openRecord(holder.record);
    await (
      await context()
    ).wait(`the ${h.key} to be let go by ${holder.record.address} (${holder.record.id})`, async () => {
      const free = await h.claim.released?.(await context(), h.values);
      if (free === true) return { done: true, value: undefined };
      if (free === false) return { done: false, status: `${h.claim.what} still held` };
      if (holder.moved) return { done: true, value: undefined };
      const still = await holder.type.read(await holderContext(), realId(holder.record), prior);
      return still ? { done: false, status: `${holder.record.id} not gone yet` } : { done: true, value: undefined };
    });
    run.released.delete(h.key);
  }
}

/**
 * An interrupted create that may have made any of several objects, as a refusal that stops the
 * run (plan and apply, even with --yes): it names them, and the commands to adopt one or to order
 * anew deliberately.
 */
export function ambiguousOrder(op: PendingOperation, err: AmbiguousOrder): UserError {
  const address = op.address;
  return new UserError(
    `${address}: the create interrupted at ${op.at} ${err.message}; plumb cannot tell which, so it adopts none and orders nothing`,
    `to adopt the one it made: plumb state rm ${address} (forgets the interrupted create), then give ${address} "import: <id>" in its options and apply; ` +
      `to order a new one instead: plumb state rm ${address}, then apply (the others stay billed until deleted)${err.advice ? `. ${err.advice}` : ''}`,
  );
}
