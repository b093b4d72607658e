import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import type { Document, Node, Pair } from 'yaml';
import type { Diagnostic } from '../diagnostics.js';
import { type BuiltinName, type Expr, isFunctionKey, LiteralExpr, type Manifest, ObjectEntry, type ObjectExpr, type Pos, type ResourceDecl, type ResourceOptions } from './ast.js';
import { type ExpressionReader, lineStarts, parseBlockYaml } from './block-yaml.js';
import { isAlias, isMap, isScalar, isSeq, positionOf } from './yaml-nodes.js';
import { InterpolationError, parseInterpolation } from './interpolate.js';
import { closest, closestName, resolveToken } from './tokens.js';

/** The tokens a manifest may name. */
export interface Catalog {
  resources: Iterable<string>;
  functions: Iterable<string>;
}

const TOP_LEVEL = ['name', 'runtime', 'description', 'config', 'variables', 'resources', 'outputs'];
const RESOURCE_KEYS = ['type', 'properties', 'options'];
const OPTIONS = ['dependsOn', 'protect', 'ignoreChanges', 'replaceOnChanges', 'deleteBeforeReplace', 'retainOnDelete', 'import', 'customTimeouts'];
const BUILTINS: Record<string, BuiltinName> = {
  'fn::join': 'join',
  'fn::split': 'split',
  'fn::select': 'select',
  'fn::tojson': 'toJSON',
  'fn::tobase64': 'toBase64',
  'fn::frombase64': 'fromBase64',
  'fn::readfile': 'readFile',
};
const SUPPORTED_FNS = ['fn::invoke', 'fn::secret', 'fn::join', 'fn::split', 'fn::select', 'fn::toJSON', 'fn::toBase64', 'fn::fromBase64', 'fn::readFile'];

/** Result of parsing: the manifest (as far as it could be read) and every problem found. */
export interface ParseResult {
  manifest: Manifest;
  diagnostics: Diagnostic[];
}

/** How to parse. */
export interface ParseOptions {
  /** Read plain block YAML with the fast reader (default true); false always uses `yaml` (tests compare the two). */
  blockYaml?: boolean;
}

/** The `yaml` package, loaded only for text the fast reader leaves to it (it takes a while to load). */
function yamlPackage(): typeof import('yaml') {
  return createRequire(import.meta.url)('yaml') as typeof import('yaml');
}

