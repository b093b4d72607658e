/**
 * YAML nodes read as expressions: scalars become literals, references and templates; mappings
 * with one `fn::` key become calls; the rest become lists and objects, every one with its
 * source position.
 */
import { type Alias, isAlias, isMap, isScalar, isSeq, type Node, type Pair } from 'yaml';
import { BUILTIN_FIELDS, BUILTIN_ROOTS, type BuiltinName, type Expr, isFunctionKey, LiteralExpr, ObjectEntry, type Pos, type RefExpr } from './ast.js';
import { InterpolationError, parseInterpolation } from './interpolate.js';
import { invokeExpr, shorthandInvoke, shorthandToken, unreadCall } from './invoke.js';
import { closestName } from '../kernel/did-you-mean.js';

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
  'fn::length': 'length',
  'fn::unsecret': 'unsecret',
  'fn::sha1': 'sha1',
  'fn::filebase64': 'filebase64',
  'fn::filebase64sha256': 'filebase64sha256',
  'fn::singleornone': 'singleOrNone',
};
const SUPPORTED_FNS = ['fn::invoke', 'fn::<function token>', 'fn::secret', 'fn::stackReference', ...Object.values(BUILTINS).map((name) => `fn::${name}`)];

/** Every built-in function key, as Pulumi spells it (plumb reads a key in any case): for the JSON Schema. */
export const BUILTIN_FUNCTION_KEYS: readonly string[] = ['fn::invoke', 'fn::secret', 'fn::stackReference', ...Object.values(BUILTINS).map((name) => `fn::${name}`)];

/** Pulumi YAML functions that mean nothing for these providers, and why (lower-cased keys). */
const UNSUPPORTED: Record<string, string> = {
  'fn::stringasset': 'assets and archives are not supported: no plumb resource takes a file or an archive',
  'fn::fileasset': 'assets and archives are not supported: no plumb resource takes a file or an archive',
  'fn::remoteasset': 'assets and archives are not supported: no plumb resource takes a file or an archive',
  'fn::filearchive': 'assets and archives are not supported: no plumb resource takes a file or an archive',
  'fn::remotearchive': 'assets and archives are not supported: no plumb resource takes a file or an archive',
  'fn::assetarchive': 'assets and archives are not supported: no plumb resource takes a file or an archive',
  'fn::pulumiresourcename': 'fn::pulumiResourceName is not supported: a resource is named by its key under resources:',
  'fn::pulumiresourcetype': 'fn::pulumiResourceType is not supported: a resource type is the token it is declared with',
};

/** What reading expressions needs: positions, where problems go, and what fn::invoke may name. */
export interface ExprContext {
  at: AtFn;
  error: ErrorFn;
  functions: string[];
  /** The node an alias stands for (the reader has checked that each has one). */
  target(alias: Alias): Node;
  /** Where function tokens called with fn::invoke go. */
  invoked: Set<string>;
  /** Notes a provider pin (`options.version` of a call): see OptionsReader. */
  pinned?: (option: string, where: string, pos: Pos) => void;
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
        return unreadCall(key, pos);
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
    for (const part of parts) if (typeof part !== 'string') checkBuiltinRef(part, error);
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

/** A reference to a built-in variable must name one of its fields: `${pulumi.stack}`. */
function checkBuiltinRef(ref: RefExpr, error: ErrorFn): void {
  if (!BUILTIN_ROOTS.has(ref.root)) return;
  const field = ref.path[0];
  if (ref.path.length === 1 && (BUILTIN_FIELDS as readonly unknown[]).includes(field)) return;
  const hint = typeof field === 'string' ? closestName(field, BUILTIN_FIELDS) : undefined;
  error(ref.pos, `\${${ref.text}}: ${ref.root} has the fields ${BUILTIN_FIELDS.join(', ')}`, hint ? `did you mean \${${ref.root}.${hint}}?` : undefined);
}

function callExpr(key: string, value: unknown, keyPos: Pos, pos: Pos, context: ExprContext, read: (node: unknown) => Expr): Expr {
  const { error } = context;
  const lower = key.toLowerCase();
  if (lower === 'fn::secret') return { kind: 'secret', value: read(value), pos };
  if (lower === 'fn::stackreference') return stackReferenceExpr(read(value), pos, error);
  if (BUILTINS[lower]) return { kind: 'builtin', name: BUILTINS[lower], arg: read(value), pos };
  if (lower === 'fn::invoke') {
    const mapping = isAlias(value) ? context.target(value) : value;
    if (isMap(mapping)) return invokeExpr(mapping.items as Pair[], pos, context, read);
    error(keyPos, 'fn::invoke needs a mapping with function, arguments and optionally options and return');
    return unreadCall(key, pos);
  }
  const token = shorthandToken(key);
  if (token) return shorthandInvoke(token, value, keyPos, pos, context, read);
  if (UNSUPPORTED[lower]) error(keyPos, `"${key}" is not supported`, UNSUPPORTED[lower]);
  else {
    const hint = closestName(key, SUPPORTED_FNS);
    error(keyPos, `"${key}" is not supported`, `${hint ? `did you mean "${hint}"? ` : ''}supported functions: ${SUPPORTED_FNS.join(', ')}`);
  }
  return unreadCall(key, pos);
}

/** `fn::stackReference: [stack, output]`: one output of another stack at the same state location. */
function stackReferenceExpr(arg: Expr, pos: Pos, error: ErrorFn): Expr {
  if (arg.kind === 'list' && arg.items.length === 2) return { kind: 'stackReference', stack: arg.items[0], output: arg.items[1], pos };
  error(arg.pos, 'fn::stackReference takes [stack, output]', 'the stack as project/stack (or stack, of this project), then the output name');
  return new LiteralExpr(null, pos.line, pos.column);
}
