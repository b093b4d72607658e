/**
 * The `aliases` resource option: the names (and types) a resource was recorded under before, so a
 * rename moves its record instead of replacing a billed object.
 */
import { isMap, isScalar, isSeq, type Node, type Pair } from 'yaml';
import type { Alias } from './ast.js';
import type { OptionsReader } from './options.js';
import { keyText } from './expressions.js';

/** Object-form keys that name a place plumb has no notion of (parents, other stacks or projects). */
const REFUSED_KEYS: Record<string, string> = {
  parent: 'there are no component resources: every resource is at the top level',
  noParent: 'there are no component resources: every resource is at the top level',
  stack: 'an alias names an address in this stack: a resource moves between stacks with plumb state mv and import',
  project: 'an alias names an address in this project: a resource moves between projects with import',
};

const FORMS = 'aliases is a list of old names (oldPort), URNs (urn:pulumi:stack::project::type::oldPort) or {name, type} mappings';

/** Reads `aliases:`; every problem is reported at its item. */
export function readAliases(value: Node, address: string, { at, error, deref }: OptionsReader): Alias[] {
  if (!isSeq(value)) {
    error(at(value), 'option aliases must be a list', FORMS, address);
    return [];
  }
  const aliases: Alias[] = [];
  for (const raw of value.items) {
    const item = deref(raw) as Node;
    const pos = at(item);
    if (isScalar(item) && typeof item.value === 'string' && item.value) {
      const alias = fromText(item.value);
      if (alias) aliases.push({ ...alias, pos });
      else error(pos, `alias "${item.value}" is not a name or a URN`, FORMS, address);
    } else if (isMap(item)) {
      const alias = fromMapping(item, address, { at, error, deref } as OptionsReader);
      if (alias) aliases.push({ ...alias, pos });
    } else error(pos, 'an alias must be an old name, a URN or a {name, type} mapping', FORMS, address);
  }
  return aliases;
}

/** A plain name, or a URN whose last two `::` parts are the type and the name. */
function fromText(text: string): Omit<Alias, 'pos'> | undefined {
  if (!text.startsWith('urn:')) return { name: text };
  const parts = text.split('::');
  if (parts.length < 4 || !parts[parts.length - 1]) return undefined;
  // A type of a component child is `parentType$childType`: the last one is the resource's own.
  const type = parts[parts.length - 2].split('$').pop();
  return { name: parts[parts.length - 1], type: type || undefined };
}

function fromMapping(node: Node & { items: unknown[] }, address: string, { at, error, deref }: OptionsReader): Omit<Alias, 'pos'> | undefined {
  let alias: Partial<Omit<Alias, 'pos'>> | undefined = {};
  const text = (pair: Pair): string | undefined => {
    const v = deref(pair.value);
    if (isScalar(v) && typeof v.value === 'string' && v.value) return v.value;
    error(at((v ?? pair.key) as Node), `alias ${keyText(pair)} must be a string`, undefined, address);
    alias = undefined;
    return undefined;
  };
  let named = false;
  for (const pair of node.items as Pair[]) {
    const key = keyText(pair);
    if (key === 'name' || key === 'type') {
      const v = text(pair);
      if (alias && v) alias[key] = v;
      named ||= key === 'name';
    } else if (key === 'urn') {
      const v = text(pair);
      const parsed = v ? fromText(v) : undefined;
      if (alias && parsed) Object.assign(alias, parsed);
      named = true;
    } else {
      error(at(pair.key as Node), `alias key "${key}" is not supported`, REFUSED_KEYS[key] ?? 'an alias mapping takes name and type (or urn)', address);
      alias = undefined;
    }
  }
  if (!named) {
    error(at(node), 'an alias mapping needs the old name: {name: oldPort}', FORMS, address);
    return undefined;
  }
  return alias?.name ? { name: alias.name, type: alias.type } : undefined;
}
