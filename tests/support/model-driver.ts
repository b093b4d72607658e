/**
 * Runs a schedule of the model: each manifest version applied by a few processes, killed and
 * faulted at random, then (always after the last version, mostly after the others) a convergence:
 * processes without faults until a plan shows no changes, and the world checked against state.
 * Some schedules end with a destroy, run the same way. Everything that happens is told in an
 * account, which a failing seed prints with its schedule.
 */
import { checkConverged, checkProcess, showsNoChanges } from './model-check.js';
import { ModelStore, runProcess, type ProcessResult, type ProcessSpec } from './model-process.js';
import { identitiesOf, manifestOf, Schedule, type Version } from './model-schedule.js';
import { MODEL_TYPES, tokenOf } from './model-types.js';
import { prng, World, type Prng } from './model-world.js';

/** Refusals the engine makes before any call, as its contracts say, of a version it cannot get to. */
const REFUSALS = [/cannot be replaced by creating first/, /would take over the .* that .* holds, and .* cannot go first/, /wait on each other/];

/** Most processes a convergence may take. */
const CONVERGE_WITHIN = 8;

/** What a schedule's run found, and counts of what it did. */
export interface ModelRun {
  failures: string[];
  account: string[];
  schedule: string;
  counts: Record<string, number>;
}

/** Runs the schedule of a seed. */
export async function runSchedule(seed: number): Promise<ModelRun> {
  const schedule = new Schedule(seed);
  const run = new Run(seed);
  // The last version the engine did not refuse: the next is made from it, and the stack goes back to it after a refusal.
  let accepted: Version = { decls: [], edits: [] };
  for (let i = 0; i < schedule.length; i++) {
    const version = schedule.next(accepted);
    run.say(`=== version ${i}: ${version.edits.join('; ')}`);
    const applied = await run.faulty(version, false);
    if (applied === 'planned' && i < schedule.length - 1 && run.random.chance(0.3)) {
      accepted = version;
      continue;
    }
    let converged = applied === 'refused' ? 'refused' : await run.converge(version, false);
    if (converged === 'converged') accepted = version;
    else if (converged === 'refused') {
      accepted = schedule.back(accepted, version);
      run.say(`=== version ${schedule.versions.length - 1}: ${accepted.edits.join('; ')}`);
      converged = await run.converge(accepted, false);
    }
    // What the stack became since (an object tainted) may need what the pins forbid: the engine says to unpin.
    if (converged === 'refused' && accepted.decls.some((d) => d.deleteBeforeReplace === false)) {
      accepted = schedule.unpinned(accepted);
      run.say(`=== version ${schedule.versions.length - 1}: ${accepted.edits.join('; ')}`);
      converged = await run.converge(accepted, false);
    }
    if (converged === 'refused') run.fail('the engine refuses the version it applied last, too');
    if (converged !== 'converged') break;
  }
  if (schedule.destroy && !run.failures.length) {
    run.say('=== destroy');
    await run.faulty(accepted, true);
    await run.converge(accepted, true);
  }
  return { failures: run.failures, account: run.account, schedule: schedule.describe(), counts: run.counts };
}

/** The state of one schedule's run: its world, store, randomness and account. */
class Run {
  readonly random: Prng;
  readonly world: World;
  readonly store = new ModelStore();
  readonly failures: string[] = [];
  readonly account: string[] = [];
  readonly counts: Record<string, number> = {
    processes: 0,
    'killed at a journal point': 0,
    'killed before a call took effect': 0,
    'killed after a call took effect': 0,
    faults: 0,
    'versions refused': 0,
    'unfindable orders': 0,
    convergences: 0,
    calls: 0,
  };
  private index = 0;
  /** The calls and journal points of the last process that planned and applied: kill points are drawn up to a little beyond. */
  private last = { calls: 30, points: 15 };

  constructor(seed: number) {
    this.random = prng(seed ^ 0x5bd1e995);
    this.world = new World(prng(seed * 31 + 7));
  }

  say(line: string): void {
    this.account.push(line);
  }

  /** Applies a version (or destroys) with a few processes, killed and faulted at random: whether the engine refused it, planned it, or never got that far. */
  async faulty(version: Version, destroy: boolean): Promise<'refused' | 'planned' | 'unknown'> {
    let planned = false;
    for (let p = this.random.int(1, 4); p > 0; p--) {
      const result = await this.process(version, this.spec(destroy));
      if (refusal(result)) {
        this.counts['versions refused']++;
        this.say(`  refused before any call: ${result.diagnostics.map((d) => d.summary).join('; ')}`);
        return 'refused';
      }
      planned ||= result.plan !== undefined && !result.diagnostics.length;
    }
    return planned ? 'planned' : 'unknown';
  }

