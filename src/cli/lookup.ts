import { join } from 'node:path';
import { UserError } from '../errors.js';
import { closest, resolveToken } from '../manifest/tokens.js';
import { functions, providers } from '../registry.js';
import { mask } from '../values.js';
import { connectProvider, makeLogger, sandboxRuntime, type GlobalOptions } from './session.js';

/** `plumb lookup TOKEN --arg k=v`: invokes one function and prints its result. */
export async function lookupCommand(raw: string, opts: { arg: string[]; json?: boolean }, globals: GlobalOptions): Promise<number> {
  const token = resolveToken(raw, functions.keys());
  if (!token) {
    const hint = closest(raw, functions.keys());
    throw new UserError(`unknown function "${raw}"`, hint ? `did you mean ${hint}?` : 'plumb schema lists every function');
  }
  const fn = functions.get(token)!;
  const args: Record<string, unknown> = {};
  for (const pair of opts.arg) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new UserError(`--arg ${pair}: expected key=value`);
    args[pair.slice(0, eq)] = literal(pair.slice(eq + 1));
  }
  let parsed = fn.args.safeParse(args);
  if (!parsed.success) parsed = fn.args.safeParse(Object.fromEntries(Object.entries(args).map(([k, v]) => [k, String(v)])));
  if (!parsed.success) {
    throw new UserError(`invalid arguments for ${token}:\n  ${parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('\n  ')}`);
  }
  const log = makeLogger(globals);
  const runtime = sandboxRuntime(join(process.cwd(), '.plumb', 'sandbox'));
  try {
    const provider = providers.find((p) => p.name === fn.provider)!;
    const raw: Record<string, unknown> = {};
    for (const [variable, name] of Object.entries(provider.envVars)) if (process.env[variable]) raw[name] = process.env[variable];
    const settings = provider.settings.safeParse(raw);
    if (!settings.success) throw new UserError(`${provider.name} settings: ${settings.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    const connection = await connectProvider(fn.provider, settings.data as Record<string, unknown>, runtime.url, log);
    const warnings: string[] = [];
    const result = await fn.invoke({ client: connection.client, settings: connection.settings, log, warn: (m: string) => warnings.push(m), workDir: process.cwd() }, parsed.data);
    for (const w of warnings) process.stderr.write(`Warning: ${w}\n`);
    process.stdout.write(opts.json ? `${JSON.stringify(mask(result), null, 2)}\n` : `${pretty(mask(result))}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
}

function literal(text: string): unknown {
  if (/^(true|false|null|-?\d+(\.\d+)?)$/.test(text) || /^[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function pretty(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return value.map((v) => `\n${indent}- ${pretty(v, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  }
  return Object.entries(value)
    .map(([k, v]) => `\n${indent}${k}: ${pretty(v, `${indent}  `)}`)
    .join('')
    .replace(/^\n/, indent ? '\n' : '');
}
