/**
 * `fn::invoke` read as an expression, with its `options`, and the `fn::<token>` shorthand that
 * Pulumi YAML rewrites to it (`fn::interconnect:getLocation: { id: 2 }`).
 */
import { isAlias, isMap, isScalar, type Node, type Pair } from 'yaml';
import { type Expr, type InvokeExpr, type ObjectExpr, type Pos, type RefExpr } from './ast.js';
import type { ExprContext } from './expressions.js';
import { closest, resolveToken } from './tokens.js';
import { Unknown } from '../kernel/values.js';

type Read = (node: unknown) => Expr;

/** A key that calls a function by its token: `fn::<pkg>:<name>` or `fn::<pkg>:<module>:<name>` (Pulumi's pattern). */
const SHORTHAND = /^fn::[^:]+:[^:]+(:[^:]+)?$/i;

/** The function token a shorthand key names, or undefined when the key is not one. */
export function shorthandToken(key: string): string | undefined {
  return SHORTHAND.test(key) ? key.slice(4) : undefined;
}

/** What the options of an invoke may hold; version and pluginDownloadURL pin a plugin, which a built-in provider has none of. */
const PINS = ['version', 'pluginDownloadURL'];
const INVOKE_OPTIONS = ['dependsOn', 'parent', 'provider', ...PINS];

/** `fn::invoke: { function, arguments, options, return }`. */
export function invokeExpr(pairs: Pair[], pos: Pos, context: ExprContext, read: Read): Expr {
  const { at, error } = context;
  let fn: string | undefined;
  let args: Expr = { kind: 'object', entries: [], pos };
  let ret: string | undefined;
  let options: Pick<InvokeExpr, 'dependsOn' | 'parent' | 'provider'> = {};
  let named = false;
  for (const p of pairs) {
    const k = String(isScalar(p.key) ? p.key.value : p.key);
    const v = (isAlias(p.value) ? context.target(p.value) : p.value) as Node;
    if (k === 'function') {
      named = true;
      const raw = isScalar(v) && typeof v.value === 'string' ? v.value : undefined;
      if (!raw) error(at(v ?? (p.key as Node)), 'fn::invoke function must be a function token, e.g. interconnect:index/getLocation:getLocation');
      else fn = functionToken(raw, at(v), context);
    } else if (k === 'arguments') {
      args = read(p.value);
      if (args.kind !== 'object') error(args.pos, 'fn::invoke arguments must be a mapping');
    } else if (k === 'return') {
      if (isScalar(v) && typeof v.value === 'string') ret = v.value;
      else error(at(v), 'fn::invoke return must be the name of one result field');
    } else if (k === 'options') {
      options = invokeOptions(v, at(v ?? (p.key as Node)), context, read, fn);
    } else {
      error(at(p.key as Node), `fn::invoke has no "${k}"`, 'valid keys: function, arguments, options, return');
    }
  }
  if (!named) error(pos, 'fn::invoke needs a function, e.g. function: interconnect:index/getLocation:getLocation');
  return invoked(fn, args, pos, context, { ret, ...options });
}

/** `fn::<token>: <arguments>`: an invoke of that function with those arguments (none when empty). */
export function shorthandInvoke(token: string, value: unknown, keyPos: Pos, pos: Pos, context: ExprContext, read: Read): Expr {
  const fn = functionToken(token, keyPos, context);
  const node = isAlias(value) ? context.target(value) : value;
  const empty = node === null || node === undefined || (isScalar(node) && node.value === null);
  let args: Expr = { kind: 'object', entries: [], pos };
  if (!empty) {
    args = read(value);
    if (args.kind !== 'object') context.error(args.pos, `fn::${token} takes its arguments as a mapping`, 'e.g. fn::interconnect:getLocation: { id: 2 }');
  }
  return invoked(fn, args, pos, context, {});
}

/** What a call that could not be read stands for: a value no check judges, its one error being reported already. */
export function unreadCall(key: string, pos: Pos): Expr {
  return { kind: 'value', value: new Unknown(key), pos };
}

function invoked(fn: string | undefined, args: Expr, pos: Pos, context: ExprContext, rest: Pick<InvokeExpr, 'ret' | 'dependsOn' | 'parent' | 'provider'>): Expr {
  if (!fn) return unreadCall('fn::invoke', pos);
  context.invoked.add(fn);
  const mapping: ObjectExpr = args.kind === 'object' ? args : { kind: 'object', entries: [], pos };
  return { kind: 'invoke', fn, args: mapping, pos, ...definedOnly(rest) };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The canonical token of a function named in a manifest, or undefined (reported) when there is none. */
function functionToken(raw: string, pos: Pos, { error, functions }: ExprContext): string | undefined {
  const fn = resolveToken(raw, functions);
  if (!fn) {
    const hint = closest(raw, functions);
    error(pos, `unknown function "${raw}"`, hint ? `did you mean "${hint}"? (plumb schema lists every function)` : 'plumb schema lists every function');
  }
  return fn;
}

/** `options` of an invoke: dependsOn and parent name resources, provider a provider resource; version and pluginDownloadURL are noted. */
function invokeOptions(node: Node, pos: Pos, context: ExprContext, read: Read, fn = 'fn::invoke'): Pick<InvokeExpr, 'dependsOn' | 'parent' | 'provider'> {
  const { at, error } = context;
  const out: Pick<InvokeExpr, 'dependsOn' | 'parent' | 'provider'> = {};
  if (!isMap(node)) {
    error(pos, 'fn::invoke options must be a mapping', `valid options: ${INVOKE_OPTIONS.join(', ')}`);
    return out;
  }
  for (const p of node.items as Pair[]) {
    const k = String(isScalar(p.key) ? p.key.value : p.key);
    const keyPos = at(p.key as Node);
    if (PINS.includes(k)) {
      if (isScalar(p.value) && typeof p.value.value === 'string') context.pinned?.(k, `a call of ${fn.split(':').pop()}`, keyPos);
      else error(at(p.value as Node) ?? keyPos, `fn::invoke option ${k} must be a string`);
    } else if (k === 'dependsOn') {
      const expr = read(p.value);
      out.dependsOn = resourceRefs(expr.kind === 'list' ? expr.items : [expr], 'dependsOn', context);
    } else if (k === 'parent') {
      out.parent = resourceRefs([read(p.value)], 'parent', context)[0];
    } else if (k === 'provider') {
      // Whether it names a provider resource of the function's provider is checked once every resource is read.
      out.provider = resourceRefs([read(p.value)], 'provider', context)[0];
    } else {
      error(keyPos, `fn::invoke has no option "${k}"`, `valid options: ${INVOKE_OPTIONS.join(', ')}`);
    }
  }
  return out;
}

/** Each item as a reference to a whole resource (`${port}`); others are reported. */
function resourceRefs(items: Expr[], option: string, { error }: ExprContext): RefExpr[] {
  const refs: RefExpr[] = [];
  for (const item of items) {
    if (item.kind === 'ref' && item.path.length === 0) refs.push(item);
    else error(item.pos, `fn::invoke option ${option} takes resource references like \${port}`);
  }
  return refs;
}