/** Parses manifest text, keeping positions; reports every syntax and structure problem at once. */
export function parseManifest(text: string, file: string, catalog: Catalog, options: ParseOptions = {}): ParseResult {
  const diagnostics: Diagnostic[] = [];
  const abs = resolve(file);
  const manifest: Manifest = {
    file,
    dir: dirname(abs),
    hash: createHash('sha256').update(text).digest('hex'),
    name: 'unnamed',
    config: {},
    variables: {},
    resources: {},
    outputs: {},
    invoked: [],
  };
  // Offsets are turned into lines only for nodes from `yaml` (the fast reader's carry their own).
  let linePos: ((offset: number) => { line: number; col: number }) | undefined;
  const at = (node: { range?: [number, number, number] | null } | null | undefined): Pos => {
    const known = positionOf(node);
    if (known) return known;
    const offset = node?.range?.[0] ?? 0;
    const { line, col } = (linePos ??= lineStarts(text))(offset);
    return { line, column: col };
  };
  const error = (pos: Pos, summary: string, detail?: string, address?: string) =>
    diagnostics.push({ severity: 'error', summary, detail, address, pos: { file, ...pos } });
  const invoked = new Set<string>();
  const context: ExprContext = { doc: { contents: null }, at, error, functions: [...catalog.functions], invoked, toExpr: (node) => expression(node, context) };

  const fast = options.blockYaml === false ? undefined : parseBlockYaml(text, expressionReader(context));
  let doc: Pick<Document, 'contents' | 'errors'>;
  if (fast) {
    doc = { contents: fast, errors: [] };
  } else {
    const yaml = yamlPackage();
    const lineCounter = new yaml.LineCounter();
    doc = yaml.parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
    linePos = lineCounter.linePos;
  }
  context.doc = doc;

  // One mistake can make yaml report several errors on its line; the first says where it is.
  const reported = new Set<number>();
  for (const e of doc.errors) {
    const { line, col } = e.linePos?.[0] ?? (linePos && e.pos ? linePos(e.pos[0]) : { line: 1, col: 1 });
    if (reported.has(line)) continue;
    reported.add(line);
    diagnostics.push({ severity: 'error', summary: `YAML syntax error: ${e.message.split('\n')[0]}`, detail: syntaxHint(text, line), pos: { file, line, column: col } });
  }
  if (doc.errors.length) return { manifest, diagnostics };
  const root = doc.contents;
  if (!isMap(root)) {
    error(at(root as Node), 'a manifest must be a mapping with name, config, variables, resources and outputs');
    return { manifest, diagnostics };
  }

  const resources = [...catalog.resources];
  const toExpr = context.toExpr;

  for (const pair of root.items as Pair[]) {
    const key = String(isScalar(pair.key) ? pair.key.value : pair.key);
    const value = pair.value as Node | null;
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
          const decl = resourceDecl(address, node, pos, at, error, toExpr, resources);
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

type ErrorFn = (pos: Pos, summary: string, detail?: string, address?: string) => void;
type AtFn = (node: { range?: [number, number, number] | null } | null | undefined) => Pos;

function entries(value: Node | null, at: AtFn, error: ErrorFn, section: string): Array<{ name: string; node: unknown; pos: Pos }> {
  if (value === null || (isScalar(value) && value.value === null)) return [];
  if (!isMap(value)) {
    error(at(value), `${section} must be a mapping of names to values`);
    return [];
  }
  return (value.items as Pair[]).map((p) => ({ name: String(isScalar(p.key) ? p.key.value : p.key), node: p.value, pos: at(p.key as Node) }));
}

function resourceDecl(
  address: string,
  node: unknown,
  pos: Pos,
  at: AtFn,
  error: ErrorFn,
  toExpr: (n: unknown) => Expr,
  resources: string[],
): ResourceDecl | undefined {
  if (!isMap(node)) {
    error(pos, `resource "${address}" must be a mapping with type, properties and options`, undefined, address);
    return undefined;
  }
  const get = (k: string) => (node.items as Pair[]).find((p) => isScalar(p.key) && p.key.value === k);
  for (const p of node.items as Pair[]) {
    const k = String(isScalar(p.key) ? p.key.value : p.key);
    if (!RESOURCE_KEYS.includes(k)) {
      const hint = closestName(k, RESOURCE_KEYS);
      error(at(p.key as Node), `unknown key "${k}" in resource "${address}"`, `valid keys: ${RESOURCE_KEYS.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`, address);
    }
  }
  const typePair = get('type');
  const typeNode = typePair?.value as Node | undefined;
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
  const propsNode = get('properties')?.value;
  const properties = propsNode === undefined || propsNode === null ? ({ kind: 'object', entries: [], pos } as ObjectExpr) : toExpr(propsNode);
  if (properties.kind !== 'object') {
    error(properties.pos, `properties of "${address}" must be a mapping`, undefined, address);
    return undefined;
  }
  const options = resourceOptions(get('options')?.value as Node | undefined, address, at, error, toExpr);
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

function resourceOptions(node: Node | undefined, address: string, at: AtFn, error: ErrorFn, toExpr: (n: unknown) => Expr): ResourceOptions {
  if (node === undefined || node === null) return NO_OPTIONS;
  const options: ResourceOptions = { dependsOn: [], protect: false, ignoreChanges: [], replaceOnChanges: [], retainOnDelete: false };
  if (!isMap(node)) {
    error(at(node), `options of "${address}" must be a mapping`, undefined, address);
    return options;
  }
  for (const pair of node.items as Pair[]) {
    const key = String(isScalar(pair.key) ? pair.key.value : pair.key);
    const value = pair.value as Node;
    const pos = at(value ?? (pair.key as Node));
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
      case 'customTimeouts': {
        options.customTimeouts = {};
        if (!isMap(value)) {
          error(pos, 'customTimeouts must be a mapping of create/update/delete to durations like 30m', undefined, address);
          break;
        }
        for (const p of value.items as Pair[]) {
          const k = String(isScalar(p.key) ? p.key.value : p.key);
          const ms = isScalar(p.value) ? parseDuration(String(p.value.value)) : undefined;
          if (!['create', 'update', 'delete'].includes(k)) error(at(p.key as Node), `customTimeouts has no "${k}"; valid: create, update, delete`, undefined, address);
          else if (ms === undefined) error(at(p.value as Node), `customTimeouts.${k} must be a duration like 90s, 30m or 1h`, undefined, address);
          else options.customTimeouts[k as 'create'] = ms;
        }
        break;
      }
      default: {
        const hint = closestName(key, OPTIONS);
        error(at(pair.key as Node), `option "${key}" is not supported`, `supported options: ${OPTIONS.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`, address);
      }
    }
  }
  return options;
}

/** Parses `90s`, `30m`, `1h`, `1h30m` into milliseconds. */
export function parseDuration(text: string): number | undefined {
  const m = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?$/.exec(text.trim());
  if (!m || text.trim() === '') return undefined;
  return (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000;
}

/** What reading expressions needs, made once per manifest (not a closure per node). */
interface ExprContext {
  doc: Pick<Document, 'contents'>;
  at: AtFn;
  error: ErrorFn;
  functions: string[];
  /** Where function tokens called with fn::invoke go. */
  invoked: { add(fn: string): unknown };
  toExpr: (node: unknown) => Expr;
}

/**
 * An expression the fast reader built as it read, with what it found there: problems, and
 * functions called. They are reported when the manifest reader reaches the expression, as they
 * would have been had it been read from nodes: in the same order, and not at all where it is
 * skipped.
 */
class ReadExpression {
  constructor(
    readonly expr: Expr,
    /** Problems (the arguments of an error) and invoked function tokens, in the order found. */
    readonly found: Array<Parameters<ErrorFn> | string> | undefined,
  ) {}
}

/** Reads expressions for the fast reader, holding back what they report (see ReadExpression). */
function expressionReader(context: ExprContext): ExpressionReader {
  const found: Array<Parameters<ErrorFn> | string> = [];
  const held: ExprContext = {
    ...context,
    error: (...problem) => found.push(problem),
    invoked: { add: (fn: string) => found.push(fn) },
    toExpr: (node) => expression(node, held),
  };
  return {
    scalar: (value, quoted, line, column) => scalarExpr(value, quoted, line, column, held.error),
    mark: () => found.length,
    call(node, mark) {
      // What reading the mapping as an expression found before its function key is void.
      found.length = mark;
      return expression(node, held);
    },
    done: (expr) => new ReadExpression(expr, found.length ? found.splice(0) : undefined),
  };
}

function expression(node: unknown, context: ExprContext): Expr {
  const { doc, at, error, toExpr: recurse } = context;
  if (node instanceof ReadExpression) {
    for (const item of node.found ?? []) {
      if (typeof item === 'string') context.invoked.add(item);
      else error(...item);
    }
    return node.expr;
  }
  if (isAlias(node)) return recurse(node.resolve(doc));
  const pos = at(node as Node);
  if (node === null || node === undefined) return new LiteralExpr(null, pos.line, pos.column);
  if (isScalar(node)) return scalarExpr(node.value, isQuoted(node), pos.line, pos.column, error);
  if (isSeq(node)) return { kind: 'list', items: node.items.map(recurse), pos };
  if (isMap(node)) {
    const pairs = node.items as Pair[];
    const keys = pairs.map((p) => String(isScalar(p.key) ? p.key.value : p.key));
    const fnIndex = keys.findIndex(isFunctionKey);
    if (fnIndex >= 0) {
      const key = keys[fnIndex];
      const keyPos = at(pairs[fnIndex].key as Node);
      if (keys.length > 1) {
        error(keyPos, `"${key}" must be the only key of its mapping`, 'a function call is a mapping with exactly one fn:: key');
        return new LiteralExpr(null, pos.line, pos.column);
      }
      return callExpr(key, pairs[0].value, keyPos, pos, context);
    }
    return {
      kind: 'object',
      entries: pairs.map((p, i) => {
        const keyPos = at(p.key as Node);
        return new ObjectEntry(keys[i], recurse(p.value), keyPos.line, keyPos.column);
      }),
      pos,
    };
  }
  return new LiteralExpr(null, pos.line, pos.column);
}

/** The expression of a scalar at `line`:`column`: a literal, or a reference or template where it interpolates. */
function scalarExpr(v: unknown, quoted: boolean, line: number, column: number, error: ErrorFn): Expr {
  if (typeof v !== 'string') return new LiteralExpr(v as number | boolean | null, line, column);
  // Only a `$` can start an interpolation (or an escape).
  if (!v.includes('$')) return new LiteralExpr(v, line, column);
  const valuePos = { line, column: quoted ? column + 1 : column };
  try {
    const parts = parseInterpolation(v, valuePos);
    const first = parts[0];
    if (parts.length === 1 && typeof first !== 'string') {
      // The reference is ours to keep: it takes the scalar's position.
      first.pos = { line, column };
      return first;
    }
    if (parts.every((p) => typeof p === 'string')) return new LiteralExpr(parts.join(''), line, column);
    return { kind: 'template', parts, pos: { line, column } };
  } catch (e) {
    if (!(e instanceof InterpolationError)) throw e;
    error({ line: valuePos.line, column: valuePos.column + e.offset }, e.message);
    return new LiteralExpr(v, line, column);
  }
}

function callExpr(key: string, value: unknown, keyPos: Pos, pos: Pos, context: ExprContext): Expr {
  const { at, error, functions, invoked, toExpr: recurse } = context;
  const lower = key.toLowerCase();
  if (lower === 'fn::secret') return { kind: 'secret', value: recurse(value), pos };
  if (BUILTINS[lower]) return { kind: 'builtin', name: BUILTINS[lower], arg: recurse(value), pos };
  if (lower !== 'fn::invoke') {
    const hint = closestName(key, SUPPORTED_FNS);
    error(keyPos, `"${key}" is not supported`, `supported functions: ${SUPPORTED_FNS.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`);
    return new LiteralExpr(null, pos.line, pos.column);
  }
  if (!isMap(value)) {
    error(keyPos, 'fn::invoke needs a mapping with function, arguments and optionally return');
    return new LiteralExpr(null, pos.line, pos.column);
  }
  let fn: string | undefined;
  let args: Expr = { kind: 'object', entries: [], pos };
  let ret: string | undefined;
  for (const p of value.items as Pair[]) {
    const k = String(isScalar(p.key) ? p.key.value : p.key);
    const v = p.value as Node;
    if (k === 'function') {
      const raw = isScalar(v) && typeof v.value === 'string' ? v.value : undefined;
      if (!raw) {
        error(at(v ?? (p.key as Node)), 'fn::invoke function must be a function token, e.g. interconnect:index/getLocation:getLocation');
        continue;
      }
      fn = resolveToken(raw, functions);
      if (!fn) {
        const hint = closest(raw, functions);
        error(at(v), `unknown function "${raw}"`, hint ? `did you mean "${hint}"?` : 'plumb schema lists every function');
      }
    } else if (k === 'arguments') {
      args = recurse(v);
      if (args.kind !== 'object') error(args.pos, 'fn::invoke arguments must be a mapping');
    } else if (k === 'return') {
      if (isScalar(v) && typeof v.value === 'string') ret = v.value;
      else error(at(v), 'fn::invoke return must be the name of one result field');
    } else {
      error(at(p.key as Node), `fn::invoke has no "${k}"`, 'valid keys: function, arguments, return');
    }
  }
  if (!fn) return new LiteralExpr(null, pos.line, pos.column);
  invoked.add(fn);
  return { kind: 'invoke', fn, args: args.kind === 'object' ? args : { kind: 'object', entries: [], pos }, ret, pos };
}

function isQuoted(node: { type?: string }): boolean {
  return node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
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
