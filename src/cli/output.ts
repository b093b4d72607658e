import { writeSync } from 'node:fs';
import { UserError } from '../kernel/errors.js';
import { closestName } from '../kernel/did-you-mean.js';
import { Secret, reveal } from '../kernel/values.js';
import { manifestDir, manifestPath, type GlobalOptions } from './session.js';
import { manifestProject, openStore } from './state-store.js';

/** How a secret is shown without --show-secrets; also what state written before secret outputs were sealed holds in their place. */
const SECRET = '[secret]';

/** Flags of `plumb output`. */
export interface OutputOptions extends GlobalOptions {
  json?: boolean;
  raw?: boolean;
  showSecrets?: boolean;
}

/**
 * `plumb output [NAME] [--json|--raw] [--show-secrets]`: the outputs the last apply recorded for
 * the stack, all (`name = value`), or one; `--raw` prints a text as it is, for a script to use.
 * State keeps secret outputs sealed; they are opened only with --show-secrets (as
 * `pulumi stack output --show-secrets`), and shown as `[secret]` otherwise.
 */
export async function outputCommand(name: string | undefined, opts: OutputOptions): Promise<number> {
  if (opts.json && opts.raw) throw new UserError('--json and --raw cannot be used together');
  if (opts.raw && name === undefined) throw new UserError('--raw prints one output: give its name', 'plumb output NAME --raw');
  const outputs = await recordedOutputs(opts);
  if (name === undefined) {
    if (!opts.json && !Object.keys(outputs).length) process.stderr.write('No outputs recorded for this stack: the manifest declares none, or it has not been applied.\n');
    else if (opts.json) print(`${JSON.stringify(shownValue(outputs, opts), null, 2)}\n`);
    else
      print(
        Object.entries(outputs)
          .map(([key, value]) => `${key} = ${shown(shownValue(value, opts))}\n`)
          .join(''),
      );
    if (opts.showSecrets) noteMasked(Object.keys(outputs).filter((key) => outputs[key] === SECRET));
    return 0;
  }
  if (!Object.hasOwn(outputs, name)) {
    const names = Object.keys(outputs);
    const hint = closestName(name, names);
    throw new UserError(`no output "${name}" recorded for stack "${opts.stack}"`, `${hint ? `did you mean ${hint}? ` : ''}outputs: ${names.join(', ') || '(none: apply the manifest first)'}`);
  }
  const value = outputs[name];
  if (opts.showSecrets && value === SECRET) throw maskedError([name]);
  if (opts.raw) print(raw(name, value, opts));
  else if (opts.json) print(`${JSON.stringify(shownValue(value, opts), null, 2)}\n`);
  else print(`${shown(shownValue(value, opts))}\n`);
  return 0;
}

/** The outputs as state records them, secrets opened into Secret values. Read from state alone, as `plumb state` reads it: a manifest being edited need not be valid. */
async function recordedOutputs(opts: GlobalOptions): Promise<Record<string, unknown>> {
  const file = manifestPath(undefined, opts);
  const store = openStore(opts, manifestDir(file), manifestProject(file));
  try {
    return (await store.read()).outputs ?? {};
  } finally {
    await store.close();
  }
}

/**
 * Writes straight to stdout. What is printed here is what state recorded as plain, and secrets
 * only when asked for with --show-secrets: the output's secret mask, which hides the text of any
 * secret this process has opened, would hide a plain output that shares its text (an
 * fn::unsecret of it) and the secrets asked for. Logs keep their own mask.
 */
function print(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(1, bytes, at);
    } catch (err) {
      // A reader that went away ends what is printed (`plumb output | head -1`); a pipe its
      // reader has not emptied yet is tried again (the outputs of one stack are small).
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return;
      if (code !== 'EAGAIN') throw err;
    }
  }
}

/** The value to print: its secrets opened with --show-secrets, `[secret]` otherwise. */
function shownValue(value: unknown, opts: { showSecrets?: boolean }): unknown {
  return opts.showSecrets ? reveal(value) : JSON.parse(JSON.stringify(value) ?? 'null');
}

/** A value as `name = value` shows it: text quoted, anything else as JSON. */
function shown(value: unknown): string {
  return JSON.stringify(value, null, typeof value === 'object' && value !== null ? 2 : undefined);
}

/** A text, number or boolean as it is, without a newline (as `terraform output -raw`); anything else is refused, naming what it is. */
function raw(name: string, value: unknown, opts: { showSecrets?: boolean }): string {
  const secret = value instanceof Secret || value === SECRET;
  if (secret && !opts.showSecrets) throw new UserError(`output ${name} is secret: --raw prints it only when asked for`, `plumb output ${name} --raw --show-secrets`);
  const plain = reveal(value);
  if (typeof plain === 'string' || typeof plain === 'number' || typeof plain === 'boolean') return String(plain);
  throw new UserError(`output ${name} is ${kindOf(plain)}: --raw prints only a text, number or boolean`, `plumb output ${name} --json${secret ? ' --show-secrets' : ''}`);
}

function kindOf(value: unknown): string {
  return Array.isArray(value) ? 'a list' : value === null || value === undefined ? 'null' : 'a mapping';
}

/** The secret outputs state recorded as `[secret]` alone, before plumb kept them sealed: their values were never kept. */
function maskedError(names: string[]): UserError {
  const which = names.length === 1 ? `output ${names[0]} was` : `outputs ${names.join(', ')} were`;
  return new UserError(`${which} recorded as [secret] before plumb kept secret outputs (sealed) in state: the value cannot be shown`, 'run plumb apply to record it, then plumb output --show-secrets');
}

function noteMasked(names: string[]): void {
  if (!names.length) return;
  const err = maskedError(names);
  process.stderr.write(`Note: ${err.message}; ${err.hint}.\n`);
}
