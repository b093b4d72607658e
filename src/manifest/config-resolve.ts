/**
 * The config values in effect for a stack. Each key takes, first found: `--config KEY=VALUE`, then
 * the environment (`PLUMB_CONFIG_<key>`, a namespace's `:` written `__`), then the stack's settings
 * file, then the manifest (a declaration's `default`, or the value written there). A value is
 * checked against its declared type where it was given; a declared key with no default and no
 * value is an error saying how to set it.
 */
import { basename } from 'node:path';
import { type Diagnostic, type SourcePos, warningAt } from '../kernel/diagnostics.js';
import { type ConfigDecl, type ConfigEntry, type ConfigType, type Manifest, type Pos, refsOf, resourceRefs } from './ast.js';
import { article } from './config-decl.js';
import { type OpenSecret, readStackConfig, stackConfigFile, type StackValue } from './stack-config.js';
import { stackNameProblem } from '../kernel/names.js';
import { closestName } from '../kernel/did-you-mean.js';
import { noteSecret, Secret } from '../kernel/values.js';

/** Where a stack's config comes from besides the manifest. */
export interface ConfigSources {
  stack: string;
  /** `--config KEY=VALUE` flags, in order (a later one wins). */
  flags?: string[];
  env?: Record<string, string | undefined>;
  /** Opens the stack file's sealed values (the state location's key). */
  open: OpenSecret;
  /** Provider names: a key in their namespace is a provider setting. */
  providers: string[];
  /** The namespace of the tool's own keys (`plumb:maxMonthlyIncrease`), kept as a provider's are. */
  own?: string;
  /** The settings of each of those namespaces (see Catalog.settings): one stays a setting where the project goes by its namespace's name. */
  settings?: Readonly<Record<string, readonly string[]>>;
}

/** A value given for a key, and where. */
interface Given {
  value: unknown;
  secret: boolean;
  source: NonNullable<ConfigEntry['source']>;
  /** The file and position (stack file), or the flag or variable it came from. */
  where: { file: string; pos: Pos } | { label: string };
  /** Whether the key was written with a namespace (`plumb:maxMonthlyIncrease`), not bare. */
  namespaced: boolean;
}

const ENV_PREFIX = 'PLUMB_CONFIG_';

/** Sets `manifest.stack` and each config entry to its value for that stack; returns every problem found. */
export function resolveConfig(manifest: Manifest, sources: ConfigSources): Diagnostic[] {
  manifest.stack = sources.stack;
  const diagnostics: Diagnostic[] = [];
  const given = new Map<string, Given>();
  // A stack name that cannot name its state names no settings file either: none is looked for.
  const badStack = stackNameProblem(sources.stack);
  const { file: stackFile, read } = badStack
    ? { file: '', read: { values: new Map<string, StackValue>(), diagnostics: [{ severity: 'error' as const, ...badStack }] } }
    : readStackFile(manifest, sources);
  diagnostics.push(...read.diagnostics);
  const settings = (namespace: string) => sources.providers.includes(namespace) || namespace === sources.own;
  // Where the project goes by a settings namespace's name (an unnamed plumb.yaml), that namespace's own settings stay its.
  const setting = (key: string) => key.startsWith(`${manifest.project}:`) && (sources.settings?.[manifest.project] ?? []).includes(key.slice(manifest.project.length + 1));
  for (const [key, v] of read.values)
    given.set(fullKey(manifest.project, key), { value: v.value, secret: v.secret, source: 'stack', where: { file: stackFile, pos: v.pos }, namespaced: key.includes(':') });
  manifest.warnings.push(
    ...undeclaredStackKeys(
      manifest,
      [...read.values].filter(([key]) => !setting(key)),
      stackFile,
    ),
  );
  givenForRun(manifest, sources, given, diagnostics);
  const prefix = `${manifest.project}:`;
  for (const [key, value] of given) {
    const namespace = key.slice(0, key.indexOf(':'));
    // A manifest without a name goes by its file's (plumb.yaml: "plumb"): a key written in a settings namespace is that setting.
    if (key.startsWith(prefix) && !(value.namespaced && setting(key))) applyProjectValue(manifest, key.slice(prefix.length), value, diagnostics);
    else if (settings(namespace))
      manifest.config[key] = { value: { kind: 'value', value: value.value, pos: posOf(value) }, pos: posOf(value), file: fileOf(value), label: labelOf(value), source: value.source };
    else
      diagnostics.push(
        problem(value, key, `"${namespace}" is neither this project (${manifest.project}) nor a provider`, `project keys are written ${prefix}<key>; providers: ${sources.providers.join(', ')}`),
      );
  }
  // A settings file that could not be read whole may hold the values that look missing.
  const unread = read.diagnostics.length > 0;
  for (const [key, entry] of Object.entries(manifest.config)) {
    if (key.includes(':') || !entry.decl || entry.source !== 'manifest') continue;
    if (!entry.decl.hasDefault) {
      if (!unread) diagnostics.push(missing(manifest, key, entry, [...given.keys()]));
    } else if (entry.decl.secret) entry.value = { kind: 'secret', value: entry.value, pos: entry.value.pos };
  }
  return diagnostics;
}

