import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Accessor, Expr, Pos, RefExpr } from '../../manifest/ast.js';
import { Secret, Unknown, containsUnknown, holdsSecret, reveal, unsecret } from '../../kernel/values.js';
import { formatValue } from './format-value.js';

/** An evaluation failure at a manifest position. */
export class EvalError extends Error {
  constructor(
    readonly pos: Pos,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** Where evaluation gets names and function results from. */
export interface Scope {
  /** The value of a config key, variable or resource; throws EvalError for an unknown name. */
  resolve(root: string, pos: Pos): Promise<unknown>;
  /**
   * Calls a lookup function (may return Unknown when its arguments are not known yet). With
   * `waiting`, a resource the call depends on is not known yet either: the arguments are checked
   * and the result is Unknown. `argsAt`, the arguments as written, places a problem with one at
   * its key.
   */
  invoke(fn: string, args: Record<string, unknown>, pos: Pos, waiting?: boolean, provider?: string, argsAt?: Expr): Promise<unknown>;
  /** Another stack's outputs (Unknown where no stack is read: the checks before any call). */
  stackOutputs?(stack: string, pos: Pos): Promise<Record<string, unknown> | Unknown>;
  /** Folder that fn::readFile paths are relative to. */
  dir: string;
  /** The URN of a resource or provider resource (`${res.urn}`), known before it is made; undefined for other names. */
  urn?(root: string): string | undefined;
  /** Whether a name is a config key declared `integer` (its value is then written into a string as an int). */
  integer?(root: string): boolean;
}

/** `${res.urn}`: the resource's URN, which Pulumi knows when planning, before the resource exists. */
function urnRef(expr: RefExpr, scope: Scope): string | undefined {
  return expr.path[0] === 'urn' && expr.path.length === 1 ? scope.urn?.(expr.root) : undefined;
}

/**
 * The value of an fn::secret. One not known until apply stays Unknown, but says only that it is
 * a secret: its source text may hold the secret's literal parts.
 */
function secretOf(value: unknown): unknown {
  if (value instanceof Unknown) return new Unknown('fn::secret');
  return value instanceof Secret ? value : new Secret(value);
}

/**
 * A template's text: its parts, each value formatted as Pulumi formats it (see formatValue); a
 * secret anywhere in a part makes the whole text secret.
 */
function joinTemplate(template: Array<string | RefExpr>, parts: unknown[], scope: Scope): unknown {
  if (parts.some((p) => containsUnknown(p))) return new Unknown(templateText(template));
  const secret = parts.some((p) => holdsSecret(p));
  const text = parts.map((p, i) => formatValue(reveal(p), isIntegerRef(template[i], scope))).join('');
  return secret ? new Secret(text) : text;
}

/** Whether a template part is a config key declared integer, which Pulumi formats as an int. */
function isIntegerRef(part: string | RefExpr, scope: Scope): boolean {
  return typeof part !== 'string' && part.path.length === 0 && scope.integer?.(part.root) === true;
}

/** Evaluates an expression to a plain value, possibly containing Unknown and Secret. */
export async function evaluate(expr: Expr, scope: Scope): Promise<unknown> {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'ref':
      return urnRef(expr, scope) ?? access(await scope.resolve(expr.root, expr.pos), expr.path, expr.text, expr.pos);
    case 'template': {
      const parts: unknown[] = [];
      for (const p of expr.parts) parts.push(typeof p === 'string' ? p : await evaluate(p, scope));
      return joinTemplate(expr.parts, parts, scope);
    }
    // A literal item is taken as it is, not awaited: most of a manifest is literals, and a
    // promise for each would be most of what evaluating it costs.
    case 'list': {
      const out: unknown[] = [];
      for (const item of expr.items) out.push(item.kind === 'literal' ? item.value : await evaluate(item, scope));
      return out;
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const e of expr.entries) out[e.key] = e.value.kind === 'literal' ? e.value.value : await evaluate(e.value, scope);
      return out;
    }
    case 'secret': {
      return secretOf(await evaluate(expr.value, scope));
    }
    case 'invoke': {
      const args = (await evaluate(expr.args, scope)) as Record<string, unknown>;
      // A call that depends on resources waits for them: while one is not known, neither is the result.
      let waiting = false;
      for (const ref of expr.dependsOn ?? []) if (containsUnknown(await evaluate(ref, scope))) waiting = true;
      const result = await scope.invoke(expr.fn, args, expr.pos, waiting, expr.provider?.root, expr.args);
      if (expr.ret === undefined) return result;
      if (result instanceof Unknown) return new Unknown(`${expr.fn}.${expr.ret}`);
      const obj = result as Record<string, unknown>;
      if (!(expr.ret in obj)) throw new EvalError(expr.pos, `${expr.fn} has no result field "${expr.ret}"`, `fields: ${Object.keys(obj).join(', ')}`);
      return obj[expr.ret];
    }
    case 'builtin':
      return builtin(expr.name, await evaluate(expr.arg, scope), expr.pos, scope);
    case 'mapping':
      return mapping(await evaluate(expr.value, scope), expr.pos);
    case 'stackReference':
      return stackReference(expr, scope);
    case 'value':
      return expr.value;
  }
}

