import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { DiagnosticsError } from '../diagnostics.js';
import { applyPlan, type ApplyReport } from '../engine/apply.js';
import { makePlan, type PlanOptions, type PlanResult } from '../engine/plan.js';
import type { EngineEvent, Plan } from '../engine/types.js';
import { UserError } from '../errors.js';
import type { StateSnapshot } from '../state/types.js';
import { mask, sameValue } from '../values.js';
import { OutputBatch, ProgressView } from './progress.js';
import { renderReport } from './render-apply.js';
import { paint, writePlan, type Paint } from './render-plan.js';
import { lockInfo, manifestPath, openSession, type GlobalOptions, type Session } from './session.js';

/** Flags of plan, apply and destroy. */
export interface RunOptions extends GlobalOptions {
  refresh: boolean;
  out?: string;
  json?: boolean;
  compact?: boolean;
  yes?: boolean;
  parallelism: number;
  replace: string[];
  target: string[];
  exclude: string[];
  detailedExitcode?: boolean;
  lockTimeout?: number;
}

/** `plumb plan`: exit 0 (or 2 with --detailed-exitcode when there are changes). */
export async function planCommand(arg: string | undefined, opts: RunOptions, destroy = false): Promise<number> {
  // The plan checks every resource's inputs itself (see Session.checkBeforePlan).
  const session = await openSession(manifestPath(arg, opts), opts, { resources: false });
  try {
    // Taken as apply takes it: while an apply runs, its operations in flight are its own to settle.
    await session.store.lock(lockInfo('plan'), opts.lockTimeout);
    const state = await session.store.read();
    await session.checkBeforePlan(state, opts.refresh, destroy);
    const { plan, diagnostics } = await makePlan(session.manifest, session.graph, state, session.deps, {
      refresh: opts.refresh,
      destroy,
      replace: opts.replace,
      targets: opts.target,
      excludes: opts.exclude,
    });
    if (diagnostics.length) throw new DiagnosticsError(diagnostics);
    if (opts.out) writeFileSync(opts.out, JSON.stringify(plan, null, 2), { mode: 0o600 });
    if (opts.json) process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
    else writePlan(plan, paint(useColor(opts)), { compact: opts.compact }, (text) => process.stdout.write(text));
    if (opts.out && !opts.json) process.stdout.write(`\nSaved the plan to ${opts.out}. Run \`plumb apply ${opts.out}\` to apply exactly these actions.\n`);
    const changes = plan.changes.some((c) => c.action !== 'noop');
    return opts.detailedExitcode && changes ? 2 : 0;
  } finally {
    await session.close();
  }
}

/** `plumb apply` / `plumb destroy`: plan (or load a saved plan), confirm, execute. */
export async function applyCommand(arg: string | undefined, opts: RunOptions, destroy = false): Promise<number> {
  const saved = arg ? readSavedPlan(arg) : undefined;
  const file = saved ? saved.manifest.file : manifestPath(arg, opts);
  const session = await openSession(file, opts, { resources: false });
  const p = paint(useColor(opts));
  try {
    if (saved) assertSavedFits(saved, arg!, session.manifest.hash, opts.stack);
    await session.store.lock(lockInfo(destroy ? 'destroy' : 'apply'), opts.lockTimeout);
    const state = await session.store.read();
    if (saved) assertNotStale(saved, state);
    await session.checkBeforePlan(state, saved ? false : opts.refresh, saved ? saved.mode === 'destroy' : destroy);
    const planned = await planToApply(session, state, saved ? { saved } : { opts, destroy });
    const { plan } = planned;
    if (saved) assertSame(saved, plan);
    if (!opts.json) writePlan(plan, p, { compact: opts.compact }, (text) => process.stdout.write(text));
    if (nothingToRecord(planned, state)) return 0;
    if (!saved && plan.changes.some((c) => c.action !== 'noop') && !(await confirm(opts))) {
      process.stdout.write('Apply cancelled.\n');
      return 1;
    }
    const report = await execute(session, state, planned, opts, p);
    if (opts.json) process.stdout.write(`${JSON.stringify({ type: 'report', ...report })}\n`);
    else process.stdout.write(`${renderReport(report, p)}\n`);
    return report.ok ? 0 : 1;
  } finally {
    await session.close();
  }
}

/** A saved plan is applied only to the manifest text and stack it was made from. */
function assertSavedFits(saved: Plan, arg: string, manifestHash: string, stack: string): void {
  if (saved.manifest.hash !== manifestHash) throw new UserError(`the manifest ${saved.manifest.file} changed since the plan was saved; run plumb plan again`);
  if (saved.stack !== stack) {
    throw new UserError(`${arg} is a plan for stack "${saved.stack}", not "${stack}"`, `apply it with --stack ${saved.stack}, or make a plan for this stack`);
  }
}

