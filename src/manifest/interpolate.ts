import type { Accessor, Pos, RefExpr } from './ast.js';

/** A syntax problem inside one string, with the column offset where it starts. */
export class InterpolationError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** A whole string that is one reference of dotted names, which the general reading below gives the same result for. */
const PLAIN_REFERENCE = /^\$\{([^.[\]\s"{}$\\]+(?:\.[^.[\]\s"{}$\\]+)*)\}$/;

/**
 * Splits a string into literal text and `${...}` references, following Pulumi YAML:
 * `$$` is a literal `$` (so `$${x}` is the text `${x}`), `${}` and an unterminated `${` are errors.
 */
export function parseInterpolation(text: string, pos: Pos): Array<string | RefExpr> {
  // Most interpolations in a large manifest are one plain reference, `${port.productUid}`.
  const plain = PLAIN_REFERENCE.exec(text);
  if (plain) {
    const path: Accessor[] = plain[1].split('.');
    const root = path.shift() as string;
    return [{ kind: 'ref', root, path, text: plain[1], pos: { line: pos.line, column: pos.column } }];
  }
  const parts: Array<string | RefExpr> = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '$' && text[i + 1] === '$') {
      literal += '$';
      i += 2;
      continue;
    }
    if (ch === '$' && text[i + 1] === '{') {
      const end = findClose(text, i + 2);
      if (end < 0) throw new InterpolationError('unterminated "${": add the closing "}"', i);
      const inner = text.slice(i + 2, end).trim();
      if (!inner) throw new InterpolationError('empty "${}": name a variable, config key or resource', i);
      if (literal) parts.push(literal);
      literal = '';
      const refPos = { line: pos.line, column: pos.column + i };
      parts.push({ kind: 'ref', ...parseAccess(inner, i), text: inner, pos: refPos });
      i = end + 1;
      continue;
    }
    literal += ch;
    i++;
  }
  if (literal || parts.length === 0) parts.push(literal);
  return parts;
}

function findClose(text: string, from: number): number {
  let inQuote = false;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (inQuote && ch === '\\') {
      i++;
      continue;
    }
    if (ch === '"') inQuote = !inQuote;
    else if (!inQuote && ch === '}') return i;
  }
  return -1;
}

/** Parses `root.a["b"][0]` into a root name and accessors. */
export function parseAccess(text: string, offset = 0): { root: string; path: Accessor[] } {
  let i = 0;
  const path: Accessor[] = [];
  let root: string;
  if (text.startsWith('[')) {
    const [key, next] = readBracket(text, 0, offset);
    if (typeof key === 'number') throw new InterpolationError(`"${text}": a reference cannot start with an index`, offset);
    root = key;
    i = next;
  } else {
    const m = /^[^.[\s]+/.exec(text);
    if (!m) throw new InterpolationError(`"${text}" is not a valid reference`, offset);
    root = m[0];
    i = m[0].length;
  }
  while (i < text.length) {
    if (text[i] === '.') {
      const m = /^[^.[\s]+/.exec(text.slice(i + 1));
      if (!m) throw new InterpolationError(`"${text}": expected a property name after "."`, offset + i);
      path.push(m[0]);
      i += 1 + m[0].length;
    } else if (text[i] === '[') {
      const [key, next] = readBracket(text, i, offset);
      path.push(key);
      i = next;
    } else {
      throw new InterpolationError(`"${text}": unexpected "${text[i]}" (use .name, ["key"] or [0])`, offset + i);
    }
  }
  return { root, path };
}

function readBracket(text: string, start: number, offset: number): [Accessor, number] {
  const close = text.indexOf(']', start);
  const body = text.slice(start + 1, close < 0 ? undefined : close);
  if (body.startsWith('"')) {
    let key = '';
    let i = start + 2;
    for (; i < text.length && text[i] !== '"'; i++) {
      if (text[i] === '\\') i++;
      key += text[i];
    }
    if (text[i + 1] !== ']') throw new InterpolationError(`"${text}": expected "]" after a quoted key`, offset + i);
    return [key, i + 2];
  }
  if (close < 0 || !/^\d+$/.test(body)) {
    throw new InterpolationError(`"${text}": an index must be a whole number like [0] or a quoted key like ["name"]`, offset + start);
  }
  return [Number(body), close + 1];
}
