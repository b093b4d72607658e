import type { Change, Plan } from '../engine/types.js';

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

const SYMBOL: Record<string, string> = { create: '+', update: '~', replace: '-/+', delete: '-', import: '<=', read: '<=', noop: ' ' };

/**
 * Writes a plan the way Terraform users read one, and a final newline, in pieces of about 64 KB:
 * the text of a plan creating tens of thousands of objects is tens of megabytes.
 */
export function writePlan(plan: Plan, p: Paint, opts: { compact?: boolean }, write: (text: string) => void): void {
  let pending = '';
  let first = true;
  emitPlan(plan, p, opts, (line) => {
    pending += first ? line : `\n${line}`;
    first = false;
    if (pending.length >= 65536) {
      write(pending);
      pending = '';
    }
  });
  write(`${pending}\n`);
}

function emitPlan(plan: Plan, p: Paint, opts: { compact?: boolean }, line: (text: string) => void): void {
  for (const s of plan.settled) line(p.yellow(`Settled: ${s}`));
  const active = plan.changes.filter((c) => c.action !== 'noop');
  if (active.length === 0) {
    line(p.green('No changes. Your infrastructure matches the manifest.'));
  } else {
    line('plumb will perform these actions:');
    line('');
    for (const c of active) {
      if (opts.compact) line(compactLine(c, p));
      else for (const text of renderChange(c, p)) line(text);
    }
    if (opts.compact) line('');
    line(summaryLine(plan));
  }
  for (const w of plan.warnings) line(p.yellow(`Warning: ${w}`));
  const outputs = Object.entries(plan.outputs);
  if (outputs.length) {
    line('');
    line('Outputs:');
    for (const [k, v] of outputs) line(`  ${k} = ${showFull(v)}`);
  }
}

/** A value in full (outputs are never shortened), unknowns as `(known after apply)`. */
export function showFull(v: unknown): string {
  if (v && typeof v === 'object' && '$unknown' in v) return '(known after apply)';
  const text = JSON.stringify(v, (_k, val) => (val && typeof val === 'object' && '$unknown' in val ? '(known after apply)' : val), 2);
  return (text ?? 'null').split('\n').join('\n  ');
}

/** `Plan: 1 to add, 0 to change, 1 to replace, 0 to destroy.` */
export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  const imported = s.import ? `${s.import} to import, ` : '';
  return `Plan: ${imported}${s.add} to add, ${s.change} to change, ${s.replace} to replace, ${s.destroy} to destroy.`;
}

function colour(action: string, p: Paint): (s: string) => string {
  return action === 'create' || action === 'import' ? p.green : action === 'delete' ? p.red : action === 'replace' ? p.red : p.yellow;
}

function compactLine(c: Change, p: Paint): string {
  const why = c.action === 'replace' ? `  # ${replaceSummary(c)}` : '';
  return `${colour(c.action, p)(SYMBOL[c.action].padStart(3))} ${c.address} ${p.dim(`(${c.type})`)}${why}`;
}

function heading(c: Change): string {
  switch (c.action) {
    case 'create':
      return c.reason === 'gone-remotely' ? `${c.address} will be created (it was deleted outside plumb)` : `${c.address} will be created`;
    case 'update':
      return `${c.address} will be updated in place`;
    case 'replace':
      return `${c.address} must be replaced (${c.replaceOrder === 'delete-first' ? 'delete first, then create' : 'create first, then delete'}): ${replaceSummary(c)}`;
    case 'delete':
      if (c.reason === 'deposed') return `${displayAddress(c.address)} will be destroyed (set aside by an earlier replacement)`;
      return c.retain ? `${c.address} will be removed from state (retainOnDelete)` : `${c.address} will be destroyed${c.reason === 'removed-from-manifest' ? ' (no longer in the manifest)' : ''}`;
    case 'import':
      return c.patch.length ? `${c.address} will be imported, then updated in place` : `${c.address} will be imported`;
    default:
      return `${c.address}`;
  }
}

function replaceSummary(c: Change): string {
  if (c.reason === 'tainted') return 'the object is tainted (a create did not finish)';
  if (c.reason === 'replace-requested') return 'requested with --replace';
  return (c.replacePaths ?? []).map((r) => `${r.path}: ${r.reason}`).join('; ');
}

function renderChange(c: Change, p: Paint): string[] {
  const tint = colour(c.action, p);
  const out = [`  ${p.bold(`# ${heading(c)}`)}`, `${tint(SYMBOL[c.action].padStart(3))} ${c.address} (${c.type})${c.id ? p.dim(` id=${c.id}`) : ''} {`];
  const forces = new Map((c.replacePaths ?? []).map((r) => [r.path, r.reason]));
  if (c.action === 'create' || (c.action === 'import' && !c.patch.length)) {
    for (const [k, v] of Object.entries((c.after ?? {}) as Record<string, unknown>)) if (v !== undefined) out.push(`      ${tint('+')} ${k} = ${show(v)}`);
  } else if (c.action === 'delete') {
    for (const [k, v] of Object.entries((c.before ?? {}) as Record<string, unknown>)) if (v !== undefined) out.push(`      ${tint('-')} ${k} = ${show(v)}`);
  } else {
    for (const op of c.patch) {
      const path = op.path.slice(1).replace(/\//g, '.');
      const before = valueAt(c.before, op.path);
      const after = op.op === 'remove' ? undefined : (op as { value?: unknown }).value;
      const forced = [...forces.keys()].find((f) => f === path || path.startsWith(`${f}.`) || f.startsWith(`${path}.`));
      const note = forced ? p.red(`  # forces replacement: ${forces.get(forced)}`) : '';
      if (op.op === 'add') out.push(`      ${p.green('+')} ${path} = ${show(after)}${note}`);
      else if (op.op === 'remove') out.push(`      ${p.red('-')} ${path} = ${show(before)}${note}`);
      else out.push(`      ${p.yellow('~')} ${path} = ${show(before)} -> ${show(after)}${note}`);
    }
  }
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

/** A value as the plan shows it: unknowns as `(known after apply)`, secrets as `[secret]`. */
export function show(v: unknown): string {
  if (v && typeof v === 'object' && '$unknown' in v) return '(known after apply)';
  if (v && typeof v === 'object' && '$hidden' in v) return '(hidden by hideDiffs)';
  if (v === '[secret]') return '[secret]';
  if (typeof v === 'string') return JSON.stringify(v);
  if (v && typeof v === 'object') {
    const text = JSON.stringify(v, (_k, val) => (val && typeof val === 'object' && '$unknown' in val ? '(known after apply)' : val));
    return text.length > 120 ? `${text.slice(0, 117)}...` : text;
  }
  return String(v);
}

function valueAt(obj: unknown, pointer: string): unknown {
  let cur: any = obj;
  for (const seg of pointer.split('/').slice(1)) cur = cur?.[seg];
  return cur;
}
