import { maskSecrets } from './secret-mask.js';

/** A position in a manifest file (1-based line and column). */
export interface SourcePos {
  file: string;
  line: number;
  column: number;
}

/** A problem found in a manifest or during planning, with where it is. */
export interface Diagnostic {
  severity: 'error' | 'warning';
  summary: string;
  detail?: string;
  address?: string;
  pos?: SourcePos;
}

/** Thrown when one or more error diagnostics stop a command; the CLI prints them all. */
export class DiagnosticsError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'DiagnosticsError';
  }
}

/**
 * `file:line:col: error: summary`, the offending source line with a caret under the spot, then
 * the detail — the one format used for every diagnostic.
 */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.pos ? `${d.pos.file}:${d.pos.line}:${d.pos.column}: ` : '';
  const addr = d.address && !d.pos ? `${d.address}: ` : '';
  const excerpt = d.pos ? sourceExcerpt(d.pos) : [];
  const detail = d.detail ? d.detail.split('\n').map((line) => `    ${line}`) : [];
  return [`${where}${addr}${d.severity}: ${d.summary}`, ...excerpt, ...detail].join('\n');
}

/** A warning, at its place in a file where it has one. */
export function warningAt(pos: SourcePos | undefined, summary: string): Diagnostic {
  return pos ? { severity: 'warning', summary, pos } : { severity: 'warning', summary };
}

/**
 * A warning as one line of text, as a plan's `warnings` list gives it: `file:line:col: summary`
 * where it has a place, its summary where not.
 */
export function warningLine(d: Diagnostic): string {
  return d.pos ? `${d.pos.file}:${d.pos.line}:${d.pos.column}: ${d.summary}` : d.summary;
}

/**
 * A plan's warnings (one line each) as diagnostics: those with a place (`placed`, each one of
 * `warnings` as warningLine gives it) with it, the others as they are.
 */
export function warningDiagnostics(warnings: readonly string[], placed: readonly Diagnostic[] = []): Diagnostic[] {
  const byLine = new Map(placed.map((d) => [warningLine(d), d]));
  return warnings.map((w) => byLine.get(w) ?? warningAt(undefined, w));
}

/** A warning as a command prints it: as an error is, with its source line, where it has a place; `Warning: …` where not. */
export function formatWarning(d: Diagnostic): string {
  return d.pos ? formatDiagnostic(d) : `Warning: ${d.summary}`;
}

/** Diagnostics without repeats: one mistake met through several paths (a lookup used twice) is reported once. */
export function uniqueDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.pos?.line}:${d.pos?.column}:${d.summary}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A diagnostic as `--json` output gives it: flat, with `file`, `line` and `column` where it has a position. */
export function diagnosticJson(d: Diagnostic): Record<string, unknown> {
  const { pos, ...rest } = d;
  const text = pos && shownSourceLine(pos);
  return Object.fromEntries(Object.entries({ ...rest, ...(pos ? { file: pos.file, line: pos.line, column: pos.column, lineText: text } : {}) }).filter(([, v]) => v !== undefined));
}

/*
 * The source line under a diagnostic. Every YAML file plumb reads is remembered here as it is
 * parsed (see yaml-source.ts), by the name its diagnostics give it, so a problem's line is shown
 * without reading the file again.
 */

/** The text of each file read, and its lines once one is asked for. */
const sources = new Map<string, { text: string; lines?: string[] }>();

/** Remembers the text of a file read, for showing the lines its diagnostics point at. */
export function rememberSource(file: string, text: string): void {
  sources.set(file, { text });
}

/** The line a position is on, as read (undefined for a file not read or a line it does not have). */
function rawLine(pos: SourcePos): string | undefined {
  const source = sources.get(pos.file);
  if (!source) return undefined;
  source.lines ??= source.text.split(/\r?\n/);
  return source.lines[pos.line - 1];
}

/** The line a position is on, as shown: secret values masked. */
export function shownSourceLine(pos: SourcePos): string | undefined {
  const raw = rawLine(pos);
  return raw === undefined ? undefined : hideSecrets(raw, pos.column - 1).text;
}

/** Lines shown at most this wide; a longer one is cut around the caret. */
const WIDTH = 100;

/** The source line of a position and a caret under it (`^~~~` under the token there), or nothing when the line is not known. */
export function sourceExcerpt(pos: SourcePos): string[] {
  const raw = rawLine(pos);
  if (raw === undefined || raw.trim() === '') return [];
  const { text, at } = hideSecrets(raw, Math.min(Math.max(pos.column - 1, 0), raw.length));
  // A control character (the problem itself, maybe) is shown as one visible mark, keeping columns.
  const shown = cut(text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '\ufffd'), at, tokenLength(text, at));
  const gutter = String(pos.line).padStart(4);
  // The caret line copies the tabs of the text before the caret, so it lines up whatever the tab width.
  const pad = shown.text.slice(0, shown.at).replace(/[^\t]/g, ' ');
  return [`${gutter} | ${shown.text}`.trimEnd(), `${' '.repeat(gutter.length)} | ${pad}^${'~'.repeat(shown.length - 1)}`];
}

/** A long line cut to WIDTH around the caret, `…` where text is left out. */
function cut(text: string, at: number, length: number): { text: string; at: number; length: number } {
  if (text.length <= WIDTH) return { text, at, length };
  const start = Math.max(0, Math.min(at - 30, text.length - WIDTH));
  const end = Math.min(text.length, start + WIDTH);
  const head = start > 0 ? '…' : '';
  return { text: `${head}${text.slice(start, end)}${end < text.length ? '…' : ''}`, at: at - start + head.length, length: Math.max(1, Math.min(length, end - at)) };
}

/** The length of the token starting at `at`: a quoted string, a key (up to its colon), a plain value; 1 at least. */
function tokenLength(text: string, at: number): number {
  const rest = text.slice(at);
  const quoted = /^"(?:[^"\\]|\\.)*"?|^'(?:[^']|'')*'?/.exec(rest);
  if (quoted) return quoted[0].length;
  if (/^[[{]/.test(rest)) return 1;
  const inFlow = /[[{]/.test(text.slice(0, at));
  const plain = (inFlow ? /^[^,\]}]*/ : /^.*/)
    .exec(rest)![0]
    .split(/:(?=\s|$)|\s#/)[0]
    .trimEnd();
  return Math.max(1, plain.length);
}

/** A value given with `fn::secret` on one line: the part after the key, up to the end of the line or of its flow collection. */
const INLINE_SECRET = /(fn::secret:\s*)("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,}\]#\s](?:[^,}\]#]*[^,}\]#\s])?)/g;

/** The line with secret values masked (fn::secret values and any secret plumb knows), and where `at` has moved to. */
function hideSecrets(raw: string, at: number): { text: string; at: number } {
  let text = '';
  let from = 0;
  let moved = at;
  for (const m of raw.matchAll(INLINE_SECRET)) {
    const start = m.index + m[1].length;
    const end = start + m[2].length;
    text += raw.slice(from, start) + '[secret]';
    if (at >= end) moved += '[secret]'.length - m[2].length;
    else if (at > start) moved = text.length - '[secret]'.length;
    from = end;
  }
  text += raw.slice(from);
  // Known secrets are masked before and after the caret apart, so the caret keeps its place.
  const before = maskSecrets(text.slice(0, moved));
  return { text: before + maskSecrets(text.slice(moved)), at: before.length };
}
