import type { ResourceType } from '../contracts/resource-type.js';
import type { ResourceState } from '../contracts/state.js';
import { Secret, Unknown, mask, reveal, sameValue } from '../../kernel/values.js';
import { diffInputs, effectiveInputs, pathMatches, withChosenInputs, type InputDiff } from './diff/diff.js';
import type { ReplaceRule } from '../contracts/resource-type.js';
import type { Change } from '../types.js';
import { sharedClaims } from './claims.js';

/** What decides a change besides the inputs: the manifest's options for the address and the request. */
export interface ClassifyContext {
  /** Whether the object was deleted outside plumb (planned as a create with that reason). */
  gone: boolean;
  /** `--replace` asks for this address. */
  replaceRequested: boolean;
  options: { ignoreChanges: string[]; replaceOnChanges: string[]; deleteBeforeReplace?: boolean; additionalSecretOutputs?: string[] };
  dependsOn: string[];
  /** The `replacementTrigger` option's value now (possibly Unknown); absent without the option. */
  trigger?: { value: unknown };
  /** The provider resource the manifest puts it under; absent for the default provider. */
  provider?: string;
}

/**
 * The change for one address: create when nothing is recorded; otherwise the recorded inputs are
 * diffed with the desired ones and the type's rules (and replaceOnChanges) say whether a changed
 * field replaces the object, and in which order. `same` says the desired inputs are exactly the
 * recorded ones: no rules or diff needed.
 */
export function classify(address: string, type: ResourceType, desired: Record<string, unknown>, prior: ResourceState | undefined, same: boolean, context: ClassifyContext): Change {
  const { dependsOn } = context;
  if (!prior) {
    const after = mask(desired) as Record<string, unknown>;
    const diff = diffInputs({}, desired, after);
    return { address, type: type.token, dependsOn, notes: [], unknownPaths: diff.unknown, action: 'create', reason: context.gone ? 'gone-remotely' : 'new', after, patch: diff.patch };
  }
  const { recorded, effective, diff } = same
    ? { recorded: prior.inputs, effective: desired, diff: { changed: [], patch: [], unknown: [] } }
    : compareWithRecord(type, prior, desired, context.options.ignoreChanges);
  const replacePaths = [...(same ? [] : replacePathsFor(type, diff.changed, recorded, effective, context.options.replaceOnChanges)), ...optionReplacePaths(prior, context)];
  const deleteFirst = context.options.deleteBeforeReplace ?? deletesFirst(type, recorded, effective);
  const before = mask(recorded);
  const change = (action: Change['action'], reason: Change['reason'], replacing: boolean): Change => ({
    address,
    type: type.token,
    dependsOn,
    notes: [],
    unknownPaths: diff.unknown,
    id: prior.id,
    before,
    after: same ? before : mask(effective),
    patch: action === 'noop' ? [] : diff.patch,
    action,
    reason,
    ...(replacing ? { replacePaths, replaceOrder: deleteFirst ? 'delete-first' : 'create-first' } : {}),
  });
  if (prior.status === 'tainted') return change('replace', 'tainted', true);
  if (context.replaceRequested) return change('replace', 'replace-requested', true);
  if (replacePaths.length) return change('replace', 'forced-replace', true);
  const bookkeeping = diff.changed.length ? [] : optionsToRecord(prior, context);
  if (!diff.changed.length && !bookkeeping.length) return change('noop', 'no-change', false);
  const update = change('update', 'changed', false);
  if (bookkeeping.length) {
    // Nothing to send: options state keeps changed (a first replacementTrigger value, outputs
    // newly secret), recorded without a call.
    update.recordOnly = true;
    update.notes.push(...bookkeeping);
    return update;
  }
  if (onlyRecorded(type, update.patch)) {
    update.recordOnly = true;
    const fields = [...new Set(update.patch.map((op) => op.path.split('/')[1]))];
    update.notes.push(`only recorded: ${fields.join(' and ')} ${fields.length === 1 ? 'is' : 'are'} never sent by a change (only with the order, or used by plumb itself), so nothing is sent now`);
  }
  return update;
}

