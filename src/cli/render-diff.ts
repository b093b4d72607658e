import type { Change } from '../engine/types.js';
import type { Paint } from './render-plan.js';

/** A line's marker: added, removed, changed in place, or shown as it is. */
export type Marker = '+' | '-' | '~' | ' ';

/** What decorates the attribute lines of one change. */
interface Decor {
  p: Paint;
  /** JSON pointers the plan's patch touches, with their operation. */
  ops: Map<string, string>;
  /** Dotted input paths whose change forces a replacement. */
  forces: Set<string>;
  /** Dotted input path → the reference its value comes from. */
  refs: Record<string, string>;
  /** List every value known only after apply; otherwise they are counted (`known`). */
  verbose: boolean;
  /** Values known only after apply left out, counted for the change's closing line. */
  known: { count: number };
}

/** One attribute (or list element) to draw, before alignment. */
interface Entry {
  marker: Marker;
  key?: string;
  lines(pad: number): string[];
}

const STEP = '    ';

/**
 * The attribute lines of a change, Terraform's way: nested objects and lists on lines of their
 * own with a `+ - ~` marker per field, nothing shortened, unchanged attributes of a changed
 * object counted instead of shown, and a `# comment` saying why a change forces a replacement.
 * What the manifest wrote is shown, a reference as written (`${port.productUid}`); the values
 * known only after apply (what the API sets when it makes the object) are counted on one closing
 * line, or, `verbose`, listed as a bare `(known after apply)` with the reference in a comment.
 */
export function attributeLines(c: Change, p: Paint, indent = '      ', verbose = false): string[] {
  const decor: Decor = {
    p,
    ops: new Map(c.patch.map((op) => [op.path, op.op])),
    forces: new Set((c.replacePaths ?? []).map((r) => r.path)),
    refs: c.references ?? {},
    verbose,
    known: { count: 0 },
  };
  const lines = changeAttributes(c, indent, decor);
  const n = decor.known.count;
  if (n) lines.push(`${indent}  # (${n} value${n === 1 ? '' : 's'} known after apply)`);
  return lines;
}

function changeAttributes(c: Change, indent: string, decor: Decor): string[] {
  const before = asObject(c.before);
  const after = asObject(c.after);
  if (c.action === 'create') return blockLines(after, '+', '', '', indent, decor);
  if (c.action === 'delete') return blockLines(before, '-', '', '', indent, decor);
  if (c.action === 'import' && !c.patch.length) return blockLines(after, ' ', '', '', indent, decor);
  return changedLines(before, after, '', '', indent, decor);
}

/**
 * Whether a value is left out and counted: one known only after apply that the manifest did not
 * write as a reference or a template (an output the API sets), unless the plan is verbose.
 */
function counted(value: unknown, path: string, d: Decor): boolean {
  if (d.verbose || !isUnknownMarker(value) || d.refs[path] || templateOf(value)) return false;
  d.known.count++;
  return true;
}

/** The template an unknown value comes from (`"${name}-edge"`), when it comes from one. */
function templateOf(v: unknown): string | undefined {
  const source = isUnknownMarker(v) ? (v as { $unknown: unknown }).$unknown : undefined;
  return typeof source === 'string' && source.includes('${') ? source : undefined;
}

/** A whole object's attributes, every one with the same marker (a create, a delete, an import). */
function blockLines(value: Record<string, unknown>, marker: Marker, pointer: string, path: string, indent: string, d: Decor): string[] {
  const entries = Object.entries(value)
    .filter(([key, v]) => v !== undefined && !counted(v, join(path, key), d))
    .map(([key, v]) => wholeEntry(marker, key, v, `${pointer}/${escapePointer(key)}`, join(path, key), d, indent));
  return aligned(entries);
}

