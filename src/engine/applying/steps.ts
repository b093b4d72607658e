import type { ResourceContext, ResourceType } from '../contracts/resource-type.js';
import type { ResourceState } from '../contracts/state.js';
import { reveal, secretKeys, wrapSecrets } from '../../kernel/values.js';
import { openRecord } from './open-record.js';
import { baseAddress, deposedKey, isDeposed } from './deposed.js';
import { effectiveInputs } from '../planning/diff/diff.js';
import type { WalkNode } from '../graph/walk.js';
import { realId, recordedId } from './ids.js';
import { outcomeUnknown, type Journal, type Records } from './journal.js';
import { awaitInterruptedOrder, awaitReleased, noteReleased, settleRecorded, type Holder } from './steps-awaiting.js';
import { WaitTimedOut } from '../../kernel/errors.js';
import type { Change, StepAction } from '../types.js';

/** What a step needs from the apply it runs in. */
export interface StepRun {
  journal: Journal;
  /** Objects read at plan time for `options.import`. */
  imported: Record<string, ResourceState>;
  type(token: string): ResourceType;
  /** The inputs the manifest wants for an address now, every reference resolved. */
  desired(address: string, type: ResourceType): Promise<Record<string, unknown>>;
  /** The handler context for one operation of a step. */
  context(step: Step, type: ResourceType, operation: { token: string; timeout?: 'create' | 'update' | 'delete'; recordId?(id: string): void; provider?: string }): Promise<ResourceContext>;
  /** The options the manifest gives an address (absent for one it no longer declares). */
  options(address: string): StepOptions;
  /** The `replacementTrigger` value the manifest gives an address now; undefined without the option. */
  trigger(address: string): Promise<unknown>;
  /** Epoch milliseconds now, by the engine's clock. */
  now(): number;
  /** What objects deleted in this apply held, by claim key (see ReplaceRules.holds). */
  released: Map<string, Holder>;
}

/** The options a step reads from the manifest. */
export interface StepOptions {
  protect?: boolean;
  retainOnDelete?: boolean;
  ignoreChanges?: string[];
  additionalSecretOutputs?: string[];
  deletedWith?: { root: string };
  /** The provider resource the manifest puts it under; absent for the default. */
  provider?: string;
}

/**
 * One unit of an apply: a create, an update, an import, a delete, or one half of a replacement.
 * `apply` does it — journaling every remote call through `run.journal` — and returns the id of the
 * object it acted on, for the report.
 */
export abstract class Step implements WalkNode {
  readonly key: string;
  readonly needs: string[] = [];
  priority = 0;

  constructor(
    readonly change: Change,
    readonly action: StepAction,
  ) {
    this.key = `${action.startsWith('delete') ? 'D' : 'C'}:${change.address}`;
  }

  /** The manifest address this step serves (a deposed object's is the address it was set aside from). */
  get address(): string {
    return baseAddress(this.change.address);
  }

  abstract apply(run: StepRun): Promise<string | undefined>;
}