/** A saved plan is applied only to the state it was made against (Terraform's "Saved plan is stale"). */
function assertNotStale(saved: Plan, state: StateSnapshot): void {
  const otherLineage = Boolean(saved.state.lineage) && saved.state.lineage !== state.lineage;
  if (!otherLineage && saved.state.serial === state.serial) return;
  throw new UserError(
    `Saved plan is stale: it was made against state serial ${saved.state.serial}${otherLineage ? ' of another lineage' : ''}, and the state is now at serial ${state.serial}`,
    'run plumb plan again to make a new plan',
  );
}

/** Plans again for apply: with a saved plan's request and no refresh, or with the flags given. */
async function planToApply(session: Session, state: StateSnapshot, from: { saved: Plan } | { opts: RunOptions; destroy: boolean }): Promise<PlanResult> {
  const options: PlanOptions =
    'saved' in from
      ? { refresh: false, destroy: from.saved.mode === 'destroy', replace: from.saved.request.replace, targets: from.saved.request.targets, excludes: from.saved.request.excludes }
      : { refresh: from.opts.refresh, destroy: from.destroy, replace: from.opts.replace, targets: from.opts.target, excludes: from.opts.exclude };
  const planned = await makePlan(session.manifest, session.graph, state, session.deps, options);
  if (planned.diagnostics.length) throw new DiagnosticsError(planned.diagnostics);
  return planned;
}

/**
 * Nothing to do and nothing new to record (outputs, refreshed values, settled operations): the
 * state, and its serial, are left untouched.
 */
function nothingToRecord({ plan, prior }: PlanResult, state: StateSnapshot): boolean {
  const unchanged = (a: unknown, b: unknown) => sameValue(a, b) || JSON.stringify(mask(a)) === JSON.stringify(mask(b));
  return plan.changes.every((c) => c.action === 'noop') && !plan.settled.length && unchanged(state.resources, prior) && unchanged(state.outputs, plan.outputs);
}

/** Runs the plan, showing its events as a live view, timestamped lines or JSON lines. */
async function execute(session: Session, state: StateSnapshot, planned: PlanResult, opts: RunOptions, p: Paint): Promise<ApplyReport> {
  const { plan, prior, imported } = planned;
  // Events arrive several per step; their text is written in batches (see OutputBatch).
  const output = new OutputBatch((text) => process.stdout.write(text));
  const view = opts.json
    ? undefined
    : new ProgressView({
        write: (text) => output.write(text),
        paint: p,
        live: Boolean(process.stdout.isTTY),
        total: plan.changes.filter((c) => c.action !== 'noop').reduce((n, c) => n + (c.action === 'replace' ? 2 : 1), 0),
        stillEveryMs: Number(process.env.PLUMB_PROGRESS_INTERVAL_MS) || undefined,
      });
  const emit = (event: EngineEvent) => {
    if (opts.json) output.write(`${JSON.stringify(event)}\n`);
    else view?.handle(event);
  };
  return applyPlan({ manifest: session.manifest, plan, prior, imported, state, store: session.store, deps: session.deps, parallelism: opts.parallelism, emit }).finally(() => {
    view?.finish();
    output.close();
  });
}

async function confirm(opts: RunOptions): Promise<boolean> {
  if (opts.yes) return true;
  if (!process.stdin.isTTY) throw new UserError('refusing to change infrastructure without confirmation', 'pass --yes to apply without a prompt');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question("\nDo you want to perform these actions? Only 'yes' will be accepted: ");
    return answer.trim() === 'yes';
  } finally {
    rl.close();
  }
}

function readSavedPlan(arg: string): Plan | undefined {
  if (!/\.json$/i.test(arg)) return undefined;
  if (!existsSync(arg)) throw new UserError(`plan file ${arg} not found`, 'make one with plumb plan --out FILE');
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(arg, 'utf8'));
  } catch {
    throw new UserError(`${arg} is not a readable plan file`, 'make one with plumb plan --out FILE');
  }
  const plan = parsed as Plan;
  const wellFormed =
    plan?.formatVersion === 1 &&
    typeof plan.manifest?.file === 'string' &&
    typeof plan.stack === 'string' &&
    Array.isArray(plan.changes) &&
    (plan.mode === 'normal' || plan.mode === 'destroy') &&
    typeof plan.state?.serial === 'number' &&
    ['targets', 'excludes', 'replace'].every((k) => Array.isArray((plan.request as Record<string, unknown> | undefined)?.[k]));
  if (!wellFormed) throw new UserError(`${arg} is not a plumb plan (formatVersion 1)`, 'make one with plumb plan --out FILE');
  if (!existsSync(plan.manifest.file)) throw new UserError(`${arg} was made from ${plan.manifest.file}, which is not found`, 'run plumb apply where that manifest is, or make a new plan');
  return plan;
}

/** A saved plan is applied only if planning again now yields exactly the same actions. */
function assertSame(saved: Plan, now: Plan): void {
  const key = (p: Plan) => JSON.stringify(p.changes.map((c) => [c.address, c.action, c.after ?? null]));
  if (key(saved) !== key(now)) throw new UserError('the saved plan no longer matches what plumb would do now (a lookup or the remote API changed); run plumb plan again');
}

/** Whether to colour output. */
export function useColor(opts: GlobalOptions): boolean {
  return opts.color !== false && Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
}
