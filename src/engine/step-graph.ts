import type { ResourceState } from './contracts/state.js';
import { baseAddress, isDeposed } from './deposed.js';
import { prioritiseByDepth } from './graph/walk.js';
import { compareAddresses } from './order.js';
import { CreateStep, DeleteStep, ImportStep, Step, UpdateStep } from './steps.js';
import type { Change } from './types.js';

/**
 * Turns a plan's changes into steps and orders them:
 * - creates and updates after what they depend on;
 * - a delete after the deletes of what depends on the object;
 * - a create-first replacement deletes the old object only after the new one exists and its
 *   dependents have moved to it; a delete-first one creates only after the old object is gone;
 * - an object set aside by an earlier replacement (deposed) is deleted as a create-first old half
 *   is — unless its address is now replaced delete-first, whose objects must not coexist: then the
 *   new object waits for every older one's delete.
 */
export function stepGraph(changes: Change[], recorded: Record<string, ResourceState>): Step[] {
  const steps = new Map<string, Step>();
  const add = (step: Step) => steps.set(step.key, step);
  for (const c of changes) {
    if (c.action === 'noop' || c.action === 'read') continue;
    if (c.action === 'delete') add(new DeleteStep(c, isDeposed(c.address) ? 'delete-deposed' : 'delete'));
    else if (c.action === 'replace') {
      add(new CreateStep(c, 'create-new'));
      add(new DeleteStep(c, 'delete-old'));
    } else if (c.action === 'import') add(new ImportStep(c, 'import'));
    else if (c.action === 'update') add(new UpdateStep(c, 'update'));
    else add(new CreateStep(c, 'create'));
  }
  const need = (from: string, on: string) => {
    const a = steps.get(from);
    if (!a || !steps.has(on) || from === on || a.needs.includes(on)) return;
    a.needs.push(on);
  };
  const byAddress = new Map(changes.map((c) => [c.address, c]));
  const recordedDependents = dependentsBy(Object.values(recorded), (r) => r.dependencies);
  const changeDependents = dependentsBy(changes, (c) => c.dependsOn);
  // Dependents move off an old object (create-first) by their own create or update.
  const afterDependentsMove = (D: string, address: string) => {
    for (const other of changeDependents.get(address) ?? []) need(D, `C:${other}`);
  };
  for (const c of changes) {
    const C = `C:${c.address}`;
    const D = `D:${c.address}`;
    const address = baseAddress(c.address);
    for (const dep of c.dependsOn) need(C, `C:${dep}`);
    // Whatever depends on this object is deleted before it goes, except what goes with it
    // (deletedWith): that is forgotten only once this delete has succeeded.
    for (const dependent of recordedDependents.get(address) ?? []) if (byAddress.get(dependent)?.deletedWith !== address) need(D, `D:${dependent}`);
    if (c.deletedWith !== undefined) need(D, `D:${c.deletedWith}`);
    if (c.action === 'replace' && c.replaceOrder === 'delete-first') need(C, D);
    if (c.action === 'replace' && c.replaceOrder === 'create-first') {
      need(D, C);
      afterDependentsMove(D, address);
    }
    if (isDeposed(c.address)) {
      const current = byAddress.get(address);
      if (current?.action === 'replace' && current.replaceOrder === 'delete-first') need(`C:${address}`, D);
      else {
        need(D, `C:${address}`);
        afterDependentsMove(D, address);
      }
    }
  }
  const list = [...steps.values()];
  prioritiseByDepth(list);
  return list.sort((a, b) => b.priority - a.priority || compareKeys(a.key, b.key));
}

/** Step keys (`C:address`, `D:address`): by their letter, then address. */
function compareKeys(a: string, b: string): number {
  return a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : compareAddresses(a.slice(2), b.slice(2));
}

/** For each address, the addresses (state keys) of the items that depend on it, in the items' order. */
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
