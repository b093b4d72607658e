/**
 * One cycle of the generated lifecycle suite, for one variation of one field: the base object is
 * created; the manifest changes the field; the plan must classify it as the type's rules do; apply
 * must make exactly the calls that classification makes (an update: no order and no delete; a
 * replacement: one of each, in the plan's order); the world must show the new value; the next
 * plan is empty and drift finds nothing; the destroy leaves nothing of the stack in the world and
 * what the object used as it was. Every problem is collected; the cycle cleans up after itself.
 */
import type { CallRecord } from '@plumb/sandbox';
import type { ResourceState } from '../../src/engine/contracts/state.js';
import type { Change } from '../../src/engine/types.js';
import { deletesFirst } from '../../src/engine/planning/classify.js';
import { reveal } from '../../src/kernel/values.js';
import { callText, mutating, positions, signature, takeCalls } from './generated-calls.js';
import { expectedChange, leavesOf, said, standsFor } from './generated-expect.js';
import { SUBJECT } from './generated-stack.js';
import type { TypeWorld } from './generated-type.js';
import { at, withValue, type Variation } from './generated-variations.js';
import { differences, exists, leftOf, mentions, ownRecords, recordOf, recordsNaming, type Leaves } from './generated-world.js';
import { same, shapeOf } from './generated-values.js';

/** What one variation came to, for the coverage report. */
export interface Row {
  token: string;
  path: string;
  kind: string;
  source: string;
  /** What the plan said: `update`, `update (recorded only)`, `replace delete-first`, `noop`, or `refused`. */
  planned: string;
  /**
   * Where the new value was seen: in the world's data; only through the type's read; for an
   * input the API never reports (a password), only in that apply sent its calls; or nowhere to look (nothing changed).
   */
  seen: 'world' | 'read' | 'calls' | '-';
  note?: string;
}

/** Runs one variation's cycle; throws with every problem found. */
export async function runVariation(t: TypeWorld, v: Variation): Promise<Row> {
  const problems: string[] = [];
  const w0 = t.world();
  const from = v.from ?? t.base;
  if (v.from) {
    // A variation that starts from another input (one to clear again) the plan refuses, before
    // any call, is refused as a change to it would be: the API could not take it either.
    await takeCalls(t.sandbox, t.provider);
    t.stack.declare(from);
    const start = await t.stack.plan();
    const sent = (await takeCalls(t.sandbox, t.provider)).filter(mutating).map(callText);
    if ('refused' in start) {
      if (sent.length) throw new Error(`the input to start from is refused, yet called: ${sent.join(', ')}`);
      return { token: t.type.token, path: v.path, kind: v.kind, source: v.source, planned: 'refused', seen: '-', note: `the input to start from: ${start.refused.split('\n')[0]}` };
    }
  }
  const made = await t.createBase(from);
  const ids = [...idParts(made)];
  let row: Row | undefined;
  try {
    row = await changed(t, v.kind === 'adopt' ? heldNow(v, made) : v, made, w0, problems);
    const now = (await t.stack.state()).resources[SUBJECT];
    if (now) ids.push(...idParts(now));
    // Even after a problem (but a failed apply): what the type recorded is held to what the API reports on the next refresh.
    if (row.planned !== 'refused' && !problems.some((p) => p.startsWith('apply failed'))) await t.converged(problems, 'after the change');
  } finally {
    await t.destroyAll(problems, w0, ids, [from, v.inputs]);
  }
  if (problems.length) throw new Error(oneLineEach(problems));
  return row;
}

/**
 * An `adopt` written down with what the API has for the object just made (an earlier cycle may
 * have left the world otherwise than the baseline saw it), as the object reports it.
 */
function heldNow(v: Variation, made: ResourceState): Variation {
  const path = pathOf(v.path);
  const held = at(reveal(made.outputs), path);
  return held === undefined || held === null ? v : { ...v, inputs: withValue(v.inputs, path, held) };
}

/** Problems one to a line, so that a known one can be told from the rest. */
export function oneLineEach(problems: string[]): string {
  return problems.map((p) => p.replace(/\s*\n\s*/g, ' ')).join('\n');
}

