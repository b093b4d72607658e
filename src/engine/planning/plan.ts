import { type Diagnostic, uniqueDiagnostics, warningLine } from '../../kernel/diagnostics.js';
import type { Manifest } from '../../manifest/ast.js';
import { closestName } from '../../kernel/did-you-mean.js';
import type { ResourceType } from '../contracts/resource-type.js';
import type { PendingOperation, ResourceState, StateSnapshot } from '../contracts/state.js';
import { Unknown, containsUnknown, mask, reveal, sameValue, secretKeys, wrapSecrets } from '../../kernel/values.js';
import { openRecord, openedAs } from '../applying/open-record.js';
import { markMoves, moveAliased, moveWaiting } from './aliases.js';
import { checkInputs, checkOptionFields } from '../checking/check-inputs.js';
import { classify, explainReplacedReferences, hideDiffs, noteDeletedUnderfoot, plannedValue, replaceWhy, shownAfterCreate } from './classify.js';
import { inFileOrder } from '../checking/checkable.js';
import { isDeposed } from '../applying/deposed.js';
import { EvalError, evaluate } from '../evaluation/evaluate.js';
import { planGet } from '../evaluation/get.js';
import type { ManifestGraph } from '../graph/graph.js';
import { importedInputs, readForImport } from './import.js';
import { inputReferences } from '../evaluation/input-references.js';
import { optionValues, withDeadline } from '../evaluation/option-values.js';
import { compareAddresses } from '../order.js';
import { ReadPass, resourceContext } from '../applying/context.js';
import { realId } from '../applying/ids.js';
import { sealDeclared } from '../evaluation/declared-secrets.js';
import { refreshState, type Refreshed } from './refresh.js';
import { Evaluation } from '../evaluation/scope.js';
import { settlePending, type Resolved } from '../applying/settle.js';
import { heldBy, markAwaited, markClaims, orderChanges, replaceAroundClaims } from './plan-order.js';
import { applyTargets } from './targets.js';
import { replacementsBlockedInUse } from './in-use.js';
import type { Change, EngineDeps, Plan } from '../types.js';

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
  /** Objects read with `get:`: never recorded; apply evaluates references to them from these. */
  read: Record<string, ResourceState>;
  /** Interrupted creates that may still show up: they stay pending until apply finds their objects or they would have been listed. */
  waiting: PendingOperation[];
  /** The other interrupted operations, as settled: apply journals them first. */
  resolved: Resolved[];
  /** The refresh's and the plan's reads: what prices the plan asks again from it (a port's location) is not read twice. */
  pass: ReadPass;
  /**
   * Each declared resource's desired inputs as evaluated, secrets as Secret values and values known
   * only after apply as Unknown: what a price is asked with (the plan shows a secret input only as
   * `[secret]`). Kept in memory for this run; never written to a plan file.
   */
  desired: Record<string, Record<string, unknown>>;
}

/**
 * Computes the plan: settles what an earlier apply left unfinished, refreshes (unless told not
 * to), evaluates the manifest in dependency order and classifies one change per address with the
 * resource type's rules; then the deletions, the outputs, and what --target/--exclude keep.
 */
export async function makePlan(manifest: Manifest, graph: ManifestGraph, state: StateSnapshot, deps: EngineDeps, options: PlanOptions): Promise<PlanResult> {
  const settled = await settlePending(state, deps);
  const warnings: string[] = [];
  const recorded = Object.keys(settled.resources).length;
  if (options.refresh && recorded) deps.notify?.({ type: 'refresh-start', count: recorded, at: new Date().toISOString() });
  // One pass for the refresh and the plan: what both read (a service's catalogue) is read once.
  const pass = new ReadPass();
  const refreshed = options.refresh ? await refreshState({ ...state, resources: settled.resources }, deps, 10, (m) => warnings.push(m), pass) : { resources: settled.resources, gone: [] };
  // Renames (options.aliases) move records first, so each is planned at its new address.
  const moved = options.destroy ? undefined : await moveAliased(manifest, refreshed.resources, deps);
  const planning = new Planning(manifest, graph, deps, options, moved ? { ...refreshed, resources: moved.resources } : refreshed, warnings, pass);
  planning.diagnostics.push(...(moved?.diagnostics ?? []));
  for (const name of graph.order) await planning.resource(name);
  await planning.deletions();
  if (moved) markMoves(planning.changes, moved.from);
  const waiting = moved ? moveWaiting(manifest, settled.waiting, moved) : settled.waiting;
  markAwaited(planning.changes, planning.prior, waiting);
  const outputs = options.destroy ? {} : await planning.outputs();
  return { ...planning.finish(state, settled.notes, outputs), waiting, resolved: settled.resolved, pass, desired: planning.desiredInputs };
}