/** The values given for this run alone: the environment's (`PLUMB_CONFIG_<key>`), then `--config` flags (a later one wins). */
function givenForRun(manifest: Manifest, sources: ConfigSources, given: Map<string, Given>, diagnostics: Diagnostic[]): void {
  for (const [name, value] of Object.entries(sources.env ?? {})) {
    if (!name.startsWith(ENV_PREFIX) || value === undefined) continue;
    const key = name.slice(ENV_PREFIX.length).replace(/__/g, ':');
    if (key) given.set(fullKey(manifest.project, key), { value, secret: false, source: 'environment', where: { label: name }, namespaced: key.includes(':') });
  }
  for (const flag of sources.flags ?? []) {
    const eq = flag.indexOf('=');
    if (eq < 1) diagnostics.push({ severity: 'error', summary: `--config ${flag}: expected KEY=VALUE`, detail: 'e.g. --config dbName=orders or --config interconnect:waitTime=20' });
    else
      given.set(fullKey(manifest.project, flag.slice(0, eq)), {
        value: flag.slice(eq + 1),
        secret: false,
        source: 'flag',
        where: { label: `--config ${flag.slice(0, eq)}` },
        namespaced: flag.slice(0, eq).includes(':'),
      });
  }
}

/**
 * The project keys a stack's settings file sets that the manifest neither declares nor refers to,
 * each a warning at its place naming the closest declared key: a slip (`portSped`) would otherwise
 * be kept and never read. (A key referred to without a declaration is read, as in Pulumi.)
 */
function undeclaredStackKeys(manifest: Manifest, values: Iterable<[string, StackValue]>, file: string): Diagnostic[] {
  const prefix = `${manifest.project}:`;
  const warnings: Diagnostic[] = [];
  for (const [raw, value] of values) {
    const key = raw.startsWith(prefix) ? raw.slice(prefix.length) : raw;
    const unread = key.includes(':') ? undefined : unreadKey(manifest, key);
    if (unread) warnings.push(warningAt({ file, ...value.pos }, `${key} is set for stack "${manifest.stack}" but ${unread}`));
  }
  return warnings;
}

/**
 * What to say of a project config key that the manifest neither declares nor refers to (`plumb.yaml
 * does not declare it; did you mean portSpeed? declared keys: …`); undefined for one it reads, and
 * for a resource's or variable's name, an error of its own. The manifest's config holds its own
 * keys only (before a stack's values are applied).
 */