/** The attributes of an object that changed: what the patch touches, and a count of the rest. */
function changedLines(before: Record<string, unknown>, after: Record<string, unknown>, pointer: string, path: string, indent: string, d: Decor): string[] {
  const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  const entries: Entry[] = [];
  let hidden = 0;
  for (const key of keys) {
    const shown = childEntries(before[key], after[key], key, `${pointer}/${escapePointer(key)}`, join(path, key), indent, d);
    if (shown) entries.push(...shown);
    // Outputs a replacement will only know once it exists were never recorded: not "unchanged".
    else if (!isEmpty(before[key])) hidden++;
  }
  const lines = aligned(entries);
  if (hidden) lines.push(`${indent}  # (${hidden} unchanged attribute${hidden === 1 ? '' : 's'} hidden)`);
  return lines;
}

/** The elements of a list that changed, each on its own line, and a count of the rest. */
function changedItems(before: unknown[], after: unknown[], pointer: string, path: string, indent: string, d: Decor): string[] {
  const entries: Entry[] = [];
  let hidden = 0;
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const shown = childEntries(before[i], after[i], undefined, `${pointer}/${i}`, `${path}[${i}]`, indent, d);
    if (shown) entries.push(...shown);
    else if (!isEmpty(before[i])) hidden++;
  }
  const lines = entries.flatMap((e) => e.lines(0));
  if (hidden) lines.push(`${indent}  # (${hidden} unchanged element${hidden === 1 ? '' : 's'} hidden)`);
  return lines;
}

/** How one attribute or element is drawn in a changed object; undefined when the patch leaves it alone. */
function childEntries(before: unknown, after: unknown, key: string | undefined, pointer: string, path: string, indent: string, d: Decor): Entry[] | undefined {
  const op = d.ops.get(pointer);
  const deeper = !op && [...d.ops.keys()].some((p) => p.startsWith(`${pointer}/`));
  if (!op && !deeper) return undefined;
  // Known only after apply: counted, not listed (a replacement's new id, say).
  if (op && op !== 'remove' && counted(after, path, d)) return [];
  if (op === 'add') return [wholeEntry('+', key, after, pointer, path, d, indent)];
  if (op === 'remove') return [wholeEntry('-', key, before, pointer, path, d, indent, ' -> null')];
  if (op && (isBlock(before) || isBlock(after))) {
    // A value that changes kind (an object that becomes unknown, say): the old one goes, the new one comes.
    return [wholeEntry('-', key, before, pointer, path, d, indent), wholeEntry('+', key, after, pointer, path, d, indent)];
  }
  if (op) {
    return [entry('~', key, (pad) => [`${head('~', key, pad, indent, d)}${scalar(before)} -> ${written(after, path, d)}${comment(path, true, d, after)}`])];
  }
  const list = Array.isArray(before) && Array.isArray(after);
  const [open, close] = list ? ['[', ']'] : ['{', '}'];
  const inner = list ? changedItems(before as unknown[], after as unknown[], pointer, path, indent + STEP, d) : changedLines(asObject(before), asObject(after), pointer, path, indent + STEP, d);
  return [entry('~', key, (pad) => [`${head('~', key, pad, indent, d)}${open}${comment(path, false, d)}`, ...inner, `${indent}  ${close}${key === undefined ? ',' : ''}`])];
}

/** An attribute drawn whole with one marker: a scalar on one line, an object or list over several. */
function wholeEntry(marker: Marker, key: string | undefined, value: unknown, pointer: string, path: string, d: Decor, indent: string, after = ''): Entry {
  const comma = key === undefined ? ',' : '';
  if (!isBlock(value)) return entry(marker, key, (pad) => [`${head(marker, key, pad, indent, d)}${written(value, path, d)}${comma}${after}${comment(path, true, d, value)}`]);
  const list = Array.isArray(value);
  const inner = list
    ? (value as unknown[])
        .map((item, i) => (counted(item, `${path}[${i}]`, d) ? undefined : wholeEntry(marker, undefined, item, `${pointer}/${i}`, `${path}[${i}]`, d, indent + STEP)))
        .flatMap((e) => e?.lines(0) ?? [])
    : blockLines(value as Record<string, unknown>, marker, pointer, path, indent + STEP, d);
  const [open, close] = list ? ['[', ']'] : ['{', '}'];
  return entry(marker, key, (pad) => [`${head(marker, key, pad, indent, d)}${open}${comment(path, false, d)}`, ...inner, `${indent}  ${close}${comma}${after}`]);
}

