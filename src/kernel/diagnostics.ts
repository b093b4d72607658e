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

/** `file:line:col: error: summary (detail)` — the one format used for every diagnostic. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.pos ? `${d.pos.file}:${d.pos.line}:${d.pos.column}: ` : '';
  const addr = d.address && !d.pos ? `${d.address}: ` : '';
  const detail = d.detail ? `\n    ${d.detail.split('\n').join('\n    ')}` : '';
  return `${where}${addr}${d.severity}: ${d.summary}${detail}`;
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
  return Object.fromEntries(Object.entries({ ...rest, ...(pos ? { file: pos.file, line: pos.line, column: pos.column } : {}) }).filter(([, v]) => v !== undefined));
}
