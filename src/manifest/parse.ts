import { createHash } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { isAlias, isMap, isScalar, isSeq, type Node, type Pair } from 'yaml';
import type { Diagnostic } from '../diagnostics.js';
import { type Expr, type Manifest, type ObjectExpr, type Pos, type ResourceDecl, type ResourceOptions } from './ast.js';
import { parseDuration } from './duration.js';
import { type AtFn, type ErrorFn, expressionReader, keyText } from './expressions.js';
import { closest, closestName, resolveToken } from './tokens.js';
import { readYaml } from './yaml-source.js';

/** The tokens a manifest may name. */
export interface Catalog {
  resources: Iterable<string>;
  functions: Iterable<string>;
}

const TOP_LEVEL = ['name', 'runtime', 'description', 'config', 'variables', 'resources', 'outputs'];
const RESOURCE_KEYS = ['type', 'properties', 'options'];
const OPTIONS = ['dependsOn', 'protect', 'ignoreChanges', 'replaceOnChanges', 'deleteBeforeReplace', 'retainOnDelete', 'import', 'customTimeouts'];
/** Result of parsing: the manifest (as far as it could be read) and every problem found. */
export interface ParseResult {
  manifest: Manifest;
  diagnostics: Diagnostic[];
}

/** Parses manifest text, keeping positions; reports every syntax and structure problem at once. */
export function parseManifest(text: string, file: string, catalog: Catalog): ParseResult {
  const manifest = emptyManifest(text, file);
  const source = readYaml(text, file, { syntaxHint: (line) => syntaxHint(text, line) });
  const diagnostics = source.diagnostics;
  if (diagnostics.length) return { manifest, diagnostics };
  const { at } = source;
  const error = (pos: Pos, summary: string, detail?: string, address?: string) =>
    diagnostics.push({ severity: 'error', summary, detail, address, pos: { file, ...pos } });
  const invoked = new Set<string>();
  const toExpr = expressionReader({ at, error, functions: [...catalog.functions], target: source.target, invoked });
  // An alias where a structure is expected stands for its anchor's node, as anywhere in YAML.
  const deref: Deref = (node) => (isAlias(node) ? source.target(node) : (node as Node | null | undefined));
  const root = deref(source.doc.contents);
  if (!isMap(root)) {
    error(at(root as Node), 'a manifest must be a mapping with name, config, variables, resources and outputs');
    return { manifest, diagnostics };
  }

  const resources = [...catalog.resources];
  for (const pair of root.items as Pair[]) {
    const key = keyText(pair);
    const value = deref(pair.value) ?? null;
    const keyPos = at(pair.key as Node);
    switch (key) {
      case 'name':
      case 'description':
      case 'runtime':
        if (!isScalar(value) || typeof value.value !== 'string') error(at(value ?? (pair.key as Node)), `${key} must be a string`);
        else if (key === 'name') manifest.name = value.value;
        else if (key === 'description') manifest.description = value.value;
        break;
      case 'config':
        for (const { name, node, pos } of entries(value, at, error, 'config')) manifest.config[name] = { value: toExpr(node), pos };
        break;
      case 'variables':
        for (const { name, node } of entries(value, at, error, 'variables')) manifest.variables[name] = toExpr(node);
        break;
      case 'outputs':
        for (const { name, node } of entries(value, at, error, 'outputs')) manifest.outputs[name] = toExpr(node);
        break;
      case 'resources':
        for (const { name: address, node, pos } of entries(value, at, error, 'resources')) {
          const decl = resourceDecl(address, deref(node), pos, { at, error, toExpr, deref }, resources);
          if (decl) manifest.resources[address] = decl;
        }
        break;
      default: {
        const hint = closestName(key, TOP_LEVEL);
        error(keyPos, `unknown top-level key "${key}"`, `valid keys: ${TOP_LEVEL.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`);
      }
    }
  }
  checkNamespace(manifest, error);
  manifest.invoked = [...invoked];
  return { manifest, diagnostics };
}

/** A manifest with nothing in it yet, bound to its file and text. */
function emptyManifest(text: string, file: string): Manifest {
  return {
    file,
    dir: dirname(resolve(file)),
    hash: createHash('sha256').update(text).digest('hex'),
    name: 'unnamed',
    config: {},
    variables: {},
    resources: {},
    outputs: {},
    invoked: [],
  };
}