/** The work of one plan: what it has found so far, and a method per part. */
class Planning {
  readonly diagnostics: Diagnostic[] = [];
  readonly changes: Change[] = [];
  readonly imported: Record<string, ResourceState> = {};
  readonly read: Record<string, ResourceState> = {};
  readonly desiredInputs: Record<string, Record<string, unknown>> = {};
  readonly prior: Record<string, ResourceState>;
  private readonly gone: Set<string>;
  /** What other resources see of each one while planning. */
  private readonly values = new Map<string, unknown>();
  private readonly evaluation: Evaluation;
  /** Refusals of protected resources, raised only for the changes the plan keeps (see --target). */
  private readonly guarded = new Map<string, () => void>();
  constructor(
    private readonly manifest: Manifest,
    private readonly graph: ManifestGraph,
    private readonly deps: EngineDeps,
    private readonly options: PlanOptions,
    refreshed: Refreshed,
    private readonly warnings: string[],
    /** The refresh's pass: what the types' secrets.pathsFor read remotely (a service's catalogue) is read once per plan. */
    private readonly pass: ReadPass,
  ) {
    this.prior = refreshed.resources;
    this.gone = new Set(refreshed.gone);
    this.evaluation = new Evaluation(manifest, deps, (address) => this.values.get(address) ?? new Unknown(address));
  }

  private error(address: string | undefined, summary: string, detail?: string, pos = address ? this.manifest.resources[address]?.pos : undefined): void {
    this.diagnostics.push({ severity: 'error', summary, detail, address, pos: pos && { file: this.manifest.file, ...pos } });
  }

  /** Plans one manifest resource; a problem is a diagnostic, and the resource is then Unknown to others. */
  async resource(name: string): Promise<void> {
    const decl = this.manifest.resources[name];
    const type = decl && this.deps.resourceType(decl.token);
    if (!type) return;
    // A resource with a problem is Unknown to the others: their own problems are still found.
    this.values.set(name, new Unknown(name));
    if (decl.get) return this.get(name, type);
    const misnamed = checkOptionFields(decl, type, this.manifest.file);
    this.diagnostics.push(...misnamed);
    const trigger = await this.optionValues(name);
    const desired = await this.desired(name, type);
    if (!desired || !trigger || misnamed.length) return;
    this.desiredInputs[name] = desired;
    for (const w of type.notes?.desired?.(desired) ?? []) this.warnings.push(`${name}: ${w}`);
    const recorded = decl.options.import && !this.prior[name] && !this.options.destroy ? await this.readImport(name, type, decl.options.import, desired) : this.prior[name];
    if (recorded === null) return;
    const same = recorded !== undefined && sameValue(recorded.inputs, desired);
    const compared = recorded && !same && !this.imported[name] ? await this.readDeclared(name, type, recorded, desired) : recorded;
    let change = classify(name, type, desired, compared, same, {
      gone: this.gone.has(name),
      replaceRequested: this.options.replace.includes(name),
      options: decl.options,
      dependsOn: this.graph.resourceDependencies(name),
      trigger: trigger.value,
      provider: decl.provider,
    });
    if (decl.provider) change.provider = decl.provider;
    if (change.action === 'replace') explainReplacedReferences(change, desired, (address) => this.changes.find((c) => c.address === address)?.action);
    const refused = change.action === 'replace' && recorded ? replaceAroundClaims(type, change, recorded, desired, decl.options.deleteBeforeReplace === false) : undefined;
    if (refused) this.error(name, `${name} ${refused.summary}`, refused.detail);
    markClaims(change, type, desired, recorded);
    if (this.imported[name]) {
      if (change.action === 'replace')
        this.error(name, `importing ${name} would replace ${recorded!.id} at once: ${replaceWhy(change)}`, 'make the manifest match the existing object, import, then change it');
      change = { ...change, action: 'import', reason: 'import-requested' };
    }
    this.values.set(name, plannedValue(type, change, recorded, desired));
    if (this.options.destroy) return;
    if (change.action === 'replace' && recorded) change.notes.push(...(await this.deleteNotes(type, recorded, false)));
    if (change.action === 'update' && !change.recordOnly && recorded) change.notes.push(...(type.notes?.update?.(openRecord(recorded).inputs, reveal(desired)) ?? []));
    if (decl.options.protect && change.action === 'replace') {
      this.guarded.set(name, () => this.error(name, `${name} is protected and cannot be replaced`, `remove "protect: true" from its options first; replaced because: ${replaceWhy(change)}`));
    }
    // A new object shows what it will expose, as Terraform does: inputs plus `(known after apply)`.
    if (change.action === 'create' || change.action === 'replace') change.after = shownAfterCreate(type, name, change.after as Record<string, unknown>);
    const references = change.action === 'noop' ? undefined : inputReferences(decl.properties);
    if (references) change.references = references;
    if (decl.options.hideDiffs?.length) hideDiffs(change, decl.options.hideDiffs);
    this.changes.push(change);
  }

