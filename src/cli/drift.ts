import { createInterface } from 'node:readline/promises';
import { ReadPass } from '../engine/context.js';
import { detectDrift, type DriftReport } from '../engine/drift.js';
import { refreshState } from '../engine/refresh.js';
import { UserError } from '../errors.js';
import { paint, show } from './render-plan.js';
import { useColor } from './run.js';
import { lockInfo, manifestPath, openSession, type GlobalOptions } from './session.js';

/** `plumb drift`: exit 0 in sync, 2 drift found, 1 error. Changes nothing. */
export async function driftCommand(arg: string | undefined, opts: GlobalOptions & { json?: boolean; format?: string; all?: boolean }): Promise<number> {
  const session = await openSession(manifestPath(arg, opts), opts);
  try {
    const stacks = opts.all ? await session.store.stacks() : [opts.stack];
    // The stacks of one state location share their reads: a list the API answers once serves
    // every stack whose objects it holds, for the same provider account.
    const pass = new ReadPass();
    const reports = await Promise.all(
      stacks.map(async (stack) => {
        const store = stack === opts.stack ? session.store : session.storeFor(stack);
        return detectDrift(await store.read(), session.manifest, { ...session.deps, stack }, 10, pass);
      }),
    );
    const format = opts.json ? 'json' : (opts.format ?? 'table');
    if (format === 'json') process.stdout.write(`${JSON.stringify(opts.all ? { stacks: reports } : reports[0], null, 2)}\n`);
    else if (format === 'markdown') process.stdout.write(`${reports.map(markdown).join('\n')}\n`);
    else if (format === 'table') process.stdout.write(`${reports.map((r) => table(r, useColor(opts))).join('\n')}\n`);
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
    // What is recorded is what the report showed: both come from one pass of reads.
    const pass = new ReadPass();
    const report = await detectDrift(state, session.manifest, session.deps, 10, pass);
    process.stdout.write(`${table(report, useColor(opts))}\n`);
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

function table(report: DriftReport, color: boolean): string {
  const p = paint(color);
  const lines = [`Drift for stack "${report.stack}" (checked ${report.checkedAt}):`];
  for (const r of report.resources) {
    const mark = r.status === 'in-sync' ? p.green('in sync') : r.status === 'drifted' ? p.yellow('drifted') : r.status === 'deleted' ? p.red('deleted out of band') : p.red(`error: ${r.error}`);
    lines.push(`  ${r.address.padEnd(24)} ${mark}`);
    for (const f of r.fields) lines.push(`      ${f.path}: state ${show(f.state)}, remote ${show(f.remote)}`);
  }
  const s = report.summary;
  lines.push(`${s.inSync} in sync, ${s.drifted} drifted, ${s.deleted} deleted, ${s.errors} errors.`);
  return lines.join('\n');
}

function markdown(report: DriftReport): string {
  const lines = [`### Drift: stack \`${report.stack}\``, '', `Checked ${report.checkedAt}.`, '', '| resource | status | field | state | remote |', '|---|---|---|---|---|'];
  for (const r of report.resources) {
    if (r.fields.length === 0) lines.push(`| \`${r.address}\` | ${r.status}${r.error ? `: ${r.error}` : ''} | | | |`);
    for (const f of r.fields) lines.push(`| \`${r.address}\` | ${r.status} | \`${f.path}\` | ${show(f.state)} | ${show(f.remote)} |`);
  }
  const s = report.summary;
  lines.push('', `**${s.inSync} in sync, ${s.drifted} drifted, ${s.deleted} deleted, ${s.errors} errors.**`);
  return lines.join('\n');
}
