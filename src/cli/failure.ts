import type { Command } from 'commander';
import { DiagnosticsError, diagnosticJson, formatDiagnostic, type Diagnostic } from '../kernel/diagnostics.js';
import { RemoteError, UserError } from '../kernel/errors.js';

/*
 * How a command that failed says so: every diagnostic with its position, a mistake of the user's
 * with what to do, never a stack trace (PLUMB_DEBUG=1 prints one for an internal error). A command
 * run with --json (or --format json) says it as JSON on stdout, for whatever reads that.
 */

/** The command that is running, once its action starts (set by `trackCommand`). */
let running: Command | undefined;

/** Notes which command runs, so that its failure is reported in its output format. */
export function trackCommand(program: Command): void {
  program.hook('preAction', (_program, action) => {
    running = action;
  });
}

/** Prints a failure the way the running command prints its output; returns the exit code (1). */
export function reportFailure(err: unknown): number {
  const diagnostics = asDiagnostics(err);
  const opts = running?.opts() ?? {};
  if (opts.json || opts.format === 'json') {
    process.stdout.write(`${JSON.stringify({ ok: false, diagnostics: diagnostics.map(diagnosticJson) }, null, 2)}\n`);
    return 1;
  }
  if (err instanceof DiagnosticsError) {
    process.stderr.write(`${err.diagnostics.map(formatDiagnostic).join('\n')}\n`);
    const errors = err.diagnostics.filter((d) => d.severity === 'error').length;
    process.stderr.write(`${errors} error${errors === 1 ? '' : 's'}; nothing was changed.\n`);
  } else {
    const [d] = diagnostics;
    process.stderr.write(`Error: ${d.summary}\n${d.detail ? `  ${d.detail}\n` : ''}`);
    if (!(err instanceof UserError || err instanceof RemoteError || fileProblem(err)) && process.env.PLUMB_DEBUG) process.stderr.write(`${(err as Error).stack}\n`);
  }
  return 1;
}

/** Any failure as diagnostics: its own, or one made of its message (and hint). */
function asDiagnostics(err: unknown): Diagnostic[] {
  if (err instanceof DiagnosticsError) return err.diagnostics;
  if (err instanceof UserError) return [{ severity: 'error', summary: err.message, detail: err.hint }];
  const file = fileProblem(err);
  return [{ severity: 'error', summary: file ?? (err as Error)?.message ?? String(err) }];
}

/** A file or folder that cannot be used, said of its path (a folder given as a manifest, say); undefined for other errors. */
function fileProblem(err: unknown): string | undefined {
  const e = err as NodeJS.ErrnoException;
  if (!e || typeof e.path !== 'string') return undefined;
  switch (e.code) {
    case 'ENOENT':
      return `${e.path} does not exist`;
    case 'EISDIR':
      return `${e.path} is a folder, not a file`;
    case 'ENOTDIR':
      return `${e.path}: part of that path is a file, not a folder`;
    case 'EEXIST':
      return `${e.path} is a file, where a folder is needed`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied: ${e.path}`;
    default:
      return undefined;
  }
}