/** What comparing a record with desired inputs found: both sides as compared, and how they differ. */
export interface Comparison {
  /** The recorded inputs as the manifest would state them. */
  recorded: Record<string, unknown>;
  /** The desired inputs as they will be sent. */
  effective: Record<string, unknown>;
  diff: InputDiff;
}

/**
 * The one comparison of a record with desired inputs, which plan and drift share. The record's
 * inputs, as refreshed, are read as the manifest would state them (the type's asDeclared: a
 * default the API filled in stands for the input left out), with the value the API chose for
 * each input `desired` sets that was left to it before; the desired inputs are taken as they will
 * be sent (an input the API chooses, left out, and ignoreChanges paths keep the recorded value).
 * Plan passes the manifest's inputs; drift passes what was applied, so a default the API filled
 * in is never drift, and drift is the change the plan of the applied manifest would show.
 */
export function compareWithRecord(type: ResourceType, prior: ResourceState, desired: Record<string, unknown>, ignore: string[] = []): Comparison {
  // An input the API chose, written into the manifest later, is compared with what the product
  // has: its own value (a port's zone, say) is no change.
  const chosen = withChosenInputs(prior.inputs, prior.outputs, type.diff?.computedInputs, (key) => desired[key] !== undefined);
  // An object not listed yet has no outputs to read the recorded inputs against.
  const listed = prior.status !== 'provisioning' || Object.keys(prior.outputs).length > 0;
  const recorded = !type.diff?.asDeclared || !listed ? chosen : (type.diff?.asDeclared(chosen, prior.outputs, desired, { imported: prior.imported === true }) as Record<string, unknown>);
  const effective = effectiveInputs(recorded, desired, { computed: type.diff?.computedInputs, ignore });
  return { recorded, effective, diff: diffInputs(recorded, effective) };
}

/**
 * Whether the type replaces an object with these recorded inputs by one with these by deleting
 * first: as its own order says, else when the new object would hold what the old one holds.
 */
export function deletesFirst(type: ResourceType, recorded: Record<string, unknown>, desired: Record<string, unknown>): boolean {
  const order = type.replace.deleteFirst;
  if (typeof order === 'function') return order(reveal(recorded), reveal(desired));
  return order ?? sharedClaims(type, recorded, desired).length > 0;
}

/** What replaces an object whatever its inputs: a changed replacementTrigger, another provider resource. */
function optionReplacePaths(prior: ResourceState, context: ClassifyContext): ReplaceRule[] {
  const paths: ReplaceRule[] = [];
  // replacementTrigger: a value other than the one the object was applied with (or one not known
  // until apply) replaces it. The first value given to an existing object is only recorded.
  const trigger = context.trigger;
  if (trigger && prior.replacementTrigger !== undefined && !sameValue(prior.replacementTrigger, trigger.value)) {
    paths.push({
      path: 'options.replacementTrigger',
      reason: trigger.value instanceof Unknown ? 'the replacementTrigger value is known only at apply' : 'the replacementTrigger value changed',
    });
  }
  // Another provider resource is another account, region or project: the object there is another
  // object. A change of the same provider resource's settings changes none of its objects.
  if ((prior.provider ?? undefined) !== context.provider) {
    const name = (instance?: string) => (instance === undefined ? 'default' : `\`${instance}\``);
    paths.push({ path: 'provider', reason: `moved from ${name(prior.provider)} to ${name(context.provider)}` });
  }
  return paths;
}

/** What state must record of the options although the inputs are unchanged, in words for the plan. */
function optionsToRecord(prior: ResourceState, context: ClassifyContext): string[] {
  const notes: string[] = [];
  const trigger = context.trigger;
  if (trigger && prior.replacementTrigger === undefined) notes.push('only recorded: the replacementTrigger value, which a later change of it replaces the object by');
  if (!trigger && prior.replacementTrigger !== undefined) notes.push('only recorded: the replacementTrigger option is gone');
  const plain = (context.options.additionalSecretOutputs ?? []).filter((key) => prior.outputs[key] !== undefined && !(prior.outputs[key] instanceof Secret));
  if (plain.length) notes.push(`only recorded: ${plain.join(', ')} ${plain.length === 1 ? 'is' : 'are'} kept as secret (additionalSecretOutputs)`);
  return notes;
}

