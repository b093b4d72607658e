import type { Change, Plan } from '../engine/types.js';
import { formatWarning, warningDiagnostics } from '../kernel/diagnostics.js';
import { attributeLines } from './render-diff.js';

/** Terminal colours, or none. */
export interface Paint {
  green(s: string): string;
  yellow(s: string): string;
  red(s: string): string;
  cyan(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
}

/** Colours when `on`, plain text otherwise. */
export function paint(on: boolean): Paint {
  const wrap = (code: string) => (s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { green: wrap('32'), yellow: wrap('33'), red: wrap('31'), cyan: wrap('36'), bold: wrap('1'), dim: wrap('2') };
}

/**
 * Writes a plan the way Terraform users read one, and a final newline, in pieces of about 64 KB:
 * the text of a plan creating tens of thousands of objects is tens of megabytes. Each piece waits
 * for `write` (for stdout, until a reader as slow as a CI log has taken the one before).
 * `outputs: false` leaves the outputs out (apply prints them once, at its end).
 */
export async function writePlan(plan: Plan, p: Paint, opts: PlanLook, write: (text: string) => unknown): Promise<void> {
  let pending = '';
  let first = true;
  for (const line of planLines(plan, p, opts)) {
    pending += first ? line : `\n${line}`;
    first = false;
    if (pending.length >= 65536) {
      await write(pending);
      pending = '';
    }
  }
  await write(`${pending}\n`);
}

/** How a plan is drawn: one line per resource (`compact`); every value known only after apply listed (`verbose`); the outputs left out (`outputs: false`). */
export interface PlanLook {
  compact?: boolean;
  verbose?: boolean;
  outputs?: boolean;
}

function* planLines(plan: Plan, p: Paint, opts: PlanLook): Generator<string> {
  for (const s of plan.settled) yield p.yellow(`Settled: ${s}`);
  // A moved record is shown even when nothing else about it changes.
  const active = plan.changes.filter(shown);
  if (active.length === 0) {
    yield p.green(plan.mode === 'destroy' ? 'No changes. No objects need to be destroyed.' : 'No changes. Your infrastructure matches the manifest.');
  } else {
    yield 'plumb will perform these actions:';
    yield '';
    for (const c of active) {
      if (opts.compact) yield compactLine(c, p);
      else yield* changeLines(c, p, opts.verbose);
    }
    if (opts.compact) yield '';
    yield summaryLine(plan);
  }
  for (const w of warningDiagnostics(plan.warnings, plan.warningsAt)) yield p.yellow(formatWarning(w));
  const outputs = Object.entries(plan.outputs);
  if (outputs.length && opts.outputs !== false) {
    yield '';
    yield 'Outputs:';
    for (const [k, v] of outputs) yield `  ${k} = ${showFull(v, opts.verbose)}`;
  }
}

/**
 * A value in full (outputs are never shortened). One known only after apply shows where it comes
 * from, as the manifest wrote it (`${port.productUid}`, a template); verbose, or when it comes
 * from a function, as `(known after apply)`.
 */
export function showFull(v: unknown, verbose = false): string {
  const text = JSON.stringify(v, null, 2)?.replace(/\{\s*"\$unknown": ("(?:[^"\\]|\\.)*")\s*\}/g, (_, source: string) => unknownText(JSON.parse(source) as string, verbose));
  return (text ?? 'null').split('\n').join('\n  ');
}

function unknownText(source: string, verbose: boolean): string {
  if (verbose) return '(known after apply)';
  if (source.includes('${')) return JSON.stringify(source);
  return /^[A-Za-z_][\w-]*(\.[\w-]+|\[\d+\])*$/.test(source) ? `\${${source}}` : '(known after apply)';
}

/** Whether applying a change does anything: a read (get:) does not; a moved record, and a wait for an object still provisioning, do. */
export function changesSomething(c: Change): boolean {
  return (c.action !== 'noop' && c.action !== 'read') || c.movedFrom !== undefined || c.awaits !== undefined;
}

/** Whether the plan shows a change: anything but a no-op, and a no-op that moves a record or waits for its object. */
export function shown(c: Change): boolean {
  return c.action !== 'noop' || c.movedFrom !== undefined || c.awaits !== undefined;
}

/** `Plan: 1 to add, 0 to change, 1 to replace, 0 to destroy.` */
export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  const imported = s.import ? `${s.import} to import, ` : '';
  const moved = s.move ? `${s.move} to move, ` : '';
  const read = s.read ? `${s.read} to read, ` : '';
  const wait = s.wait ? `, ${s.wait} to wait for` : '';
  return `Plan: ${read}${moved}${imported}${s.add} to add, ${s.change} to change, ${s.replace} to replace, ${s.destroy} to destroy${wait}.`;
}

/**
 * Terraform's symbols: `+` create, `~` update, `-/+` replace deleting first, `+/-` replace
 * creating first, `-` delete, `<=` read; an import, which Terraform draws without one, is `=`
 * (Pulumi's).
 */
export function symbolOf(c: Change): string {
  switch (c.action) {
    case 'create':
      return '+';
    case 'update':
      return '~';
    case 'replace':
      return c.replaceOrder === 'delete-first' ? '-/+' : '+/-';
    case 'delete':
      return '-';
    case 'import':
      return '=';
    case 'read':
      return '<=';
    default:
      return ' ';
  }
}

/** The colour of a change's symbol. */
export function colour(action: string, p: Paint): (s: string) => string {
  if (action === 'create') return p.green;
  if (action === 'import') return p.cyan;
  return action === 'delete' || action === 'replace' ? p.red : p.yellow;
}

function compactLine(c: Change, p: Paint): string {
  const why = c.action === 'replace' ? `  # ${replaceSummary(c)}` : c.movedFrom !== undefined ? `  # moved from ${c.movedFrom}` : '';
  return `${colour(c.action, p)(symbolOf(c).padStart(3))} ${displayAddress(c.address)} ${p.dim(`(${c.type})`)}${why}`;
}

/** The sentence a change is introduced with: `port will be updated in place`; a moved record says from where. */
export function heading(c: Change): string {
  if (c.action === 'noop' && c.awaits && c.movedFrom === undefined) return `${displayAddress(c.address)} is still provisioning: apply waits until it is ready`;
  if (c.movedFrom === undefined) return actionHeading(c);
  return c.action === 'noop' ? `${c.address} has moved from ${c.movedFrom}` : `${actionHeading(c)} (moved from ${c.movedFrom})`;
}

function actionHeading(c: Change): string {
  const address = displayAddress(c.address);
  switch (c.action) {
    case 'create':
      return c.reason === 'gone-remotely' ? `${address} will be created (it was deleted outside plumb)` : `${address} will be created`;
    case 'update':
      return `${address} will be updated in place`;
    case 'replace':
      return `${address} must be replaced (${c.replaceOrder === 'delete-first' ? 'delete first, then create' : 'create first, then delete'}): ${replaceSummary(c)}`;
    case 'delete':
      if (c.reason === 'deposed') return `${address} will be destroyed (set aside by an earlier replacement)`;
      return c.retain ? `${address} will be removed from state (retainOnDelete)` : `${address} will be destroyed${c.reason === 'removed-from-manifest' ? ' (no longer in the manifest)' : ''}`;
    case 'import':
      return c.patch.length ? `${address} will be imported, then updated in place` : `${address} will be imported`;
    case 'read':
      return `${address} will be read (get:), not managed`;
    default:
      return address;
  }
}

/** Why a change replaces its object, every forcing field with its reason. */
export function replaceSummary(c: Change): string {
  if (c.reason === 'tainted') return 'the object is tainted (a create did not finish)';
  if (c.reason === 'replace-requested') return 'requested with --replace';
  return (c.replacePaths ?? []).map((r) => `${r.path}: ${r.reason}`).join('; ');
}

/** One change as the plan shows it: heading, symbol line, attributes, notes and a blank line. */
export function changeLines(c: Change, p: Paint, verbose = false): string[] {
  const out = [`  ${p.bold(`# ${heading(c)}`)}`, `${colour(c.action, p)(symbolOf(c).padStart(3))} ${displayAddress(c.address)} (${c.type})${c.id ? p.dim(` id=${c.id}`) : ''} {`];
  out.push(...attributeLines(c, p, undefined, verbose));
  out.push('    }');
  for (const n of c.notes) out.push(`    ${p.yellow(`! ${n}`)}`);
  out.push('');
  return out;
}

/** A state key as people read it: a deposed object's `port~<id>` is `port (deposed <id>)`. */
export function displayAddress(key: string): string {
  const at = key.indexOf('~');
  return at < 0 ? key : `${key.slice(0, at)} (deposed ${key.slice(at + 1)})`;
}
