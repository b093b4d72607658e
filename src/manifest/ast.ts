/**
 * The parsed manifest: plain, serializable data with a source position on every node.
 * Expressions are kept unevaluated so the same program can be evaluated at plan and at apply.
 */

import type { Diagnostic } from '../kernel/diagnostics.js';

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
export type BuiltinName = 'join' | 'split' | 'select' | 'toJSON' | 'toBase64' | 'fromBase64' | 'readFile' | 'length' | 'unsecret' | 'sha1' | 'filebase64' | 'filebase64sha256' | 'singleOrNone';

/** The built-in variables, `${pulumi.stack}` and plumb's own spelling `${plumb.stack}`: names no manifest may declare. */
export const BUILTIN_ROOTS: ReadonlySet<string> = new Set(['pulumi', 'plumb']);

/** The fields of a built-in variable. */
export const BUILTIN_FIELDS = ['stack', 'project', 'cwd', 'rootDirectory', 'organization'] as const;

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
  | InvokeExpr
  | { kind: 'secret'; value: Expr; pos: Pos }
  | { kind: 'builtin'; name: BuiltinName; arg: Expr; pos: Pos }
  /** An expression that must evaluate to a mapping: a resource's `properties` written as one expression. */
  | { kind: 'mapping'; value: Expr; pos: Pos }
  /**
   * Another stack's outputs at the same state location (`fn::stackReference`, or a
   * `pulumi:pulumi:StackReference` resource): one output, or without `output` `{name, outputs}`.
   */
  | { kind: 'stackReference'; stack: Expr; output?: Expr; pos: Pos }
  /**
   * A value already known, evaluated as it is: a config value read from the stack's settings, or
   * (an Unknown) what a call of an unknown function stands for once its error is reported, so
   * that no check reports it again as a value of the wrong type.
   */
  | { kind: 'value'; value: unknown; pos: Pos };

/** An `fn::invoke` (or its `fn::<token>` shorthand). */
export interface InvokeExpr {
  kind: 'invoke';
  fn: string;
  args: ObjectExpr;
  ret?: string;
  /** `options.dependsOn`: the call waits for these resources; while one is not known yet, so is the result. */
  dependsOn?: RefExpr[];
  /** `options.parent`: a resource the call is ordered after; it changes nothing else here. */
  parent?: RefExpr;
  /** `options.provider`: the provider resource the call goes through (the default one when absent). */
  provider?: RefExpr;
  pos: Pos;
}

/** A YAML mapping of expressions, with the position of every key. */
export interface ObjectExpr {
  kind: 'object';
  entries: ObjectEntry[];
  pos: Pos;
}

/** Resource options (the Pulumi YAML subset plumb supports). */
export interface ResourceOptions {
  dependsOn: string[];
  /** Known once `protectExpr`, when there is one, is evaluated (the plan does so first). */
  protect: boolean;
  /** `protect` written as an expression (`${isProduction}`), evaluated when planning. */
  protectExpr?: Expr;
  ignoreChanges: string[];
  replaceOnChanges: string[];
  deleteBeforeReplace?: boolean;
  retainOnDelete: boolean;
  import?: string;
  customTimeouts?: { create?: number; update?: number; delete?: number; read?: number };
  /** Outputs recorded and shown as secrets, besides those the type marks. */
  additionalSecretOutputs?: string[];
  /** A resource whose deletion deletes this one: when both go in one run, this one's delete is not called. */
  deletedWith?: RefExpr;
  /** A value whose change replaces the resource. */
  replacementTrigger?: Expr;
  /** Property paths whose diffs the plan does not show (the change is still made). */
  hideDiffs?: string[];
  /** Addresses (and types) the resource was recorded under before: a rename moves its record. */
  aliases?: Alias[];
  /** `provider: ${east}`: the provider resource the resource belongs to. */
  provider?: RefExpr;
  /**
   * `parent: ${router}`: the resource this one is a child of. It is made after its parent and
   * deleted before it, its URN carries the parent's type, and it takes the parent's provider,
   * protect and retainOnDelete where it sets none of its own.
   */
  parent?: RefExpr;
  /** `customTimeouts` values written as expressions (`create: ${timeout}`), evaluated when planning into `customTimeouts`. */
  customTimeoutExprs?: Partial<Record<'create' | 'update' | 'delete' | 'read', Expr>>;
  /** `providers: { cloud: ${east} }` (or a list): the provider resource for each provider, by name. */
  providers?: Array<{ ref: RefExpr; name?: string }>;
  /** Where each option's value is written, for problems found once the resource's type is known. */
  positions?: Partial<Record<'additionalSecretOutputs' | 'hideDiffs' | 'ignoreChanges' | 'replaceOnChanges' | 'protect' | 'retainOnDelete' | 'import', Pos>>;
  /** Where each entry of a list option is written, by its index in the list: a problem with one entry is shown at it. */
  entryPositions?: Partial<Record<ListOption, Pos[]>>;
}

