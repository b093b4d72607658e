import { type Diagnostic, uniqueDiagnostics } from '../diagnostics.js';
import type { Manifest } from '../manifest/ast.js';
import type { ResourceType } from '../resources/handler.js';
import type { ResourceState, StateSnapshot } from '../state/types.js';
import { Unknown, mask, revealed, sameValue, secretKeys, shown, wrapSecrets } from '../values.js';
import { checkInputs } from './check-inputs.js';
import { diffInputs, effectiveInputs, pathMatches, withChosenInputs } from './diff/diff.js';
import { EvalError, evaluate } from './evaluate.js';
import type { ManifestGraph } from './graph/graph.js';
import { refreshState } from './refresh.js';
import { Evaluation } from './scope.js';
import { settlePending } from './settle.js';
import { closestName } from '../manifest/tokens.js';
import { applyTargets } from './targets.js';
import { compareAddresses } from './order.js';
import { importedInputs, readForImport } from './import.js';
import type { Change, EngineDeps, Plan, ReplacePath } from './types.js';

/** How to plan. */
export interface PlanOptions {
  refresh: boolean;
  destroy: boolean;
  /** Addresses to replace even without a change (`--replace`). */
  replace: string[];
  /** Plan only these addresses and what they need (`--target`). */
  targets?: string[];
  /** Leave out these addresses and what depends on them (`--exclude`). */
  excludes?: string[];
}

/** A plan plus what apply needs that must not be written down (secret values, refreshed state). */
export interface PlanResult {
  plan: Plan;
  diagnostics: Diagnostic[];
  /** Recorded state after refresh: the prior values apply starts from. */
  prior: Record<string, ResourceState>;
  /** Objects read for `options.import`, recorded only when their import step runs. */
  imported: Record<string, ResourceState>;
}

/**
 * Computes the plan: refreshes (unless told not to), evaluates the manifest in dependency order
 * and classifies one change per address with the resource type's rules.
 */