function entry(marker: Marker, key: string | undefined, lines: (pad: number) => string[]): Entry {
  return { marker, key, lines };
}

/** Entries with their `=` in one column, as Terraform aligns the attributes of a block. */
function aligned(entries: Entry[]): string[] {
  const pad = Math.max(0, ...entries.map((e) => (e.key === undefined ? 0 : e.key.length)));
  return entries.flatMap((e) => e.lines(pad));
}

/** `      ~ name   = `: the marker, in its colour, then the key padded to the block's column. */
function head(marker: Marker, key: string | undefined, pad: number, indent: string, d: Decor): string {
  const tint = marker === '+' ? d.p.green : marker === '-' ? d.p.red : marker === '~' ? d.p.yellow : (s: string) => s;
  return `${indent}${tint(marker)} ${key === undefined ? '' : `${key.padEnd(pad)} = `}`;
}

/**
 * A leaf as the plan shows it: a value known only after apply as the manifest wrote it, the
 * reference `${port.productUid}` or the template; verbose, as Terraform's `(known after apply)`.
 */
function written(v: unknown, path: string, d: Decor): string {
  if (d.verbose || !isUnknownMarker(v)) return scalar(v);
  const ref = d.refs[path];
  return ref ? `\${${ref}}` : JSON.stringify(templateOf(v));
}

/** ` # port.productUid; forces replacement` for a line (the reference unless the value shows it as written), or nothing. */
function comment(path: string, leaf: boolean, d: Decor, value?: unknown): string {
  const notes: string[] = [];
  const ref = d.refs[path];
  if (ref && (d.verbose || !isUnknownMarker(value))) notes.push(ref);
  // Why is said once, in the change's heading; here only where. A leaf also carries a
  // replacement forced by a path inside it (a whole object that changed).
  for (const forced of d.forces) {
    if (forced === path || (leaf && (forced.startsWith(`${path}.`) || forced.startsWith(`${path}[`)))) {
      notes.push('forces replacement');
      break;
    }
  }
  return notes.length ? `  ${d.p.dim(`# ${notes.join('; ')}`)}` : '';
}

/** A scalar as the plan shows it; unknowns bare, secrets masked. */
export function scalar(v: unknown): string {
  if (isUnknownMarker(v)) return '(known after apply)';
  if (isHiddenMarker(v)) return '(hidden by hideDiffs)';
  if (v === '[secret]') return '[secret]';
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === undefined || v === null) return 'null';
  if (Array.isArray(v) && !v.length) return '[]';
  if (typeof v === 'object' && !Object.keys(v).length) return '{}';
  return String(v);
}

/** Whether a value is the plan's `{"$unknown": source}` marker. */
export function isUnknownMarker(v: unknown): boolean {
  return Boolean(v) && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v as object, '$unknown');
}

/** Whether a value is the plan's `{"$hidden": path}` marker (the resource's hideDiffs option). */
function isHiddenMarker(v: unknown): boolean {
  return Boolean(v) && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v as object, '$hidden');
}

/** A non-empty object or list: drawn over several lines. */
function isBlock(v: unknown): boolean {
  return Boolean(v) && typeof v === 'object' && !isUnknownMarker(v) && !isHiddenMarker(v) && Object.keys(v as object).length > 0;
}

/** What the plan's diff treats as absent: nothing, null, `{}` and `[]`. */
function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'object' && !isUnknownMarker(v) && Object.keys(v).length === 0);
}

function asObject(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) && !isUnknownMarker(v) ? (v as Record<string, unknown>) : {};
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
