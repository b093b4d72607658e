import type { DriftReport } from '../engine/planning/drift.js';
import { driftValue } from './render-markdown.js';
import type { RateRoom } from './rate-room.js';
import type { Paint } from './render-plan.js';
import { sandboxField } from './sandbox-line.js';

/** A drift report as a terminal table: each resource's status, each drifted field with both values. */
export function driftTable(report: DriftReport, p: Paint): string {
  const lines = [`Drift for stack "${report.stack}" (checked ${report.checkedAt}):`];
  for (const r of report.resources) {
    const mark = r.status === 'in-sync' ? p.green('in sync') : r.status === 'drifted' ? p.yellow('drifted') : r.status === 'deleted' ? p.red('deleted out of band') : p.red(`error: ${r.error}`);
    lines.push(`  ${r.address.padEnd(24)} ${mark}`);
    for (const f of r.fields) lines.push(`      ${f.path}: state ${driftValue(f.state)}, remote ${driftValue(f.remote)}`);
  }
  const s = report.summary;
  lines.push(`${s.inSync} in sync, ${s.drifted} drifted, ${s.deleted} deleted, ${s.errors} errors.`);
  return lines.join('\n');
}

/** The `plumb drift --json` document: one report, or every stack's with --all; `rateRoom`, the windows the reads may have waited for. */
export function driftJson(reports: DriftReport[], all: boolean, sandboxServed: string[] = [], rateRoom: RateRoom[] = []): string {
  return JSON.stringify({ ...sandboxField(sandboxServed), ...(rateRoom.length ? { rateRoom } : {}), ...(all ? { stacks: reports } : reports[0]) }, null, 2);
}
