import type { ResourceType } from '../contracts/resource-type.js';
import type { PendingOperation, ResourceState } from '../contracts/state.js';
import { claimsOf, sharedClaims } from './claims.js';
import { orderSteps } from '../applying/step-graph.js';
import type { Change } from '../types.js';

/*
 * How the steps of a plan will run, decided while planning so that apply can run them all and a
 * plan the API could not accept is refused before any call: what each change waits for first,
 * what its object holds, and the order of replacements.
 */

/** A problem to report at an address. */
export interface PlanProblem {
  address: string;
  summary: string;
  detail: string;
}

/** What a change's object will hold, and what its recorded object holds (see ReplaceRules.holds), where there is any. */
export function markClaims(change: Change, type: ResourceType, desired: Record<string, unknown>, recorded: ResourceState | undefined): void {
  if (change.action === 'noop' || change.action === 'read') return;
  const claims = claimsOf(type, desired).map((h) => h.key);
  if (claims.length) change.claims = claims;
  if (recorded) Object.assign(change, heldBy(type, recorded));
}

/** `{ held }`: what a recorded object holds, when it holds anything. */
export function heldBy(type: ResourceType, recorded: ResourceState): Pick<Change, 'held'> {
  const held = claimsOf(type, recorded.inputs).map((h) => h.key);
  return held.length ? { held } : {};
}

/**
 * Marks what apply waits for first: a recorded object still provisioning (whatever the change to
 * it, and whatever uses it), and an interrupted create that may still show up (the create of its
 * address looks for it before ordering).
 */
export function markAwaited(changes: Change[], prior: Record<string, ResourceState>, waiting: PendingOperation[]): void {
  for (const change of changes) {
    const recorded = prior[change.address];
    if (recorded?.status !== 'provisioning' || change.action === 'read' || change.action === 'import') continue;
    change.awaits = 'provisioning';
    const until = change.action === 'delete' || change.action === 'replace' ? 'listed, then deleted' : 'ready';
    if (change.action !== 'noop') change.notes.push(`still provisioning (ordered at ${recorded.orderedAt ?? 'an earlier run'}): apply waits until it is ${until}`);
  }
  for (const op of waiting) {
    // A create looks for it before ordering; an object nothing else changes (an interrupted
    // replacement whose old object is still current) waits for it as a step of its own.
    const change = changes.find((c) => c.address === op.address && (c.action === 'create' || c.action === 'replace' || c.action === 'noop'));
    if (!change) continue;
    change.awaits = 'order';
    change.notes.push(`a create interrupted at ${op.at} may have ordered it already: apply looks for that object until it would be listed, and orders only if it does not show up`);
  }
}

/**
 * A replacement whose new object needs what the old one holds (see ReplaceRules.holds): deleted
 * first, with a note saying why; refused (the summary follows the address) where the manifest
 * pins it create-first.
 */
export function replaceAroundClaims(
  type: ResourceType,
  change: Change,
  recorded: ResourceState,
  desired: Record<string, unknown>,
  pinnedCreateFirst: boolean,
): Omit<PlanProblem, 'address'> | undefined {
  const shared = sharedClaims(type, recorded.inputs, desired).map((h) => h.key);
  if (!shared.length) return undefined;
  const needs = `the new object needs the ${shared.join(' and the ')} the old one holds`;
  if (change.replaceOrder === 'delete-first') {
    if (type.replace.deleteFirst === undefined) change.notes.push(`deleted first: ${needs}, so apply waits for the old one to let go of it before ordering`);
    return undefined;
  }
  if (!pinnedCreateFirst) return undefined;
  return { summary: `cannot be replaced by creating first: ${needs}`, detail: 'remove "deleteBeforeReplace: false" from its options, so that it is replaced by deleting first' };
}

/**
 * Orders the steps apply will run (see orderSteps): a replacement that cannot create first is
 * made delete-first, saying why; steps that still wait on each other are the problem returned.
 * `option` is the manifest's deleteBeforeReplace for an address; `declared` whether it declares it.
 */
export function orderChanges(
  changes: Change[],
  prior: Record<string, ResourceState>,
  option: (address: string) => boolean | undefined,
  declared: (address: string) => boolean,
): PlanProblem | undefined {
  const pinned = (address: string) => option(address) === false;
  const order = orderSteps(changes, prior, pinned);
  for (const { change, cycle, because } of order.madeDeleteFirst) {
    const as = because.length ? `, as ${because.join(' and ')} ${because.length === 1 ? 'is' : 'are'}` : '';
    change.notes.push(`replaced by deleting first${as}: created first, its steps would wait on each other (${cycle})`);
  }
  if (!order.unresolved) return undefined;
  const { addresses, cycle, takeover } = order.unresolved;
  const ours = addresses.filter(declared);
  const unpin = ours.filter(pinned);
  const at = takeover?.to ?? ours[0] ?? addresses[0];
  if (takeover) {
    return {
      address: at,
      summary: `${takeover.to} would take over the ${takeover.what} that ${takeover.from} holds, and ${takeover.from} cannot go first: ${cycle}`,
      detail: `if ${takeover.to} is ${takeover.from} under a new name, say so with "aliases: [${takeover.from}]" in its options (or run plumb state mv ${takeover.from} ${takeover.to}), so it stays one object; otherwise give it another ${takeover.what.split(':')[0]}`,
    };
  }
  return {
    address: at,
    summary: `the steps of ${addresses.join(', ')} wait on each other: ${cycle}`,
    detail: unpin.length
      ? `remove "deleteBeforeReplace: false" from the options of ${unpin.join(', ')}, so that it can be replaced by deleting first`
      : `apply the changes of one of them in a run of its own first (plumb apply --target ${at})`,
  };
}
