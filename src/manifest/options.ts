/**
 * A resource's `options:` read into ResourceOptions. Every Pulumi YAML option is read, noted
 * (the provider pins `version` and `pluginDownloadURL`, which a built-in provider has no use
 * for) or refused at its key with the reason it means nothing here.
 */
import { isMap, isScalar, isSeq, type Node, type Pair } from 'yaml';
import type { Expr, ListOption, Pos, ResourceOptions } from './ast.js';
import { readAliases } from './alias-option.js';
import { parseDuration } from './duration.js';
import { type AtFn, type ErrorFn, keyText } from './expressions.js';
import { closestName } from '../kernel/did-you-mean.js';

/** What reading options needs. */
export interface OptionsReader {
  at: AtFn;
  error: ErrorFn;
  toExpr: (node: unknown) => Expr;
  deref: (node: unknown) => Node | null | undefined;
  /**
   * Notes a provider pin (`version`, `pluginDownloadURL`) at `where`: accepted, as it means
   * nothing to a built-in provider, and said once per command rather than per resource.
   */
  pinned?: (option: string, where: string, pos: Pos) => void;
}

/** Options that pin a provider plugin: a built-in provider has no plugin to choose or download. */
export const PIN_OPTIONS: ReadonlySet<string> = new Set(['version', 'pluginDownloadURL']);

/** The one note a manifest's provider pins get: which options were written, and where (the first few). */
export function pinsNote(pins: ReadonlyArray<{ option: string; where: string }>): string | undefined {
  if (!pins.length) return undefined;
  const options = [...new Set(pins.map((p) => p.option))].sort();
  const places = [...new Set(pins.map((p) => p.where))];
  const shown = places.length > 3 ? `${places.slice(0, 3).join(', ')} and ${places.length - 3} more` : places.join(', ');
  return `${options.map((o) => `options.${o}`).join(' and ')} (${shown}) ignored: plumb's providers are built in, so there is no plugin to pin or download`;
}

const OPTIONS = [
  'dependsOn',
  'protect',
  'ignoreChanges',
  'replaceOnChanges',
  'deleteBeforeReplace',
  'retainOnDelete',
  'import',
  'customTimeouts',
  'additionalSecretOutputs',
  'deletedWith',
  'replacementTrigger',
  'hideDiffs',
  'aliases',
  'provider',
  'providers',
  'parent',
  'version',
  'pluginDownloadURL',
];

/** Pulumi options plumb refuses, with the reason. */
export const REFUSED_OPTIONS: Record<string, string> = {
  envVarMappings: "plumb's providers are built in: their settings are config keys and their own environment variables",
  replaceWith: 'replaceWith is not supported: replaceOnChanges, replacementTrigger or --replace replace a resource',
};

/** The options of a resource that gives none: one frozen value shared by all of them. */
export const NO_OPTIONS: ResourceOptions = Object.freeze({
  dependsOn: Object.freeze([]) as unknown as string[],
  protect: false,
  ignoreChanges: Object.freeze([]) as unknown as string[],
  replaceOnChanges: Object.freeze([]) as unknown as string[],
  retainOnDelete: false,
});

/** Reads `options:` of the resource at `address`; every problem is reported at its key or value. */
export function resourceOptions(node: Node | undefined, address: string, reader: OptionsReader): ResourceOptions {
  const { at, error, deref } = reader;
  if (node === undefined || node === null) return NO_OPTIONS;
  const options: ResourceOptions = { dependsOn: [], protect: false, ignoreChanges: [], replaceOnChanges: [], retainOnDelete: false };
  if (!isMap(node)) {
    error(at(node), `options of "${address}" must be a mapping`, undefined, address);
    return options;
  }
  for (const pair of node.items as Pair[]) {
    const key = keyText(pair);
    const pos = at((pair.value ?? pair.key) as Node);
    const value = deref(pair.value) as Node;
    if (REFUSED_OPTIONS[key]) error(at(pair.key as Node), `option "${key}" is not supported`, REFUSED_OPTIONS[key], address);
    else if (PIN_OPTIONS.has(key)) pin(key, value, pos, address, reader);
    else if (!readOption(options, key, value, pos, address, reader)) {
      const hint = closestName(key, OPTIONS);
      error(at(pair.key as Node), `option "${key}" is not supported`, `supported options: ${OPTIONS.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`, address);
    }
  }
  return options;
}

/** Reads one option into `options`; false when there is no such option. */
function readOption(options: ResourceOptions, key: string, value: Node, pos: Pos, address: string, reader: OptionsReader): boolean {
  const { at, error, toExpr } = reader;
  const bool = (): boolean | undefined => {
    if (isScalar(value) && typeof value.value === 'boolean') return value.value;
    error(pos, `option ${key} must be true or false`, undefined, address);
    return undefined;
  };
  const strings = (): string[] => {
    if (isSeq(value) && value.items.every((i) => isScalar(i) && typeof i.value === 'string')) {
      (options.entryPositions ??= {})[key as ListOption] = value.items.map((i) => at(i as Node));
      return value.items.map((i) => String((i as { value: unknown }).value));
    }
    error(pos, `option ${key} must be a list of property paths, e.g. [productName]`, undefined, address);
    return [];
  };
  switch (key) {
    case 'protect':
      readProtect(options, value, pos, address, reader);
      (options.positions ??= {}).protect = pos;
      return true;
    case 'deleteBeforeReplace':
      options.deleteBeforeReplace = bool();
      return true;
    case 'retainOnDelete':
      options.retainOnDelete = bool() ?? false;
      (options.positions ??= {}).retainOnDelete = pos;
      return true;
    case 'ignoreChanges':
    case 'replaceOnChanges':
    case 'hideDiffs':
    case 'additionalSecretOutputs':
      options[key] = strings();
      (options.positions ??= {})[key] = pos;
      return true;
    case 'import':
      if (isScalar(value) && typeof value.value === 'string' && value.value) [options.import, (options.positions ??= {}).import] = [value.value, pos];
      else error(pos, 'option import must be the id of the object to adopt', undefined, address);
      return true;
    case 'customTimeouts':
      options.customTimeouts = customTimeouts(value, pos, address, options, reader);
      return true;
    case 'replacementTrigger':
      options.replacementTrigger = toExpr(value);
      return true;
    case 'aliases':
      options.aliases = readAliases(value, address, reader);
      return true;
    default:
      return readReferenceOption(options, key, value, pos, address, reader);
  }
}