/** Creates an object: a new resource, or the new half of a replacement (before or after the old one goes). */
export class CreateStep extends Step {
  async apply(run: StepRun): Promise<string> {
    const { address, change } = this;
    const type = run.type(change.type);
    // What an interrupted create ordered may still show up: it is looked for before anything is ordered.
    const interrupted = change.awaits === 'order' ? run.journal.unresolved.find((op) => op.address === address && op.action === 'create') : undefined;
    if (interrupted && (await awaitInterruptedOrder(this, run, type, interrupted))) {
      return (await settleRecorded(this, run, address, 'ready'))!.id;
    }
    const desired = await run.desired(address, type);
    const trigger = await run.trigger(address);
    await awaitReleased(this, run, type, desired, run.options(address).provider);
    // A create-first replacement keeps the old object current until the new one is recorded; both
    // are then recorded in one journal entry, so no crash can leave one id at two keys.
    const old = change.action === 'replace' && change.replaceOrder === 'create-first' ? run.journal.current[address] : undefined;
    const orderedAt = new Date(run.now()).toISOString();
    const made = (id: string, outputs: Record<string, unknown>, status: ResourceState['status']): Records => {
      const state = resourceState(type, address, id, desired, outputs, change, run.options(address), trigger);
      const records: Records = { [address]: { ...state, status, ...(status === 'provisioning' ? { orderedAt } : {}) } };
      if (old && realId(old) !== id) records[deposedKey(address, old.id)] = { ...old, address: deposedKey(address, old.id) };
      return records;
    };
    let ordered: string | undefined;
    const created = await run.journal
      .journaled(
        { address, type: type.token, action: 'create', inputs: desired, dependencies: change.dependsOn, replacing: old?.id, ...under(run.options(address).provider) },
        async (token) => {
          const recordId = (id: string) => {
            ordered = id;
            run.journal.recordId(token, address, recordedId(type, id));
          };
          return type.create(await run.context(this, type, { token, timeout: 'create', recordId, provider: run.options(address).provider }), reveal(desired));
        },
        {
          done: (result) => made(result.id, result.outputs as Record<string, unknown>, 'ok'),
          // An order that went through is never forgotten: one whose wait ran out is still on its
          // way (the next apply waits for it); one that failed otherwise is kept tainted, for
          // replacement. One whose fate is unknown (no answer, or none readable) is settled by the
          // next plan, with the id it was given if any, never bought again.
          failed: (err) => {
            if (outcomeUnknown(err)) return 'unknown';
            return ordered ? { records: made(ordered, {}, err instanceof WaitTimedOut ? 'provisioning' : 'tainted') } : 'nothing';
          },
        },
      )
      .catch((err: unknown) => {
        throw err instanceof WaitTimedOut && ordered ? new Error(`${err.message}; ${ordered} is recorded as still provisioning, and the next apply waits for it`, { cause: err }) : err;
      });
    return recordedId(type, created.id).id;
  }
}

/**
 * Waits for a recorded object still provisioning (an order a timed-out or interrupted apply left)
 * to be ready, or for what an interrupted create may have ordered to show up (adopted when it
 * does; the object it would have replaced is then set aside, for the next plan to delete).
 */
export class WaitStep extends Step {
  async apply(run: StepRun): Promise<string | undefined> {
    const interrupted = this.change.awaits === 'order' ? run.journal.unresolved.find((op) => op.address === this.address && op.action === 'create') : undefined;
    if (interrupted) await awaitInterruptedOrder(this, run, run.type(this.change.type), interrupted);
    return (await settleRecorded(this, run, this.address, 'ready'))?.id;
  }
}

/** Changes an object in place (or only records the change, for fields sent only with an order). */
export class UpdateStep extends Step {
  async apply(run: StepRun): Promise<string> {
    return updateInPlace(this, run);
  }
}

/** Records an object read for `options.import`, then changes what differs from the manifest. */
export class ImportStep extends Step {
  async apply(run: StepRun): Promise<string> {
    const { address, change } = this;
    const found = run.imported[address];
    if (!found) throw new Error(`${address}: nothing was read for import`);
    const { protect, retainOnDelete, deletedWith } = run.options(address);
    const replacementTrigger = await run.trigger(address);
    await run.journal.record({
      [address]: { ...found, dependencies: change.dependsOn, protect: protect || undefined, retainOnDelete: retainOnDelete || undefined, deletedWith: deletedWith?.root, replacementTrigger },
    });
    if (change.patch.length) await updateInPlace(this, run);
    return found.id;
  }
}

/**
 * Deletes one recorded object: a resource that left the manifest, the old half of a replacement,
 * or an object set aside earlier. Every delete is a real call on that object's own id.
 */
export class DeleteStep extends Step {
  /** The state key of the object this step deletes. */
  get target(): string {
    const c = this.change;
    if (this.action !== 'delete-old' || !c.id) return c.address;
    return c.replaceOrder === 'create-first' ? deposedKey(c.address, c.id) : c.address;
  }