  /**
   * The record as compared with the manifest: for a type whose read reports only what it is told
   * is declared (readsDeclared), its outputs read again for the manifest's inputs, so that what
   * the manifest names and the record does not is compared with what the API holds. Read in the
   * refresh's pass (a type shares its reads through it), and only after a refresh.
   */
  private async readDeclared(name: string, type: ResourceType, recorded: ResourceState, desired: Record<string, unknown>): Promise<ResourceState> {
    if (!type.diff?.readsDeclared || !this.options.refresh || this.options.destroy || this.gone.has(name) || containsUnknown(desired)) return recorded;
    const ctx = await resourceContext(this.deps, type, name, { pass: this.pass, warn: (m) => this.warnings.push(`${name}: ${m}`), provider: recorded.provider });
    const observed = (await type.read(ctx, realId(recorded), { inputs: reveal(desired), outputs: openRecord(recorded).outputs })) as Record<string, unknown> | undefined;
    if (!observed) return recorded;
    const outputs = wrapSecrets(observed, [...(type.secrets?.paths ?? []), ...secretKeys(recorded.inputs), ...secretKeys(desired)]);
    return openedAs({ ...recorded, outputs }, { inputs: openRecord(recorded).inputs, outputs: observed });
  }

  /** A resource read with `get:` (see get.ts); a destroy leaves it alone and reads nothing. */
  private async get(name: string, type: ResourceType): Promise<void> {
    if (this.options.destroy) return;
    const gotten = await planGet(this.manifest.resources[name], type, this.evaluation.scope(), this.deps, this.prior[name], this.graph.resourceDependencies(name));
    if ('problem' in gotten) return this.error(name, gotten.problem.summary, gotten.problem.detail, gotten.problem.pos);
    this.read[name] = gotten.read;
    this.values.set(name, { ...gotten.read.outputs, id: gotten.read.id });
    this.changes.push(gotten.change);
  }

  /** The options written as expressions (see option-values.ts); undefined when one has a problem (reported). */
  private async optionValues(name: string): Promise<{ value?: { value: unknown } } | undefined> {
    try {
      return await optionValues(name, this.manifest.resources[name].options, this.evaluation.scope());
    } catch (err) {
      if (!(err instanceof EvalError)) throw err;
      this.error(name, err.message, err.detail, err.pos);
      return undefined;
    }
  }

  /** The resource's inputs, evaluated and checked; undefined when they have problems (reported). */
  private async desired(name: string, type: ResourceType): Promise<Record<string, unknown> | undefined> {
    const decl = this.manifest.resources[name];
    let desired: Record<string, unknown>;
    try {
      // additionalSecretOutputs: an input of the same name is shown as a secret too.
      const extra = decl.options.additionalSecretOutputs;
      const secretPaths = extra?.length ? [...(type.secrets?.paths ?? []), ...extra] : type.secrets?.paths;
      desired = wrapSecrets((await evaluate(decl.properties, this.evaluation.scope())) as Record<string, unknown>, secretPaths);
    } catch (err) {
      if (!(err instanceof EvalError)) throw err;
      this.error(name, err.message, err.detail, err.pos);
      return undefined;
    }
    // Properties given as one expression must be known when planning, to be compared at all.
    if ((desired as unknown) instanceof Unknown) {
      this.error(name, `the properties of ${name} are known only after apply`, 'write them as a mapping, or take them from config or a lookup', decl.properties.pos);
      return undefined;
    }
    try {
      desired = await sealDeclared(type, name, desired, desired, this.deps, this.pass, this.manifest.resources[name].provider);
    } catch (err) {
      this.error(name, `cannot tell which inputs of ${name} are secret: ${(err as Error).message}`, 'plumb asks the provider which settings are secret before showing them');
      return undefined;
    }
    // Inputs exactly as recorded were checked when they were applied (and accepted remotely).
    if (this.prior[name] !== undefined && sameValue(this.prior[name].inputs, desired)) return desired;
    const problems = checkInputs(type.inputs, desired, decl.properties, { file: this.manifest.file, address: name, what: type.token, secretPaths: type.secrets?.paths });
    this.diagnostics.push(...problems);
    return problems.length ? undefined : desired;
  }

