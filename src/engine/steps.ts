import type { ResourceState } from '../state/types.js';
import type { Change } from './types.js';
import { compareAddresses } from './order.js';

/** One unit of execution: creating/updating an address, or deleting (the old object at) it. */
export interface Step {
  key: string;
  address: string;
  kind: 'apply' | 'delete';
  action: Change['action'] | 'delete-old' | 'create-new';
  /** Delete the object recorded as `<address>~deposed` (create-first replacement). */
  deposed?: boolean;
  needs: string[];
  dependents: string[];
  /** Longest path to the end of the graph: higher starts first. */
  priority: number;
}

/**
 * Turns changes into steps with their ordering: creates and updates after what they depend on;
 * deletes after the deletes of what depends on them; a create-first replacement deletes the old
 * object only after its dependents have moved to the new one.
 */
export function stepGraph(changes: Change[], recorded: Record<string, ResourceState>): Step[] {
  const steps = new Map<string, Step>();
  // A literal, not a spread: every step then shares one hidden class, which keeps the scheduler's
  // property reads fast.
  const add = ({ key, address, kind, action, deposed }: Omit<Step, 'needs' | 'dependents' | 'priority'>) =>
    steps.set(key, { key, address, kind, action, deposed, needs: [], dependents: [], priority: 0 });
  for (const c of changes) {
    if (c.action === 'noop' || c.action === 'read') continue;
    if (c.action === 'delete') add({ key: `D:${c.address}`, address: c.address, kind: 'delete', action: 'delete' });
    else if (c.action === 'replace') {
      add({ key: `C:${c.address}`, address: c.address, kind: 'apply', action: 'create-new' });
      add({ key: `D:${c.address}`, address: c.address, kind: 'delete', action: 'delete-old', deposed: c.replaceOrder === 'create-first' });
    } else add({ key: `C:${c.address}`, address: c.address, kind: 'apply', action: c.action });
  }
  const need = (from: string, on: string) => {
    const a = steps.get(from);
    const b = steps.get(on);
    if (!a || !b || a === b || a.needs.includes(on)) return;
    a.needs.push(on);
    b.dependents.push(from);
  };
  // Reverse edges, built once: scanning every record (or change) per change is quadratic.
  const recordedDependents = dependentsBy(Object.values(recorded), (r) => r.dependencies);
  const changeDependents = dependentsBy(changes, (c) => c.dependsOn);
  for (const c of changes) {
    const C = `C:${c.address}`;
    const D = `D:${c.address}`;
    for (const dep of c.dependsOn) need(C, `C:${dep}`);
    // Whatever depends on this object is deleted (or moved) before it goes.
    for (const dependent of recordedDependents.get(c.address) ?? []) need(D, `D:${dependent}`);
    if (c.action === 'replace' && c.replaceOrder === 'delete-first') need(C, D);
    if (c.action === 'replace' && c.replaceOrder === 'create-first') {
      need(D, C);
      for (const other of changeDependents.get(c.address) ?? []) need(D, `C:${other}`);
    }
  }
  const list = [...steps.values()];
  const memo = new Map<string, number>();
  const depth = (s: Step): number => {
    const known = memo.get(s.key);
    if (known !== undefined) return known;
    memo.set(s.key, 0);
    const value = 1 + Math.max(0, ...s.dependents.map((d) => depth(steps.get(d) as Step)));
    memo.set(s.key, value);
    return value;
  };
  for (const s of list) s.priority = depth(s);
  return list.sort((a, b) => b.priority - a.priority || compareKeys(a.key, b.key));
}

/** Step keys (`C:address`, `D:address`) in `localeCompare` order: by their letter, then address. */
function compareKeys(a: string, b: string): number {
  return a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : compareAddresses(a.slice(2), b.slice(2));
}

/** For each address, the addresses of the items that depend on it, in the items' order. */
function dependentsBy<T extends { address: string }>(items: T[], dependencies: (item: T) => string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const item of items) {
    for (const dep of new Set(dependencies(item))) {
      const list = out.get(dep);
      if (list) list.push(item.address);
      else out.set(dep, [item.address]);
    }
  }
  return out;
}
