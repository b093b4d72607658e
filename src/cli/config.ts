import type { Command } from 'commander';
import { existsSync, readFileSync, writeSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { UserError } from '../kernel/errors.js';
import { closestName } from '../kernel/did-you-mean.js';
import type { ConfigDecl, Manifest } from '../manifest/ast.js';
import { Secret, reveal } from '../kernel/values.js';
import type { GlobalOptions } from './session.js';

// Loaded when a config command runs: the CLI's start-up stays as it is for every other command.
const stateStore = () => import('./state-store.js');
const stackConfig = () => import('../manifest/stack-config.js');

/** A value read without opening it: `list` and `get` never need the key for a secret they do not show. */
const SEALED = Symbol('sealed');

/** What a config command works on: the manifest, its project and stack, and the stack's settings file. */
interface Place {
  opts: GlobalOptions;
  file: string;
  manifest: Manifest;
  project: string;
  settings: string;
}

/** `plumb config set KEY [VALUE] [--secret] | get KEY [--show-secrets] | rm KEY | list [--show-secrets]`: a stack's settings file. */
export function configCommand(program: Command, globals: () => GlobalOptions): void {
  const config = program.command('config').description("read and change a stack's config (its settings file beside the manifest)");
  const place = (cmd: Command) =>
    cmd
      .option('-f, --file <manifest>', "the manifest (default plumb.yaml, or the folder's Pulumi.yaml project)")
      .option('--stack <name>', 'stack name')
      .option('--state <url>', 'state location (its key seals secrets)');
  const where = async (cmd: Command): Promise<Place> => {
    const given = Object.fromEntries(Object.entries(cmd.opts()).filter(([, v]) => v !== undefined));
    const opts = { ...globals(), ...given } as GlobalOptions;
    if (opts.file !== undefined && !existsSync(opts.file)) throw new UserError(`manifest ${opts.file} not found`, "a stack's config belongs to a manifest: give it with -f MANIFEST");
    const file = (await import('../manifest/project.js')).findProgram(opts.file).program;
    const manifest = await declarations(file);
    const project = (await stateStore()).manifestProject(file, manifest.name);
    const { file: settings, other } = (await stackConfig()).stackConfigFile(manifest, opts.stack);
    if (other) throw new UserError(`${shown(settings)} and ${shown(other)} both hold the settings of stack "${opts.stack}"`, 'keep one of them (merge the other into it)');
    return { opts, file, manifest, project, settings };
  };
  place(config.command('set <key> [value]'))
    .description('set a value for the stack (read from stdin when VALUE is left out)')
    .option('--secret', 'store the value encrypted')
    .action(async (key: string, value: string | undefined, opts: { secret?: boolean }, cmd: Command) => setValue(await where(cmd), key, value ?? (await stdinValue(key)), Boolean(opts.secret)));
  place(config.command('get <key>'))
    .description("print the stack's value of a key")
    .option('--show-secrets', 'print a secret value')
    .option('--json', 'print JSON')
    .action(async (key: string, opts: { showSecrets?: boolean; json?: boolean }, cmd: Command) => {
      process.exitCode = await getValue(await where(cmd), key, opts);
    });
  place(config.command('rm <key>'))
    .description("remove a key from the stack's settings")
    .action(async (key: string, _opts: unknown, cmd: Command) => {
      const at = await where(cmd);
      const full = fullKey(at, key);
      const removed = (await stackConfig()).removeStackValue(at.settings, full);
      process.stdout.write(removed ? `Removed ${full} from ${shown(at.settings)}.\n` : `${full} is not set in ${shown(at.settings)}; nothing was changed.\n`);
    });
  place(config.command('list'))
    .description("list the stack's values and the declared keys it leaves to their defaults")
    .option('--show-secrets', 'print secret values')
    .option('--json', 'print JSON')
    .action(async (opts: { showSecrets?: boolean; json?: boolean }, cmd: Command) => list(await where(cmd), opts));
}

/** The manifest as far as it can be read, for its name and config declarations (other problems are for validate). */
async function declarations(file: string): Promise<Manifest> {
  const [{ parseManifest }, { projectFor }, { loadResourceTypes }] = await Promise.all([import('../manifest/parse.js'), import('../manifest/project.js'), import('./catalog.js')]);
  return parseManifest(readFileSync(file, 'utf8'), file, { resources: (await loadResourceTypes()).keys(), functions: [] }, projectFor(file)).manifest;
}

/** `key` as the settings file writes it: the project's namespace added to a bare key; a namespace of neither the project nor a provider refused. */
function fullKey(at: Place, key: string): string {
  if (!key.includes(':')) return `${at.project}:${key}`;
  return key;
}

/** The declaration of a project key (by its lookup name), if the manifest has one. */
function declarationOf(at: Place, full: string): { name: string; decl: ConfigDecl } | undefined {
  const key = full.slice(at.project.length + 1);
  if (!full.startsWith(`${at.project}:`)) return undefined;
  for (const [name, entry] of Object.entries(at.manifest.config)) {
    if (!name.includes(':') && entry.decl && (entry.decl.lookup ?? name) === key) return { name, decl: entry.decl };
  }
  return undefined;
}

async function setValue(at: Place, key: string, text: string, secretFlag: boolean): Promise<void> {
  const full = fullKey(at, key);
  const namespace = full.slice(0, full.indexOf(':'));
  const [{ providers }, { coerce }, { writeStackValue }, { stateCodec }, { ownSettings }] = await Promise.all([
    import('./catalog.js'),
    import('../manifest/config-resolve.js'),
    stackConfig(),
    stateStore(),
    import('./own-settings.js'),
  ]);
  // plumb's own keys (plumb:maxMonthlyIncrease) are set and checked as a provider's settings are.
  const named = providers.find((p) => p.name === namespace) ?? (namespace === ownSettings.name ? ownSettings : undefined);
  const { objectKeys } = await import('../engine/checking/check-inputs.js');
  // Where the project goes by that namespace's name (an unnamed plumb.yaml), a key that is none of its settings is the project's.
  const provider = named && namespace === at.project && !objectKeys(named.settings).includes(full.slice(namespace.length + 1)) ? undefined : named;
  if (namespace !== at.project && !provider) {
    throw new UserError(
      `${full}: "${namespace}" is neither this project (${at.project}) nor a provider`,
      `write a project key bare (${full.slice(namespace.length + 1)}) or as ${at.project}:<key>; providers: ${providers.map((p) => p.name).join(', ')}`,
    );
  }
  const declared = declarationOf(at, full);
  let value: unknown = text;
  if (declared?.decl.type) {
    const typed = coerce(text, declared.decl.type, declared.decl.items);
    if (!typed.ok)
      throw new UserError(
        `${full}: ${secretFlag || declared.decl.secret ? 'the value' : JSON.stringify(text)} is not ${declared.decl.type === 'integer' ? 'an' : 'a'} ${declared.decl.type}`,
        `${declared.name} is declared type: ${declared.decl.type} in ${basename(at.file)}`,
      );
    value = typed.value;
  }
  // A value the manifest (or the provider) says is secret is never written in plaintext.
  const implied = !secretFlag && (declared?.decl.secret || provider?.secretSettings.includes(full.slice(namespace.length + 1)));
  const secret = secretFlag || Boolean(implied);
  if (secret) writeStackValue(at.settings, full, { secure: await encrypted(at, value, stateCodec) });
  else {
    writeStackValue(at.settings, full, value);
  }
  const note = implied ? ` (encrypted: ${declared ? `${declared.name} is declared secret` : 'the provider keeps it secret'})` : secret ? ' (encrypted)' : '';
  process.stdout.write(`Set ${full} in ${shown(at.settings)}${note}.\n`);
  const settings = provider && objectKeys(provider.settings);
  const name = full.slice(namespace.length + 1);
  const unread = provider ? undefined : (await import('../manifest/config-resolve.js')).unreadKey(at.manifest, name);
  const unknown = provider ? unknownSetting(provider.name, settings || [], name) : unread && `${name} is not read: ${unread}`;
  if (unknown) process.stderr.write(`Warning: ${unknown}\n`);
}

/** What to say of a provider setting that does not exist; undefined for one that does. */
function unknownSetting(provider: string, settings: string[], name: string): string | undefined {
  if (!settings.length || settings.includes(name)) return undefined;
  const hint = closestName(name, settings);
  return `${provider} has no setting ${name}, so plan and validate will refuse it; ${hint ? `did you mean ${provider}:${hint}? ` : ''}settings: ${settings.join(', ')}`;
}

async function getValue(at: Place, key: string, opts: { showSecrets?: boolean; json?: boolean }): Promise<number> {
  const full = fullKey(at, key);
  const found = (await values(at, Boolean(opts.showSecrets))).get(full);
  if (!found) {
    const declared = declarationOf(at, full);
    const hint = declared?.decl.hasDefault ? `the manifest's default applies: ${declared.name} in ${basename(at.file)}` : `set it with plumb config set ${key} VALUE --stack ${at.opts.stack}`;
    throw new UserError(`${full} is not set for stack "${at.opts.stack}" (${shown(at.settings)})`, hint);
  }
  if (found.secret && !opts.showSecrets) throw new UserError(`${full} is a secret`, 'pass --show-secrets to print it');
  const plain = reveal(found.value);
  const text = opts.json ? JSON.stringify(plain) : typeof plain === 'string' ? plain : JSON.stringify(plain);
  // A secret asked for with --show-secrets bypasses the output's secret mask, which would hide it.
  if (found.secret) writeSync(1, `${text}\n`);
  else process.stdout.write(`${text}\n`);
  return 0;
}

async function list(at: Place, opts: { showSecrets?: boolean; json?: boolean }): Promise<void> {
  const set = await values(at, Boolean(opts.showSecrets));
  const rows: Array<{ key: string; value?: unknown; secret: boolean; set: boolean; required?: boolean }> = [];
  for (const [key, v] of set) rows.push({ key, value: v.secret && !opts.showSecrets ? '[secret]' : reveal(v.value), secret: v.secret, set: true });
  for (const [name, entry] of Object.entries(at.manifest.config)) {
    if (name.includes(':') || !entry.decl) continue;
    const key = `${at.project}:${entry.decl.lookup ?? name}`;
    if (!set.has(key)) rows.push({ key, secret: entry.decl.secret, set: false, required: !entry.decl.hasDefault });
  }
  rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (opts.json) {
    const text = `${JSON.stringify(rows, null, 2)}\n`;
    if (opts.showSecrets) writeSync(1, text);
    else process.stdout.write(text);
    return;
  }
  if (!rows.length) {
    process.stdout.write(`No config for stack "${at.opts.stack}" (${shown(at.settings)}).\n`);
    return;
  }
  const width = Math.max(...rows.map((r) => r.key.length), 3) + 2;
  const lines = [`${'KEY'.padEnd(width)}VALUE`];
  for (const r of rows) {
    const value = r.set ? (typeof r.value === 'string' ? r.value : JSON.stringify(r.value)) : r.required ? '(not set; required)' : "(not set; the manifest's default)";
    lines.push(`${r.key.padEnd(width)}${value}`);
  }
  const text = `${lines.join('\n')}\n`;
  if (opts.showSecrets) writeSync(1, text);
  else process.stdout.write(text);
}

/** The stack's values; secrets opened only when they are to be shown (else no key is needed). */
async function values(at: Place, open: boolean): Promise<Map<string, { value: unknown; secret: boolean }>> {
  const { readStackConfig } = await stackConfig();
  const codec = open ? (await stateStore()).stateCodec(at.opts, home(at)) : undefined;
  const read = readStackConfig(at.settings, (sealed, where) => codec!.decode({ $secret: sealed }, where), process.env, open ? undefined : { value: SEALED });
  if (read.diagnostics.length) {
    const { DiagnosticsError } = await import('../kernel/diagnostics.js');
    throw new DiagnosticsError(read.diagnostics);
  }
  const out = new Map<string, { value: unknown; secret: boolean }>();
  for (const [key, v] of read.values) out.set(key.includes(':') ? key : `${at.project}:${key}`, v);
  return out;
}

/**
 * A new secret as the settings file keeps it: with Pulumi's passphrase key in a file that has an
 * `encryptionsalt` (so that `pulumi` reads it too), else sealed with the state location's key.
 */
async function encrypted(at: Place, value: unknown, stateCodec: typeof import('./state-store.js').stateCodec): Promise<string> {
  const { stackSecretsOf } = await stackConfig();
  const { pulumiKey, problems } = stackSecretsOf(at.settings);
  if (problems.length) {
    const { DiagnosticsError } = await import('../kernel/diagnostics.js');
    throw new DiagnosticsError(problems);
  }
  if (pulumiKey) {
    const { encryptWith } = await import('../manifest/pulumi-secrets.js');
    return encryptWith(pulumiKey, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return (stateCodec(at.opts, home(at)).encode(new Secret(value)) as { $secret: string }).$secret;
}

/** Where the project's state (and its key) is kept: beside its project file, or its manifest. */
function home(at: Place): string {
  return dirname(resolve(at.manifest.projectFile ?? at.file));
}

/** A path as the user would type it from here. */
function shown(file: string): string {
  return relative(process.cwd(), file) || file;
}

/** The value of `config set KEY` without one: what stdin holds (one trailing line break dropped), so a secret stays out of the shell's history. */
async function stdinValue(key: string): Promise<string> {
  if (process.stdin.isTTY) throw new UserError(`config set ${key}: give the value`, `plumb config set ${key} VALUE, or pipe it in: printf %s "$VALUE" | plumb config set ${key} --secret`);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