/** The options that name other resources of the manifest: dependsOn, deletedWith, provider, providers. */
function readReferenceOption(options: ResourceOptions, key: string, value: Node, pos: Pos, address: string, reader: OptionsReader): boolean {
  const { error, toExpr } = reader;
  switch (key) {
    case 'dependsOn': {
      const expr = toExpr(value);
      for (const item of expr.kind === 'list' ? expr.items : [expr]) {
        if (item.kind === 'ref' && item.path.length === 0) {
          options.dependsOn.push(item.root);
          ((options.entryPositions ??= {}).dependsOn ??= []).push(item.pos);
        } else error(item.pos, 'dependsOn takes resource references like ${port}', undefined, address);
      }
      return true;
    }
    case 'deletedWith': {
      const expr = toExpr(value);
      if (expr.kind === 'ref' && expr.path.length === 0) options.deletedWith = expr;
      else error(pos, 'deletedWith takes one resource reference like ${port}', undefined, address);
      return true;
    }
    case 'provider': {
      const expr = toExpr(value);
      if (expr.kind === 'ref') options.provider = expr;
      else error(pos, 'option provider takes one provider resource, e.g. ${east}', undefined, address);
      return true;
    }
    case 'providers':
      options.providers = providerList(value, pos, address, reader);
      return true;
    case 'parent': {
      // Whether it names a resource is checked once every resource is read.
      const expr = toExpr(value);
      if (expr.kind === 'ref' && expr.path.length === 0) options.parent = expr;
      else error(pos, 'option parent takes one resource reference like ${router}', undefined, address);
      return true;
    }
    default:
      return false;
  }
}

/** A provider pin: a string (as Pulumi takes it), noted and otherwise ignored. */
export function pin(key: string, value: Node, pos: Pos, where: string, { error, pinned }: OptionsReader): void {
  if (!isScalar(value) || typeof value.value !== 'string') error(pos, `option ${key} must be a string`, undefined, where);
  else pinned?.(key, where, pos);
}

/** `protect: true`, or an expression known when planning (`${isProduction}`). */
function readProtect(options: ResourceOptions, value: Node, pos: Pos, address: string, { error, toExpr }: OptionsReader): void {
  if (isScalar(value) && typeof value.value === 'boolean') {
    options.protect = value.value;
    return;
  }
  const expr = toExpr(value);
  if (expr.kind === 'literal' || expr.kind === 'list' || expr.kind === 'object') error(pos, 'option protect must be true, false or an expression such as ${isProduction}', undefined, address);
  else options.protectExpr = expr;
}

/** `providers:` as Pulumi's documentation has it (a map of provider name to resource) or as its runtime reads it (a list). */
function providerList(value: Node, pos: Pos, address: string, { at, error, toExpr }: OptionsReader): NonNullable<ResourceOptions['providers']> {
  const refs: NonNullable<ResourceOptions['providers']> = [];
  const take = (expr: Expr, name?: string) => {
    if (expr.kind === 'ref') refs.push(name === undefined ? { ref: expr } : { ref: expr, name });
    else error(expr.pos, 'option providers takes provider resources, e.g. { cloud: ${east} } or [${east}]', undefined, address);
  };
  if (isMap(value)) for (const p of value.items as Pair[]) take(toExpr(p.value), keyText(p));
  else if (isSeq(value)) for (const item of value.items) take(toExpr(item));
  else error(at(value) ?? pos, 'option providers must be a mapping of provider names to provider resources, e.g. { cloud: ${east} }', undefined, address);
  return refs;
}

const VERBS = ['create', 'update', 'delete', 'read'] as const;

/** The `customTimeouts` option: create, update, delete and read as durations, or expressions evaluated when planning. */
function customTimeouts(value: Node, pos: Pos, address: string, options: ResourceOptions, { at, error, toExpr }: OptionsReader): NonNullable<ResourceOptions['customTimeouts']> {
  const timeouts: NonNullable<ResourceOptions['customTimeouts']> = {};
  if (!isMap(value)) {
    error(pos, 'customTimeouts must be a mapping of create/update/delete/read to durations like 30m', undefined, address);
    return timeouts;
  }
  for (const p of value.items as Pair[]) {
    const k = keyText(p);
    if (!(VERBS as readonly string[]).includes(k)) {
      error(at(p.key as Node), `customTimeouts has no "${k}"; valid: ${VERBS.join(', ')}`, undefined, address);
      continue;
    }
    const expr = toExpr(p.value);
    const verb = k as (typeof VERBS)[number];
    const ms = expr.kind === 'literal' ? parseDuration(String(expr.value)) : undefined;
    if (ms !== undefined) timeouts[verb] = ms;
    else if (expr.kind === 'literal' || expr.kind === 'list' || expr.kind === 'object') error(at(p.value as Node), `customTimeouts.${k} must be a duration like 90s, 30m or 1h`, undefined, address);
    else (options.customTimeoutExprs ??= {})[verb] = expr;
  }
  return timeouts;
}