  /** Processes without faults until a plan shows no changes; then the world must equal state. A version the engine refuses is said so. */
  async converge(version: Version, destroy: boolean): Promise<'converged' | 'refused' | 'failed'> {
    this.counts.convergences++;
    for (let i = 0; i < CONVERGE_WITHIN; i++) {
      this.world.clock.advance(5 * 60_000);
      const result = await this.process(version, { faultRate: 0, destroy });
      if (refusal(result) && !destroy) {
        this.counts['versions refused']++;
        this.say('  refused before any call: going back');
        return 'refused';
      }
      if (result.error || result.diagnostics.length) {
        this.fail(`a process without faults failed: ${result.error?.message ?? result.diagnostics.map((d) => d.summary).join('; ')}`);
        return 'failed';
      }
      if (!showsNoChanges(result)) continue;
      const wrong = await checkConverged(this.world, this.store, version, destroy);
      for (const w of wrong) this.fail(`after converging: ${w}`);
      return wrong.length ? 'failed' : 'converged';
    }
    this.fail(`no plan showed no changes after ${CONVERGE_WITHIN} processes without faults`);
    return 'failed';
  }

  private spec(destroy: boolean): ProcessSpec {
    const spec: ProcessSpec = { faultRate: this.random.pick([0, 0.03, 0.1]), destroy };
    if (this.random.chance(0.1)) spec.planOnly = true;
    if (this.random.chance(0.6)) {
      spec.kill = this.random.chance(0.5) ? { at: 'journal', k: this.random.int(1, this.last.points + 1) } : { at: 'call', k: this.random.int(1, this.last.calls + 1), after: this.random.chance(0.5) };
    }
    return spec;
  }

  private async process(version: Version, spec: ProcessSpec): Promise<ProcessResult> {
    const identities = identitiesOf(version);
    const index = ++this.index;
    const result = await runProcess(this.world, this.store, manifestOf(version), identities, spec, index, this.random);
    this.counts.processes++;
    const kill = result.killed ? spec.kill : undefined;
    if (kill) this.counts[kill.at === 'journal' ? 'killed at a journal point' : `killed ${kill.after ? 'after' : 'before'} a call took effect`]++;
    this.counts.calls += result.calls;
    this.counts.faults += result.faults.length;
    if (result.report && !result.killed) this.last = { calls: result.calls, points: result.points };
    this.say(`  process ${index}${describeSpec(spec)}: ${outcome(result)}`);
    for (const f of result.faults) this.say(`    fault: ${f}`);
    if (process.env.PLUMB_MODEL_CALLS) for (const c of this.world.calls.filter((x) => x.process === index)) this.say(`    call ${c.n}: ${c.verb} ${c.kind} ${c.address} ${c.id ?? ''} → ${c.effect}`);
    for (const w of checkProcess(result, this.world, identities)) this.fail(`process ${index}: ${w}`);
    this.forgetUnfindable(index);
    this.world.clock.advance(this.random.int(0, 3 * 60_000));
    return result;
  }

  /**
   * An order of a type that cannot find what an interrupted create ordered (no findOwned), whose id
   * never reached the journal, is an object no state can know of: the type's limit, not the
   * engine's. The model counts it and takes it out of the world, as its owner would.
   */
  private forgetUnfindable(index: number): void {
    const journaled = new Set(this.store.history.flatMap((e) => (e.kind === 'id' ? [e.id] : e.kind === 'outcome' ? [e.resource?.id, ...(e.also ?? []).map((a) => a.resource?.id)] : [])));
    for (const o of [...this.world.objects.values()]) {
      if (o.process !== index || journaled.has(o.id) || MODEL_TYPES.get(tokenOf(o.kind))!.findOwned) continue;
      this.world.objects.delete(o.id);
      this.counts['unfindable orders']++;
      this.say(`    ${o.id} (${o.kind}) was ordered and its id never journaled; its type cannot find it: taken out of the world`);
    }
  }

  fail(what: string): void {
    this.failures.push(what);
    this.say(`  FAILED: ${what}`);
  }
}

function refusal(result: ProcessResult): boolean {
  return result.diagnostics.length > 0 && result.diagnostics.every((d) => REFUSALS.some((r) => r.test(d.summary)));
}

function describeSpec(spec: ProcessSpec): string {
  const kill = spec.kill && (spec.kill.at === 'journal' ? `kill at journal point ${spec.kill.k}` : `kill at call ${spec.kill.k} ${spec.kill.after ? 'after' : 'before'} its effect`);
  const parts = [spec.destroy ? 'destroy' : '', spec.planOnly ? 'plan only' : '', spec.faultRate ? `faults ${spec.faultRate}` : '', kill ?? ''].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

function outcome(result: ProcessResult): string {
  const plan = result.plan && `plan ${JSON.stringify(result.plan.summary)}${result.plan.settled.length ? ` settled [${result.plan.settled.join(' | ')}]` : ''}`;
  const failed = result.report?.results.filter((r) => r.status === 'failed').map((r) => `${r.action} ${r.address}: ${r.error}`);
  const report = result.report && (result.report.ok ? 'apply ok' : `apply failed [${failed!.join(' | ')}]`);
  const refused = result.diagnostics.length ? `refused: ${result.diagnostics.map((d) => d.summary).join('; ')}` : undefined;
  return [plan, report, refused, result.error && `error: ${result.error.message}`, result.killed].filter(Boolean).join('; ') || 'nothing';
}
