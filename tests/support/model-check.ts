/**
 * The invariants of the model, judged against the world. Each check returns what it found wrong,
 * in words; nothing found is an empty list.
 *
 * During every process (killed or not):
 * - nothing bought twice: when an order for a resource takes effect, every other live object
 *   ordered for it is one the plan of that process replaces create-first (its recorded id) or one
 *   state holds set aside (`address~id`) for deletion;
 * - no dependent loses its target, nothing is used or changed before it is ready, and nothing is
 *   ordered into a VLAN the same apply let go of before the API has let go of it: the world refuses
 *   and records it (see World.violations);
 * - no step is reported without its calls: `step-start` comes before each `step-done`, and
 *   - a create (or a replacement's new half) is done by an order of this process for that address
 *     that took effect with the reported id, or, where the plan said an interrupted create may have
 *     ordered it already (awaits `order`), by adopting an object ordered for the same resource by an
 *     earlier process; either way the object is live and ready;
 *   - an update is done by an update call of this process on that id that took effect;
 *   - a delete (of an object, an old half, or a set-aside one) leaves no live object of that id,
 *     save a set-aside record whose id is the current one at its address (dropped, never deleted);
 *   - a wait ends with its object live and ready;
 * - an apply whose report is ok did every step its plan holds; a plan alone calls nothing that
 *   changes anything and records nothing.
 *
 * After each convergence: the world equals state — every live object recorded exactly once, at
 * the address the manifest now gives the resource it was ordered for, with the inputs the world
 * holds; every record an object the world holds, ready; nothing pending, nothing set aside.
 */
import { isDeepStrictEqual } from 'node:util';
import { baseAddress, deposedKey, isDeposed } from '../../src/engine/applying/deposed.js';
import type { Plan, StepAction } from '../../src/engine/types.js';
import type { ModelStore, ProcessResult } from './model-process.js';
import type { Version } from './model-schedule.js';
import { kindOf } from './model-types.js';
import type { World } from './model-world.js';

/** What went wrong in one process. */
export function checkProcess(result: ProcessResult, world: World, identities: Record<string, string>): string[] {
  const wrong = world.violations.filter((v) => v.process === result.index).map((v) => v.what);
  wrong.push(...boughtTwice(result, world), ...stepsWithoutCalls(result, world, identities));
  if (result.spec.planOnly) {
    const writes = world.calls.filter((c) => c.process === result.index && ['create', 'update', 'delete'].includes(c.verb));
    if (writes.length) wrong.push(`a plan alone made ${writes.length} calls that change things`);
    if (result.points) wrong.push(`a plan alone recorded ${result.points} journal entries`);
  }
  if (result.report?.ok && result.plan) wrong.push(...undone(result.plan, result));
  return wrong;
}

function boughtTwice(result: ProcessResult, world: World): string[] {
  const wrong: string[] = [];
  for (const b of world.bought.filter((x) => x.process === result.index)) {
    const change = result.plan?.changes.find((c) => c.address === b.address);
    for (const other of b.others) {
      const replaced = change?.action === 'replace' && change.replaceOrder === 'create-first' && change.id === other;
      const setAside = result.prior?.[deposedKey(b.address, other)] !== undefined;
      if (!replaced && !setAside)
        wrong.push(`${b.address}: bought ${b.id} while ${other}, ordered for it too, was live (the plan: ${change ? `${change.action} ${change.replaceOrder ?? ''}` : 'nothing'})`);
    }
  }
  return wrong;
}

function stepsWithoutCalls(result: ProcessResult, world: World, identities: Record<string, string>): string[] {
  const wrong: string[] = [];
  const calls = world.calls.filter((c) => c.process === result.index);
  const started = new Set<string>();
  for (const { event, live, ready } of result.events) {
    if (event.type === 'step-start') started.add(`${event.address} ${event.action}`);
    if (event.type !== 'step-done') continue;
    const { address, action, id } = event;
    const step = `${action} ${address}${id ? ` (${id})` : ''}`;
    if (!started.has(`${address} ${action}`)) wrong.push(`${step} was reported done before it started`);
    const change = result.plan?.changes.find((c) => c.address === address);
    if (action === 'create' || action === 'create-new') {
      const ordered = calls.some((c) => c.verb === 'create' && c.address === address && c.effect === `created ${id}`);
      const made = id === undefined ? undefined : world.objects.get(id);
      const adopted = change?.awaits === 'order' && made?.identity === identities[address] && made.process < result.index;
      if (!ordered && !adopted) wrong.push(`${step} was reported done without an order that made it`);
      if (!ready) wrong.push(`${step} was reported done while its object is ${live ? 'not ready' : 'not live'}`);
    } else if (action === 'update') {
      if (!calls.some((c) => c.verb === 'update' && c.id === id && c.effect === 'updated')) wrong.push(`${step} was reported done without an update that took effect`);
    } else if (action === 'wait') {
      if (!ready) wrong.push(`${step} was reported done while its object is ${live ? 'not ready' : 'not live'}`);
    } else if (live && !(action === 'delete-deposed' && result.prior?.[baseAddress(address)]?.id === (id ?? change?.id))) {
      wrong.push(`${step} was reported done while its object is still live`);
    }
  }
  return wrong;
}

