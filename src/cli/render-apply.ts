import type { ApplyReport } from '../engine/applying/apply.js';
import type { EngineEvent, Plan } from '../engine/types.js';
import type { RateRoom } from './rate-room.js';
import { displayAddress, showFull, type Paint } from './render-plan.js';

const VERB: Record<string, [string, string]> = {
  create: ['Creating...', 'Creation complete'],
  'create-new': ['Creating replacement...', 'Replacement created'],
  update: ['Modifying...', 'Modifications complete'],
  delete: ['Destroying...', 'Destruction complete'],
  'delete-old': ['Destroying old object...', 'Old object destroyed'],
  'delete-deposed': ['Destroying object set aside...', 'Destruction complete'],
  import: ['Importing...', 'Import complete'],
  wait: ['Waiting until it is ready...', 'Ready'],
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
    case 'refresh-start':
      return `${stamp}Refreshing state: reading ${e.count} recorded object${e.count === 1 ? '' : 's'} from the remote APIs...`;
    case 'retry':
    case 'rate-wait':
      return `${stamp}${p.yellow(noticeText(e, true))}`;
    case 'warning':
      return p.yellow(`Warning: ${e.address ? `${displayAddress(e.address)}: ` : ''}${e.message}`);
    default:
      return undefined;
  }
}

/** The final report: what was done, what failed, what was skipped and why, and the outputs (none after a destroy). */
export function renderReport(report: ApplyReport, p: Paint, plan?: Pick<Plan, 'mode' | 'changes'>): string {
  const lines: string[] = [''];
  const done = report.results.filter((r) => r.status === 'done');
  const count = (actions: string[]) => done.filter((r) => actions.includes(r.action)).length;
  // An old object deleted whose replacement was not made is counted destroyed: it is gone.
  const made = new Set(done.filter((r) => r.action === 'create-new').map((r) => r.address));
  const destroyed = count(['delete', 'delete-deposed']) + done.filter((r) => r.action === 'delete-old' && !made.has(r.address)).length;
  const tint = report.ok ? p.green : p.red;
  if (plan?.mode === 'destroy') lines.push(tint(`Destroy ${report.ok ? 'complete' : 'failed'}! Resources: ${destroyed} destroyed.`));
  else {
    // An import that also updates is counted in both, as the plan counted it (Terraform's way).
    const updating = new Set(plan?.changes.filter((c) => c.action === 'import' && c.patch.length).map((c) => c.address));
    const imported = count(['import']);
    const changed = count(['update']) + done.filter((r) => r.action === 'import' && updating.has(r.address)).length;
    const what = `${imported ? `${imported} imported, ` : ''}${count(['create'])} added, ${changed} changed, ${count(['create-new'])} replaced, ${destroyed} destroyed`;
    lines.push(tint(`Apply ${report.ok ? 'complete' : 'failed'}! Resources: ${what}.`));
  }
  const failed = report.results.filter((r) => r.status === 'failed');
  const skipped = report.results.filter((r) => r.status === 'skipped');
  if (failed.length) {
    lines.push('', p.red('Failed:'));
    // The same error of many steps (the API unreachable) is said once, with every step it stopped.
    const byError = new Map<string, string[]>();
    for (const f of failed) byError.set(f.error ?? '', [...(byError.get(f.error ?? '') ?? []), `${displayAddress(f.address)} (${f.action})`]);
    for (const [error, steps] of byError) lines.push(steps.length === 1 ? `  ${steps[0]}: ${error}` : `  ${steps.length} steps (${steps.join(', ')}): ${error}`);
  }
  if (skipped.length) {
    lines.push('', p.yellow('Skipped:'));
    for (const s of skipped) lines.push(`  ${displayAddress(s.address)} (${s.action}): ${becauseOf(s.cause ?? '')}`);
  }
  const outputs = plan?.mode === 'destroy' ? [] : Object.entries(report.outputs);
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

/** `rate limited by interconnect, retrying in 12 s`; without the wait, what repeats of it are counted under. */
export function noticeText(e: Extract<EngineEvent, { type: 'retry' | 'rate-wait' }>, withWait: boolean): string {
  if (e.type === 'rate-wait') {
    const what = `the ${e.provider} API's window of ${e.limit.toLocaleString('en')} calls per ${period(e.windowMs)} is full`;
    return withWait ? `${what}: waiting ${seconds(e.waitMs)} for room` : what;
  }
  const what = e.kind === 'rate-limited' ? `rate limited by ${e.provider}` : `${e.provider} did not answer (${e.reason})`;
  return withWait ? `${what}, retrying in ${seconds(e.waitMs)}` : what;
}

/**
 * Said before a refresh whose calls may not fit a window: `interconnect: 20 of 500 calls are left
 * in the API's 5-minute window and refreshing 300 objects may need up to 300: the refresh may wait
 * up to 4m 10s for room.`
 */
export function roomText(room: RateRoom): string {
  const objects = `${room.need.toLocaleString('en')} object${room.need === 1 ? '' : 's'}`;
  const left = `${room.left.toLocaleString('en')} of ${room.limit.toLocaleString('en')} calls ${room.left === 1 ? 'is' : 'are'} left`;
  return `${room.provider}: ${left} in the API's ${period(room.windowMs, true)} window and refreshing ${objects} may need up to ${room.need.toLocaleString('en')}: the refresh may wait up to ${seconds(room.waitMs)} for room.`;
}

/** `12 s`, `0.3 s`, `2m 10s`. */
function seconds(ms: number): string {
  const whole = Math.round(ms / 1000);
  if (whole >= 60) return `${Math.floor(whole / 60)}m ${String(whole % 60).padStart(2, '0')}s`;
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 100) / 10} s`;
}

/** A window's length as people say it: `5 minutes`, `hour`, `minute`; before a noun (`adjective`), `5-minute`. */
function period(ms: number, adjective = false): string {
  const units: Array<[number, string]> = [
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ];
  for (const [size, unit] of units) {
    if (ms % size !== 0) continue;
    if (ms === size) return unit;
    return adjective ? `${ms / size}-${unit}` : `${ms / size} ${unit}s`;
  }
  return adjective ? `${ms}-millisecond` : `${ms} ms`;
}

/** `1m10s`, `42s`. */
export function elapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`;
}
