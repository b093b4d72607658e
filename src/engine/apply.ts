import { randomUUID } from 'node:crypto';
import PQueue from 'p-queue';
import type { Manifest } from '../manifest/ast.js';
import type { ResourceType } from '../resources/handler.js';
import type { StateStore } from '../state/store.js';
import type { ResourceState, StateSnapshot } from '../state/types.js';
import { containsUnknown, mask, reveal, secretKeys, wrapSecrets } from '../values.js';
import { resourceContext } from './context.js';
import { realId, recordedId } from './ids.js';
import { effectiveInputs } from './diff/diff.js';
import { onlyRecorded } from './plan.js';
import { EvalError, evaluate } from './evaluate.js';
import { Evaluation } from './scope.js';
import { stepGraph, type Step } from './steps.js';
import type { Change, EngineDeps, EngineEvent, Plan } from './types.js';

/** What happened to one step. */
export interface StepResult {
  address: string;
  action: Step['action'];
  status: 'done' | 'failed' | 'skipped';
  error?: string;
  /** For a skipped step: the address whose failure caused it. */
  cause?: string;
}

/** The report of an apply. */
export interface ApplyReport {
  results: StepResult[];
  outputs: Record<string, unknown>;
  warnings: string[];
  ok: boolean;
}

/** Everything apply needs. */
export interface ApplyInput {
  manifest: Manifest;
  plan: Plan;
  /** Recorded state after the plan's refresh. */
  prior: Record<string, ResourceState>;
  /** Objects read for import at plan time. */
  imported?: Record<string, ResourceState>;
  state: StateSnapshot;
  store: StateStore;
  deps: EngineDeps;
  parallelism: number;
  emit(event: EngineEvent): void;
}

/**
 * Executes a plan. Each step starts as soon as the steps it needs have finished, critical path
 * first; a failure skips only its dependents. Every outcome is journaled the moment the remote
 * call returns; the snapshot is written once at the end.
 */
