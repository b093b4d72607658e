/**
 * A resource's `get:` (Pulumi YAML's resource getter): the object is read by its id into the
 * program and never managed. Its `state:` (Pulumi's extra lookup properties) is refused: plumb
 * reads by id alone, and a silently ignored filter would read something else than was meant.
 */
import { isMap, type Node, type Pair } from 'yaml';
import type { GetDecl } from './ast.js';
import { keyText } from './expressions.js';
import type { OptionsReader } from './options.js';

/** The options that mean something for an object that is only read. */
const READ_OPTIONS = ['dependsOn', 'customTimeouts'];

/** Reads `get: { id: ... }`; `properties` and managing options beside it are errors at their keys. */
export function readGet(node: Node, resource: Node & { items: unknown[] }, address: string, reader: OptionsReader): GetDecl | undefined {
  const { at, error, toExpr, deref } = reader;
  if (!isMap(node)) {
    error(at(node), `get of "${address}" must be a mapping with the id of the object to read: get: { id: ... }`, undefined, address);
    return undefined;
  }
  let id: GetDecl['id'] | undefined;
  for (const pair of node.items as Pair[]) {
    const key = keyText(pair);
    if (key === 'id') id = toExpr(deref(pair.value));
    else if (key === 'state')
      error(at(pair.key as Node), `get: state is not supported in "${address}"`, 'the object is read by its id alone (the import id format of its type: plumb schema TOKEN shows it)', address);
    else error(at(pair.key as Node), `unknown key "${key}" in get of "${address}"`, 'get takes id', address);
  }
  if (!id) {
    error(at(node), `get of "${address}" needs the id of the object to read`, 'get: { id: ... } with the import id format of its type (plumb schema TOKEN shows it)', address);
    return undefined;
  }
  for (const pair of resource.items as Pair[]) {
    const key = keyText(pair);
    if (key === 'properties') error(at(pair.key as Node), `"${address}" is read with get: it takes no properties`, 'a resource is either read (get:) or managed (properties:), not both', address);
    if (key !== 'options') continue;
    const options = deref(pair.value);
    if (!isMap(options)) continue;
    for (const option of options.items as Pair[]) {
      const name = keyText(option);
      if (!READ_OPTIONS.includes(name))
        error(at(option.key as Node), `option "${name}" means nothing for "${address}", which is read with get:`, `a resource read with get: takes ${READ_OPTIONS.join(' and ')}`, address);
    }
  }
  return { id, pos: at(node) };
}
