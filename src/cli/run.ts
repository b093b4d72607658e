import { existsSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { DiagnosticsError, formatDiagnostic } from '../kernel/diagnostics.js';
import { applyPlan, type ApplyReport } from '../engine/applying/apply.js';
import { makePlan, type PlanOptions, type PlanResult } from '../engine/planning/plan.js';
import type { EngineEvent, Plan } from '../engine/types.js';
import { UserError } from '../kernel/errors.js';
import type { StateSnapshot } from '../engine/contracts/state.js';
import { Secret, mask, sameValue } from '../kernel/values.js';
import { OutputBatch, ProgressView, statusChanges } from './progress.js';
import { planHtml } from './html/render-html.js';
import { rateRoom, type RateRoom } from './rate-room.js';
import { renderReport, roomText } from './render-apply.js';
import { planMarkdown } from './render-markdown.js';
import { planCost, planCostText, type PlanCost } from './plan-cost.js';
import { stackCost } from './cost.js';
import { budgetOf, budgetStop, budgetText, checkBudget, type BudgetCheck } from './budget.js';
import { changesSomething, paint, writePlan, type Paint } from './render-plan.js';
import { sandboxField } from './sandbox-line.js';
import { configGiven } from './config-given.js';
import { assertConfigGivenAgain, configFlagsFor, configGivenLine, readPlanFile, type SavedPlan } from './saved-plan.js';
import { lockInfo, manifestPath, openSession, type GlobalOptions, type Session } from './session.js';

/** Flags of plan, apply and destroy. */
export interface RunOptions extends GlobalOptions {
  refresh: boolean;
  out?: string;
  json?: boolean;
  compact?: boolean;
  /** List every value known only after apply (they are counted otherwise). */
  verbose?: boolean;
  yes?: boolean;
  parallelism: number;
  replace: string[];
  target: string[];
  exclude: string[];
  detailedExitcode?: boolean;
  lockTimeout?: number;
  /** plan: `text` (default), `json` or `markdown` (a pull-request comment). */
  format?: string;
  /** plan: also write the plan as a self-contained HTML page to this file. */
  html?: string;
  /** false with `--no-cost`: no price call, no cost shown. */
  cost?: boolean;
  /** `--max-monthly-increase`: stop before any order when the changes raise the monthly cost more (wins over `plumb:maxMonthlyIncrease`). */
  maxMonthlyIncrease?: number;
}

/** `plumb plan`: exit 0 (or 2 with --detailed-exitcode when there are changes). */
export async function planCommand(arg: string | undefined, opts: RunOptions, destroy = false): Promise<number> {
  const format = opts.json ? 'json' : (opts.format ?? 'text');
  if (!['text', 'json', 'markdown'].includes(format)) throw new UserError(`--format ${format}: expected text, json or markdown`);
  const session = await openSession(manifestPath(arg, opts), opts, true);
  try {
    const budget = budgetOf(opts.maxMonthlyIncrease, session.own, session.manifest, opts.cost);
    // Taken as apply takes it: while an apply runs, its operations in flight are its own to settle.
    await session.store.lock(lockInfo('plan'), opts.lockTimeout);
    const state = await session.store.read();
    await session.checkBeforePlan(state, destroy);
    const notice = format === 'text' ? 'none' : 'document';
    const room = opts.refresh ? await sayRateRoom(session, Object.values(state.resources), opts, notice) : [];
    const notices = planningNotices(session, opts, notice);
    const planned = await makePlan(session.manifest, session.graph, state, session.deps, {
      refresh: opts.refresh,
      destroy,
      replace: opts.replace,
      targets: opts.target,
      excludes: opts.exclude,
    })
      .then(async (result) => ({ result, cost: result.diagnostics.length ? undefined : await costOf(result, session, opts, Boolean(opts.html)) }))
      .finally(notices);
    const { plan, diagnostics } = planned.result;
    if (diagnostics.length) throw new DiagnosticsError(diagnostics);
    const given = configGiven(session.manifest);
    const document: SavedPlan = { ...plan, ...(given.length ? { configGiven: given } : {}), ...(planned.cost ? { cost: planned.cost } : {}) };
    const check = budget && checkBudget(planned.cost, budget);
    // A plan over its budget is shown, and no file is written of it: neither a plan to apply nor a page to approve.
    if (check && !check.ok) return overBudget(document, check, opts, format, session);
    if (opts.out) writeFileSync(opts.out, JSON.stringify(document, null, 2), { mode: 0o600 });
    await showPlan(document, check, opts, format, session, room);
    // What is said of the files written goes where it does not mix with a document on stdout.
    const say = (text: string) => (format === 'text' ? process.stdout : process.stderr).write(text);
    if (opts.html) {
      writeFileSync(opts.html, planHtml(document));
      say(`\nWrote the plan as a page for review to ${opts.html}.\n`);
    }
    if (opts.out && format !== 'json') say(`\nSaved the plan to ${opts.out}. Run \`plumb apply ${opts.out}\` to apply exactly these actions.\n`);
    const changes = plan.changes.some(changesSomething);
    return opts.detailedExitcode && changes ? 2 : 0;
  } finally {
    await session.close();
  }
}

/** Shows a plan in its format: a document for --json, with its budget check; the text with its cost and budget line. */
async function showPlan(document: SavedPlan, check: BudgetCheck | undefined, opts: RunOptions, format: string, session: Session, room: RateRoom[] = []): Promise<void> {
  if (format === 'json') {
    const { formatVersion, ...rest } = document;
    const shown = { formatVersion, ...sandboxField(session.sandboxServed()), ...(room.length ? { rateRoom: room } : {}), ...rest, ...(check ? { budget: check } : {}) };
    process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
  } else if (format === 'markdown') process.stdout.write(planMarkdown(document, opts.verbose));
  else {
    await writePlan(document, paint(useColor(opts)), { compact: opts.compact, verbose: opts.verbose }, printed);
    if (document.cost) process.stdout.write(planCostText(document.cost, paint(useColor(opts)), opts.verbose));
    if (check?.ok) process.stdout.write(budgetText(check));
  }
}

/**
 * A plan over its budget (or with a change it cannot price): shown as it would be, then the error,
 * exit 1. A --json document says so in its budget (ok: false), the error going to stderr.
 */
async function overBudget(document: SavedPlan, check: BudgetCheck, opts: RunOptions, format: string, session: Session): Promise<number> {
  await showPlan(document, check, opts, format, session);
  const stop = budgetStop(check, opts.stack);
  if (format !== 'json') throw stop;
  process.stderr.write(`${stop.diagnostics.map(formatDiagnostic).join('\n')}\n`);
  return 1;
}

/** `plumb apply` / `plumb destroy`: plan (or load a saved plan), confirm, execute. */
export async function applyCommand(arg: string | undefined, opts: RunOptions, destroy = false): Promise<number> {
  const saved = arg ? readSavedPlan(arg) : undefined;
  const file = saved ? saved.manifest.file : manifestPath(arg, opts);
  if (saved) opts = { ...opts, config: configFlagsFor(saved, opts.config ?? []) };
  const session = await openSession(file, opts, true);
  const p = paint(useColor(opts));
  try {
    const budget = budgetOf(opts.maxMonthlyIncrease, session.own, session.manifest, opts.cost);
    if (saved) assertSavedFits(saved, arg!, session.manifest.hash, opts.stack);
    if (saved) assertConfigGivenAgain(saved, configGiven(session.manifest), arg!);
    // The stream's first line says the built-in sandbox serves it, as stderr does.
    const { sandbox } = sandboxField(session.sandboxServed());
    if (opts.json && sandbox) process.stdout.write(`${JSON.stringify({ type: 'sandbox', ...sandbox })}\n`);
    await session.store.lock(lockInfo(destroy ? 'destroy' : 'apply'), opts.lockTimeout);
    const state = await session.store.read();
    if (saved) assertNotStale(saved, state);
    await session.checkBeforePlan(state, saved ? saved.mode === 'destroy' : destroy);
    // A saved plan is applied without a refresh.
    if (!saved && opts.refresh) await sayRateRoom(session, Object.values(state.resources), opts, opts.json ? 'lines' : 'none');
    const notices = planningNotices(session, opts, opts.json ? 'lines' : 'none');
    const planned = await planToApply(session, state, saved ? { saved } : { opts, destroy })
      .then(async (result) => ({ ...result, cost: await costOf(result, session, opts) }))
      .finally(notices);
    const { plan, cost } = planned;
    if (saved) assertSame(saved, plan);
    const quiet = nothingToRecord(planned, state);
    if (saved && !opts.json) process.stdout.write(configGivenLine(saved));
    // The outputs are printed once: by the report, or here when nothing is applied.
    if (!opts.json) await writePlan(plan, p, { compact: opts.compact, verbose: opts.verbose, outputs: quiet }, printed);
    if (quiet) return 0;
    const check = budget && checkBudget(cost, budget);
    showCost(cost, check, opts, p);
    if (check && !check.ok) throw budgetStop(check, opts.stack);
    if (!saved && plan.changes.some(changesSomething) && !(await confirm(opts, plan))) {
      process.stdout.write(`${plan.mode === 'destroy' ? 'Destroy' : 'Apply'} cancelled.\n`);
      return 1;
    }
    const report = await execute(session, state, planned, opts, p);
    if (opts.json) process.stdout.write(`${JSON.stringify({ type: 'report', ...report })}\n`);
    else process.stdout.write(`${renderReport(report, p, plan)}\n`);
    return report.ok ? 0 : 1;
  } finally {
    await session.close();
  }
}

/** What apply shows of the cost before it confirms: the text, or a `cost` and a `budget` line before the first change event. */
function showCost(cost: PlanCost | undefined, check: BudgetCheck | undefined, opts: RunOptions, p: Paint): void {
  if (opts.json) {
    if (cost) process.stdout.write(`${JSON.stringify({ type: 'cost', ...cost })}\n`);
    if (check) process.stdout.write(`${JSON.stringify({ type: 'budget', ...check })}\n`);
    return;
  }
  if (cost) process.stdout.write(planCostText(cost, p, opts.verbose));
  if (check?.ok) process.stdout.write(budgetText(check));
}

/**
 * What the plan's changes cost, unless `--no-cost` says to ask nothing; undefined when nothing is
 * priced. With `current` (the review page) also what the stack costs now, from state, in the plan's pass.
 */
async function costOf(planned: PlanResult, session: Session, opts: RunOptions, current = false): Promise<PlanCost | undefined> {
  if (opts.cost === false) return undefined;
  const [cost, now] = await Promise.all([planCost(planned, session.deps), current ? stackCost(Object.values(planned.prior), session.deps, planned.pass) : undefined]);
  if (now) return { ...cost, current: now };
  return cost.resources.length ? cost : undefined;
}

/**
 * Writes to stdout, resolving once it can take more: a pipe read more slowly than plumb writes (a
 * CI log) would otherwise hold the whole text of a long plan in memory while the apply runs. A
 * reader that went away ends the wait.
 */
function printed(text: string): Promise<void> | undefined {
  const out = process.stdout;
  if (out.write(text) || out.destroyed) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      for (const event of ['drain', 'close', 'error']) out.off(event, done);
      resolve();
    };
    for (const event of ['drain', 'close', 'error']) out.on(event, done);
  });
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
  return !plan.changes.some(changesSomething) && !plan.settled.length && unchanged(state.resources, prior) && unchanged(state.outputs, plan.outputs) && !maskedOutput(state.outputs);
}