export async function makePlan(manifest: Manifest, graph: ManifestGraph, state: StateSnapshot, deps: EngineDeps, options: PlanOptions): Promise<PlanResult> {
  const diagnostics: Diagnostic[] = [];
  const warnings: string[] = [];
  const settled = state.pending.length ? await settlePending(state, deps) : { resources: state.resources, notes: [] };
  const base = { ...state, resources: settled.resources };
  const refreshed = options.refresh ? await refreshState(base, deps, 10, (m) => warnings.push(m)) : { resources: base.resources, gone: [] };
  const prior = refreshed.resources;
  const gone = new Set(refreshed.gone);
  const changes: Change[] = [];
  const imported: Record<string, ResourceState> = {};
  // What other resources see of each one, made on first reference: most are never referenced.
  const values = new Map<string, unknown>();
  const pending = new Map<string, () => unknown>();
  const valueOf = (address: string): unknown => {
    const make = pending.get(address);
    if (make) {
      pending.delete(address);
      values.set(address, make());
    }
    return values.get(address) ?? new Unknown(address);
  };
  const evaluation = new Evaluation(manifest, deps, valueOf);
  const scope = evaluation.scope();
  const error = (address: string, summary: string, detail?: string, pos = manifest.resources[address]?.pos) =>
    diagnostics.push({ severity: 'error', summary, detail, address, pos: pos && { file: manifest.file, ...pos } });

  for (const name of graph.order) {
    const decl = manifest.resources[name];
    if (!decl) continue;
    const type = deps.resourceType(decl.token);
    if (!type) continue;
    let desired: Record<string, unknown>;
    try {
      desired = wrapSecrets((await evaluate(decl.properties, scope)) as Record<string, unknown>, type.secretPaths);
    } catch (err) {
      if (!(err instanceof EvalError)) throw err;
      error(name, err.message, err.detail, err.pos);
      values.set(name, new Unknown(name));
      continue;
    }
    // Inputs exactly as recorded were checked when they were applied (and accepted remotely).
    const asRecorded = prior[name] !== undefined && sameValue(prior[name].inputs, desired);
    const problems = asRecorded ? [] : checkInputs(type.inputs, desired, decl.properties, { file: manifest.file, address: name, what: type.token, secretPaths: type.secretPaths });
    if (problems.length) {
      diagnostics.push(...problems);
      values.set(name, new Unknown(name));
      continue;
    }
    for (const w of type.warnings?.(desired) ?? []) warnings.push(`${name}: ${w}`);
    let recorded = prior[name];
    if (decl.options.import && !recorded && !options.destroy) {
      try {
        const found = await readForImport(type, name, decl.options.import, deps);
        // What the manifest marks secret is secret in what is read too, the plan's "before" included.
        const secret = secretKeys(desired);
        recorded = { ...found, inputs: wrapSecrets(importedInputs(found.inputs, desired), secret), outputs: wrapSecrets(found.outputs, secret) };
        imported[name] = recorded;
      } catch (err) {
        error(name, (err as Error).message, type.importId ? `import id format: ${type.importId.format}` : undefined);
        values.set(name, new Unknown(name));
        continue;
      }
    }
    const same = recorded === prior[name] ? asRecorded : recorded !== undefined && sameValue(recorded.inputs, desired);
    let change = classify(name, type, desired, recorded, same, gone.has(name), options, decl.options, graph.resourceDependencies(name));
    if (imported[name]) {
      if (change.action === 'replace') {
        error(name, `importing ${name} would replace ${recorded!.id} at once: ${replaceWhy(change)}`, 'make the manifest match the existing object, import, then change it');
      }
      change = { ...change, action: 'import', reason: 'import-requested' };
    }
    if (options.destroy) continue;
    if (change.action === 'replace' && recorded) change.notes.push(...deleteNotes(type, recorded, false, (await deps.connect(type.provider)).settings));
    if (decl.options.protect && (change.action === 'replace' || change.action === 'delete')) {
      error(name, `${name} is protected and cannot be replaced`, `remove "protect: true" from its options first; replaced because: ${replaceWhy(change)}`);
    }
    // A new object shows what it will expose, as Terraform does: inputs plus `(known after apply)`.
    if (change.action === 'create' || change.action === 'replace') change.after = shownAfterCreate(type, name, change.after as Record<string, unknown>);
    const known = change;
    pending.set(name, () => plannedValue(type, known, recorded, desired));
    changes.push(change);
  }

  for (const address of Object.keys(prior)) {
    if (!options.destroy && manifest.resources[address]) continue;
    const recorded = prior[address];
    const type = deps.resourceType(recorded.type);
    const protect = manifest.resources[address]?.options.protect ?? recorded.protect;
    if (protect) error(address, `${address} is protected and cannot be destroyed`, 'remove "protect: true" from its options (and apply) before destroying it');
    const retain = manifest.resources[address]?.options.retainOnDelete ?? recorded.retainOnDelete ?? false;
    changes.push({
      address,
      type: recorded.type,
      action: 'delete',
      reason: options.destroy ? 'destroy-requested' : 'removed-from-manifest',
      id: recorded.id,
      before: mask(recorded.inputs),
      patch: [],
      unknownPaths: [],
      dependsOn: recorded.dependencies,
      notes: type ? deleteNotes(type, recorded, retain, (await deps.connect(type.provider)).settings) : [],
      retain: retain || undefined,
    });
  }
  for (const address of gone) {
    if (!manifest.resources[address]) warnings.push(`${address} was deleted outside plumb; it is removed from state`);
  }

  const outputs: Record<string, unknown> = {};
  if (!options.destroy) {
    for (const [name, expr] of Object.entries(manifest.outputs)) {
      try {
        outputs[name] = mask(await evaluate(expr, scope));
      } catch (err) {
        if (!(err instanceof EvalError)) throw err;
        diagnostics.push({ severity: 'error', summary: err.message, detail: err.detail, pos: { file: manifest.file, ...err.pos } });
      }
    }
  }
  warnings.push(...evaluation.warnings);
  noteDeletedUnderfoot(changes);
  changes.sort((a, b) => compareAddresses(a.address, b.address));
  const targeted = applyTargets(changes, options.targets ?? [], options.excludes ?? []);
  const known = changes.map((c) => c.address);
  const requested = [...targeted.unknown.map((address) => ['--target/--exclude', address]), ...options.replace.filter((a) => !known.includes(a)).map((address) => ['--replace', address])];
  for (const [flag, address] of requested) {
    const hint = closestName(address, known);
    diagnostics.push({ severity: 'error', summary: `${flag} ${address}: no such resource in the manifest or state`, detail: `${hint ? `did you mean ${hint}? ` : ''}resources: ${known.join(', ') || '(none)'}` });
  }
  if (targeted.leftOut.length) {
    warnings.push(`the plan is partial: ${targeted.leftOut.join(', ')} ${targeted.leftOut.length === 1 ? 'has' : 'have'} changes left out by --target/--exclude; run without them to converge`);
  }
  const kept = [...targeted.changes];
  changes.length = 0;
  changes.push(...kept);
  const count = (action: string) => changes.filter((c) => c.action === action).length;
  const plan: Plan = {
    formatVersion: 1,
    stack: state.stack,
    manifest: { file: manifest.file, hash: manifest.hash },
    state: { lineage: state.lineage, serial: state.serial },
    mode: options.destroy ? 'destroy' : 'normal',
    request: { targets: options.targets ?? [], excludes: options.excludes ?? [], replace: options.replace },
    createdAt: new Date().toISOString(),
    changes,
    summary: { add: count('create'), change: count('update'), replace: count('replace'), destroy: count('delete'), import: count('import'), noop: count('noop') },
    warnings: [...new Set(warnings)],
    settled: settled.notes,
    outputs,
  };
  return { plan, diagnostics: uniqueDiagnostics(diagnostics), prior, imported };
}

