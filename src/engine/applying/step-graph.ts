import type { ResourceState } from '../contracts/state.js';
import { baseAddress, isDeposed } from './deposed.js';
import { prioritiseByDepth } from '../graph/walk.js';
import { compareAddresses } from '../order.js';
import { CreateStep, DeleteStep, ImportStep, Step, UpdateStep, WaitStep } from './steps.js';
import type { Change } from '../types.js';

/**
 * Turns a plan's changes into steps and orders them (an object still provisioning that nothing
 * else changes is a step of its own, which waits for it, and what uses it waits for that):
 * - creates and updates after what they depend on;
 * - a delete after the deletes of what depends on the object (a replaced dependent's old object
 *   included), and after what used it and moves off it in place (to another object, or because
 *   this one leaves the manifest) has been changed to stop using it;
 * - a create-first replacement deletes the old object only after the new one exists and its
 *   dependents have moved to it; a delete-first one creates only after the old object is gone;
 * - an object set aside by an earlier replacement (deposed) is deleted as a create-first old half
 *   is — unless its address is now replaced delete-first, or its new object needs what the
 *   set-aside one holds (see ResourceType.holds): the two must not coexist, and the new object
 *   waits for its delete.
 */
export function stepGraph(changes: Change[], recorded: Record<string, ResourceState>): Step[] {
  const list = linkedSteps(changes, recorded);
  prioritiseByDepth(list);
  return list.sort((a, b) => b.priority - a.priority || compareKeys(a.key, b.key));
}

/** The steps of the changes, each with the steps it needs (see stepGraph), in no particular order. */
function linkedSteps(changes: Change[], recorded: Record<string, ResourceState>): Step[] {
  const steps = new Map<string, Step>();
  const add = (step: Step) => steps.set(step.key, step);
  for (const c of changes) {
    if (c.action === 'read' || (c.action === 'noop' && !c.awaits)) continue;
    if (c.action === 'noop') add(new WaitStep(c, 'wait'));
    else if (c.action === 'delete') add(new DeleteStep(c, isDeposed(c.address) ? 'delete-deposed' : 'delete'));
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
    for (const dependent of recordedDependents.get(address) ?? []) {
      const using = byAddress.get(dependent);
      if (using?.deletedWith !== address) need(D, `D:${dependent}`);
      // An object goes only once what used it has moved off it: to another object, or (this one
      // leaving the manifest) to none. What stays moves to the new object (below); what is
      // replaced moves off as its old object goes (above).
      if (using?.action !== 'replace' && !using?.dependsOn.includes(address)) need(D, `C:${dependent}`);
    }
    if (c.deletedWith !== undefined) need(D, `D:${c.deletedWith}`);
    if (c.action === 'replace' && c.replaceOrder === 'delete-first') need(C, D);
    if (c.action === 'replace' && c.replaceOrder === 'create-first') {
      need(D, C);
      afterDependentsMove(D, address);
    }
    if (isDeposed(c.address)) {
      const current = byAddress.get(address);
      // Objects that cannot coexist: the address replaced delete-first, or a new object needing what this one holds.
      if ((current?.action === 'replace' && current.replaceOrder === 'delete-first') || current?.claims?.some((k) => c.held?.includes(k))) need(`C:${address}`, D);
      else {
        need(D, `C:${address}`);
        afterDependentsMove(D, address);
      }
    }
  }
  claimEdges(changes, need);
  return [...steps.values()];
}

/**
 * An object that takes over what another holds (a VLAN, a name, an address range) is made, or
 * changed, only once the holder has let it go: its delete is done (a renamed address whose object
 * keeps its name, say), or its update moving off it. (A replacement's own halves are ordered by
 * its order.)
 */