/** Applies the variation and judges the plan, the calls and the world. */
async function changed(t: TypeWorld, v: Variation, made: ResourceState, w0: Leaves, problems: string[]): Promise<Row> {
  const w1 = t.world();
  await takeCalls(t.sandbox, t.provider);
  t.stack.declare(v.inputs);
  const outcome = await t.stack.apply(false, v.kind === 'replace' ? [SUBJECT] : []);
  const calls = await takeCalls(t.sandbox, t.provider);
  const w2 = t.world();
  const row: Row = { token: t.type.token, path: v.path, kind: v.kind, source: v.source, planned: 'refused', seen: '-' };
  if ('refused' in outcome) {
    // The plan may refuse what the API could not take in any order, before any call.
    const sent = calls.filter(mutating).map(callText);
    if (sent.length) problems.push(`refused, yet called: ${sent.join(', ')}`);
    return { ...row, note: outcome.refused.split('\n')[0] };
  }
  const change = outcome.plan.changes.find((c) => c.address === SUBJECT);
  if (!change) throw new Error('the plan has no change for the subject');
  row.planned = planned(change);
  judgePlan(t, v, change, made, problems);
  const failed = outcome.report?.results.filter((r) => r.status !== 'done') ?? [];
  if (failed.length) {
    problems.push(`apply failed: ${failed.map((r) => `${r.action} ${r.status}${r.error ? `: ${r.error}` : ''}`).join('; ')}`);
    return row;
  }
  judgeCalls(t, change, calls, [made.id], problems);
  const after = (await t.stack.state()).resources[SUBJECT];
  if (!after) throw new Error('state no longer records the subject');
  row.seen = judgeWorld(t, v, change, { made, after, w0, w1, w2 }, problems);
  return row;
}

/** What the plan said, in a few words. */
function planned(change: Change): string {
  if (change.action === 'replace') return `replace ${change.replaceOrder}`;
  return change.recordOnly ? `${change.action} (recorded only)` : change.action;
}

/** The plan's change is what the type's rules make of the variation, and touches nothing else. */
function judgePlan(t: TypeWorld, v: Variation, change: Change, made: ResourceState, problems: string[]): void {
  if (v.kind === 'adopt') {
    // The value the API already has: nothing to change, so no change (an update would send
    // nothing, or send what is there already); the calls are judged as the plan's.
    if (change.action !== 'noop' && !change.recordOnly) problems.push(`writing down what the API has (${v.path} = ${JSON.stringify(at(v.inputs, pathOf(v.path)))}) plans ${planned(change)}`);
    return;
  }
  const expected = expectedChange(t.type, made, v.inputs);
  // Asked to replace it as it is (`--replace`), the plan replaces it, in the order its rules give.
  if (v.kind === 'replace') Object.assign(expected, { action: 'replace', order: deletesFirst(t.type, reveal(made.inputs), v.inputs) ? 'delete-first' : 'create-first' });
  const want = said(expected);
  // Left out, an input takes its documented default, which may be what the object has; a part
  // of a map or list left out may be the API's to keep. Either way, what the type documents.
  const documented = (v.kind === 'remove' || v.kind === 'clear' || v.kind === 'shrink') && said(expectedChange(t.type, made, v.inputs, true)) === planned(change);
  // An input sent only with an order is sent by neither: whether state records it is no call's business.
  const unsent = want === 'update (recorded only)' && planned(change) === 'noop';
  if (planned(change) !== want && !documented && !unsent) {
    const why = expected.forced.length ? ` (forced by ${expected.forced.join(', ')})` : '';
    problems.push(`the plan says ${planned(change)}; the type's rules say ${want}${why} for ${expected.changed.join(', ') || 'no field'}`);
  }
  const from = v.from ?? t.base;
  const varied = Object.keys({ ...from, ...v.inputs }).filter((key) => !same(from[key], v.inputs[key]));
  const stray = change.patch.map((op) => op.path.split('/')[1]).filter((key) => !varied.includes(key));
  if (stray.length) problems.push(`the plan also changes ${[...new Set(stray)].join(', ')}, which the manifest did not`);
}

/**
 * The calls apply made are those of what the plan said: nothing sent for no change or a change
 * only recorded; for an update, calls, but not the type's order (that it deleted nothing, the
 * world says: a delete and an update may share a call); for a replacement, one order and the
 * delete a destroy makes, in the plan's order.
 */
function judgeCalls(t: TypeWorld, change: Change, calls: CallRecord[], ids: string[], problems: string[]): void {
  const sent = calls.filter(mutating);
  const names = t.names(...ids);
  const orders = positions(calls, (c) => mutating(c) && signature(c, names) === t.orderCall);
  const deletes = t.deleteCall ? positions(calls, (c) => mutating(c) && signature(c, names) === t.deleteCall) : [];
  const said = `${sent.length} calls that change something (${sent.map(callText).join(', ')})`;
  if (change.action === 'noop' || change.recordOnly) {
    if (sent.length) problems.push(`nothing was to be sent, yet apply made ${said}`);
  } else if (change.action === 'update') {
    // A type managing part of another's object sets it with the call that updates it.
    if (!t.spec.partOf && orders.length) problems.push(`an update ordered an object: ${said}`);
    if (!sent.length) problems.push('the update sent nothing');
  } else if (change.action === 'replace') {
    if (orders.length !== 1 && !t.spec.partOf) problems.push(`a replacement made ${orders.length} orders (${t.orderCall}): ${said}`);
    if (t.deleteCall && deletes.length !== t.deletes) problems.push(`a replacement made ${deletes.length} deletes (${t.deleteCall}), where a destroy makes ${t.deletes}: ${said}`);
    const first = change.replaceOrder === 'delete-first' ? deletes[deletes.length - 1] < orders[0] : orders[orders.length - 1] < deletes[0];
    if (orders.length && deletes.length && !first) problems.push(`the replacement was planned ${change.replaceOrder}, and went the other way: ${said}`);
  }
}