/**
 * hideDiffs: the plan shows that each of these paths changed, not how. Every patch operation at or
 * under a hidden path becomes one replace of that path with a `{"$hidden": path}` marker, and so do
 * the values at that path in `before` and `after`; what is applied is unchanged.
 */
export function hideDiffs(change: Change, paths: string[]): void {
  for (const path of paths) {
    const pointer = `/${path
      .replace(/\[(\d+)\]/g, '.$1')
      .split('.')
      .join('/')}`;
    const under = (p: string) => p === pointer || p.startsWith(`${pointer}/`);
    const marker = { $hidden: path };
    const hit = change.patch.some((op) => under(op.path));
    if (hit) change.patch = [...change.patch.filter((op) => !under(op.path)), { op: 'replace', path: pointer, value: marker }];
    if (hit || change.action === 'create') {
      change.before = markAt(change.before, pointer, marker);
      change.after = markAt(change.after, pointer, marker);
    }
  }
}

/** A copy of `value` with the value at a JSON pointer replaced by `marker`, where there is one. */
function markAt(value: unknown, pointer: string, marker: unknown): unknown {
  const steps = pointer.split('/').slice(1);
  const at = (node: unknown, i: number): unknown => {
    if (node === null || typeof node !== 'object') return node;
    const key = steps[i];
    if (!Object.hasOwn(node, key)) return node;
    const copy: Record<string, unknown> | unknown[] = Array.isArray(node) ? [...node] : { ...(node as Record<string, unknown>) };
    (copy as Record<string, unknown>)[key] = i === steps.length - 1 ? marker : at((node as Record<string, unknown>)[key], i + 1);
    return copy;
  };
  return at(value, 0);
}

/** The changed paths that force a replacement, each with the rule that says so. */
function replacePathsFor(type: ResourceType, changed: string[], recorded: Record<string, unknown>, effective: Record<string, unknown>, replaceOnChanges: string[]): ReplaceRule[] {
  const out: ReplaceRule[] = [];
  for (const path of changed) {
    const rule = type.replace.on.find((r) => pathMatches(path, r.path));
    if (rule) out.push({ path, reason: rule.reason });
    else if (replaceOnChanges.some((r) => r === '*' || pathMatches(path, r))) out.push({ path, reason: 'listed in the replaceOnChanges option' });
  }
  out.push(...(type.replace.when?.rules(reveal(recorded), reveal(effective)) ?? []));
  return out;
}

/**
 * A replacement forced by a reference whose target is itself replaced (or made anew): the value is
 * Unknown until apply, so the rule's reason alone would not say why it changes. Each such path's
 * reason names the target and its change, so the whole cascade reads in the plan before any call.
 * `targetChange` gives the action already planned for an address (targets are planned first).
 */
export function explainReplacedReferences(change: Change, desired: Record<string, unknown>, targetChange: (address: string) => Change['action'] | undefined): void {
  for (const rule of change.replacePaths ?? []) {
    const value = valueAtPath(desired, rule.path);
    if (!(value instanceof Unknown) || !value.source) continue;
    const target = value.source.split(/[.[]/)[0];
    const action = targetChange(target);
    if (action !== 'replace' && action !== 'create') continue;
    rule.reason = `${target} is ${action === 'replace' ? 'replaced' : 'created'}, so ${value.source} changes: ${rule.reason}`;
  }
}

/** The value at a dotted path (`aEnd.vlan`, `rules[0].port`), secrets unwrapped; undefined where absent. */
function valueAtPath(value: unknown, path: string): unknown {
  let cur = value;
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    cur = cur instanceof Secret ? cur.value : cur;
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[m[1] ?? m[2]];
  }
  return cur;
}

