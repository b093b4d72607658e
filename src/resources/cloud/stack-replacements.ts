/**
 * What a cross-check can tell, before any call, of the replacements a plan will make of the
 * network objects around a resource: a replace rule's input that differs between what state
 * records and what the manifest declares (read through the type's asDeclared), where a reference
 * stands for the same value while its target keeps its id.
 */
import type { CrossCheckView, ReplaceRule, ResourceType, StackResource } from '../../engine/contracts/resource-type.js';
import { Unknown } from '../../values.js';
import { sameInput } from '../as-declared.js';
import { subnet } from './subnet.js';
import { vpc } from './vpc.js';

/** The types whose replacements are judged here: what a subnet's range depends on. */
const TYPES = new Map<string, ResourceType>([subnet, vpc].map((t) => [t.token, t]));

/** References are followed this deep (a subnet's VPC); deeper, a changed reference counts as changed. */
const DEPTH = 3;

/**
 * The replace rules whose inputs the plan changes for this resource (of `type`, or of a type
 * judged here), empty when it keeps its object or that cannot be told.
 */
export function replacingRules(r: StackResource, view: CrossCheckView, type = TYPES.get(r.token), depth = 0): ReplaceRule[] {
  if (!type || !r.recorded || !r.desired) return [];
  const desired = r.desired;
  const recorded = type.asDeclared ? (type.asDeclared(r.recorded.inputs, r.recorded.outputs, desired, { imported: r.recorded.imported === true }) as Record<string, unknown>) : r.recorded.inputs;
  return type.replaceOn.filter((rule) => !sameValueInPlan(desired[rule.path], recorded[rule.path], view, depth));
}

/**
 * Whether a declared value stands for the recorded one: equal, or a reference to a resource whose
 * recorded id it is and which the plan does not replace.
 */
export function sameValueInPlan(declared: unknown, recorded: unknown, view: CrossCheckView, depth = 0): boolean {
  if (!(declared instanceof Unknown)) return sameInput(declared ?? '', recorded ?? '');
  const target = view.resolve(declared);
  if (!target?.recorded || target.recorded.id !== recorded || depth >= DEPTH) return false;
  return replacingRules(target, view, TYPES.get(target.token), depth + 1).length === 0;
}
