/**
 * Pulumi YAML's `pulumi:pulumi:StackReference` resource: no object anywhere, only another stack's
 * outputs read from the same state location. It is kept as a value (`${ref.outputs.portId}`),
 * never as a resource: nothing is planned, recorded or deleted for it.
 */
import { isMap, isScalar, type Node, type Pair } from 'yaml';
import type { Expr, Pos } from './ast.js';
import { keyText } from './expressions.js';
import type { OptionsReader } from './options.js';

/** The type token of a stack reference resource. */
export const STACK_REFERENCE = 'pulumi:pulumi:StackReference';

/** Whether a resource mapping's type is the stack reference's. */
export function isStackReference(node: unknown, deref: OptionsReader['deref']): boolean {
  if (!isMap(node)) return false;
  const type = deref((node.items as Pair[]).find((p) => keyText(p) === 'type')?.value);
  return isScalar(type) && type.value === STACK_REFERENCE;
}

/** The value of a stack reference resource: `{name, outputs}` of the stack its `properties.name` names. */
export function stackReferenceValue(address: string, node: Node & { items: unknown[] }, pos: Pos, { at, error, toExpr, deref }: OptionsReader): Expr | undefined {
  let name: Expr | undefined;
  for (const pair of node.items as Pair[]) {
    const key = keyText(pair);
    if (key === 'type') continue;
    const value = deref(pair.value);
    if (key !== 'properties') {
      error(at(pair.key as Node), `"${key}" means nothing for the stack reference "${address}"`, `a ${STACK_REFERENCE} takes only properties: { name: project/stack }`, address);
      continue;
    }
    if (!isMap(value)) continue;
    for (const p of value.items as Pair[]) {
      if (keyText(p) === 'name') name = toExpr(deref(p.value));
      else error(at(p.key as Node), `unknown property "${keyText(p)}" of the stack reference "${address}"`, 'it takes name: project/stack (or stack, of this project)', address);
    }
  }
  if (!name) {
    error(pos, `the stack reference "${address}" needs properties: { name: project/stack }`, 'the stack whose outputs it reads, at the same state location', address);
    return undefined;
  }
  return { kind: 'stackReference', stack: name, pos };
}
