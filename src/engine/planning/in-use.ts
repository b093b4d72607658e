import type { ResourceType, UsedBy } from '../contracts/resource-type.js';
import type { ResourceState } from '../contracts/state.js';
import { claimsOf, valuesAt } from './claims.js';
import type { PlanProblem } from './plan-order.js';
import { replaceWhy } from './classify.js';
import type { Change } from '../types.js';
import { sameValue } from '../../kernel/values.js';
import { openRecord } from '../applying/open-record.js';

/*
 * A replacement no order of one run can make: its new object needs a claim the old one holds (so
 * the old one must go first), and a dependant the plan keeps still names the old object in a way
 * that makes the API refuse that delete (see ReplaceRules.usedBy); the dependant moves to the new
 * object only by its own update, once the new object exists. Found while planning, so the plan is
 * refused before any call, with the runs that work.
 */

/**
 * The replacements in `planned` that the API would refuse in either order, one problem each, at
 * the replaced address. `all` is every change of the plan (a dependant --target leaves out still
 * uses the old object); `prior` what state records; `typeOf` the registered types.
 */
export function replacementsBlockedInUse(planned: Change[], all: Change[], prior: Record<string, ResourceState>, typeOf: (token: string) => ResourceType | undefined): PlanProblem[] {
  const problems: PlanProblem[] = [];
  // A dependant leaves the old object first when it goes first itself: deleted, or replaced delete-first.
  const leavesFirst = (d: Change) => planned.includes(d) && (d.action === 'delete' || (d.action === 'replace' && d.replaceOrder === 'delete-first'));
  for (const c of planned) {
    if (c.action !== 'replace' || c.replaceOrder !== 'delete-first') continue;
    const type = typeOf(c.type);
    const old = prior[c.address];
    const kept = (c.claims ?? []).filter((key) => c.held?.includes(key));
    if (!type?.replace.usedBy?.length || !old || !kept.length) continue;
    for (const d of all) {
      const was = prior[d.address];
      if (d.address === c.address || !was || !d.dependsOn.includes(c.address) || leavesFirst(d)) continue;
      const use = type.replace.usedBy.find((u) => u.token === d.type && names(was, u, old));
      if (use) problems.push(blocked(c, d.address, use, kept, pathsOf(type, old, kept)));
    }
  }
  return problems;
}

/** Whether the recorded dependant names the recorded object at the use's path. */
function names(dependant: ResourceState, use: UsedBy, used: ResourceState): boolean {
  const value = use.output === undefined ? used.id : openRecord(used).outputs[use.output];
  if (value === undefined || value === null || value === '') return false;
  return valuesAt(openRecord(dependant).inputs, use.path).some((v) => sameValue(v, value));
}

/** The input paths of the claims kept, as the manifest writes them. */
function pathsOf(type: ResourceType, old: ResourceState, kept: string[]): string[] {
  const held = claimsOf(type, openRecord(old).inputs).filter((h) => kept.includes(h.key));
  return [...new Set(held.flatMap((h) => h.claim.paths.map((p) => p.replace(/\[\]$/, ''))))];
}

/** The refusal of a replacement `user` blocks, naming both orders and the runs that work. */
function blocked(change: Change, user: string, use: UsedBy, kept: string[], paths: string[]): PlanProblem {
  const address = change.address;
  const field = use.path.replace(/\[\]$/, '');
  const or = paths.length > 1 ? `${paths.slice(0, -1).join(', ')} or ${paths[paths.length - 1]}` : paths[0];
  return {
    address,
    summary:
      `${address} cannot be replaced (${replaceWhy(change)}) in either order while ${user} uses it (${user}.${field}): created first, the new object would need the ${kept.map((k) => k.replace(': ', ' (') + ')').join(' and the ')} the old one holds; ` +
      `deleted first, ${use.refusal}, and ${user} moves to the new object only once it exists`,
    detail: `apply in two runs: first take ${address} out of ${user}.${field}, leaving ${address} as it is; then replace ${address} and put it back. Or give ${address} another ${or}, so that its new object is made first and ${user} moves to it before the old one goes`,
  };
}
