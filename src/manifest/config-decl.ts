/**
 * The `config:` section (and `configuration:`, its older spelling) read as Pulumi reads it: an
 * entry is a value (the default for every stack), or a declaration with `type`, `default`,
 * `secret`, `items` and `name`, whose value each stack sets (see stack-config.ts). Pulumi's
 * project config writes `value` for a value every stack has; it is read as `default`.
 */
import { isMap, isScalar, type Node, type Pair } from 'yaml';
import { type ConfigDecl, type ConfigEntry, type ConfigType, type Expr, LiteralExpr, type Pos } from './ast.js';
import { type AtFn, type ErrorFn, keyText } from './expressions.js';
import { closestName } from '../kernel/did-you-mean.js';

/** What reading config needs. */
export interface ConfigReader {
  at: AtFn;
  error: ErrorFn;
  toExpr: (node: unknown) => Expr;
  deref: (node: unknown) => Node | null | undefined;
}

const DECL_KEYS = ['type', 'default', 'value', 'secret', 'items', 'description', 'name'];

/** Type names as Pulumi's project config and Pulumi YAML's `configuration:` write them (compared lower-cased). */
const TYPE_NAMES: Record<string, ConfigType> = {
  string: 'string',
  integer: 'integer',
  int: 'integer',
  number: 'number',
  boolean: 'boolean',
  bool: 'boolean',
  array: 'list',
  list: 'list',
  object: 'object',
};
const TYPE_WORDS = 'string, integer, number, boolean, list (or array, with items), object, or List<T>';

/** Reads one config section into `into` (keys already there, from `config:`, are kept: `config` wins over `configuration`). */
export function readConfigSection(value: Node | null, reader: ConfigReader, into: Record<string, ConfigEntry>, section: string): void {
  const { at, error } = reader;
  if (value === null || (isScalar(value) && value.value === null)) return;
  if (!isMap(value)) {
    error(at(value), `${section} must be a mapping of names to values or declarations`);
    return;
  }
  for (const pair of value.items as Pair[]) {
    const key = keyText(pair);
    if (Object.hasOwn(into, key)) continue;
    into[key] = configEntry(key, reader.deref(pair.value) ?? null, at(pair.key as Node), reader);
  }
}

/** One entry: a declaration when it is a mapping of declaration keys with a type, default or secret; else a value. */
function configEntry(key: string, written: Node | null, pos: Pos, reader: ConfigReader): ConfigEntry {
  const node = valueOnly(written, reader);
  if (!key.includes(':') && isDeclaration(node)) return declaration(key, node as Node & { items: Pair[] }, pos, reader);
  const value = reader.toExpr(node);
  return { value, pos, source: 'manifest', decl: key.includes(':') ? undefined : { type: typeOfExpr(value), secret: false, hasDefault: true } };
}

/**
 * A project file's `{ value: V }` (with at most a `description`), as Pulumi's project config
 * writes a value for every stack, stands for V; any other node for itself.
 */
function valueOnly(node: Node | null, reader: ConfigReader): Node | null {
  if (!isMap(node) || !node.items.length) return node;
  const pairs = node.items as Pair[];
  const keys = pairs.map(keyText);
  if (!keys.includes('value') || !keys.every((k) => k === 'value' || k === 'description')) return node;
  return reader.deref(pairs.find((p) => keyText(p) === 'value')?.value) ?? null;
}

function isDeclaration(node: Node | null): boolean {
  if (!isMap(node) || !node.items.length) return false;
  const keys = (node.items as Pair[]).map(keyText);
  return keys.every((k) => DECL_KEYS.includes(k)) && keys.some((k) => k === 'type' || k === 'default' || k === 'value' || k === 'secret');
}

