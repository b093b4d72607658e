import { UserError } from '../kernel/errors.js';
import { closestName } from '../kernel/did-you-mean.js';
import { manifestDir, manifestPath, type GlobalOptions } from './session.js';
import { manifestProject, openStore } from './state-store.js';

/** What `plumb output` shows a secret as: outputs are recorded with their secrets masked, and stay so. */
const SECRET = '[secret]';

/**
 * `plumb output [NAME] [--json|--raw]`: the outputs the last apply recorded for the stack, all
 * (`name = value`), or one; `--raw` prints a text as it is, for a script to use.
 */
export async function outputCommand(name: string | undefined, opts: GlobalOptions & { json?: boolean; raw?: boolean }): Promise<number> {
  if (opts.json && opts.raw) throw new UserError('--json and --raw cannot be used together');
  if (opts.raw && name === undefined) throw new UserError('--raw prints one output: give its name', 'plumb output NAME --raw');
  // Read from state alone, as `plumb state` reads it: a manifest being edited need not be valid.
  const file = manifestPath(undefined, opts);
  const store = openStore(opts, manifestDir(file), manifestProject(file));
  let outputs: Record<string, unknown>;
  try {
    outputs = (await store.read()).outputs ?? {};
  } finally {
    await store.close();
  }
  if (name === undefined) {
    if (opts.json) process.stdout.write(`${JSON.stringify(outputs, null, 2)}\n`);
    else if (!Object.keys(outputs).length) process.stderr.write('No outputs recorded for this stack: the manifest declares none, or it has not been applied.\n');
    else for (const [key, value] of Object.entries(outputs)) process.stdout.write(`${key} = ${shown(value)}\n`);
    return 0;
  }
  if (!Object.hasOwn(outputs, name)) {
    const names = Object.keys(outputs);
    const hint = closestName(name, names);
    throw new UserError(`no output "${name}" recorded for stack "${opts.stack}"`, `${hint ? `did you mean ${hint}? ` : ''}outputs: ${names.join(', ') || '(none: apply the manifest first)'}`);
  }
  const value = outputs[name];
  if (opts.json) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  else if (opts.raw) process.stdout.write(raw(name, value));
  else process.stdout.write(`${shown(value)}\n`);
  return 0;
}

/** A value as `name = value` shows it: text quoted, anything else as JSON. */
function shown(value: unknown): string {
  return JSON.stringify(value, null, typeof value === 'object' && value !== null ? 2 : undefined);
}

/** A text, number or boolean as it is, without a newline (as `terraform output -raw`); anything else is refused. */
function raw(name: string, value: unknown): string {
  if (value === SECRET) throw new UserError(`output ${name} is secret: plumb never prints a secret`);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new UserError(`output ${name} is ${Array.isArray(value) ? 'a list' : value === null ? 'null' : 'a mapping'}: --raw prints only a text, number or boolean`, `plumb output ${name} --json`);
}