/**
 * Whether state holds an output as the text `[secret]`, as plumb recorded secret outputs before it
 * kept them sealed: the plan shows a secret so too, so applying records the value itself.
 */
function maskedOutput(value: unknown): boolean {
  if (value === '[secret]') return true;
  return Boolean(value) && typeof value === 'object' && !(value instanceof Secret) && Object.values(value as object).some(maskedOutput);
}

/** Runs the plan, showing its events as a live view, timestamped lines or JSON lines. */
async function execute(session: Session, state: StateSnapshot, planned: PlanResult, opts: RunOptions, p: Paint): Promise<ApplyReport> {
  const { plan, prior, imported, read, waiting, resolved } = planned;
  // Events arrive several per step; their text is written in batches (see OutputBatch).
  const output = new OutputBatch((text) => process.stdout.write(text));
  const view = opts.json
    ? undefined
    : new ProgressView({
        write: (text) => output.write(text),
        paint: p,
        live: Boolean(process.stdout.isTTY),
        rows: () => process.stdout.rows,
        total: plan.changes.filter((c) => c.action !== 'read' && (c.action !== 'noop' || c.awaits)).reduce((n, c) => n + (c.action === 'replace' ? 2 : 1), 0),
        stillEveryMs: Number(process.env.PLUMB_PROGRESS_INTERVAL_MS) || undefined,
      });
  // A provisioning status is polled often: the stream carries a step's status only when it changes.
  const changed = statusChanges();
  const emit = (event: EngineEvent) => {
    if (!changed(event)) return;
    if (opts.json) output.write(`${JSON.stringify(event)}\n`);
    else view?.handle(event);
  };
  session.deps.notify = emit;
  output.lastWords = () => (view ? view.interrupted() : undefined);
  return applyPlan({ manifest: session.manifest, plan, prior, imported, read, waiting, resolved, state, store: session.store, deps: session.deps, parallelism: opts.parallelism, emit }).finally(() => {
    session.deps.notify = undefined;
    view?.finish();
    output.close();
  });
}