function classify(
  address: string,
  type: ResourceType,
  desired: Record<string, unknown>,
  prior: ResourceState | undefined,
  /** Whether `desired` is exactly the prior inputs (most resources of a plan): no rules, diff or second copy needed. */
  same: boolean,
  gone: boolean,
  options: PlanOptions,
  declOptions: { ignoreChanges: string[]; replaceOnChanges: string[]; deleteBeforeReplace?: boolean },
  dependsOn: string[],
): Change {
  if (!prior) {
    const after = mask(desired) as Record<string, unknown>;
    const diff = diffInputs({}, desired, after);
    const reason = gone ? 'gone-remotely' : 'new';
    return { address, type: type.token, dependsOn, notes: [], unknownPaths: diff.unknown, action: 'create', reason, after, patch: diff.patch };
  }
  // An input the API chose, written into the manifest later, is compared with what the product
  // has: its own value (a port's zone, say) is no change.
  const recorded = same ? prior.inputs : withChosenInputs(prior.inputs, prior.outputs, type.computedInputs, (key) => desired[key] !== undefined);
  const effective = same ? desired : effectiveInputs(recorded, desired, { computed: type.computedInputs, ignore: declOptions.ignoreChanges });
  const diff = same ? { changed: [], patch: [], unknown: [] } : diffInputs(recorded, effective);
  const replacePaths: ReplacePath[] = [];
  for (const path of diff.changed) {
    const rule = type.replaceOn.find((r) => pathMatches(path, r.path));
    if (rule) replacePaths.push({ path, reason: rule.reason });
    else if (declOptions.replaceOnChanges.some((r) => r === '*' || pathMatches(path, r))) replacePaths.push({ path, reason: 'listed in the replaceOnChanges option' });
  }
  // Rules only read the values: unwrap secrets (copying) only where there are any. They decide
  // about changes, so inputs exactly as recorded need none.
  if (!same) replacePaths.push(...(type.replaceWhen?.(revealed(recorded), revealed(effective)) ?? []));
  const typeOrder = type.deleteBeforeReplace;
  const deleteFirst = declOptions.deleteBeforeReplace ?? (typeof typeOrder === 'function' ? typeOrder(revealed(recorded), revealed(effective)) : typeOrder);
  const order = deleteFirst ? 'delete-first' : 'create-first';
  const before = shown(recorded);
  const after = same ? before : shown(effective);
  // Keys in the order a saved plan has always had them.
  const change = (action: Change['action'], reason: Change['reason'], replacing: boolean): Change => ({
    address,
    type: type.token,
    dependsOn,
    notes: [],
    unknownPaths: diff.unknown,
    id: prior.id,
    before,
    after,
    patch: action === 'noop' ? [] : diff.patch,
    action,
    reason,
    ...(replacing ? { replacePaths, replaceOrder: order } : {}),
  });
  if (prior.status === 'tainted') return change('replace', 'tainted', true);
  if (options.replace.includes(address)) return change('replace', 'replace-requested', true);
  if (replacePaths.length) return change('replace', 'forced-replace', true);
  if (diff.changed.length) {
    const update = change('update', 'changed', false);
    if (onlyRecorded(type, update.patch)) {
      const fields = [...new Set(update.patch.map((op) => op.path.split('/')[1]))];
      update.notes.push(`only recorded: ${fields.join(' and ')} ${fields.length === 1 ? 'is' : 'are'} sent only with an order, so nothing is sent now`);
    }
    return update;
  }
  return change('noop', 'no-change', false);
}

/**
 * What a new object will expose, for display: the inputs as shown (`after`), and every output
 * plannedValue makes Unknown as its `(known after apply)` marker, in the order of the type's
 * outputs — `mask({ ...plannedValue(...), id: undefined, ...after })`, made directly.
 */
