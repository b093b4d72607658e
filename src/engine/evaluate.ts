import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Accessor, Expr, Pos } from '../manifest/ast.js';
import { Secret, Unknown, containsUnknown, holdsSecret, reveal } from '../values.js';

/** An evaluation failure at a manifest position. */
export class EvalError extends Error {
  constructor(readonly pos: Pos, message: string, readonly detail?: string) {
    super(message);
  }
}

/** Where evaluation gets names and function results from. */
export interface Scope {
  /** The value of a config key, variable or resource; throws EvalError for an unknown name. */
  resolve(root: string, pos: Pos): Promise<unknown>;
  /** Calls a lookup function (may return Unknown when its arguments are not known yet). */
  invoke(fn: string, args: Record<string, unknown>, pos: Pos): Promise<unknown>;
  /** Folder that fn::readFile paths are relative to. */
  dir: string;
}

/**
 * The value of an fn::secret. One not known until apply stays Unknown, but says only that it is
 * a secret: its source text may hold the secret's literal parts.
 */
function secretOf(value: unknown): unknown {
  if (value instanceof Unknown) return new Unknown('fn::secret');
  return value instanceof Secret ? value : new Secret(value);
}

function joinTemplate(template: Array<string | { text: string }>, parts: unknown[]): unknown {
  if (parts.some((p) => containsUnknown(p))) return new Unknown(templateText(template));
  const secret = parts.some((p) => p instanceof Secret);
  const text = parts.map((p) => stringify(p instanceof Secret ? p.value : p)).join('');
  return secret ? new Secret(text) : text;
}

/** Evaluates an expression to a plain value, possibly containing Unknown and Secret. */
export async function evaluate(expr: Expr, scope: Scope): Promise<unknown> {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'ref':
      return access(await scope.resolve(expr.root, expr.pos), expr.path, expr.text, expr.pos);
    case 'template': {
      const parts: unknown[] = [];
      for (const p of expr.parts) parts.push(typeof p === 'string' ? p : await evaluate(p, scope));
      return joinTemplate(expr.parts, parts);
    }
    case 'list': {
      const out: unknown[] = [];
      for (const item of expr.items) out.push(await evaluate(item, scope));
      return out;
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const e of expr.entries) out[e.key] = await evaluate(e.value, scope);
      return out;
    }
    case 'secret': {
      return secretOf(await evaluate(expr.value, scope));
    }
    case 'invoke': {
      const args = (await evaluate(expr.args, scope)) as Record<string, unknown>;
      const result = await scope.invoke(expr.fn, args, expr.pos);
      if (expr.ret === undefined) return result;
      if (result instanceof Unknown) return new Unknown(`${expr.fn}.${expr.ret}`);
      const obj = result as Record<string, unknown>;
      if (!(expr.ret in obj)) throw new EvalError(expr.pos, `${expr.fn} has no result field "${expr.ret}"`, `fields: ${Object.keys(obj).join(', ')}`);
      return obj[expr.ret];
    }
    case 'builtin':
      return builtin(expr.name, await evaluate(expr.arg, scope), expr.pos, scope);
  }
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
  // A secret anywhere in the argument (an item of a list, a field of an object in it) makes the
  // whole result secret: joining, selecting or encoding it must not reveal it.
  const secret = holdsSecret(arg);
  const plain = reveal(arg);
  const pair = (): [unknown, unknown] => {
    if (!Array.isArray(plain) || plain.length !== 2) throw new EvalError(pos, `fn::${name} takes a list of two values`);
    return [plain[0], plain[1]];
  };
  let result: unknown;
  switch (name) {
    case 'join': {
      const [delim, list] = pair();
      if (typeof delim !== 'string' || !Array.isArray(list)) throw new EvalError(pos, 'fn::join takes [delimiter, list]');
      result = list.map(stringify).join(delim);
      break;
    }
    case 'split': {
      const [delim, text] = pair();
      if (typeof delim !== 'string' || typeof text !== 'string') throw new EvalError(pos, 'fn::split takes [delimiter, string]');
      result = text.split(delim);
      break;
    }
    case 'select': {
      const [index, list] = pair();
      if (typeof index !== 'number' || !Array.isArray(list)) throw new EvalError(pos, 'fn::select takes [index, list]');
      if (index < 0 || index >= list.length) throw new EvalError(pos, `fn::select index ${index} is out of range (the list has ${list.length} items)`);
      result = list[index];
      break;
    }
    case 'toJSON':
      result = JSON.stringify(plain);
      break;
    case 'toBase64':
      if (typeof plain !== 'string') throw new EvalError(pos, 'fn::toBase64 takes a string');
      result = Buffer.from(plain, 'utf8').toString('base64');
      break;
    case 'fromBase64':
      if (typeof plain !== 'string') throw new EvalError(pos, 'fn::fromBase64 takes a string');
      result = Buffer.from(plain, 'base64').toString('utf8');
      break;
    case 'readFile': {
      if (typeof plain !== 'string') throw new EvalError(pos, 'fn::readFile takes a path');
      const full = resolve(scope.dir, plain);
      const rel = relative(scope.dir, full);
      if (rel.startsWith('..') || isAbsolute(rel)) throw new EvalError(pos, `fn::readFile: "${plain}" is outside the manifest's folder`);
      try {
        result = readFileSync(full, 'utf8');
      } catch {
        throw new EvalError(pos, `fn::readFile: cannot read "${plain}"`);
      }
      break;
    }
  }
  return secret ? new Secret(result) : result;
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