  /** Reads the object `options.import` names, as it will be recorded; null when it cannot be (reported). */
  private async readImport(name: string, type: ResourceType, id: string, desired: Record<string, unknown>): Promise<ResourceState | null> {
    try {
      const found = await withDeadline(
        readForImport(type, name, id, this.deps, { provider: this.manifest.resources[name].provider }),
        this.manifest.resources[name].options.customTimeouts?.read,
        `reading ${name} (${id}) for import`,
      );
      // What the manifest marks secret is secret in what is read too, the plan's "before" included.
      const secret = secretKeys(desired);
      const recorded = { ...found, inputs: wrapSecrets(importedInputs(found.inputs, desired), secret), outputs: wrapSecrets(found.outputs, secret) };
      this.imported[name] = recorded;
      return recorded;
    } catch (err) {
      this.error(name, (err as Error).message, type.importId ? `import id format: ${type.importId.format}` : undefined);
      return null;
    }
  }

  /** A delete for every recorded object the manifest no longer declares (or every one, for destroy). */
  async deletions(): Promise<void> {
    for (const address of Object.keys(this.prior)) {
      if (!this.options.destroy && this.manifest.resources[address]) continue;
      const recorded = this.prior[address];
      const type = this.deps.resourceType(recorded.type);
      // An object a replacement set aside goes whatever the options: the replacement was allowed.
      const deposed = isDeposed(address);
      const declared = this.manifest.resources[address]?.options;
      if (!deposed && (declared?.protect ?? recorded.protect)) {
        this.guarded.set(address, () => this.error(address, `${address} is protected and cannot be destroyed`, 'remove "protect: true" from its options (and apply) before destroying it'));
      }
      const retain = declared?.retainOnDelete ?? recorded.retainOnDelete ?? false;
      const deletedWith = deposed ? undefined : (declared?.deletedWith?.root ?? recorded.deletedWith);
      this.changes.push({
        address,
        type: recorded.type,
        action: 'delete',
        reason: deposed ? 'deposed' : this.options.destroy ? 'destroy-requested' : 'removed-from-manifest',
        id: recorded.id,
        before: mask(recorded.inputs),
        patch: [],
        unknownPaths: [],
        dependsOn: recorded.dependencies,
        notes: type ? await this.deleteNotes(type, recorded, retain) : [],
        retain: retain || undefined,
        deletedWith,
        provider: recorded.provider,
        ...(type ? heldBy(type, recorded) : {}),
      });
    }
    for (const address of this.gone) {
      if (!this.manifest.resources[address]) this.warnings.push(`${address} was deleted outside plumb; it is removed from state`);
    }
  }

  /**
   * deletedWith: a delete whose named resource is deleted (not only forgotten) by the changes this
   * plan keeps makes no call of its own; otherwise it is an ordinary delete.
   */
  private deletedWith(changes: Change[]): void {
    const deletes = changes.filter((c) => c.action === 'delete' && !c.retain);
    // What is deleted in this run: real deletes, then (a chain may be long) what goes with them.
    const going = new Set(deletes.filter((c) => c.deletedWith === undefined).map((c) => c.address));
    for (let grew = true; grew;) {
      grew = false;
      for (const c of deletes) {
        if (c.deletedWith === undefined || going.has(c.address) || !going.has(c.deletedWith)) continue;
        going.add(c.address);
        grew = true;
      }
    }
    for (const c of changes) {
      if (c.deletedWith === undefined) continue;
      if (c.action !== 'delete' || c.retain || !going.has(c.address)) delete c.deletedWith;
      else c.notes = [`deletedWith ${c.deletedWith}: deleting ${c.deletedWith} deletes it, so no delete is sent for it; it leaves state once ${c.deletedWith} is deleted`];
    }
  }

  private async deleteNotes(type: ResourceType, recorded: ResourceState, retain: boolean): Promise<string[]> {
    if (retain) return ['retainOnDelete: the object is only removed from state and stays billed'];
    const { settings } = await this.deps.connect(type.provider, recorded.provider);
    return type.notes?.delete?.(openRecord(recorded), settings) ?? [];
  }

  /** The manifest's outputs as planned (Unknown until apply where they depend on what it makes). */
  async outputs(): Promise<Record<string, unknown>> {
    const outputs: Record<string, unknown> = {};
    for (const [name, expr] of Object.entries(this.manifest.outputs)) {
      try {
        outputs[name] = mask(await evaluate(expr, this.evaluation.scope()));
      } catch (err) {
        if (!(err instanceof EvalError)) throw err;
        this.diagnostics.push({ severity: 'error', summary: err.message, detail: err.detail, pos: { file: this.manifest.file, ...err.pos } });
      }
    }
    return outputs;
  }

