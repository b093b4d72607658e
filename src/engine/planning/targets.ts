import type { Change } from '../types.js';

/** What `--target` and `--exclude` keep of a plan. */
export interface Targeted {
  changes: Change[];
  /** Addresses with changes that were left out. */
  leftOut: string[];
  /** Named addresses that match nothing. */
  unknown: string[];
}

/**
 * Narrows a plan as Terraform and OpenTofu do: `--target` keeps the targets and everything they
 * depend on (for deletions, everything that depends on them, which must go first); `--exclude`
 * drops the excluded addresses and everything that depends on them.
 */
export function applyTargets(changes: Change[], targets: string[], excludes: string[]): Targeted {
  if (!targets.length && !excludes.length) return { changes, leftOut: [], unknown: [] };
  const byAddress = new Map(changes.map((c) => [c.address, c]));
  const unknown = [...targets, ...excludes].filter((a) => !byAddress.has(a));
  const dependents = new Map<string, string[]>();
  for (const c of changes) for (const d of c.dependsOn) dependents.set(d, [...(dependents.get(d) ?? []), c.address]);
  const closure = (start: string[], next: (address: string) => string[]) => {
    const seen = new Set<string>();
    const stack = [...start];
    while (stack.length) {
      const a = stack.pop()!;
      if (seen.has(a)) continue;
      seen.add(a);
      stack.push(...next(a));
    }
    return seen;
  };
  let keep = new Set(byAddress.keys());
  if (targets.length) {
    keep = closure(targets, (a) => {
      const c = byAddress.get(a);
      return c?.action === 'delete' ? (dependents.get(a) ?? []) : (c?.dependsOn ?? []);
    });
  }
  for (const dropped of closure(excludes, (a) => dependents.get(a) ?? [])) keep.delete(dropped);
  const leftOut = changes.filter((c) => !keep.has(c.address) && c.action !== 'noop').map((c) => c.address);
  return { changes: changes.filter((c) => keep.has(c.address)), leftOut, unknown };
}
