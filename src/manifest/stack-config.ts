/**
 * A stack's settings file, as Pulumi's `Pulumi.<stack>.yaml`: beside the manifest, named after it
 * and the stack (`plumb.yaml` → `plumb.prod.yaml`; a Pulumi project's `Pulumi.prod.yaml`),
 * holding `config:` keys namespaced by the project or a provider (`edge:dbPassword`,
 * `interconnect:waitTime`). A secret is kept as `{ secure: ... }`: sealed with the state
 * location's key, or encrypted by Pulumi's passphrase provider (see stack-secrets.ts).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { Document, isAlias, isMap, isScalar, isSeq, type Node, type Pair, parseDocument } from 'yaml';
import { Secret } from '../kernel/values.js';
import type { Diagnostic } from '../kernel/diagnostics.js';
import type { Pos } from './ast.js';
import { decodeUtf8, readYaml } from './yaml-source.js';
import { NOT_OPENED, StackSecrets } from './stack-secrets.js';

/** Opens a sealed value (`secure:`) read at `where`: a Secret, or throws naming the file and the key. */
export type OpenSecret = (sealed: string, where: string) => unknown;

/** One value set in a stack's settings file. */
export interface StackValue {
  value: unknown;
  /** Kept sealed in the file (`secure:`). */
  secret: boolean;
  pos: Pos;
}

/** The settings file of `stack` for the manifest at `manifestFile`: `<name less extension>.<stack>.yaml` beside it. */
function ownStackFile(manifestFile: string, stack: string): string {
  return join(dirname(manifestFile), `${basename(manifestFile, extname(manifestFile))}.${stack}.yaml`);
}

/**
 * The settings file of `stack` for a program: `Pulumi.<stack>.yaml` beside the project file of
 * a Pulumi project, `<name>.<stack>.yaml` beside any other manifest, and for `plumb.yaml` either
 * `plumb.<stack>.yaml` or `Pulumi.<stack>.yaml` (the folder's project, as Pulumi names its stack
 * files; not when a Pulumi.yaml is there too, whose they are). `other` names a second one
 * found for the same stack, which is an error to report.
 */
export function stackConfigFile(program: { file: string; projectFile?: string }, stack: string): { file: string; other?: string } {
  const pulumi = (dir: string) => join(dir, `Pulumi.${stack}.yaml`);
  if (program.projectFile) return { file: pulumi(dirname(program.projectFile)) };
  const own = ownStackFile(program.file, stack);
  // Beside a Pulumi.yaml, Pulumi.<stack>.yaml files are that project's.
  if (basename(program.file) !== 'plumb.yaml' || existsSync(join(dirname(program.file), 'Pulumi.yaml'))) return { file: own };
  const theirs = pulumi(dirname(program.file));
  if (existsSync(own) && existsSync(theirs)) return { file: own, other: theirs };
  return { file: existsSync(theirs) ? theirs : own };
}

/** The stacks that have a settings file for a program (as stackConfigFile names them), with the file. */
export function stackConfigFiles(program: { file: string; projectFile?: string }): Map<string, string> {
  const dir = dirname(program.projectFile ?? program.file);
  const own = basename(program.file, extname(program.file));
  const pulumiBeside = own === 'plumb' && !existsSync(join(dir, 'Pulumi.yaml'));
  const prefixes = program.projectFile || own === 'Pulumi' ? ['Pulumi'] : pulumiBeside ? ['plumb', 'Pulumi'] : [own];
  const found = new Map<string, string>();
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return found;
  }
  for (const name of names) {
    const prefix = prefixes.find((p) => name.startsWith(`${p}.`) && name.endsWith('.yaml'));
    const stack = prefix && name.slice(prefix.length + 1, -'.yaml'.length);
    if (stack && !found.has(stack)) found.set(stack, join(dir, name));
  }
  return found;
}

/**
 * The values a stack's settings file holds, by key as written; none when there is no file.
 * Secure values are opened (plumb's with `open`, Pulumi's with the passphrase in `env`) unless
 * `unopened` is given, which then stands for each of them.
 */