  /** Orders the steps apply will run (see orderChanges); steps that would wait on each other are an error, before any call. */
  private order(changes: Change[]): void {
    const problem = orderChanges(
      changes,
      this.prior,
      (address) => this.manifest.resources[address]?.options.deleteBeforeReplace,
      (address) => address in this.manifest.resources,
    );
    if (problem) this.error(problem.address, problem.summary, problem.detail);
  }

  /** Narrows the changes to what was asked for, checks the request, and writes the plan down. */
  finish(state: StateSnapshot, settled: string[], outputs: Record<string, unknown>): Omit<PlanResult, 'waiting' | 'resolved' | 'pass' | 'desired'> {
    // What the manifest says that stops nothing (ignored provider pins, an older spelling, a stack key it
    // does not declare) goes in the plan once.
    this.warnings.push(...this.manifest.warnings.map(warningLine), ...this.evaluation.warnings);
    const placed = this.manifest.warnings.filter((w) => w.pos);
    this.changes.sort((a, b) => compareAddresses(a.address, b.address));
    const { options } = this;
    const targeted = applyTargets(this.changes, options.targets ?? [], options.excludes ?? []);
    this.deletedWith(targeted.changes);
    this.order(targeted.changes);
    for (const p of replacementsBlockedInUse(targeted.changes, this.changes, this.prior, (token) => this.deps.resourceType(token))) this.error(p.address, p.summary, p.detail);
    noteDeletedUnderfoot(this.changes);
    const known = this.changes.map((c) => c.address);
    const requested = [...targeted.unknown.map((address) => ['--target/--exclude', address]), ...options.replace.filter((a) => !known.includes(a)).map((address) => ['--replace', address])];
    for (const [flag, address] of requested) {
      const hint = closestName(address, known);
      this.error(undefined, `${flag} ${address}: no such resource in the manifest or state`, `${hint ? `did you mean ${hint}? ` : ''}resources: ${known.join(', ') || '(none)'}`);
    }
    // A move is made whole or not at all, as Terraform refuses a targeted plan that leaves out a
    // pending move: the record's old and new addresses are one object, and a plan must say where it is.
    for (const c of this.changes) {
      if (c.movedFrom === undefined || targeted.changes.includes(c)) continue;
      this.error(
        c.address,
        `${c.address} moves from ${c.movedFrom} (options.aliases), and --target/--exclude leave it out`,
        `a move is made whole or not at all: add --target ${c.address} (and do not --exclude it), or run without --target/--exclude`,
      );
    }
    if (targeted.leftOut.length) {
      this.warnings.push(`the plan is partial: ${targeted.leftOut.join(', ')} ${targeted.leftOut.length === 1 ? 'has' : 'have'} changes left out by --target/--exclude; run without them to converge`);
    }
    // Protection refuses only what this plan would do: a destroy of one target is not blocked by another resource.
    for (const c of targeted.changes) this.guarded.get(c.address)?.();
    const plan: Plan = {
      formatVersion: 1,
      stack: state.stack,
      manifest: { file: this.manifest.file, hash: this.manifest.hash },
      state: { lineage: state.lineage, serial: state.serial },
      mode: options.destroy ? 'destroy' : 'normal',
      request: { targets: options.targets ?? [], excludes: options.excludes ?? [], replace: options.replace },
      createdAt: new Date().toISOString(),
      changes: targeted.changes,
      summary: summarise(targeted.changes),
      warnings: [...new Set(this.warnings)],
      ...(placed.length ? { warningsAt: placed } : {}),
      settled,
      outputs,
    };
    return { plan, diagnostics: inFileOrder(uniqueDiagnostics(this.diagnostics)), prior: this.prior, imported: this.imported, read: this.read };
  }
}

/** How many changes of each kind; an import that differs from the manifest is also a change, updated once adopted. */
function summarise(changes: Change[]): Plan['summary'] {
  const count = (action: string) => changes.filter((c) => c.action === action).length;
  const moved = changes.filter((c) => c.movedFrom !== undefined).length;
  const read = count('read');
  const wait = changes.filter((c) => c.action === 'noop' && c.awaits).length;
  return {
    ...(moved ? { move: moved } : {}),
    ...(read ? { read } : {}),
    ...(wait ? { wait } : {}),
    add: count('create'),
    change: count('update') + changes.filter((c) => c.action === 'import' && c.patch.length > 0).length,
    replace: count('replace'),
    destroy: count('delete'),
    import: count('import'),
    noop: count('noop'),
  };
}
