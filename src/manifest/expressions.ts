/**
 * YAML nodes read as expressions: scalars become literals, references and templates; mappings
 * with one `fn::` key become calls; the rest become lists and objects, every one with its
 * source position.
 */
import { type Alias, isAlias, isMap, isScalar, isSeq, type Node, type Pair } from 'yaml';
import { type BuiltinName, type Expr, isFunctionKey, LiteralExpr, ObjectEntry, type Pos } from './ast.js';
import { InterpolationError, parseInterpolation } from './interpolate.js';
import { closest, closestName, resolveToken } from './tokens.js';

/** Reports a problem at a position (with an optional detail and resource address). */
export type ErrorFn = (pos: Pos, summary: string, detail?: string, address?: string) => void;
/** The 1-based position of a node. */
export type AtFn = (node: { range?: [number, number, number] | null } | null | undefined) => Pos;

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

/** What reading expressions needs: positions, where problems go, and what fn::invoke may name. */
export interface ExprContext {
  at: AtFn;
  error: ErrorFn;
  functions: string[];
  /** The node an alias stands for (the reader has checked that each has one). */
  target(alias: Alias): Node;
  /** Where function tokens called with fn::invoke go. */
  invoked: Set<string>;
}

/** Reads nodes as expressions; the expression of a node several aliases copy is read once. */
export function expressionReader(context: ExprContext): (node: unknown) => Expr {
  const copies = new Map<Node, Expr>();
  const read = (node: unknown): Expr => {
    if (!isAlias(node)) return expression(node, context, read);
    const target = context.target(node);
    let expr = copies.get(target);
    if (!expr) copies.set(target, (expr = read(target)));
    return expr;
  };
  return read;
}

function expression(node: unknown, context: ExprContext, read: (node: unknown) => Expr): Expr {
  const { at, error } = context;
  const pos = at(node as Node);
  if (node === null || node === undefined) return new LiteralExpr(null, pos.line, pos.column);
  if (isScalar(node)) return scalarExpr(node.value, node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE', pos.line, pos.column, error);
  if (isSeq(node)) return { kind: 'list', items: node.items.map(read), pos };
  if (isMap(node)) {
    const pairs = node.items as Pair[];
    const keys = pairs.map((p) => keyText(p));
    const fnIndex = keys.findIndex(isFunctionKey);
    if (fnIndex >= 0) {
      const key = keys[fnIndex];
      const keyPos = at(pairs[fnIndex].key as Node);
      if (keys.length > 1) {
        error(keyPos, `"${key}" must be the only key of its mapping`, 'a function call is a mapping with exactly one fn:: key');
        return new LiteralExpr(null, pos.line, pos.column);
      }
      return callExpr(key, pairs[0].value, keyPos, pos, context, read);
    }
    return {
      kind: 'object',
      entries: pairs.map((p, i) => {
        const keyPos = at(p.key as Node);
        return new ObjectEntry(keys[i], read(p.value), keyPos.line, keyPos.column);
      }),
      pos,
    };
  }
  return new LiteralExpr(null, pos.line, pos.column);
}

/** The text a mapping key stands for in a manifest. */
export function keyText(pair: Pair): string {
  return String(isScalar(pair.key) ? pair.key.value : pair.key);
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

function callExpr(key: string, value: unknown, keyPos: Pos, pos: Pos, context: ExprContext, read: (node: unknown) => Expr): Expr {
  const { error } = context;
  const lower = key.toLowerCase();
  if (lower === 'fn::secret') return { kind: 'secret', value: read(value), pos };
  if (BUILTINS[lower]) return { kind: 'builtin', name: BUILTINS[lower], arg: read(value), pos };
  if (lower !== 'fn::invoke') {
    const hint = closestName(key, SUPPORTED_FNS);
    error(keyPos, `"${key}" is not supported`, `supported functions: ${SUPPORTED_FNS.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`);
    return new LiteralExpr(null, pos.line, pos.column);
  }
  const mapping = isAlias(value) ? context.target(value) : value;
  if (!isMap(mapping)) {
    error(keyPos, 'fn::invoke needs a mapping with function, arguments and optionally return');
    return new LiteralExpr(null, pos.line, pos.column);
  }
  return invokeExpr(mapping.items as Pair[], pos, context, read);
}

function invokeExpr(pairs: Pair[], pos: Pos, context: ExprContext, read: (node: unknown) => Expr): Expr {
  const { at, error, functions } = context;
  let fn: string | undefined;
  let args: Expr = { kind: 'object', entries: [], pos };
  let ret: string | undefined;
  for (const p of pairs) {
    const k = keyText(p);
    const v = (isAlias(p.value) ? context.target(p.value) : p.value) as Node;
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
      args = read(p.value);
      if (args.kind !== 'object') error(args.pos, 'fn::invoke arguments must be a mapping');
    } else if (k === 'return') {
      if (isScalar(v) && typeof v.value === 'string') ret = v.value;
      else error(at(v), 'fn::invoke return must be the name of one result field');
    } else {
      error(at(p.key as Node), `fn::invoke has no "${k}"`, 'valid keys: function, arguments, return');
    }
  }
  if (!fn) return new LiteralExpr(null, pos.line, pos.column);
  context.invoked.add(fn);
  return { kind: 'invoke', fn, args: args.kind === 'object' ? args : { kind: 'object', entries: [], pos }, ret, pos };
}