export async function applyPlan(input: ApplyInput): Promise<ApplyReport> {
  const { manifest, plan, deps, store } = input;
  let emit = input.emit;
  // Entries are replaced, never mutated, so a shallow copy keeps Secret values intact.
  const current: Record<string, ResourceState> = { ...input.prior };
  // What expressions see of a resource: the outputs and id of the last state a step produced for
  // it, else of its prior state (a delete leaves that in place). Built when first referenced:
  // most resources never are, and copying every resource's outputs was a large share of the
  // garbage of a big apply.
  const produced = new Map<string, ResourceState>();
  const values = new Map<string, unknown>();
  const evaluation = new Evaluation(manifest, deps, (address) => {
    const state = produced.get(address) ?? input.prior[address];
    if (!state) return undefined;
    let value = values.get(address);
    if (value === undefined) values.set(address, (value = { ...state.outputs, id: state.id }));
    return value;
  });
  const warnings: string[] = [];
  const changes = new Map(plan.changes.map((c) => [c.address, c]));
  const steps = stepGraph(plan.changes, current);
  const results = new Map<string, StepResult>();
  const queue = new PQueue({ concurrency: Math.max(1, input.parallelism) });

  let outcomes = 0;
  const record = async (address: string, resource: ResourceState | null, token?: string) => {
    await store.record({ kind: 'outcome', address, token, resource, at: new Date().toISOString() });
    outcomes++;
    if (resource) current[address] = resource;
    else delete current[address];
  };

  const emitAndLog = emit;
  emit = (event: EngineEvent) => {
    deps.log.info({ event }, event.type);
    emitAndLog(event);
  };
  const run = async (step: Step): Promise<void> => {
    const change = changes.get(step.address) as Change;
    const type = deps.resourceType(change.type);
    if (!type) throw new Error(`unknown resource type ${change.type}`);
    const started = Date.now();
    emit({ type: 'step-start', address: step.address, action: step.action, at: new Date().toISOString() });
    const hooks = {
      progress: (status: string) => emit({ type: 'step-progress', address: step.address, status, at: new Date().toISOString() }),
      warn: (message: string) => {
        warnings.push(`${step.address}: ${message}`);
        emit({ type: 'warning', message, address: step.address });
      },
    };
    const decl = manifest.resources[step.address];
    const timeouts = decl?.options.customTimeouts;
    let id: string | undefined;
    let createdId: string | undefined;
    if (step.kind === 'delete') {
      const target = step.deposed ? current[`${step.address}~deposed`] : current[step.address];
      if (target) {
        const token = randomUUID();
        await store.record({ kind: 'intent', address: target.address, type: target.type, action: 'delete', token, id: target.id, secretId: target.secretId, at: new Date().toISOString() });
        const retain = change.action === 'delete' && change.retain;
        if (!retain) {
          const ctx = await resourceContext(deps, type, step.address, { ...hooks, operationToken: token, timeoutMs: timeouts?.delete });
          await type.delete(ctx, realId(target), { inputs: reveal(target.inputs), outputs: reveal(target.outputs) });
        }
        await record(target.address, null, token);
        id = target.id;
      }
    } else {
      const desired = await evaluateDesired(step.address, manifest, evaluation, type);
      // Masking copies the inputs: only worth it when the line is logged.
      if (deps.log.isLevelEnabled('debug')) deps.log.debug({ address: step.address, inputs: mask(desired) }, 'desired inputs');
      let prior = current[step.address];
      const token = randomUUID();
      if (change.action === 'import') {
        const found = input.imported?.[step.address];
        if (!found) throw new Error(`${step.address}: nothing was read for import`);
        await record(step.address, { ...found, dependencies: change.dependsOn, protect: decl?.options.protect || undefined, retainOnDelete: decl?.options.retainOnDelete || undefined });
        prior = current[step.address];
        id = found.id;
      }
      if ((change.action === 'update' || (change.action === 'import' && change.patch.length > 0)) && prior) {
        const effective = effectiveInputs(prior.inputs, desired, { computed: type.computedInputs, ignore: decl?.options.ignoreChanges });
        await store.record({ kind: 'intent', address: step.address, type: type.token, action: 'update', token, id: prior.id, secretId: prior.secretId, at: new Date().toISOString() });
        const ctx = await resourceContext(deps, type, step.address, { ...hooks, operationToken: token, timeoutMs: timeouts?.update });
        // A change of order-only fields (promoCode) is recorded without a call.
        const outputs = onlyRecorded(type, change.patch)
          ? { ...prior.outputs, ...effective }
          : await type.update(ctx, realId(prior), { inputs: reveal(prior.inputs), outputs: reveal(prior.outputs) }, reveal(effective));
        await record(step.address, resourceState(type, step.address, realId(prior), effective, outputs, change, decl?.options), token);
        id = prior.id;
      } else if (change.action !== 'import') {
        if (prior && change.replaceOrder === 'create-first') {
          // Keep the old object recorded under a deposed address until it is deleted.
          await record(`${step.address}~deposed`, { ...prior, address: `${step.address}~deposed` });
          await record(step.address, null);
        }
        await store.record({ kind: 'intent', address: step.address, type: type.token, action: 'create', token, inputs: desired, at: new Date().toISOString() });
        const ctx = await resourceContext(deps, type, step.address, {
          ...hooks,
          operationToken: token,
          timeoutMs: timeouts?.create,
          recordId: (newId) => {
            createdId = newId;
            id = recordedId(type, newId).id;
            void store.record({ kind: 'id', address: step.address, token, ...recordedId(type, newId), at: new Date().toISOString() });
          },
        });
        try {
          const created = await type.create(ctx, reveal(desired));
          id = recordedId(type, created.id).id;
          await record(step.address, resourceState(type, step.address, created.id, desired, created.outputs, change, decl?.options), token);
        } catch (err) {
          // The order went through but did not finish: keep the object, marked for replacement.
          if (createdId) await record(step.address, { ...resourceState(type, step.address, createdId, desired, {}, change, decl?.options), status: 'tainted' }, token);
          else {
            await store.record({ kind: 'failed', address: step.address, token, at: new Date().toISOString() });
            // Nothing was made, so the object it was to replace stays current (its delete waits on
            // this create and will not run): the next plan starts from what is really there.
            if (prior && change.replaceOrder === 'create-first') {
              await record(step.address, prior);
              await record(`${step.address}~deposed`, null);
            }
          }
          throw err;
        }
      }
      produced.set(step.address, current[step.address]);
      values.delete(step.address);
    }
    emit({ type: 'step-done', address: step.address, action: step.action, id, at: new Date().toISOString(), elapsedMs: Date.now() - started });
  };

  await new Promise<void>((resolve) => {
    const waiting = new Map(steps.map((s) => [s.key, s.needs.length]));
    const byKey = new Map(steps.map((s) => [s.key, s]));
    let open = steps.length;
    if (open === 0) resolve();
    const finish = (step: Step, result: StepResult) => {
      results.set(step.key, result);
      open--;
      for (const next of step.dependents) {
        const target = byKey.get(next) as Step;
        if (results.has(next)) continue;
        if (result.status !== 'done') {
          const cause = result.cause ?? step.address;
          emit({ type: 'step-skipped', address: target.address, action: target.action, cause, at: new Date().toISOString() });
          finish(target, { address: target.address, action: target.action, status: 'skipped', cause });
          continue;
        }
        const left = (waiting.get(next) ?? 1) - 1;
        waiting.set(next, left);
        if (left === 0) start(target);
      }
      if (open === 0) resolve();
    };
    const start = (step: Step) => {
      void queue.add(
        async () => {
          try {
            await run(step);
            finish(step, { address: step.address, action: step.action, status: 'done' });
          } catch (err) {
            const message = err instanceof EvalError ? `${manifest.file}:${err.pos.line}:${err.pos.column}: ${err.message}` : (err as Error).message;
            emit({ type: 'step-failed', address: step.address, action: step.action, error: message, at: new Date().toISOString() });
            finish(step, { address: step.address, action: step.action, status: 'failed', error: message });
          }
        },
        { priority: step.priority },
      );
    };
    for (const step of steps) if (step.needs.length === 0) start(step);
  });

  const outputs: Record<string, unknown> = {};
  for (const [name, expr] of Object.entries(manifest.outputs)) {
    try {
      outputs[name] = mask(await evaluate(expr, evaluation.scope()));
    } catch (err) {
      warnings.push(`output ${name}: ${(err as Error).message}`);
    }
  }
  // Dependencies are recorded as the manifest says now, for the delete order of later runs.
  for (const change of plan.changes) {
    const recorded = current[change.address];
    if (recorded && change.action !== 'delete' && recorded.dependencies.join() !== change.dependsOn.join()) {
      current[change.address] = { ...recorded, dependencies: change.dependsOn };
    }
  }
  // Each journaled outcome already moved the serial (a plan made meanwhile is stale); the
  // snapshot continues from there.
  await store.write({ ...input.state, serial: input.state.serial + outcomes, resources: current, outputs: plan.mode === 'destroy' ? {} : outputs, pending: [] });
  const ordered = steps.map((s) => results.get(s.key) as StepResult);
  return { results: ordered, outputs, warnings: [...plan.warnings, ...warnings, ...evaluation.warnings], ok: ordered.every((r) => r.status === 'done') };
}

async function evaluateDesired(address: string, manifest: Manifest, evaluation: Evaluation, type: ResourceType): Promise<Record<string, unknown>> {
  const decl = manifest.resources[address];
  const desired = wrapSecrets((await evaluate(decl.properties, evaluation.scope())) as Record<string, unknown>, type.secretPaths);
  if (containsUnknown(desired)) throw new Error(`${address}: some inputs are still unknown at apply time`);
  return desired;
}

function resourceState(
  type: ResourceType,
  address: string,
  id: string,
  inputs: Record<string, unknown>,
  outputs: Record<string, unknown>,
  change: Change,
  options?: { protect: boolean; retainOnDelete: boolean },
): ResourceState {
  return {
    address,
    type: type.token,
    ...recordedId(type, id),
    inputs,
    outputs: wrapSecrets(outputs, [...(type.secretPaths ?? []), ...secretKeys(inputs)]),
    dependencies: change.dependsOn,
    status: 'ok',
    protect: options?.protect || undefined,
    retainOnDelete: options?.retainOnDelete || undefined,
  };
}