function shownAfterCreate(type: ResourceType, address: string, after: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (Object.hasOwn(after, 'id')) out.id = after.id;
  const { outputs, unknownUnlessSet } = shapeOf(type);
  for (const key of outputs) {
    if (key === 'id') continue;
    if (Object.hasOwn(after, key)) out[key] = after[key];
    else if (unknownUnlessSet.has(key)) out[key] = { $unknown: `${address}.${key}` };
  }
  for (const key of Object.keys(after)) if (!Object.hasOwn(out, key)) out[key] = after[key];
  return out;
}

/**
 * A type's output keys, and those a new object has only once it exists unless the manifest sets
 * them: outputs that are not inputs, and inputs the remote API fills in when left out (an
 * optional input left out otherwise stays out). Worked out once per type.
 */
function shapeOf(type: ResourceType): { outputs: string[]; unknownUnlessSet: Set<string> } {
  let shape = shapes.get(type);
  if (!shape) {
    const outputs = Object.keys((type.outputs as { shape?: Record<string, unknown> }).shape ?? {});
    const inputs = (type.inputs as { shape?: Record<string, unknown> }).shape ?? {};
    const computed = type.computedInputs ?? [];
    shape = { outputs, unknownUnlessSet: new Set(outputs.filter((key) => !Object.hasOwn(inputs, key) || computed.includes(key))) };
    shapes.set(type, shape);
  }
  return shape;
}

const shapes = new WeakMap<ResourceType, { outputs: string[]; unknownUnlessSet: Set<string> }>();

/** The value other resources see for this one during planning. */
function plannedValue(type: ResourceType, change: Change, prior: ResourceState | undefined, desired: Record<string, unknown>): Record<string, unknown> {
  if ((change.action === 'noop' || change.action === 'import') && prior) return { ...prior.outputs, ...desired, id: prior.id };
  if (change.action === 'update' && prior) return { ...prior.outputs, ...desired, id: prior.id };
  const value: Record<string, unknown> = { id: new Unknown(`${change.address}.id`) };
  const { outputs, unknownUnlessSet } = shapeOf(type);
  for (const key of outputs) {
    if (desired[key] !== undefined) value[key] = desired[key];
    else if (unknownUnlessSet.has(key)) value[key] = new Unknown(`${change.address}.${key}`);
  }
  return value;
}

function deleteNotes(type: ResourceType, recorded: ResourceState, retain: boolean, settings: Record<string, unknown>): string[] {
  if (retain) return ['retainOnDelete: the object is only removed from state and stays billed'];
  const notes: string[] = [];
  const end = recorded.outputs.contractEndDate;
  const atEnd = type.cancelsAtEndOfTerm?.(settings) ?? false;
  if (typeof end === 'string' && Date.parse(end) > Date.now()) {
    notes.push(
      atEnd
        ? `cancelled at the end of its term: it stays live until ${end.slice(0, 10)}`
        : `contract ends ${end.slice(0, 10)}; cancelling now may incur early termination`,
    );
  }
  return notes;
}

function replaceWhy(change: Change): string {
  if (change.reason === 'tainted') return 'the object is tainted';
  if (change.reason === 'replace-requested') return '--replace';
  return (change.replacePaths ?? []).map((p) => `${p.path} (${p.reason})`).join(', ');
}

/** Whether a change touches only inputs sent with an order (promoCode): recorded, without a call. */
export function onlyRecorded(type: ResourceType, patch: Change['patch']): boolean {
  const fields = type.stateOnly ?? [];
  return patch.length > 0 && patch.every((op) => fields.some((f) => op.path === `/${f}` || op.path.startsWith(`/${f}/`)));
}

/**
 * A replacement that deletes first while other resources stay on the old object (moved in place
 * only once the new one exists): the delete comes first and the API may refuse it, a port still
 * carrying a VXC for one. The plan says so on the change.
 */
function noteDeletedUnderfoot(changes: Change[]): void {
  for (const c of changes) {
    if (c.action !== 'replace' || c.replaceOrder !== 'delete-first') continue;
    const using = changes.filter((d) => d.dependsOn.includes(c.address) && d.action !== 'delete' && !(d.action === 'replace' && d.replaceOrder === 'delete-first')).map((d) => d.address);
    if (using.length) {
      c.notes.push(`deleted before its replacement exists, while ${using.join(', ')} still ${using.length === 1 ? 'uses' : 'use'} it: the remote API may refuse the delete (a product in use); replacing it create-first avoids that`);
    }
  }
}
