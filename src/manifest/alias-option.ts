/**
 * The `aliases` resource option: the names (and types) a resource was recorded under before, so a
 * rename moves its record instead of replacing a billed object.
 */
import { isMap, isScalar, isSeq, type Node, type Pair, type Scalar } from 'yaml';
import type { Alias, Expr } from './ast.js';
import type { OptionsReader } from './options.js';
import { keyText } from './expressions.js';

/** Object-form keys that name a place plumb has no notion of (parents, other stacks or projects). */
const REFUSED_KEYS: Record<string, string> = {
  parent: 'there are no component resources: every resource is at the top level',
  noParent: 'there are no component resources: every resource is at the top level',
  stack: 'an alias names an address in this stack: a resource moves between stacks with plumb state mv and import',
  project: 'an alias names an address in this project: a resource moves between projects with import',
};

/** The forms an alias takes, said with every problem of one. */
export const ALIAS_FORMS = 'aliases is a list of old names (oldPort), URNs (urn:pulumi:stack::project::type::oldPort) or {name, type} mappings';

/** Reads `aliases:`; every problem is reported at its item. */
export function readAliases(value: Node, address: string, reader: OptionsReader): Alias[] {
  const { at, error, deref } = reader;
  if (!isSeq(value)) {
    error(at(value), 'option aliases must be a list', ALIAS_FORMS, address);
    return [];
  }
  const aliases: Alias[] = [];
  for (const raw of value.items) {
    const item = deref(raw) as Node;
    const pos = at(item);
    if (isScalar(item) && typeof item.value === 'string' && item.value) {
      const expr = interpolated(item, reader);
      const alias = expr ? { name: item.value, expr } : fromText(item.value);
      if (alias) aliases.push({ ...alias, pos });
      else error(pos, aliasNotText(item.value), ALIAS_FORMS, address);
    } else if (isMap(item)) {
      const alias = fromMapping(item, address, reader);
      if (alias) aliases.push({ ...alias, pos });
    } else error(pos, 'an alias must be an old name, a URN or a {name, type} mapping', ALIAS_FORMS, address);
  }
  return aliases;
}

/** The problem with an alias's text that is neither a name nor a URN. */
export function aliasNotText(text: string): string {
  return `alias "${text}" is not a name or a URN`;
}

/** The expression of a name or URN written with `${...}`; undefined for plain text. */
function interpolated(node: Node, { toExpr }: OptionsReader): Expr | undefined {
  const expr = toExpr(node);
  return expr.kind === 'literal' ? undefined : expr;
}

/** A plain name, or a URN whose last two `::` parts are the type and the name. */
export function fromText(text: string): Omit<Alias, 'pos'> | undefined {
  if (!text.startsWith('urn:')) return { name: text };
  const parts = text.split('::');
  if (parts.length < 4 || !parts[parts.length - 1]) return undefined;
  // A type of a component child is `parentType$childType`: the last one is the resource's own.
  const type = parts[parts.length - 2].split('$').pop();
  return { name: parts[parts.length - 1], type: type || undefined };
}

function fromMapping(node: Node & { items: unknown[] }, address: string, reader: OptionsReader): Omit<Alias, 'pos'> | undefined {
  const { at, error, deref } = reader;
  let alias: Partial<Omit<Alias, 'pos'>> | undefined = {};
  let named = false;
  for (const pair of node.items as Pair[]) {
    const key = keyText(pair);
    if (key !== 'name' && key !== 'type' && key !== 'urn') {
      error(at(pair.key as Node), `alias key "${key}" is not supported`, REFUSED_KEYS[key] ?? 'an alias mapping takes name and type (or urn)', address);
      alias = undefined;
      continue;
    }
    named ||= key !== 'type';
    const value = deref(pair.value);
    const part = isScalar(value) && typeof value.value === 'string' && value.value ? mappingPart(key, value as Scalar<string>, reader) : { problem: `alias ${key} must be a string` };
    if ('problem' in part) {
      error(at((value ?? pair.key) as Node), part.problem, part.detail, address);
      alias = undefined;
    } else if (alias) Object.assign(alias, part);
  }
  if (!named) {
    error(at(node), 'an alias mapping needs the old name: {name: oldPort}', ALIAS_FORMS, address);
    return undefined;
  }
  return alias?.name ? { ...alias, name: alias.name } : undefined;
}

/** What one key of an alias mapping gives the alias: its name, its type, or both from a URN. */
function mappingPart(key: 'name' | 'type' | 'urn', node: Scalar<string>, reader: OptionsReader): Partial<Omit<Alias, 'pos'>> | { problem: string; detail?: string } {
  const text = node.value;
  const expr = interpolated(node, reader);
  // A type is a token: `${...}` in one would be compared as text.
  if (key === 'type') return expr ? { problem: `alias type "${text}" must be written out, e.g. interconnect:Port` } : { type: text };
  if (expr) return { name: text, expr };
  if (key === 'name') return { name: text };
  return fromText(text) ?? { problem: aliasNotText(text), detail: ALIAS_FORMS };
}