type Deref = (node: unknown) => Node | null | undefined;

/** What reading a resource needs. */
interface Reader {
  at: AtFn;
  error: ErrorFn;
  toExpr: (node: unknown) => Expr;
  deref: Deref;
}

function entries(value: Node | null, at: AtFn, error: ErrorFn, section: string): Array<{ name: string; node: unknown; pos: Pos }> {
  if (value === null || (isScalar(value) && value.value === null)) return [];
  if (!isMap(value)) {
    error(at(value), `${section} must be a mapping of names to values`);
    return [];
  }
  return (value.items as Pair[]).map((p) => ({ name: keyText(p), node: p.value, pos: at(p.key as Node) }));
}

function resourceDecl(address: string, node: unknown, pos: Pos, reader: Reader, resources: string[]): ResourceDecl | undefined {
  const { at, error, toExpr, deref } = reader;
  if (!isMap(node)) {
    error(pos, `resource "${address}" must be a mapping with type, properties and options`, undefined, address);
    return undefined;
  }
  const get = (k: string) => (node.items as Pair[]).find((p) => isScalar(p.key) && p.key.value === k);
  for (const p of node.items as Pair[]) {
    const k = keyText(p);
    if (!RESOURCE_KEYS.includes(k)) {
      const hint = closestName(k, RESOURCE_KEYS);
      error(at(p.key as Node), `unknown key "${k}" in resource "${address}"`, `valid keys: ${RESOURCE_KEYS.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`, address);
    }
  }
  const typePair = get('type');
  const typeNode = deref(typePair?.value) ?? undefined;
  if (!typePair || !isScalar(typeNode) || typeof typeNode.value !== 'string') {
    error(typePair ? at(typeNode) : pos, `resource "${address}" needs a type token, e.g. interconnect:index/port:Port`, undefined, address);
    return undefined;
  }
  const raw = typeNode.value;
  const token = resolveResourceToken(raw, resources);
  if (!token) {
    const hint = closest(raw, resources);
    error(
      at(typeNode),
      `unknown resource type "${raw}"`,
      hint ? `did you mean "${hint}"? (plumb schema lists every type)` : 'plumb schema lists every resource type',
      address,
    );
    return undefined;
  }
  const propsNode = deref(get('properties')?.value);
  const properties = propsNode === undefined || propsNode === null ? ({ kind: 'object', entries: [], pos } as ObjectExpr) : toExpr(propsNode);
  if (properties.kind !== 'object') {
    error(properties.pos, `properties of "${address}" must be a mapping`, undefined, address);
    return undefined;
  }
  const options = resourceOptions(deref(get('options')?.value) ?? undefined, address, reader);
  return { address, token, properties, options, pos, typePos: at(typeNode) };
}

/** The options of a resource that gives none: one frozen value shared by all of them. */
const NO_OPTIONS: ResourceOptions = Object.freeze({
  dependsOn: Object.freeze([]) as unknown as string[],
  protect: false,
  ignoreChanges: Object.freeze([]) as unknown as string[],
  replaceOnChanges: Object.freeze([]) as unknown as string[],
  retainOnDelete: false,
});