/** The options that are lists of names or property paths. */
export type ListOption = 'dependsOn' | 'additionalSecretOutputs' | 'hideDiffs' | 'ignoreChanges' | 'replaceOnChanges';

/** An old name of a resource (`aliases: [oldPort]`, a URN, or `{name, type}`). */
export interface Alias {
  /** The old address; as written until `expr` is evaluated, when there is one. */
  name: string;
  /** The type it was recorded with, when the alias says (it must be the resource's own type). */
  type?: string;
  pos: Pos;
  /**
   * The name or URN when written with `${...}` (`urn:pulumi:${pulumi.stack}::...`): evaluated
   * when planning, from config, variables and lookups, into `name` (and `type`, from a URN).
   */
  expr?: Expr;
}

/** `get:` on a resource: the object with this id is read, never managed. */
export interface GetDecl {
  id: Expr;
  pos: Pos;
}

/** One `resources:` entry. */
export interface ResourceDecl {
  address: string;
  /**
   * `name:`, Pulumi's logical name: the last part of the resource's URN (`${res.urn}`, a URN
   * alias of it). The address, its key under resources:, stays what plans and state go by.
   */
  name?: string;
  /** Canonical token (`interconnect:index/port:Port`). */
  token: string;
  /** A mapping of expressions, or (kind `mapping`) one expression evaluating to a mapping. */
  properties: Expr;
  options: ResourceOptions;
  /** Present when the resource is only read (`get: { id }`); its properties are then empty. */
  get?: GetDecl;
  /** The address of the provider resource it belongs to (options.provider or providers); absent for the default. */
  provider?: string;
  pos: Pos;
  typePos: Pos;
}

/** A `pulumi:providers:<provider>` resource: settings for one more connection, with no remote object. */
export interface ProviderDecl {
  address: string;
  /** `name:`, Pulumi's logical name: the last part of the provider's URN. */
  name?: string;
  /** `defaultProvider: true`: resources and calls of its provider that name no provider go through it. */
  defaultProvider?: boolean;
  /** `options.dependsOn`: accepted, and waited for by nothing: a provider resource makes no remote object. */
  dependsOn?: RefExpr[];
  /** The provider it configures (`interconnect`, `cloud`, `pipeline`). */
  provider: string;
  /** Its settings, keyed as config keys `<provider>:<key>` are. */
  properties: ObjectExpr;
  pos: Pos;
}

/** A whole manifest. */
export interface Manifest {
  file: string;
  /** Folder of the manifest (for readFile, `${pulumi.cwd}`, and the state folder without a projectFile). */
  dir: string;
  /**
   * The project file (Pulumi.yaml) declaring the project of a program kept in another file
   * (Main.yaml): its folder is the project's root, where the state and sandbox data are kept.
   */
  projectFile?: string;
  /** sha256 of the file's bytes; a saved plan is bound to it. */
  hash: string;
  name: string;
  /** The project state and `${pulumi.project}` go by: the name, or without one the file's name less its extension. */
  project: string;
  /** The stack the manifest is read for (its config comes from that stack's settings). */
  stack: string;
  description?: string;
  /** `provider:setting` and plain config keys → value (after `resolveConfig`, the value in effect for the stack). */
  config: Record<string, ConfigEntry>;
  variables: Record<string, Expr>;
  resources: Record<string, ResourceDecl>;
  /** `pulumi:providers:*` resources by address: never planned, recorded or deleted. */
  providers: Record<string, ProviderDecl>;
  outputs: Record<string, Expr>;
  /** Function tokens the manifest calls with fn::invoke, anywhere. */
  invoked: string[];
  /** Things worth saying that do not stop the manifest being used (a deprecated spelling). */
  warnings: Diagnostic[];
}

/** The types a config value may be declared with. */
export type ConfigType = 'string' | 'integer' | 'number' | 'boolean' | 'list' | 'object';

