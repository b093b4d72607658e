import type { Manifest } from '../../manifest/ast.js';
import type { ResourceType } from '../contracts/resource-type.js';
import type { StateStore } from '../contracts/state.js';
import type { PendingOperation, ResourceState, StateSnapshot } from '../contracts/state.js';
import { systemClock } from './wait.js';
import { containsUnknown, mask, wrapSecrets } from '../../kernel/values.js';
import { recordMoves } from '../planning/aliases.js';
import { ReadPass, resourceContext } from './context.js';
import { checkInputs } from '../checking/check-inputs.js';
import { sealDeclared } from '../evaluation/declared-secrets.js';
import { EvalError, evaluate } from '../evaluation/evaluate.js';
import { walk } from '../graph/walk.js';
import { Journal } from './journal.js';
import { Evaluation } from '../evaluation/scope.js';
import { recordSettled, type Resolved } from './settle.js';
import { stepGraph } from './step-graph.js';
import type { Step, StepRun } from './steps.js';
import type { EngineDeps, EngineEvent, Plan, StepAction } from '../types.js';

/** What happened to one step. */
export interface StepResult {
  address: string;
  action: StepAction;
  status: 'done' | 'failed' | 'skipped';
  error?: string;
  /** For a skipped step: the address whose failure caused it, or why the apply stopped. */
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
  /** Objects read with `get:` at plan time: what references to them evaluate to. */
  read?: Record<string, ResourceState>;
  /** Interrupted creates whose objects may still show up (see PlanResult.waiting). */
  waiting?: PendingOperation[];
  /** The other interrupted operations, as the plan settled them (see PlanResult.resolved): journaled first. */
  resolved?: Resolved[];
  state: StateSnapshot;
  store: StateStore;
  deps: EngineDeps;
  parallelism: number;
  emit(event: EngineEvent): void;
}

/**
 * Executes a plan: its steps (steps.ts), ordered by step-graph.ts, walked with each one started
 * as soon as the steps it needs are done, critical path first; a failure skips only its
 * dependents. Every step journals its calls as they happen (journal.ts); the snapshot is written
 * once at the end, keeping any operation whose outcome is unknown pending for the next plan.
 */
export async function applyPlan(input: ApplyInput): Promise<ApplyReport> {
  const { manifest, plan, deps } = input;
  const said = warnedOnce(plan.warnings);
  const emit = (event: EngineEvent) => {
    if (event.type === 'warning' && !said(event.address ? `${event.address}: ${event.message}` : event.message)) return;
    deps.log.info({ event }, event.type);
    input.emit(event);
  };
  const clock = deps.clock ?? systemClock;
  const journal = new Journal(input.store, { ...input.prior }, input.waiting ?? [], () => clock.now());
  const warnings: string[] = [];
  const evaluation = new Evaluation(manifest, deps, (address) => {
    const state = journal.current[address] ?? input.prior[address] ?? input.read?.[address];
    return state && { ...state.outputs, id: state.id };
  });
  const run = stepRun(input, journal, evaluation, emit, warnings);
  await recordSettled(input.resolved ?? [], journal);
  await recordMoves(plan.changes, journal);
  const steps = stepGraph(plan.changes, journal.current);
  const now = () => new Date().toISOString();
  const results = await walk(
    steps,
    async (step, halt) => {
      const started = Date.now();
      emit({ type: 'step-start', address: step.change.address, action: step.action, at: now() });
      try {
        const id = await step.apply(run);
        emit({ type: 'step-done', address: step.change.address, action: step.action, id, at: now(), elapsedMs: Date.now() - started });
      } catch (err) {
        if (journal.failure) halt(journal.failure.message);
        emit({ type: 'step-failed', address: step.change.address, action: step.action, error: errorText(err, manifest, step.change.address, journal.failure), at: now() });
        throw err;
      }
    },
    { concurrency: input.parallelism, skipped: (step, cause) => emit({ type: 'step-skipped', address: step.change.address, action: step.action, cause: causeOf(cause), at: now() }) },
  );
  const report = steps.map((step): StepResult => {
    const result = results.get(step.key);
    const base = { address: step.change.address, action: step.action };
    if (result?.status === 'failed') return { ...base, status: 'failed', error: errorText(result.error, manifest, step.change.address, journal.failure) };
    if (result?.status === 'done') return { ...base, status: 'done' };
    return { ...base, status: 'skipped', cause: causeOf(result?.cause ?? 'it never ran') };
  });
  // After a destroy the manifest's outputs name objects that are gone: there are none. State
  // keeps secret outputs sealed, for stacks that reference this one; the report masks them.
  const outputs = plan.mode === 'destroy' ? {} : await evaluateOutputs(manifest, evaluation, warnings);
  await writeSnapshot(input, journal, outputs);
  // What a lookup said only now (one that waited for a resource the plan had not made yet).
  for (const message of evaluation.warnings) emit({ type: 'warning', message });
  const all = [...new Set([...plan.warnings, ...warnings, ...evaluation.warnings])];
  return { results: report, outputs: mask(outputs) as Record<string, unknown>, warnings: all, ok: report.every((r) => r.status === 'done') };
}

/**
 * Whether a warning is still to be said: once per command, whether the plan shown before the
 * apply said it (the same lookup is called again by the apply's evaluation) or a step did.
 */
