import { join } from 'node:path';
import type { z } from 'zod';
import { strict } from '../engine/contracts/strict.js';
import { valueProblems } from '../engine/checking/messages.js';
import { UserError } from '../kernel/errors.js';
import { resolveToken } from '../manifest/tokens.js';
import { tokenHint } from '../kernel/did-you-mean.js';
import { loadFunctions, providers } from './catalog.js';
import { mask } from '../kernel/values.js';
import type { CheckedManifest } from '../engine/checking/check-manifest.js';
import { drawSandboxLine } from './sandbox-line.js';
import { connectProvider, loadManifest, makeLogger, manifestPath, sandboxRuntime, type GlobalOptions } from './session.js';

/**
 * `plumb lookup TOKEN --arg k=v`: invokes one function and prints its result. With a manifest
 * (`-f`), its provider settings are used and its sandbox world is the one asked; otherwise the
 * provider's defaults and environment variables, and the sandbox of the current folder.
 */
export async function lookupCommand(raw: string, opts: { arg: string[]; json?: boolean }, globals: GlobalOptions): Promise<number> {
  const functions = await loadFunctions();
  const token = resolveToken(raw, functions.keys());
  if (!token) throw new UserError(`unknown function "${raw}"`, tokenHint(raw, functions.keys(), 'plumb schema lists every function'));
  const fn = functions.get(token)!;
  const parsed = lookupArgs(token, fn.args, opts.arg);
  const { settings, dir, checked } = await lookupSettings(fn.provider, globals);
  const log = makeLogger(globals);
  const runtime = sandboxRuntime(join(dir, '.plumb', 'sandbox'));
  try {
    const line = drawSandboxLine(runtime.url, checked);
    const connection = await connectProvider(fn.provider, settings, line.sandboxFor(fn.provider, settings), log);
    const warnings: string[] = [];
    const result = await fn.invoke({ client: connection.client, settings: connection.settings, log, warn: (m: string) => warnings.push(m), workDir: dir }, parsed);
    for (const w of warnings) process.stderr.write(`Warning: ${w}\n`);
    process.stdout.write(opts.json ? `${JSON.stringify(mask(result), null, 2)}\n` : `${pretty(mask(result))}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
}

/** The `--arg key=value` pairs as the function takes them; every problem is named, with what is valid. */
function lookupArgs(token: string, declared: z.ZodType, pairs: string[]): unknown {
  const schema = strict(declared);
  const args: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new UserError(`--arg ${pair}: expected key=value`);
    args[pair.slice(0, eq)] = literal(pair.slice(eq + 1));
  }
  let parsed = schema.safeParse(args);
  // A value that looks like a number may be meant as text (a name of digits).
  if (!parsed.success) parsed = schema.safeParse(Object.fromEntries(Object.entries(args).map(([k, v]) => [k, String(v)])));
  if (parsed.success) return parsed.data;
  const problems = valueProblems(schema, schema.safeParse(args).error?.issues ?? parsed.error.issues, args, 'argument', (name) => `--arg ${name}`);
  throw new UserError(`invalid arguments for ${token}:\n  ${problems.map((p) => `${p.summary}${p.detail ? ` (${p.detail})` : ''}`).join('\n  ')}`);
}

/**
 * The provider's settings and the folder whose sandbox is used: a manifest's (given with -f),
 * checked as its other commands check it, or the provider's defaults with its environment.
 */
async function lookupSettings(provider: string, globals: GlobalOptions): Promise<{ settings: Record<string, unknown>; dir: string; checked?: CheckedManifest }> {
  if (globals.file) {
    const checked = await loadManifest(manifestPath(undefined, globals), { stack: { name: globals.stack, state: globals.state } });
    const def = providers.find((p) => p.name === provider)!;
    return { settings: checked.settings.get(provider) ?? (def.settings.parse(envSettings(def)) as Record<string, unknown>), dir: checked.manifest.dir, checked };
  }
  const def = providers.find((p) => p.name === provider)!;
  const parsed = def.settings.safeParse(envSettings(def));
  if (!parsed.success) {
    const problems = valueProblems(def.settings, parsed.error.issues, envSettings(def), 'setting', (name) => `${provider}:${name}`);
    throw new UserError(`${provider} settings from the environment: ${problems.map((p) => p.summary).join('; ')}`);
  }
  return { settings: parsed.data as Record<string, unknown>, dir: process.cwd() };
}

/** A provider's settings as its environment variables give them. */
function envSettings(def: (typeof providers)[number]): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [variable, name] of Object.entries(def.envVars)) if (process.env[variable]) raw[name] = process.env[variable];
  return raw;
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