  async apply(run: StepRun): Promise<string | undefined> {
    const key = this.target;
    // An object still on its way is deleted once it is listed: one an API does not list yet
    // cannot be deleted, and would be left billed.
    const target = await settleRecorded(this, run, key, 'listed');
    // The new half reused the old object's id (nothing was set aside): there is nothing to delete.
    if (!target) return undefined;
    if (this.action === 'delete-old' && target.id !== this.change.id) {
      throw new Error(`${key} now records ${target.id}, not ${this.change.id} which the plan would delete; run plumb plan again`);
    }
    // An id that is current somewhere is live: a duplicate record of it is dropped, never deleted.
    if (isDeposed(key) && Object.entries(run.journal.current).some(([k, r]) => !isDeposed(k) && r.id === target.id)) {
      await run.journal.record({ [key]: null });
      return target.id;
    }
    const type = run.type(target.type);
    // retainOnDelete only forgets the object; deletedWith forgets it once what deletes it is gone
    // (step-graph.ts orders this step after that delete).
    const retain = this.change.action === 'delete' && (this.change.retain || this.change.deletedWith !== undefined);
    await run.journal.journaled(
      { address: key, type: target.type, action: 'delete', id: target.id, secretId: target.secretId, ...under(target.provider) },
      async (token) => {
        if (retain) return;
        // The object is deleted where it was made: through the provider resource it is recorded under.
        const ctx = await run.context(this, type, { token, timeout: 'delete', provider: target.provider });
        await type.delete(ctx, realId(target), openRecord(target));
        noteReleased(run, type, target);
      },
      // A delete whose wait for the object to go ran out was sent: the next plan reads what it did.
      { done: () => ({ [key]: null }), failed: (err) => (outcomeUnknown(err) || err instanceof WaitTimedOut ? 'unknown' : 'nothing') },
    );
    return target.id;
  }
}

async function updateInPlace(step: Step, run: StepRun): Promise<string> {
  const { address, change } = step;
  const type = run.type(change.type);
  const prior = await settleRecorded(step, run, address, 'ready');
  if (!prior) throw new Error(`${address}: nothing is recorded to update`);
  const desired = await run.desired(address, type);
  const trigger = await run.trigger(address);
  const effective = effectiveInputs(prior.inputs, desired, { computed: type.diff?.computedInputs, ignore: run.options(address).ignoreChanges });
  await awaitReleased(step, run, type, effective, prior.provider);
  // An imported object stays one: an update sends what changed, so inputs the API never
  // reports and the manifest never gave are as unknown as they were.
  const made = (outputs: Record<string, unknown>): Records => ({
    [address]: { ...resourceState(type, address, realId(prior), effective, outputs, change, run.options(address), trigger), ...(prior.imported ? { imported: true } : {}) },
  });
  if (change.recordOnly) {
    await run.journal.record(made({ ...prior.outputs, ...effective }));
    return prior.id;
  }
  await run.journal.journaled(
    { address, type: type.token, action: 'update', id: prior.id, secretId: prior.secretId, dependencies: change.dependsOn, ...under(prior.provider) },
    async (token) => {
      const ctx = await run.context(step, type, { token, timeout: 'update', provider: prior.provider });
      return type.update(ctx, realId(prior), openRecord(prior), reveal(effective));
    },
    // An update whose wait ran out was sent: the next plan reads what it did, and sends it again only if it differs.
    { done: (outputs) => made(outputs as Record<string, unknown>), failed: (err) => (outcomeUnknown(err) || err instanceof WaitTimedOut ? 'unknown' : 'nothing') },
  );
  noteReleased(run, type, prior, effective);
  return prior.id;
}

/** The record of an object as an apply leaves it. */
function resourceState(
  type: ResourceType,
  address: string,
  id: string,
  inputs: Record<string, unknown>,
  outputs: Record<string, unknown>,
  change: Change,
  options: StepOptions,
  replacementTrigger: unknown,
): ResourceState {
  return {
    address,
    type: type.token,
    ...recordedId(type, id),
    inputs,
    outputs: wrapSecrets(outputs, [...(type.secrets?.paths ?? []), ...secretKeys(inputs), ...(options.additionalSecretOutputs ?? [])]),
    dependencies: change.dependsOn,
    status: 'ok',
    protect: options.protect || undefined,
    retainOnDelete: options.retainOnDelete || undefined,
    deletedWith: options.deletedWith?.root,
    replacementTrigger,
    ...under(options.provider),
  };
}

/** `{ provider }` for a provider resource, nothing for the default: records of the default provider stay as they were. */
function under(provider: string | undefined): { provider?: string } {
  return provider === undefined ? {} : { provider };
}