/** Whether a change touches only inputs sent with an order (promoCode): recorded, without a call. */
function onlyRecorded(type: ResourceType, patch: Change['patch']): boolean {
  const fields = type.diff?.recordOnly ?? [];
  return patch.length > 0 && patch.every((op) => fields.some((f) => op.path === `/${f}` || op.path.startsWith(`/${f}/`)));
}

/** Why a change replaces its object, in a few words for an error or note. */
export function replaceWhy(change: Change): string {
  if (change.reason === 'tainted') return 'the object is tainted';
  if (change.reason === 'replace-requested') return '--replace';
  return (change.replacePaths ?? []).map((p) => `${p.path} (${p.reason})`).join(', ');
}

/**
 * What a new object will expose, for display as Terraform shows it: the inputs as shown (`after`),
 * then every output not known until it exists as `(known after apply)`, in the type's order.
 */
export function shownAfterCreate(type: ResourceType, address: string, after: Record<string, unknown>): Record<string, unknown> {
  const value = plannedValue(type, { address, action: 'create' }, undefined, after);
  const out: Record<string, unknown> = {};
  if (Object.hasOwn(after, 'id')) out.id = after.id;
  for (const [key, v] of Object.entries(value)) if (key !== 'id') out[key] = v instanceof Unknown ? v.toJSON() : v;
  for (const key of Object.keys(after)) if (!Object.hasOwn(out, key)) out[key] = after[key];
  return out;
}

/**
 * The value other resources see of this one while planning: what is recorded with the desired
 * inputs over it, or, for a new object, the desired inputs and Unknown for each output it has only
 * once it exists (outputs that are not inputs, and inputs the API fills in when left out).
 */
export function plannedValue(type: ResourceType, change: Pick<Change, 'address' | 'action'>, prior: ResourceState | undefined, desired: Record<string, unknown>): Record<string, unknown> {
  const kept = change.action === 'noop' || change.action === 'import' || change.action === 'update';
  if (prior && kept && prior.status !== 'provisioning') return { ...prior.outputs, ...desired, id: prior.id };
  // An object still on its way has its id; what it exposes is known once it is ready.
  const value: Record<string, unknown> = { id: prior && kept ? prior.id : new Unknown(`${change.address}.id`) };
  const outputs = Object.keys((type.outputs as { shape?: Record<string, unknown> }).shape ?? {});
  const inputs = (type.inputs as { shape?: Record<string, unknown> }).shape ?? {};
  for (const key of outputs) {
    if (desired[key] !== undefined) value[key] = desired[key];
    else if (!Object.hasOwn(inputs, key) || type.diff?.computedInputs?.includes(key)) value[key] = new Unknown(`${change.address}.${key}`);
  }
  return value;
}

/**
 * A replacement that deletes first while other resources stay on the old object (moved in place
 * only once the new one exists): the delete comes first and the API may refuse it, a port still
 * carrying a VXC for one. The plan says so on the change.
 */
export function noteDeletedUnderfoot(changes: Change[]): void {
  for (const c of changes) {
    if (c.action !== 'replace' || c.replaceOrder !== 'delete-first') continue;
    const using = changes.filter((d) => d.dependsOn.includes(c.address) && d.action !== 'delete' && !(d.action === 'replace' && d.replaceOrder === 'delete-first')).map((d) => d.address);
    if (!using.length) continue;
    // Create-first is advice only where the new object does not need what the old one holds.
    const kept = (c.claims ?? []).filter((key) => c.held?.includes(key));
    const advice = kept.length
      ? `it cannot be replaced create-first, as the new object needs the ${kept.join(' and the ')} the old one holds: if the API refuses, ${using.join(', ')} must leave it in a run of ${using.length === 1 ? 'its' : 'their'} own first`
      : 'replacing it create-first avoids that';
    c.notes.push(
      `deleted before its replacement exists, while ${using.join(', ')} still ${using.length === 1 ? 'uses' : 'use'} it: the remote API may refuse the delete (a product in use); ${advice}`,
    );
  }
}