export function unreadKey(manifest: Manifest, key: string): string | undefined {
  const declared = Object.entries(manifest.config).flatMap(([name, entry]) => (name.includes(':') ? [] : [entry.decl?.lookup ?? name]));
  if (declared.includes(key) || Object.hasOwn(manifest.variables, key) || Object.hasOwn(manifest.resources, key)) return undefined;
  const refs = [...Object.values(manifest.variables), ...Object.values(manifest.outputs)].flatMap((expr) => refsOf(expr));
  for (const decl of Object.values(manifest.resources)) resourceRefs(decl, refs);
  if (refs.some((ref) => ref.root === key)) return undefined;
  const hint = closestName(key, declared);
  // A Pulumi project declares its keys in Pulumi.yaml, its program (Main.yaml) may too.
  const files = manifest.projectFile && manifest.projectFile !== manifest.file ? `neither ${basename(manifest.projectFile)} nor ${basename(manifest.file)}` : basename(manifest.file);
  const declares = files.startsWith('neither') ? 'declares' : 'does not declare';
  return `${files} ${declares} it; ${hint ? `did you mean ${hint}? ` : ''}${declared.length ? `declared keys: ${declared.join(', ')}` : 'no config key is declared'}`;
}

/** The stack's settings file and what it holds; a second file for the same stack is refused, naming both. */
function readStackFile(manifest: Manifest, sources: ConfigSources): { file: string; read: ReturnType<typeof readStackConfig> } {
  const { file, other } = stackConfigFile(manifest, sources.stack);
  if (other) {
    const summary = `${file} and ${other} both hold the settings of stack "${sources.stack}"`;
    return { file, read: { values: new Map(), diagnostics: [{ severity: 'error', summary, detail: 'keep one of them (merge the other into it)', pos: { file: other, line: 1, column: 1 } }] } };
  }
  return { file, read: readStackConfig(file, sources.open, sources.env) };
}

/** `key` with the project's namespace when it has none. */
function fullKey(project: string, key: string): string {
  return key.includes(':') ? key : `${project}:${key}`;
}

/** Sets a project key (declared or not) to a value given for the stack, checked against its type. */
function applyProjectValue(manifest: Manifest, key: string, given: Given, diagnostics: Diagnostic[]): void {
  // A declaration may look its value up under another key (`name:`).
  const declared = Object.entries(manifest.config).find(([k, e]) => !k.includes(':') && (e.decl?.lookup ?? k) === key);
  const name = declared?.[0] ?? key;
  const entry = declared?.[1];
  if (!entry && (Object.hasOwn(manifest.variables, key) || Object.hasOwn(manifest.resources, key))) {
    diagnostics.push(
      problem(
        given,
        key,
        `${key} is a ${Object.hasOwn(manifest.resources, key) ? 'resource' : 'variable'} of the manifest, not a config key`,
        'config keys, variables and resources share one namespace',
      ),
    );
    return;
  }
  const decl: ConfigDecl = entry?.decl ?? { secret: false, hasDefault: true };
  // A value given but refused is not also missing.
  const refuse = (diagnostic: Diagnostic) => {
    diagnostics.push(diagnostic);
    if (entry) entry.source = given.source;
  };
  if (given.secret && decl.secretPos && !decl.secret) {
    refuse({
      severity: 'error',
      summary: `config ${name} is declared secret: false, but its value for this stack is kept secret`,
      detail: 'remove secret: false, or set the value again without --secret',
      pos: { file: decl.file ?? manifest.file, ...decl.secretPos },
    });
    return;
  }
  const plain = given.value instanceof Secret ? given.value.value : given.value;
  // A value for a key declared secret is one from here on, written in plain text or not: its text is
  // masked wherever it turns up (the source line under an error about it, too).
  if (decl.secret && !given.secret) noteSecret(plain);
  const typed = coerce(plain, decl.type, decl.items);
  if (!typed.ok) {
    // A key declared secret keeps its value out of the message too, even one written in plain text.
    const shown = given.secret || decl.secret ? 'the value (secret)' : JSON.stringify(plain);
    const detail = decl.type === 'list' || decl.type === 'object' ? `write it as JSON, e.g. ${decl.type === 'list' ? '[1, 2]' : '{"a": 1}'}` : undefined;
    refuse(problem(given, name, `${shown} is not ${article(decl.items ? `list of ${decl.items}` : (decl.type as string))}`, detail));
    return;
  }
  const secret = given.secret || decl.secret;
  const pos = posOf(given);
  manifest.config[name] = {
    value: { kind: 'value', value: secret ? new Secret(typed.value) : typed.value, pos },
    pos: entry?.pos ?? pos,
    file: fileOf(given),
    label: labelOf(given),
    source: given.source,
    decl,
  };
}