function resourceOptions(node: Node | undefined, address: string, reader: Reader): ResourceOptions {
  const { at, error, toExpr, deref } = reader;
  if (node === undefined || node === null) return NO_OPTIONS;
  const options: ResourceOptions = { dependsOn: [], protect: false, ignoreChanges: [], replaceOnChanges: [], retainOnDelete: false };
  if (!isMap(node)) {
    error(at(node), `options of "${address}" must be a mapping`, undefined, address);
    return options;
  }
  for (const pair of node.items as Pair[]) {
    const key = keyText(pair);
    const pos = at((pair.value ?? pair.key) as Node);
    const value = deref(pair.value) as Node;
    const bool = (): boolean | undefined => {
      if (isScalar(value) && typeof value.value === 'boolean') return value.value;
      error(pos, `option ${key} must be true or false`, undefined, address);
      return undefined;
    };
    const strings = (): string[] => {
      if (isSeq(value) && value.items.every((i) => isScalar(i) && typeof i.value === 'string')) return value.items.map((i) => String((i as { value: unknown }).value));
      error(pos, `option ${key} must be a list of property paths, e.g. [productName]`, undefined, address);
      return [];
    };
    switch (key) {
      case 'dependsOn': {
        const expr = toExpr(value);
        const items = expr.kind === 'list' ? expr.items : [expr];
        for (const item of items) {
          if (item.kind === 'ref' && item.path.length === 0) options.dependsOn.push(item.root);
          else error(item.pos, 'dependsOn takes resource references like ${port}', undefined, address);
        }
        break;
      }
      case 'protect':
        options.protect = bool() ?? false;
        break;
      case 'deleteBeforeReplace':
        options.deleteBeforeReplace = bool();
        break;
      case 'retainOnDelete':
        options.retainOnDelete = bool() ?? false;
        break;
      case 'ignoreChanges':
        options.ignoreChanges = strings();
        break;
      case 'replaceOnChanges':
        options.replaceOnChanges = strings();
        break;
      case 'import':
        if (isScalar(value) && typeof value.value === 'string' && value.value) options.import = value.value;
        else error(pos, 'option import must be the id of the object to adopt', undefined, address);
        break;
      case 'customTimeouts':
        options.customTimeouts = customTimeouts(value, pos, address, reader);
        break;
      default: {
        const hint = closestName(key, OPTIONS);
        error(at(pair.key as Node), `option "${key}" is not supported`, `supported options: ${OPTIONS.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`, address);
      }
    }
  }
  return options;
}

/** The `customTimeouts` option: create, update and delete as durations. */
function customTimeouts(value: Node, pos: Pos, address: string, { at, error }: Reader): NonNullable<ResourceOptions['customTimeouts']> {
  const timeouts: NonNullable<ResourceOptions['customTimeouts']> = {};
  if (!isMap(value)) {
    error(pos, 'customTimeouts must be a mapping of create/update/delete to durations like 30m', undefined, address);
    return timeouts;
  }
  for (const p of value.items as Pair[]) {
    const k = keyText(p);
    const ms = isScalar(p.value) ? parseDuration(String(p.value.value)) : undefined;
    if (!['create', 'update', 'delete'].includes(k)) error(at(p.key as Node), `customTimeouts has no "${k}"; valid: create, update, delete`, undefined, address);
    else if (ms === undefined) error(at(p.value as Node), `customTimeouts.${k} must be a duration like 90s, 30m or 1h`, undefined, address);
    else timeouts[k as 'create'] = ms;
  }
  return timeouts;
}

/** Config keys without a namespace, variables and resources share one namespace. */
function checkNamespace(manifest: Manifest, error: ErrorFn): void {
  const seen = new Map<string, string>();
  const claim = (name: string, kind: string, pos: Pos) => {
    const other = seen.get(name);
    if (other) error(pos, `"${name}" is declared as both ${other} and ${kind}`, 'config keys, variables and resources share one namespace');
    else seen.set(name, kind);
  };
  for (const [k, c] of Object.entries(manifest.config)) if (!k.includes(':')) claim(k, 'a config key', c.pos);
  for (const [k, v] of Object.entries(manifest.variables)) claim(k, 'a variable', v.pos);
  // Resource names are the keys of one mapping, so only a clash with the names above is possible.
  for (const k in manifest.resources) {
    const other = seen.get(k);
    if (other) error(manifest.resources[k].pos, `"${k}" is declared as both ${other} and a resource`, 'config keys, variables and resources share one namespace');
  }
}

/** Resolutions already made, per catalog: a large manifest names the same few types thousands of times. */
const tokenCache = new WeakMap<string[], Map<string, string | undefined>>();

function resolveResourceToken(raw: string, known: string[]): string | undefined {
  let cache = tokenCache.get(known);
  if (!cache) tokenCache.set(known, (cache = new Map()));
  if (!cache.has(raw)) cache.set(raw, resolveToken(raw, known));
  return cache.get(raw);
}

/**
 * What to do about a YAML syntax error on `line`, when its cause is a common one: an unquoted
 * `${...}` inside a flow mapping or list, where `{` and `}` are YAML's own punctuation.
 */
function syntaxHint(text: string, line: number): string | undefined {
  const content = text.split('\n')[line - 1] ?? '';
  if (!/[{[][^#'"]*\$\{/.test(content)) return undefined;
  return 'a reference inside { } or [ ] must be quoted, as in { requestedProductUid: "${port.productUid}" }; or write the mapping as an indented block';
}
