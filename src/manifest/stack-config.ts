/**
 * A stack's settings file, as Pulumi's `Pulumi.<stack>.yaml`: beside the manifest, named after it
 * and the stack (`plumb.yaml` → `plumb.prod.yaml`), holding `config:` keys namespaced by the
 * project or a provider (`edge:dbPassword`, `interconnect:waitTime`). A secret is kept sealed
 * as `{ secure: v1:... }` with the state location's key.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { Document, isAlias, isMap, isScalar, type Node, type Pair, parseDocument } from 'yaml';
import type { Diagnostic } from '../kernel/diagnostics.js';
import type { Pos } from './ast.js';
import { decodeUtf8, readYaml } from './yaml-source.js';

/** Opens a sealed value (`secure:`) read at `where`: a Secret, or throws naming the file and the key. */
export type OpenSecret = (sealed: string, where: string) => unknown;

/** One value set in a stack's settings file. */
export interface StackValue {
  value: unknown;
  /** Kept sealed in the file (`secure:`). */
  secret: boolean;
  pos: Pos;
}

/** Keys Pulumi writes beside `config:` in its stack files, read past without a word. */
const PULUMI_KEYS = ['encryptionsalt', 'secretsprovider', 'encryptedkey', 'environment'];

/** The settings file of `stack` for the manifest at `manifestFile`: `<name less extension>.<stack>.yaml` beside it. */
export function stackConfigFile(manifestFile: string, stack: string): string {
  return join(dirname(manifestFile), `${basename(manifestFile, extname(manifestFile))}.${stack}.yaml`);
}

/** The values a stack's settings file holds, by key as written; none when there is no file. */
export function readStackConfig(file: string, open: OpenSecret): { values: Map<string, StackValue>; diagnostics: Diagnostic[] } {
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
  for (const pair of root.items as Pair[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (PULUMI_KEYS.includes(key)) continue;
    if (key !== 'config') {
      error(pair.key, `unknown key "${key}" in a stack settings file`, 'it holds config: <project or provider>:<key>: value');
      continue;
    }
    const config = (isAlias(pair.value) ? source.target(pair.value) : pair.value) as Node | null;
    if (config === null || (isScalar(config) && config.value === null)) continue;
    if (!isMap(config)) {
      error(config, 'config must be a mapping of keys to values');
      continue;
    }
    for (const item of config.items as Pair[]) {
      const name = isScalar(item.key) ? String(item.key.value) : '';
      const pos = source.at((item.value ?? item.key) as Node);
      values.set(name, readValue(item.value as Node, pos, `${file}:${pos.line}:${pos.column}`, open));
    }
  }
  return { values, diagnostics };
}

/** A value as written, or a sealed one (`{ secure: ... }`) opened. */
function readValue(node: Node | null, pos: Pos, where: string, open: OpenSecret): StackValue {
  if (isMap(node) && node.items.length === 1) {
    const only = node.items[0] as Pair;
    if (isScalar(only.key) && only.key.value === 'secure' && isScalar(only.value) && typeof only.value.value === 'string') {
      return { value: open(only.value.value, where), secret: true, pos };
    }
  }
  return { value: node === null || node === undefined ? null : (node.toJSON() as unknown), secret: false, pos };
}

/** Sets `key` in the settings file (made when missing), keeping the rest of the file and its comments. */
export function writeStackValue(file: string, key: string, value: unknown): void {
  const doc = existsSync(file) ? parseDocument(readFileSync(file, 'utf8')) : new Document({ config: {} });
  if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0].message.split('\n')[0]}`);
  if (!isMap(doc.get('config', true))) doc.set('config', doc.createNode({}));
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
    if (/\bsecure:\s*["']?v1:/.test(readFileSync(file, 'utf8'))) return file;
  }
  return undefined;
}