function claimEdges(changes: Change[], need: (from: string, on: string) => void): void {
  // What lets each claim go: a delete (or a replacement's old half), or an update moving off it.
  const letGo = new Map<string, string[]>();
  for (const c of changes) {
    const step = c.action === 'delete' || c.action === 'replace' ? `D:${c.address}` : c.action === 'update' ? `C:${c.address}` : undefined;
    if (!step) continue;
    for (const key of c.held ?? []) if (step[0] === 'D' || !c.claims?.includes(key)) letGo.set(key, [...(letGo.get(key) ?? []), step]);
  }
  if (!letGo.size) return;
  for (const c of changes) {
    for (const key of c.claims ?? []) {
      for (const step of letGo.get(key) ?? []) if (baseAddress(step.slice(2)) !== c.address) need(`C:${c.address}`, step);
    }
  }
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

/** What ordering a plan's steps found: replacements it had to make delete-first, and a cycle no such change breaks. */
export interface StepOrder {
  /** Create-first replacements made delete-first, each with the steps that would otherwise have waited on each other. */
  madeDeleteFirst: Array<{ change: Change; cycle: string; because: string[] }>;
  /** Steps that wait on each other whatever the order of the replacements, in words; undefined when every step can run. */
  unresolved?: {
    addresses: string[];
    cycle: string;
    takeover?: Takeover;
  };
}

/** An object in a cycle that takes over what another address's object holds: `to` would take `what` from `from`. */
export interface Takeover {
  to: string;
  from: string;
  what: string;
}

/**
 * Makes the plan's steps orderable, before any call: steps that wait on each other would never
 * run. The usual cause is a create-first replacement that needs an object replaced delete-first
 * (its old half goes before the old object it uses, and its new half needs the new one): it is
 * replaced delete-first too, unless `pinned` says the manifest asks for create-first. Changes are
 * changed in place; what remains is reported.
 */
export function orderSteps(changes: Change[], recorded: Record<string, ResourceState>, pinned: (address: string) => boolean): StepOrder {
  const order: StepOrder = { madeDeleteFirst: [] };
  const byAddress = new Map(changes.map((c) => [c.address, c]));
  for (;;) {
    const cycle = findCycle(linkedSteps(changes, recorded));
    if (!cycle) return order;
    const words = cycleText(cycle, byAddress);
    const flip = cycle.map((key) => byAddress.get(key.slice(2))).find((c) => c?.action === 'replace' && c.replaceOrder === 'create-first' && !pinned(c.address));
    if (!flip) {
      order.unresolved = { addresses: [...new Set(cycle.map((key) => baseAddress(key.slice(2))))], cycle: words, ...takeoverIn(cycle, byAddress) };
      return order;
    }
    const because = cycle.map((key) => byAddress.get(key.slice(2))).filter((c) => c !== flip && c?.action === 'replace' && c.replaceOrder === 'delete-first');
    flip.replaceOrder = 'delete-first';
    order.madeDeleteFirst.push({ change: flip, cycle: words, because: [...new Set(because.map((c) => c!.address))] });
  }
}

/**
 * One cycle among the steps, as keys each needing the next (the last needs the first); undefined
 * when there is none. Iterative: a long chain must not exhaust the stack.
 */
function findCycle(steps: Step[]): string[] | undefined {
  const byKey = new Map(steps.map((s) => [s.key, s]));
  const left = new Map(steps.map((s) => [s.key, s.needs.filter((k) => byKey.has(k)).length]));
  const neededBy = new Map<string, string[]>(steps.map((s) => [s.key, []]));
  for (const s of steps) for (const need of s.needs) neededBy.get(need)?.push(s.key);
  const ready = steps.filter((s) => left.get(s.key) === 0).map((s) => s.key);
  while (ready.length) {
    const key = ready.pop()!;
    left.delete(key);
    for (const next of neededBy.get(key) ?? []) {
      const n = left.get(next)! - 1;
      left.set(next, n);
      if (n === 0) ready.push(next);
    }
  }
  if (!left.size) return undefined;
  // Every step left needs another step left: following those needs must come back to one.
  const path: string[] = [];
  const at = new Map<string, number>();
  for (let key = left.keys().next().value!; !at.has(key); key = byKey.get(key)!.needs.find((k) => left.has(k))!) {
    at.set(key, path.length);
    path.push(key);
  }
  const last = path[path.length - 1];
  const first = byKey.get(last)!.needs.find((k) => left.has(k))!;
  return path.slice(at.get(first));
}

/** A step of the cycle that makes an object take over what another address's object holds (see claimEdges). */
function takeoverIn(cycle: string[], byAddress: Map<string, Change>): { takeover?: Takeover } {
  for (const [i, key] of cycle.entries()) {
    const next = cycle[(i + 1) % cycle.length];
    if (key[0] !== 'C' || next[0] !== 'D') continue;
    const taker = byAddress.get(key.slice(2));
    const holder = byAddress.get(next.slice(2));
    const what = taker?.claims?.find((k) => holder?.held?.includes(k));
    if (what && baseAddress(next.slice(2)) !== taker!.address) return { takeover: { to: taker!.address, from: baseAddress(next.slice(2)), what } };
  }
  return {};
}

/** A cycle in words: `create the new a needs delete the old b, which needs …, which needs create the new a`. */
function cycleText(cycle: string[], byAddress: Map<string, Change>): string {
  const step = (key: string) => {
    const address = key.slice(2);
    const change = byAddress.get(address);
    if (isDeposed(address)) return `delete ${baseAddress(address)} (set aside ${address.slice(baseAddress(address).length + 1)})`;
    if (change?.action === 'replace') return key[0] === 'C' ? `create the new ${address}` : `delete the old ${address}`;
    return `${key[0] === 'C' ? (change?.action ?? 'create') : 'delete'} ${address}`;
  };
  return [...cycle, cycle[0]]
    .map(step)
    .join(', which needs ')
    .replace(/, which needs /, ' needs ');
}
