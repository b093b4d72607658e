import type { ApplyReport } from '../engine/apply.js';
import type { EngineEvent } from '../engine/types.js';
import { displayAddress, showFull, type Paint } from './render-plan.js';

const VERB: Record<string, [string, string]> = {
  create: ['Creating...', 'Creation complete'],
  'create-new': ['Creating replacement...', 'Replacement created'],
  update: ['Modifying...', 'Modifications complete'],
  delete: ['Destroying...', 'Destruction complete'],
  'delete-old': ['Destroying old object...', 'Old object destroyed'],
  'delete-deposed': ['Destroying object set aside...', 'Destruction complete'],
  import: ['Importing...', 'Import complete'],
};

/** One line per engine event, with a timestamp when not on a terminal. */
export function eventLine(e: EngineEvent, p: Paint, timestamps: boolean): string | undefined {
  const stamp = timestamps && 'at' in e ? `${e.at} ` : '';
  switch (e.type) {
    case 'step-start':
      return `${stamp}${displayAddress(e.address)}: ${VERB[e.action]?.[0] ?? e.action}`;
    case 'step-progress':
      return `${stamp}${displayAddress(e.address)}: ${e.status}`;
    case 'step-done':
      return `${stamp}${displayAddress(e.address)}: ${p.green(VERB[e.action]?.[1] ?? 'done')} after ${Math.round(e.elapsedMs / 100) / 10}s${e.id ? ` [id=${e.id}]` : ''}`;
    case 'step-failed':
      return `${stamp}${p.red(`${displayAddress(e.address)}: failed: ${e.error}`)}`;
    case 'step-skipped':
      return `${stamp}${p.yellow(`${displayAddress(e.address)}: skipped ${becauseOf(e.cause)}`)}`;
    case 'warning':
      return p.yellow(`Warning: ${e.address ? `${displayAddress(e.address)}: ` : ''}${e.message}`);
    default:
      return undefined;
  }
}

/** The final report: what was done, what failed, what was skipped and why, and the outputs. */
export function renderReport(report: ApplyReport, p: Paint): string {
  const lines: string[] = [''];
  const done = report.results.filter((r) => r.status === 'done');
  const count = (actions: string[]) => done.filter((r) => actions.includes(r.action)).length;
  const replaced = count(['create-new']);
  lines.push(
    (report.ok ? p.green : p.red)(
      `Apply ${report.ok ? 'complete' : 'failed'}! Resources: ${count(['create'])} added, ${count(['update'])} changed, ${replaced} replaced, ${count(['delete', 'delete-deposed'])} destroyed${count(['import']) ? `, ${count(['import'])} imported` : ''}.`,
    ),
  );
  const failed = report.results.filter((r) => r.status === 'failed');
  const skipped = report.results.filter((r) => r.status === 'skipped');
  if (failed.length) {
    lines.push('', p.red('Failed:'));
    for (const f of failed) lines.push(`  ${displayAddress(f.address)} (${f.action}): ${f.error}`);
  }
  if (skipped.length) {
    lines.push('', p.yellow('Skipped:'));
    for (const s of skipped) lines.push(`  ${displayAddress(s.address)} (${s.action}): ${becauseOf(s.cause ?? '')}`);
  }
  const outputs = Object.entries(report.outputs);
  if (outputs.length) {
    lines.push('', 'Outputs:');
    for (const [k, v] of outputs) lines.push(`  ${k} = ${showFull(v)}`);
  }
  return lines.join('\n');
}

/** Why a step was skipped: a failed step's address, or the reason the apply stopped. */
function becauseOf(cause: string): string {
  return /\s/.test(cause) ? `because ${cause}` : `because ${displayAddress(cause)} failed`;
}
