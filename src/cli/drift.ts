import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { ReadPass } from '../engine/applying/context.js';
import { detectDrift, type DriftReport } from '../engine/planning/drift.js';
import { refreshState } from '../engine/planning/refresh.js';
import { UserError } from '../kernel/errors.js';
import { stackCost, type StackCost } from './cost.js';
import { driftHtml } from './html/render-html.js';
import { driftJson, driftTable } from './render-drift.js';
import { driftMarkdown } from './render-markdown.js';
import { paint } from './render-plan.js';
import { planningNotices, sayRateRoom, useColor } from './run.js';
import { lockInfo, manifestPath, openSession, type GlobalOptions } from './session.js';

/** A drift report with what its stack costs per month as ordered now (absent with `--no-cost`). */
export type CostedDrift = DriftReport & { cost?: StackCost };

/**
 * `plumb drift`: exit 0 in sync, 2 drift found, 1 error. Changes nothing. Each stack's current
 * monthly total is priced from state as `plumb cost` prices it; a price call that fails leaves that
 * resource out of the total, said as "price unavailable", and never fails the command.
 */
export async function driftCommand(arg: string | undefined, opts: GlobalOptions & { json?: boolean; format?: string; all?: boolean; html?: string; cost?: boolean }): Promise<number> {
  const session = await openSession(manifestPath(arg, opts), opts);
  try {
    const stacks = opts.all ? await session.store.stacks() : [opts.stack];
    const dependencies: Record<string, string[]> = {};
    const states = await Promise.all(stacks.map((stack) => (stack === opts.stack ? session.store : session.storeFor(stack)).read()));
    const format = opts.json ? 'json' : (opts.format ?? 'table');
    // What happens while reading (a wait for a rate window) is said where the report does not mix with it.
    const notice = format === 'table' ? 'none' : 'document';
    const room = await sayRateRoom(
      session,
      states.flatMap((state) => Object.values(state.resources)),
      opts,
      notice,
    );
    const notices = planningNotices(session, opts, notice);
    // The stacks of one state location share their reads: a list the API answers once serves
    // every stack whose objects it holds, for the same provider account.
    const pass = new ReadPass();
    const reports = await Promise.all(
      stacks.map(async (stack, i): Promise<CostedDrift> => {
        const state = states[i]!;
        if (stack === opts.stack) for (const r of Object.values(state.resources)) dependencies[r.address] = r.dependencies;
        const deps = { ...session.deps, stack };
        // What the stack costs now is asked beside its reads, in the same pass, unless --no-cost.
        const [report, cost] = await Promise.all([detectDrift(state, session.manifest, deps, 10, pass), opts.cost === false ? undefined : stackCost(Object.values(state.resources), deps, pass)]);
        return cost ? { ...report, cost } : report;
      }),
    ).finally(notices);
    if (opts.html) {
      writeFileSync(opts.html, driftHtml(reports[stacks.indexOf(opts.stack)] ?? reports[0], dependencies));
      process.stderr.write(`Wrote the drift report as a page for review to ${opts.html}.\n`);
    }
    if (format === 'json') process.stdout.write(`${driftJson(reports, Boolean(opts.all), session.sandboxServed(), room)}\n`);
    else if (format === 'markdown') process.stdout.write(`${reports.map(driftMarkdown).join('\n')}\n`);
    else if (format === 'table') process.stdout.write(`${reports.map((r) => driftTable(r, paint(useColor(opts)))).join('\n')}\n`);
    else throw new UserError(`--format ${format}: expected table, json or markdown`);
    if (reports.some((r) => r.summary.errors)) return 1;
    return reports.some((r) => r.summary.drifted || r.summary.deleted) ? 2 : 0;
  } finally {
    await session.close();
  }
}

/** `plumb refresh`: reads every resource and records what the API reports. */
export async function refreshCommand(arg: string | undefined, opts: GlobalOptions & { yes?: boolean; lockTimeout?: number }): Promise<number> {
  const session = await openSession(manifestPath(arg, opts), opts);
  try {
    await session.store.lock(lockInfo('refresh'), opts.lockTimeout);
    const state = await session.store.read();
    await sayRateRoom(session, Object.values(state.resources), opts, 'none');
    const notices = planningNotices(session, opts, 'none');
    // What is recorded is what the report showed: both come from one pass of reads.
    const pass = new ReadPass();
    const report = await detectDrift(state, session.manifest, session.deps, 10, pass).finally(notices);
    process.stdout.write(`${driftTable(report, paint(useColor(opts)))}\n`);
    if (!report.summary.drifted && !report.summary.deleted) {
      process.stdout.write('State already matches the remote objects.\n');
      return report.summary.errors ? 1 : 0;
    }
    if (!opts.yes) {
      if (!process.stdin.isTTY) throw new UserError('refusing to rewrite state without confirmation', 'pass --yes');
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      const answer = await rl.question("\nRecord these remote values in state? Only 'yes' will be accepted: ");
      rl.close();
      if (answer.trim() !== 'yes') return 1;
    }
    const refreshed = await refreshState(state, session.deps, 10, undefined, pass);
    await session.store.write({ ...state, resources: refreshed.resources });
    process.stdout.write(`Refreshed ${Object.keys(refreshed.resources).length} resources${refreshed.gone.length ? `; removed ${refreshed.gone.join(', ')} (deleted outside plumb)` : ''}.\n`);
    return 0;
  } finally {
    await session.close();
  }
}