/** The states of the world and the record around the change. */
interface Around {
  made: ResourceState;
  after: ResourceState;
  /** Before the cycle, after the base object was made, after the change. */
  w0: Leaves;
  w1: Leaves;
  w2: Leaves;
}

/**
 * The world shows what the plan said: the new value in the records of the object (for a
 * replacement, the new object's; the old one ended), or, where the world keeps no such value,
 * in what the type reads back (said as such); no change, where nothing was to be sent.
 */
function judgeWorld(t: TypeWorld, v: Variation, change: Change, { made, after, w0, w1, w2 }: Around, problems: string[]): Row['seen'] {
  const path = pathOf(v.path);
  const [was, now] = [at(v.from ?? t.base, path), at(v.inputs, path)];
  const oldIds = [...idParts(made)];
  const newIds = [...idParts(after)].filter((id) => change.action !== 'replace' || !oldIds.includes(id));
  const records = new Set([...recordsNaming(w1, newIds.length ? newIds : oldIds), ...recordsNaming(w2, newIds.length ? newIds : oldIds)]);
  const diffs = differences(w1, w2).filter((d) => records.has(recordOf(d.path)));
  // Nothing sent (judged by the calls): the world may still move on its own (a sync, a provisioning).
  if (change.action === 'noop' || change.recordOnly) return '-';
  if (change.action === 'replace') {
    // An id the API gave again to the new object (a name of a small pool, free once the old one went) names the new one.
    const reused = [...idParts(after)];
    const left = leftOf(
      w2,
      oldIds.filter((id) => !reused.includes(id) && !mentions(w0, id)),
    );
    if (left.length) problems.push(`the replaced object is still in the world: ${left.join(', ')}`);
  } else {
    // One of its records may go (an item of a set it is); all of them going is the object ending.
    // A record its provider keeps as ended (a deactivated service key) is still the object.
    const before = [...ownRecords(w1, oldIds)].filter((r) => exists(w1, r));
    if (before.length && ![...ownRecords(w2, oldIds)].some((r) => exists(w2, r))) problems.push(`an update ended the object in the world: ${before.join(', ')}`);
  }
  const added = leavesOf(now).filter((l) => !leavesOf(was).includes(l));
  const gone = leavesOf(was).filter((l) => !leavesOf(now).includes(l));
  const shown = added.length ? added.every((a) => diffs.some((d) => standsFor(d.after, a))) : gone.every((g) => diffs.some((d) => standsFor(d.before, g) && !standsFor(d.after, g)));
  if (shown) return 'world';
  const read = at(reveal(after.outputs), path);
  if (added.length ? added.every((a) => leavesOf(read).some((r) => standsFor(r, a))) : !gone.some((g) => leavesOf(read).some((r) => standsFor(r, g)))) return 'read';
  // Written, never read back: the calls apply made (judged above) are all there is to see.
  if (!Object.hasOwn(shapeOf(t.type.outputs) ?? {}, path[0])) return 'calls';
  problems.push(
    `${v.path}: the plan changed it to ${JSON.stringify(now)}; the world's records of the object (${[...records].join(', ') || 'none'}) show ${
      diffs.length ? diffs.map((d) => `${d.path}: ${JSON.stringify(d.before)} → ${JSON.stringify(d.after)}`).join('; ') : 'no change'
    }, and the type reads ${JSON.stringify(read)}`,
  );
  return '-';
}

/** A dotted path (`rules[0].port`) as its steps. */
export function pathOf(dotted: string): Array<string | number> {
  return [...dotted.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1]));
}

/** The parts of an object's real id (a service key's is sealed) long enough to find it by in the world. */
export function idParts(state: ResourceState): Set<string> {
  const id = state.secretId ? String(reveal(state.secretId)) : state.id;
  return new Set([id, ...id.split(/[:/#]/)].filter((part) => part.length >= 4 && !/^\d+$/.test(part)));
}