/**
 * Shows what happens while planning (the refresh starting, a call sent again) where the plan is
 * shown: lines before it, as Terraform's "Refreshing state..."; JSON lines for `apply --json`,
 * whose output is a stream of events; lines on stderr for `plan --json`, whose output is one
 * document. Returns what ends it.
 */
export function planningNotices(session: Session, opts: GlobalOptions, json: 'none' | 'lines' | 'document'): () => void {
  const out = json === 'document' ? process.stderr : process.stdout;
  const view = json === 'lines' ? undefined : new ProgressView({ write: (text) => out.write(text), paint: paint(useColor(opts)), live: false, total: 0, timestamps: !out.isTTY, timer: false });
  session.deps.notify = (event) => (view ? view.handle(event) : process.stdout.write(`${JSON.stringify(event)}\n`));
  return () => {
    view?.finish();
    session.deps.notify = undefined;
  };
}

/**
 * Before a refresh of `records`: says, where planning notices go (see planningNotices), each
 * provider window with less room than the refresh may need, and how long it may wait; a `rate-room`
 * line in an event stream. Returns them, for a document.
 */
export async function sayRateRoom(session: Session, records: Iterable<{ type: string; provider?: string }>, opts: GlobalOptions, json: 'none' | 'lines' | 'document'): Promise<RateRoom[]> {
  const rooms = await rateRoom(records, session.deps);
  const p = paint(useColor(opts));
  for (const room of rooms) {
    if (json === 'lines') process.stdout.write(`${JSON.stringify({ type: 'rate-room', ...room })}\n`);
    else (json === 'document' ? process.stderr : process.stdout).write(`${p.yellow(roomText(room))}\n`);
  }
  return rooms;
}

async function confirm(opts: RunOptions, plan: Plan): Promise<boolean> {
  if (opts.yes) return true;
  if (!process.stdin.isTTY) throw new UserError('refusing to change infrastructure without confirmation', 'pass --yes to apply without a prompt');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question(confirmQuestion(plan));
    return answer.trim() === 'yes';
  } finally {
    rl.close();
  }
}

/** Terraform's questions: destroying everything is asked as such. */
export function confirmQuestion(plan: Plan): string {
  const partial = plan.request.targets.length > 0 || plan.request.excludes.length > 0;
  if (plan.mode === 'destroy') {
    const what = partial ? 'the resources shown above' : `every resource of stack "${plan.stack}", as shown above`;
    return `\nDo you really want to destroy ${partial ? 'these' : 'all'} resources?\n  plumb will destroy ${what}.\n  There is no undo. Only 'yes' will be accepted to confirm.\n\n  Enter a value: `;
  }
  return "\nDo you want to perform these actions?\n  plumb will perform the actions described above.\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ";
}

function readSavedPlan(arg: string): SavedPlan | undefined {
  if (!/\.json$/i.test(arg)) return undefined;
  const plan = readPlanFile(arg);
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