export function readStackConfig(
  file: string,
  open: OpenSecret,
  env: Record<string, string | undefined> = process.env,
  unopened?: { value: unknown },
): { values: Map<string, StackValue>; diagnostics: Diagnostic[] } {
  const values = new Map<string, StackValue>();
  if (!existsSync(file)) return { values, diagnostics: [] };
  const decoded = decodeUtf8(readFileSync(file), file);
  if (decoded.diagnostics.length) return { values, diagnostics: decoded.diagnostics };
  const source = readYaml(decoded.text, file);
  const diagnostics = source.diagnostics;
  if (diagnostics.length) return { values, diagnostics };
  const error = (node: unknown, summary: string, detail?: string) => diagnostics.push({ severity: 'error', summary, detail, pos: { file, ...source.at(node as Node) } });
  const root = source.doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return { values, diagnostics };
  if (!isMap(root)) {
    error(root, 'a stack settings file must be a mapping with config:');
    return { values, diagnostics };
  }
  const secrets = new StackSecrets(file, open, env, error, unopened);
  let config: Node | null = null;
  for (const pair of root.items as Pair[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const value = (isAlias(pair.value) ? source.target(pair.value) : pair.value) as Node | null;
    if (key === 'config') config = value;
    else if (!secrets.readKey(key, value, pair.key as Node)) error(pair.key, `unknown key "${key}" in a stack settings file`, 'it holds config: <project or provider>:<key>: value');
  }
  if (config === null || (isScalar(config) && config.value === null)) return { values, diagnostics };
  if (!isMap(config)) {
    error(config, 'config must be a mapping of keys to values');
    return { values, diagnostics };
  }
  for (const item of config.items as Pair[]) {
    const name = isScalar(item.key) ? String(item.key.value) : '';
    const pos = source.at((item.value ?? item.key) as Node);
    const value = readValue(item.value as Node, pos, secrets, (n) => source.at(n));
    if (value) values.set(name, value);
  }
  return { values, diagnostics };
}

/**
 * A value as written, or a sealed one (`{ secure: ... }`) opened; undefined for one that cannot
 * be opened (reported). A structured value holding sealed parts (as Pulumi writes a secret inside
 * an object) is opened whole and kept secret whole.
 */
function readValue(node: Node | null, pos: Pos, secrets: StackSecrets, at: (node: Node) => Pos): StackValue | undefined {
  const own = secureText(node);
  if (own) {
    const value = secrets.open(own.text, own.node, pos);
    return value === NOT_OPENED ? undefined : { value, secret: true, pos };
  }
  if (!holdsSecure(node)) return { value: node === null || node === undefined ? null : (node.toJSON() as unknown), secret: false, pos };
  let opened = true;
  const plain = (n: unknown): unknown => {
    const sealed = secureText(n as Node | null);
    if (sealed) {
      const value = secrets.open(sealed.text, sealed.node, at(sealed.node));
      opened &&= value !== NOT_OPENED;
      return value instanceof Secret ? value.value : null;
    }
    if (isMap(n)) return Object.fromEntries((n.items as Pair[]).map((p) => [String(isScalar(p.key) ? p.key.value : p.key), plain(p.value)]));
    if (isSeq(n)) return n.items.map(plain);
    return isScalar(n) ? n.toJSON() : null;
  };
  const value = plain(node);
  return opened ? { value: new Secret(value), secret: true, pos } : undefined;
}

/** The text of `{ secure: TEXT }`, and its node. */
function secureText(node: Node | null | undefined): { text: string; node: Node } | undefined {
  if (!isMap(node) || node.items.length !== 1) return undefined;
  const only = node.items[0] as Pair;
  if (isScalar(only.key) && only.key.value === 'secure' && isScalar(only.value) && typeof only.value.value === 'string') return { text: only.value.value, node: only.value };
  return undefined;
}

/** Whether a value holds a sealed part anywhere inside it. */
function holdsSecure(node: unknown): boolean {
  if (secureText(node as Node | null)) return true;
  if (isMap(node)) return (node.items as Pair[]).some((p) => holdsSecure(p.value));
  return isSeq(node) && node.items.some(holdsSecure);
}

/**
 * How new secrets of a settings file are to be encrypted: with Pulumi's passphrase key when the
 * file has an `encryptionsalt` (so that `pulumi` reads them too), else sealed by plumb. A file
 * whose secrets provider plumb cannot use is refused (`problems`).
 */
export function stackSecretsOf(file: string, env: Record<string, string | undefined> = process.env): { pulumiKey?: Buffer; problems: Diagnostic[] } {
  if (!existsSync(file)) return { problems: [] };
  const read = readYaml(decodeUtf8(readFileSync(file), file).text, file);
  if (read.diagnostics.length || !isMap(read.doc.contents)) return { problems: read.diagnostics };
  const problems: Diagnostic[] = [];
  const error = (node: unknown, summary: string, detail?: string) => problems.push({ severity: 'error', summary, detail, pos: { file, ...read.at(node as Node) } });
  const secrets = new StackSecrets(file, () => undefined, env, error);
  for (const pair of read.doc.contents.items as Pair[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (key !== 'environment' && key !== 'config') secrets.readKey(key, pair.value as Node | null, pair.key as Node);
  }
  if (problems.length || !secrets.salt) return { problems };
  const pulumiKey = secrets.passphraseKey();
  return { pulumiKey, problems };
}

/** Sets `key` in the settings file (made when missing), keeping the rest of the file and its comments. */
export function writeStackValue(file: string, key: string, value: unknown): void {
  const doc = existsSync(file) ? parseDocument(readFileSync(file, 'utf8')) : new Document({ config: {} });
  if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0].message.split('\n')[0]}`);
  const config = doc.get('config', true);
  if (!isMap(config)) doc.set('config', doc.createNode({}));
  // An empty `config: {}` (as `pulumi stack init` writes it) is written out as a block.
  else if (!config.items.length) config.flow = false;
  doc.setIn(['config', key], doc.createNode(value));
  writeFileSync(file, String(doc));
}

/** Removes `key` from the settings file; false when it was not there. */
export function removeStackValue(file: string, key: string): boolean {
  if (!existsSync(file)) return false;
  const doc = parseDocument(readFileSync(file, 'utf8'));
  if (!doc.hasIn(['config', key])) return false;
  doc.deleteIn(['config', key]);
  writeFileSync(file, String(doc));
  return true;
}

/**
 * A stack settings file in `dir` that holds a sealed value, if any: while one does, a missing key
 * is not replaced by a new one (the values sealed with the old key could never be opened again).
 */
export function sealedSettingsFile(dir: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /\.[^.]+\.ya?ml$/i.test(name));
  } catch {
    return undefined;
  }
  for (const name of names.sort()) {
    const file = join(dir, name);
    // plumb's own sealed values have four parts; Pulumi's (v1:nonce:ciphertext) are not sealed with plumb's key.
    if (/\bsecure:\s*["']?v1:[^:\s"']+:[^:\s"']+:[^:\s"']+/.test(readFileSync(file, 'utf8'))) return file;
  }
  return undefined;
}
