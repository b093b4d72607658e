import type { DriftReport } from '../engine/planning/drift.js';
import type { StackCost } from './cost.js';
import { stackCostLine } from './render-cost.js';
import { driftValue } from './render-markdown.js';
import type { RateRoom } from './rate-room.js';
import type { Paint } from './render-plan.js';
import { sandboxField } from './sandbox-line.js';

/** A drift report as a terminal table: each resource's status, each drifted field with both values, then the stack's monthly total where it was priced. */
export function driftTable(report: DriftReport & { cost?: StackCost }, p: Paint): string {
  const lines = [`Drift for stack "${report.stack}" (checked ${report.checkedAt}):`];
  for (const r of report.resources) {
    const mark = r.status === 'in-sync' ? p.green('in sync') : r.status === 'drifted' ? p.yellow('drifted') : r.status === 'deleted' ? p.red('deleted out of band') : p.red(`error: ${r.error}`);
    lines.push(`  ${r.address.padEnd(24)} ${mark}`);
    for (const f of r.fields) lines.push(`      ${f.path}: state ${driftValue(f.state)}, remote ${driftValue(f.remote)}`);
  }
  const s = report.summary;
  lines.push(`${s.inSync} in sync, ${s.drifted} drifted, ${s.deleted} deleted, ${s.errors} errors.`);
  if (report.cost) lines.push(...costLines(report.cost, p));
  return lines.join('\n');
}

/** The stack's current monthly total, and the resources whose price call failed, named. */
function costLines(cost: StackCost, p: Paint): string[] {
  const out = [`Monthly cost as ordered now (from state): ${stackCostLine(cost)}.`];
  if (cost.unavailable.length) out.push(p.yellow(`  Price unavailable: ${cost.unavailable.join(', ')} (the price call failed; left out of the total)`));
  return out;
}

/** The `plumb drift --json` document: one report, or every stack's with --all; `rateRoom`, the windows the reads may have waited for. */
export function driftJson(reports: DriftReport[], all: boolean, sandboxServed: string[] = [], rateRoom: RateRoom[] = []): string {
  return JSON.stringify({ ...sandboxField(sandboxServed), ...(rateRoom.length ? { rateRoom } : {}), ...(all ? { stacks: reports } : reports[0]) }, null, 2);
}
