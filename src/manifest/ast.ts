/**
 * The parsed manifest: plain, serializable data with a source position on every node.
 * Expressions are kept unevaluated so the same program can be evaluated at plan and at apply.
 */

/** 1-based line and column inside the manifest file. */
export interface Pos {
  line: number;
  column: number;
}

/** One step of a property access: `.name` or `["key"]` is a string, `[0]` a number. */
export type Accessor = string | number;

/** A `${root.path[0]}` reference. */
export interface RefExpr {
  kind: 'ref';
  root: string;
  path: Accessor[];
  /** The text between `${` and `}`, for messages and `(known after apply)` sources. */
  text: string;
  pos: Pos;
}

/** Built-in functions other than invoke and secret. */
export type BuiltinName = 'join' | 'split' | 'select' | 'toJSON' | 'toBase64' | 'fromBase64' | 'readFile';

/**
 * A literal value. Its position is kept as two numbers and made into a Pos when asked for: a
 * large manifest has tens of thousands of literals, kept until the command ends.
 */
export class LiteralExpr {
  readonly kind = 'literal';
  constructor(
    readonly value: null | boolean | number | string,
    readonly line: number,
    readonly column: number,
  ) {}

  get pos(): Pos {
    return { line: this.line, column: this.column };
  }
}

/** One key of a mapping and its value; the key's position is kept as LiteralExpr keeps its own. */
export class ObjectEntry {
  constructor(
    readonly key: string,
    readonly value: Expr,
    readonly keyLine: number,
    readonly keyColumn: number,
  ) {}

  get keyPos(): Pos {
    return { line: this.keyLine, column: this.keyColumn };
  }
}

/** Any expression in the manifest. */
export type Expr =
  | LiteralExpr
  | RefExpr
  | { kind: 'template'; parts: Array<string | RefExpr>; pos: Pos }
  | { kind: 'list'; items: Expr[]; pos: Pos }
  | ObjectExpr
  | { kind: 'invoke'; fn: string; args: ObjectExpr; ret?: string; pos: Pos }
  | { kind: 'secret'; value: Expr; pos: Pos }
  | { kind: 'builtin'; name: BuiltinName; arg: Expr; pos: Pos };

/** A YAML mapping of expressions, with the position of every key. */
export interface ObjectExpr {
  kind: 'object';
  entries: ObjectEntry[];
  pos: Pos;
}

/** Resource options (the Pulumi YAML subset plumb supports). */
export interface ResourceOptions {
  dependsOn: string[];
  protect: boolean;
  ignoreChanges: string[];
  replaceOnChanges: string[];
  deleteBeforeReplace?: boolean;
  retainOnDelete: boolean;
  import?: string;
  customTimeouts?: { create?: number; update?: number; delete?: number };
}

/** One `resources:` entry. */
export interface ResourceDecl {
  address: string;
  /** Canonical token (`interconnect:index/port:Port`). */
  token: string;
  properties: ObjectExpr;
  options: ResourceOptions;
  pos: Pos;
  typePos: Pos;
}

/** A whole manifest. */
export interface Manifest {
  file: string;
  /** Folder of the manifest (for readFile and the state folder). */
  dir: string;
  /** sha256 of the file's bytes; a saved plan is bound to it. */
  hash: string;
  name: string;
  description?: string;
  /** `provider:setting` and plain config keys → value. */
  config: Record<string, { value: Expr; pos: Pos }>;
  variables: Record<string, Expr>;
  resources: Record<string, ResourceDecl>;
  outputs: Record<string, Expr>;
  /** Function tokens the manifest calls with fn::invoke, anywhere. */
  invoked: string[];
}

/** Whether a mapping key calls a function: `fn::` in any case (without a lower-cased copy of every key). */
export function isFunctionKey(key: string): boolean {
  return key.length >= 4 && (key.charCodeAt(0) | 32) === 102 && (key.charCodeAt(1) | 32) === 110 && key[2] === ':' && key[3] === ':';
}

/**
 * Every reference inside an expression, in source order. Plain indexed loops: the graph is built
 * from every resource's references, mostly before the engine has compiled this function.
 */
export function refsOf(expr: Expr, into: RefExpr[] = []): RefExpr[] {
  switch (expr.kind) {
    case 'ref':
      into.push(expr);
      break;
    case 'template':
      for (let i = 0; i < expr.parts.length; i++) {
        const part = expr.parts[i];
        if (typeof part !== 'string') into.push(part);
      }
      break;
    case 'list':
      for (let i = 0; i < expr.items.length; i++) refsOf(expr.items[i], into);
      break;
    case 'object':
      for (let i = 0; i < expr.entries.length; i++) refsOf(expr.entries[i].value, into);
      break;
    case 'invoke':
      refsOf(expr.args, into);
      break;
    case 'secret':
      refsOf(expr.value, into);
      break;
    case 'builtin':
      refsOf(expr.arg, into);
      break;
  }
  return into;
}

/** The position of the value at `path` inside an object expression (falls back to the nearest parent). */
export function posAt(expr: Expr, path: ReadonlyArray<PropertyKey>): Pos {
  let node: Expr = expr;
  let pos = expr.pos;
  for (const step of path) {
    if (node.kind === 'object') {
      const entry = node.entries.find((e) => e.key === String(step));
      if (!entry) return pos;
      pos = entry.value.pos;
      node = entry.value;
    } else if (node.kind === 'list' && typeof step === 'number' && node.items[step]) {
      node = node.items[step];
      pos = node.pos;
    } else {
      return pos;
    }
  }
  return pos;
}

/** The position of the key at `path` (for "unknown property" errors). */
export function keyPosAt(expr: Expr, path: ReadonlyArray<PropertyKey>, key: string): Pos {
  let node: Expr = expr;
  for (const step of path) {
    if (node.kind !== 'object') return node.pos;
    const entry = node.entries.find((e) => e.key === String(step));
    if (!entry) return node.pos;
    node = entry.value;
  }
  if (node.kind === 'object') return node.entries.find((e) => e.key === key)?.keyPos ?? node.pos;
  return node.pos;
}