/**
 * Properties written as one expression: its value must be a mapping. A secret mapping makes each
 * of its values secret, as Pulumi splits a secret object across a resource's inputs.
 */
function mapping(value: unknown, pos: Pos): unknown {
  if (value instanceof Unknown) return value;
  const plain = value instanceof Secret ? value.value : value;
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain) || plain instanceof Unknown) {
    throw new EvalError(pos, `properties must be a mapping, not ${describe(plain)}`, 'give the properties as a mapping, or an expression whose value is one');
  }
  if (!(value instanceof Secret)) return plain;
  return Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, v instanceof Secret || v instanceof Unknown ? v : new Secret(v)]));
}

/** Another stack's outputs, or one of them; a missing output is an error naming the stack and it. */
async function stackReference(expr: Extract<Expr, { kind: 'stackReference' }>, scope: Scope): Promise<unknown> {
  const stack = reveal(await evaluate(expr.stack, scope));
  const output = expr.output && reveal(await evaluate(expr.output, scope));
  if (stack instanceof Unknown || output instanceof Unknown || !scope.stackOutputs) return new Unknown(`stack reference ${typeof stack === 'string' ? stack : ''}`);
  if (typeof stack !== 'string' || !stack) throw new EvalError(expr.stack.pos, 'a stack reference names a stack: project/stack, or stack for one of this project');
  const outputs = await scope.stackOutputs(stack, expr.pos);
  if (outputs instanceof Unknown) return outputs;
  if (expr.output === undefined) return { name: stack, outputs };
  if (typeof output !== 'string' || !Object.hasOwn(outputs, output)) {
    throw new EvalError(expr.output.pos, `stack ${stack} has no output ${JSON.stringify(output)}`, `its outputs: ${Object.keys(outputs).join(', ') || '(none)'}`);
  }
  return outputs[output];
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null || value === undefined) return 'null';
  return `a ${typeof value}`;
}

/** Follows `.a[0]["b"]` into a value; Unknown stays Unknown, Secret stays secret. */
export function access(value: unknown, path: Accessor[], text: string, pos: Pos): unknown {
  let current = value;
  for (let i = 0; i < path.length; i++) {
    const step = path[i];
    if (current instanceof Unknown) return new Unknown(text);
    if (current instanceof Secret) return new Secret(access(current.value, path.slice(i), text, pos));
    if (typeof step === 'number') {
      if (!Array.isArray(current)) throw new EvalError(pos, `\${${text}}: [${step}] indexes something that is not a list`);
      if (step >= current.length) throw new EvalError(pos, `\${${text}}: index ${step} is out of range (the list has ${current.length} items)`);
      current = current[step];
    } else {
      if (current === null || typeof current !== 'object' || Array.isArray(current)) {
        throw new EvalError(pos, `\${${text}}: "${step}" reads a property of something that is not an object`);
      }
      current = (current as Record<string, unknown>)[step];
    }
  }
  return current;
}

function builtin(name: string, arg: unknown, pos: Pos, scope: Scope): unknown {
  if (containsUnknown(arg)) return new Unknown(`fn::${name}`);
  // The one function whose result is not secret when its argument is.
  if (name === 'unsecret') return unsecret(arg);
  // A secret anywhere in the argument (an item of a list, a field of an object in it) makes the
  // whole result secret: joining, selecting or encoding it must not reveal it.
  const secret = holdsSecret(arg);
  const result = plainBuiltin(name, reveal(arg), pos, scope);
  return secret ? new Secret(result) : result;
}