function declaration(key: string, node: Node & { items: Pair[] }, pos: Pos, reader: ConfigReader): ConfigEntry {
  const { at, error, toExpr, deref } = reader;
  const decl: ConfigDecl = { secret: false, hasDefault: false };
  let value: Expr = new LiteralExpr(null, pos.line, pos.column);
  let typePos: Pos | undefined;
  for (const pair of node.items) {
    const k = keyText(pair);
    const v = deref(pair.value) ?? null;
    const vPos = at((v ?? pair.key) as Node);
    if (k === 'type') {
      typePos = vPos;
      const parsed = parseType(v, vPos, error, key);
      if (parsed) Object.assign(decl, parsed);
    } else if (k === 'items') {
      const items = isMap(v) ? deref((v.items as Pair[]).find((p) => keyText(p) === 'type')?.value) : v;
      const parsed = parseType(items ?? null, vPos, error, key);
      if (parsed) decl.items = parsed.type;
    } else if (k === 'default' || k === 'value') {
      // Pulumi's project config gives `value` (for every stack) where a program gives `default`.
      if (decl.hasDefault) error(vPos, `config ${key}: give default or value, not both`);
      value = toExpr(v);
      decl.hasDefault = true;
    } else if (k === 'secret') {
      if (isScalar(v) && typeof v.value === 'boolean') decl.secret = v.value;
      else error(vPos, `config ${key}: secret must be true or false`);
      decl.secretPos = vPos;
    } else if (k === 'name') {
      if (isScalar(v) && typeof v.value === 'string' && v.value) decl.lookup = v.value;
      else error(vPos, `config ${key}: name must be the key to look up, e.g. dbPassword`);
    }
  }
  if (decl.items && decl.type !== 'list') error(typePos ?? pos, `config ${key}: items is only for a list (type: list or array)`);
  if (!decl.type && decl.hasDefault) decl.type = typeOfExpr(value);
  if (!decl.type && !decl.hasDefault && !typePos) error(pos, `config ${key}: give a type or a default`, `e.g. ${key}: { type: string }`);
  if (decl.type && decl.hasDefault) {
    const given = typeOfExpr(value);
    if (given && given !== decl.type && !(decl.type === 'number' && given === 'integer')) {
      error(value.pos, `config ${key}: the default is ${article(given)}, but the type is ${decl.type}`);
    }
  }
  return { value, pos, source: 'manifest', decl };
}

/** A type name (`integer`, `List<String>`...) as a type and item type; undefined (reported) when it is none. */
function parseType(node: Node | null, pos: Pos, error: ErrorFn, key: string): { type: ConfigType; items?: ConfigType } | undefined {
  const raw = isScalar(node) && typeof node.value === 'string' ? node.value.trim() : undefined;
  const list = raw && /^list<(.+)>$/i.exec(raw);
  if (list) {
    const items = TYPE_NAMES[list[1].trim().toLowerCase()];
    if (items && items !== 'list') return { type: 'list', items };
  } else if (raw && TYPE_NAMES[raw.toLowerCase()]) {
    return { type: TYPE_NAMES[raw.toLowerCase()] };
  }
  const hint = raw ? closestName(raw, Object.keys(TYPE_NAMES)) : undefined;
  error(pos, `config ${key}: unknown type ${raw === undefined ? '' : `"${raw}"`}`.trim(), `types: ${TYPE_WORDS}${hint ? `; did you mean "${hint}"?` : ''}`);
  return undefined;
}

/** The type of a default written as a literal, list or mapping; undefined for one computed (an fn:: call, a reference). */
function typeOfExpr(expr: Expr): ConfigType | undefined {
  if (expr.kind === 'literal') return typeOfValue(expr.value);
  if (expr.kind === 'list') return 'list';
  return expr.kind === 'object' ? 'object' : undefined;
}

/** The config type a plain value has (numbers without a fraction are integers). */
export function typeOfValue(value: unknown): ConfigType | undefined {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (Array.isArray(value)) return 'list';
  if (value !== null && typeof value === 'object') return 'object';
  return undefined;
}

/** `a string`, `an integer`... */
export function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