function warnedOnce(planned: string[]): (warning: string) => boolean {
  const said = new Set(planned);
  return (warning) => {
    if (said.has(warning)) return false;
    said.add(warning);
    return true;
  };
}

/** The runtime steps share: types, desired inputs, handler contexts and manifest options. */
function stepRun(input: ApplyInput, journal: Journal, evaluation: Evaluation, emit: (e: EngineEvent) => void, warnings: string[]): StepRun {
  const { manifest, deps } = input;
  // What the types' secrets.pathsFor read remotely, read once per apply.
  const pass = new ReadPass();
  return {
    journal,
    imported: input.imported ?? {},
    type(token) {
      const type = deps.resourceType(token);
      if (!type) throw new Error(`unknown resource type ${token}`);
      return type;
    },
    desired: (address, type) => evaluateDesired(address, manifest, evaluation, type, deps, pass),
    options: (address) => {
      const decl = manifest.resources[address];
      return decl ? { ...decl.options, provider: decl.provider } : {};
    },
    now: () => (deps.clock ?? systemClock).now(),
    released: new Map(),
    trigger: async (address) => {
      const expr = manifest.resources[address]?.options.replacementTrigger;
      return expr && evaluate(expr, evaluation.scope());
    },
    context(step: Step, type: ResourceType, operation) {
      const address = step.change.address;
      const at = () => new Date().toISOString();
      return resourceContext(deps, type, step.address, {
        operationToken: operation.token,
        timeoutMs: operation.timeout && manifest.resources[step.address]?.options.customTimeouts?.[operation.timeout],
        recordId: operation.recordId,
        isRecorded: (id) => journal.records(type.token, id),
        provider: operation.provider,
        progress: (status) => emit({ type: 'step-progress', address, status, at: at() }),
        warn: (message) => {
          warnings.push(`${address}: ${message}`);
          emit({ type: 'warning', message, address });
        },
      });
    },
  };
}

async function evaluateDesired(address: string, manifest: Manifest, evaluation: Evaluation, type: ResourceType, deps: EngineDeps, pass: ReadPass): Promise<Record<string, unknown>> {
  const decl = manifest.resources[address];
  const extra = decl.options.additionalSecretOutputs;
  const secretPaths = extra?.length ? [...(type.secrets?.paths ?? []), ...extra] : type.secrets?.paths;
  const desired = wrapSecrets((await evaluate(decl.properties, evaluation.scope())) as Record<string, unknown>, secretPaths);
  if (containsUnknown(desired)) throw new Error(`${address}: some inputs are still unknown at apply time`);
  // What the plan could not check, values known only now (another resource's outputs), is checked
  // before any call: a handler sends only the fields it knows, so an unknown key would not reach
  // the API, and the object would differ from the manifest ever after.
  const problems = checkInputs(type.inputs, desired, decl.properties, { file: manifest.file, address, what: type.token, secretPaths });
  if (problems.length) throw new EvalError(problems[0].pos ?? decl.pos, problems.map((p) => `${p.summary}${p.detail ? ` (${p.detail})` : ''}`).join('; '));
  return sealDeclared(type, address, desired, desired, deps, pass, decl.provider);
}

async function evaluateOutputs(manifest: Manifest, evaluation: Evaluation, warnings: string[]): Promise<Record<string, unknown>> {
  const outputs: Record<string, unknown> = {};
  for (const [name, expr] of Object.entries(manifest.outputs)) {
    try {
      outputs[name] = await evaluate(expr, evaluation.scope());
    } catch (err) {
      warnings.push(`output ${name}: ${(err as Error).message}`);
    }
  }
  return outputs;
}

/**
 * The snapshot at the end of an apply: what the journal recorded, and the operations whose outcome
 * is unknown. Dependencies are what was applied (for the delete order of later runs): each step
 * records its own; an object nothing changed takes the manifest's once all of them are recorded.
 */
async function writeSnapshot(input: ApplyInput, journal: Journal, outputs: Record<string, unknown>): Promise<void> {
  const resources = journal.current;
  for (const change of input.plan.changes) {
    const recorded = resources[change.address];
    if (!recorded || change.action !== 'noop' || recorded.dependencies.join() === change.dependsOn.join()) continue;
    if (change.dependsOn.every((d) => resources[d])) resources[change.address] = { ...recorded, dependencies: change.dependsOn };
  }
  // Each journaled outcome already moved the serial (a plan made meanwhile is stale); the
  // snapshot continues from there.
  await input.store.write({
    ...input.state,
    serial: input.state.serial + journal.outcomes,
    resources,
    outputs,
    pending: journal.unresolved,
  });
}

/**
 * A step's error, at its position in the manifest: the expression's, or the declaring resource's
 * (an API's refusal). A state that could not be written is no resource's doing: said as it is.
 */
function errorText(err: unknown, manifest: Manifest, address: string, stateFailure: Error | undefined): string {
  if (err === stateFailure) return (err as Error).message;
  if (err instanceof EvalError) return `${manifest.file}:${err.pos.line}:${err.pos.column}: ${err.message}`;
  const decl = manifest.resources[address];
  return decl ? `${manifest.file}:${decl.pos.line}:${decl.pos.column}: ${(err as Error).message}` : (err as Error).message;
}

/** A walk cause is a step key (`C:port`) or the reason the walk halted. */
function causeOf(cause: string): string {
  return /^[CD]:/.test(cause) ? cause.slice(2) : cause;
}
