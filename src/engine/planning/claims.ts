import type { Claim, ResourceType } from '../contracts/resource-type.js';
import { Secret, Unknown } from '../../kernel/values.js';

/**
 * Claims (ReplaceRules.holds) as the plan and the steps use them: each claim an object's inputs
 * make, keyed by what is held and its values (`VLAN on a port: <port> 2001`), so that claims of
 * any type on the same thing are one key.
 */

/** One claim an object makes: the type's declaration, its values, and its key. */
export interface Held {
  claim: Claim;
  values: unknown[];
  key: string;
}

/**
 * The claims these inputs make. A claim with a value not known yet (a reference to an object not
 * made), absent, or secret holds nothing; a path ending in `[]` makes one claim per item.
 */
export function claimsOf(type: ResourceType, inputs: Record<string, unknown>): Held[] {
  const out: Held[] = [];
  for (const claim of type.replace.holds ?? []) {
    let rows: unknown[][] = [[]];
    for (const path of claim.paths) {
      const each = path.endsWith('[]');
      const at = valueAt(inputs, each ? path.slice(0, -2) : path);
      const value = at === undefined ? claim.defaults?.[path]?.(inputs) : at;
      const items = each ? (Array.isArray(value) ? value : []) : [value];
      rows = rows.flatMap((row) => items.map((item) => [...row, item]));
    }
    for (const values of rows) {
      if (values.some((v) => v === undefined || v === null || v instanceof Unknown || v instanceof Secret || containsHidden(v))) continue;
      out.push({ claim, values, key: `${claim.what}: ${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(' ')}` });
    }
  }
  return out;
}

/** The claims both inputs make: what a replacement would need that the old object still holds. */
export function sharedClaims(type: ResourceType, recorded: Record<string, unknown>, desired: Record<string, unknown>): Held[] {
  const before = new Set(claimsOf(type, recorded).map((h) => h.key));
  return claimsOf(type, desired).filter((h) => before.has(h.key));
}

/** The values at a dotted path: none where absent, and each item of a list for a path ending in `[]`. */
export function valuesAt(inputs: Record<string, unknown>, path: string): unknown[] {
  const each = path.endsWith('[]');
  const at = valueAt(inputs, each ? path.slice(0, -2) : path);
  if (each) return Array.isArray(at) ? at : [];
  return at === undefined ? [] : [at];
}

/** The value at a dotted path (`aEnd.vlan`), undefined where absent. */
function valueAt(value: unknown, path: string): unknown {
  let cur = value;
  for (const step of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[step];
  }
  return cur;
}

/** Whether a value holds an Unknown or a Secret somewhere inside. */
function containsHidden(value: unknown): boolean {
  if (value instanceof Unknown || value instanceof Secret) return true;
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some(containsHidden);
}