/** A typed config declaration (`type`, `default`, `secret`, `items`, `name`). */
export interface ConfigDecl {
  type?: ConfigType;
  /** The type of each item of a list. */
  items?: ConfigType;
  secret: boolean;
  /** Where `secret:` is written, for an error when it says false of a value stored encrypted. */
  secretPos?: Pos;
  /** The key looked up in the stack's settings, when not the declared name. */
  lookup?: string;
  /** Whether the declaration gives a default (else a value must be set for the stack). */
  hasDefault: boolean;
  /** The file the declaration is written in, when not the program's (the project file). */
  file?: string;
}

/** One config key: its value expression (the default, or the value in effect), where it is written, and how it is declared. */
export interface ConfigEntry {
  value: Expr;
  pos: Pos;
  /** The file the value came from, when not the manifest (the stack's settings file). */
  file?: string;
  /** The flag or environment variable the value came from (`--config waitTime`). */
  label?: string;
  /** Where the value in effect came from. */
  source?: 'manifest' | 'stack' | 'environment' | 'flag';
  decl?: ConfigDecl;
}

/** Whether a mapping key calls a function: `fn::` in any case (without a lower-cased copy of every key). */
export function isFunctionKey(key: string): boolean {
  return key.length >= 4 && (key.charCodeAt(0) | 32) === 102 && (key.charCodeAt(1) | 32) === 110 && key[2] === ':' && key[3] === ':';
}

/**
 * Every reference inside an expression to a declared name, in source order (a built-in variable,
 * `${pulumi.stack}`, names none). Plain indexed loops: the graph is built
 * from every resource's references, mostly before the engine has compiled this function.
 */
export function refsOf(expr: Expr, into: RefExpr[] = []): RefExpr[] {
  switch (expr.kind) {
    case 'ref':
      if (!BUILTIN_ROOTS.has(expr.root)) into.push(expr);
      break;
    case 'template':
      for (let i = 0; i < expr.parts.length; i++) {
        const part = expr.parts[i];
        if (typeof part !== 'string' && !BUILTIN_ROOTS.has(part.root)) into.push(part);
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
      if (expr.dependsOn) for (let i = 0; i < expr.dependsOn.length; i++) into.push(expr.dependsOn[i]);
      if (expr.parent) into.push(expr.parent);
      break;
    case 'mapping':
      refsOf(expr.value, into);
      break;
    case 'secret':
      refsOf(expr.value, into);
      break;
    case 'builtin':
      refsOf(expr.arg, into);
      break;
    case 'stackReference':
      refsOf(expr.stack, into);
      if (expr.output) refsOf(expr.output, into);
      break;
  }
  return into;
}

/**
 * Every reference a resource makes, in its properties and in the options that hold expressions
 * (`protect`, `replacementTrigger`, `deletedWith`, `aliases`, `parent`, `customTimeouts`): what it
 * needs evaluated or made first.
 */
export function resourceRefs(decl: ResourceDecl, into: RefExpr[] = []): RefExpr[] {
  refsOf(decl.properties, into);
  if (decl.get) refsOf(decl.get.id, into);
  const { protectExpr, replacementTrigger, deletedWith, aliases, parent, customTimeoutExprs } = decl.options;
  if (protectExpr) refsOf(protectExpr, into);
  if (parent) into.push(parent);
  if (customTimeoutExprs) for (const expr of Object.values(customTimeoutExprs)) refsOf(expr, into);
  if (replacementTrigger) refsOf(replacementTrigger, into);
  if (deletedWith) into.push(deletedWith);
  if (aliases) for (const alias of aliases) if (alias.expr) refsOf(alias.expr, into);
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
    const next = node.kind === 'object' ? node.entries.find((e) => e.key === String(step))?.value : node.kind === 'list' && typeof step === 'number' ? node.items[step] : undefined;
    if (!next) return node.pos;
    node = next;
  }
  if (node.kind === 'object') return node.entries.find((e) => e.key === key)?.keyPos ?? node.pos;
  return node.pos;
}

/** Where entry `index` of a list option of a resource is written: at the entry, else the option, else the resource. */
export function entryPos(decl: ResourceDecl, option: ListOption, index: number): Pos {
  const { entryPositions, positions } = decl.options;
  return entryPositions?.[option]?.[index] ?? (option === 'dependsOn' ? undefined : positions?.[option]) ?? decl.pos;
}