/** A value as the declared type has it: the text a flag or variable gives, parsed; undefined type takes anything. */
export function coerce(value: unknown, type: ConfigType | undefined, items?: ConfigType): { ok: true; value: unknown } | { ok: false } {
  const ok = (v: unknown) => ({ ok: true as const, value: v });
  const text = typeof value === 'string' ? value.trim() : undefined;
  switch (type) {
    case undefined:
      return ok(value);
    case 'string':
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? ok(String(value)) : { ok: false };
    case 'integer':
      if (typeof value === 'number' && Number.isInteger(value)) return ok(value);
      return text !== undefined && /^[-+]?\d+$/.test(text) ? ok(Number(text)) : { ok: false };
    case 'number':
      if (typeof value === 'number') return ok(value);
      return text !== undefined && text !== '' && Number.isFinite(Number(text)) ? ok(Number(text)) : { ok: false };
    case 'boolean':
      if (typeof value === 'boolean') return ok(value);
      return text === 'true' || text === 'false' ? ok(text === 'true') : { ok: false };
    case 'list': {
      const list = text !== undefined ? parseJson(text) : value;
      if (!Array.isArray(list)) return { ok: false };
      const out: unknown[] = [];
      for (const item of list) {
        const typed = coerce(item, items);
        if (!typed.ok) return typed;
        out.push(typed.value);
      }
      return ok(out);
    }
    case 'object': {
      const object = text !== undefined ? parseJson(text) : value;
      return object !== null && typeof object === 'object' && !Array.isArray(object) ? ok(object) : { ok: false };
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A required key with no value: said at its declaration, with how to set it. */
function missing(manifest: Manifest, key: string, entry: ConfigEntry, given: string[]): Diagnostic {
  const lookup = entry.decl?.lookup ?? key;
  const near = closestName(`${manifest.project}:${lookup}`, given);
  const secret = entry.decl?.secret ? ' --secret' : '';
  return {
    severity: 'error',
    summary: `config ${key} has no value for stack "${manifest.stack}" and no default`,
    detail: `set it: plumb config set ${lookup} VALUE${secret} --stack ${manifest.stack} (or --config ${lookup}=VALUE, or ${ENV_PREFIX}${lookup})${near ? `; ${near} is set, did you mean it?` : ''}`,
    pos: { file: entry.file ?? manifest.file, ...entry.pos },
  };
}

function posOf(given: Given): Pos {
  return 'pos' in given.where ? given.where.pos : { line: 1, column: 1 };
}

function fileOf(given: Given): string | undefined {
  return 'file' in given.where ? given.where.file : undefined;
}

function labelOf(given: Given): string | undefined {
  return 'label' in given.where ? given.where.label : undefined;
}

/** Where a problem with a config entry's value is reported: its file and position, or the flag or variable that gave it. */
export function configPlace(manifest: Manifest, entry: ConfigEntry | undefined): { pos?: SourcePos; address?: string } {
  if (!entry) return { pos: { file: manifest.file, line: 1, column: 1 } };
  if (entry.label) return { address: entry.label };
  return { pos: { file: entry.file ?? manifest.file, ...(entry.source === 'stack' ? entry.value.pos : entry.pos) } };
}

/** A problem with the value given for `key`: at its place in the stack file, or naming the flag or variable that gave it. */
function problem(given: Given, key: string, what: string, detail?: string): Diagnostic {
  if ('file' in given.where) return { severity: 'error', summary: `config ${key}: ${what}`, detail, pos: { file: given.where.file, ...given.where.pos } };
  return { severity: 'error', summary: `${given.where.label}: ${what}`, detail };
}