/** The steps a plan holds, as `action address`. */
export function plannedSteps(plan: Plan): string[] {
  const steps: string[] = [];
  const step = (action: StepAction, address: string) => steps.push(`${action} ${address}`);
  for (const c of plan.changes) {
    if (c.action === 'noop' && c.awaits) step('wait', c.address);
    else if (c.action === 'replace') (step('create-new', c.address), step('delete-old', c.address));
    else if (c.action === 'delete') step(isDeposed(c.address) ? 'delete-deposed' : 'delete', c.address);
    else if (c.action === 'create' || c.action === 'update' || c.action === 'import') step(c.action, c.address);
  }
  return steps;
}

/** For an apply reported ok: the planned steps it did not report done, in its report and its events. */
function undone(plan: Plan, result: ProcessResult): string[] {
  const reported = new Set(result.report!.results.filter((r) => r.status === 'done').map((r) => `${r.action} ${r.address}`));
  const events = new Set(result.events.flatMap(({ event }) => (event.type === 'step-done' ? [`${event.action} ${event.address}`] : [])));
  return plannedSteps(plan).flatMap((s) => [...(reported.has(s) ? [] : [`the report says ok, and ${s} is not done`]), ...(events.has(s) ? [] : [`the report says ok, and ${s} had no step-done`])]);
}

/** Whether a process's plan shows nothing to do: no change, nothing awaited, nothing settled, nothing pending. */
export function showsNoChanges(result: ProcessResult): boolean {
  const plan = result.plan;
  return !!plan && !!result.state && result.state.pending.length === 0 && plan.settled.length === 0 && plan.changes.every((c) => c.action === 'noop' && !c.awaits);
}

/** What differs between the world and state once a version (or its destroy) has converged. */
export async function checkConverged(world: World, store: ModelStore, version: Version, destroyed: boolean): Promise<string[]> {
  const wrong: string[] = [];
  const state = await store.read();
  if (state.pending.length) wrong.push(`state still has pending operations: ${state.pending.map((p) => `${p.action} ${p.address}`).join(', ')}`);
  const keysById = new Map<string, string[]>();
  for (const [key, record] of Object.entries(state.resources)) {
    keysById.set(record.id, [...(keysById.get(record.id) ?? []), key]);
    if (isDeposed(key)) wrong.push(`${key} is still set aside`);
    const o = world.objects.get(record.id);
    if (!o) wrong.push(`${key} records ${record.id}, which the world does not have`);
    else if (o.kind !== kindOf(record.type)) wrong.push(`${key} records ${record.id} as a ${kindOf(record.type)}, and it is a ${o.kind}`);
    else if (!isDeepStrictEqual(record.inputs, o.inputs)) wrong.push(`${key} records inputs ${JSON.stringify(record.inputs)}, and ${record.id} has ${JSON.stringify(o.inputs)}`);
    if (record.status !== 'ok') wrong.push(`${key} is ${record.status}`);
  }
  const addressOf = new Map(destroyed ? [] : version.decls.map((d) => [d.identity, d.address]));
  for (const o of world.objects.values()) {
    const keys = keysById.get(o.id) ?? [];
    const address = addressOf.get(o.identity);
    if (!keys.length) wrong.push(`${o.id}, ordered for ${o.identity} by process ${o.process}, is live and recorded nowhere`);
    else if (keys.length > 1) wrong.push(`${o.id} is recorded at ${keys.join(' and ')}`);
    else if (address === undefined) wrong.push(`${o.id} is live, recorded at ${keys[0]}, and its resource is no longer declared`);
    else if (keys[0] !== address) wrong.push(`${o.id} is recorded at ${keys[0]}, and its resource is declared at ${address}`);
  }
  return wrong;
}