/** The result of `fn::<name>` on an argument holding no secret or unknown; a wrong argument throws naming `pos`. */
function plainBuiltin(name: string, plain: unknown, pos: Pos, scope: Scope): unknown {
  switch (name) {
    case 'join':
    case 'split':
    case 'select':
      return pairBuiltin(name, plain, pos);
    case 'toJSON':
      return JSON.stringify(plain);
    case 'toBase64':
      if (typeof plain !== 'string') throw new EvalError(pos, 'fn::toBase64 takes a string');
      return Buffer.from(plain, 'utf8').toString('base64');
    case 'fromBase64':
      if (typeof plain !== 'string') throw new EvalError(pos, 'fn::fromBase64 takes a string');
      return Buffer.from(plain, 'base64').toString('utf8');
    case 'readFile':
      return readInside(name, plain, pos, scope).toString('utf8');
    case 'filebase64':
      return readInside(name, plain, pos, scope).toString('base64');
    case 'filebase64sha256':
      return createHash('sha256')
        .update(readInside(name, plain, pos, scope))
        .digest('base64');
    case 'sha1':
      if (typeof plain !== 'string') throw new EvalError(pos, `fn::sha1 takes a string, not ${describe(plain)}`);
      return createHash('sha1').update(plain, 'utf8').digest('hex');
    case 'length':
      return lengthOf(plain, pos);
    case 'singleOrNone':
      if (!Array.isArray(plain)) throw new EvalError(pos, `fn::singleOrNone takes a list, not ${describe(plain)}`);
      if (plain.length > 1) throw new EvalError(pos, `fn::singleOrNone takes a list of no or one item; this one has ${plain.length}`);
      return plain.length ? plain[0] : null;
  }
  return undefined;
}

/** The result of `fn::join`, `fn::split` or `fn::select`, each taking a list of two values. */
function pairBuiltin(name: 'join' | 'split' | 'select', plain: unknown, pos: Pos): unknown {
  if (!Array.isArray(plain) || plain.length !== 2) throw new EvalError(pos, `fn::${name} takes a list of two values`);
  const [first, second] = plain as [unknown, unknown];
  switch (name) {
    case 'join':
      if (typeof first !== 'string' || !Array.isArray(second)) throw new EvalError(pos, 'fn::join takes [delimiter, list]');
      return second.map(stringify).join(first);
    case 'split':
      if (typeof first !== 'string' || typeof second !== 'string') throw new EvalError(pos, 'fn::split takes [delimiter, string]');
      return second.split(first);
    case 'select':
      if (typeof first !== 'number' || !Array.isArray(second)) throw new EvalError(pos, 'fn::select takes [index, list]');
      if (first < 0 || first >= second.length) throw new EvalError(pos, `fn::select index ${first} is out of range (the list has ${second.length} items)`);
      return second[first];
  }
}

/** The number of items of a list or mapping, or of characters (as people count them) of a string. */
function lengthOf(value: unknown, pos: Pos): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value === 'string') return [...new Intl.Segmenter().segment(value)].length;
  if (value !== null && typeof value === 'object') return Object.keys(value).length;
  throw new EvalError(pos, `fn::length takes a list, a mapping or a string, not ${describe(value)}`);
}

/** The bytes of a file inside the manifest's folder (readFile and the filebase64 functions never read outside it). */
function readInside(name: string, path: unknown, pos: Pos, scope: Scope): Buffer {
  if (typeof path !== 'string') throw new EvalError(pos, `fn::${name} takes a path`);
  const full = resolve(scope.dir, path);
  const rel = relative(scope.dir, full);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new EvalError(pos, `fn::${name}: "${path}" is outside the manifest's folder`);
  try {
    return readFileSync(full);
  } catch {
    throw new EvalError(pos, `fn::${name}: cannot read "${path}"`);
  }
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function templateText(parts: Array<string | { text: string }>): string {
  return parts.map((p) => (typeof p === 'string' ? p : `\${${p.text}}`)).join('');
}
