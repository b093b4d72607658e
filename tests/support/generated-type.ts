/**
 * One resource type under the generated lifecycle suite: a sandbox of its provider's own (its data
 * files in a folder, its call log its own), the objects its lifecycle spec's setup makes first, a
 * stack declaring one object of it, and what the baseline cycle learns (what the API reports of
 * the base object, the call its delete makes last), with the steps every cycle shares.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changesSomething } from '../../src/cli/render-plan.js';
import type { ResourceType } from '../../src/engine/contracts/resource-type.js';
import type { ResourceState } from '../../src/engine/contracts/state.js';
import { sandboxApis, startSandbox, type Sandbox } from '@plumb/sandbox';
import { forgetSecretTexts } from '../../src/kernel/secret-mask.js';
import { reveal } from '../../src/kernel/values.js';
import { callText, mutating, signature, takeCalls } from './generated-calls.js';
import { oneLineEach } from './generated-cycle.js';
import { GeneratedStack, SUBJECT, type Outcome } from './generated-stack.js';
import type { VaryContext } from './generated-variations.js';
import { alive, changedIn, leftOf, mentions, recordOf, recordsNaming, readWorld, withEnded, type Leaves } from './generated-world.js';
import { lifecycleContexts, type LifecycleSpec, type ProviderLifecycleSpecs } from './lifecycle.js';

/** A type, its sandbox and its stack, for the cycles of its variations. */
export class TypeWorld {
  readonly type: ResourceType;
  readonly provider: string;
  sandbox!: Sandbox;
  stack!: GeneratedStack;
  /** Ids of the objects the setup made, as text: a value among them names another object. */
  refs = new Set<string>();
  /** The base input, as the spec's `create` declares it. */
  base: Record<string, unknown> = {};
  /** The spec's other inputs, where it names a second object. */
  alternates: Array<Record<string, unknown>> = [];
  /** What the API reports of the base object. */
  observed: Record<string, unknown> = {};
  /** The call that orders the object (its signature; the first the spec's createCall names). */
  orderCall?: string;
  /** The last call a destroy of the base object made (its signature), and how many of it. */
  deleteCall?: string;
  deletes = 0;
  private folder = '';
  private urlBefore: string | undefined;

  constructor(
    private readonly owner: ProviderLifecycleSpecs,
    readonly spec: LifecycleSpec<any, any>,
  ) {
    this.type = spec.type;
    this.provider = owner.provider.name;
  }

  /** Starts the sandbox, points plumb at it (PLUMB_SANDBOX_URL, as the CLI reads it), and makes what the object needs first. */
  async start(): Promise<void> {
    // In memory where there is a place for it: the suite judges the world, not the disk's
    // durability, and each of its thousands of state writes is synced.
    this.folder = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'plumb-generated-'));
    const apis = sandboxApis.filter((api) => api.provider === this.provider);
    this.sandbox = await startSandbox({ provisioningMs: 0, dataDir: join(this.folder, 'world'), apis });
    // Each type's stack as a process of its own would hold it: no secret text of another type's
    // (a string holding one is sealed in state, and a sealed value holds no claim).
    forgetSecretTexts();
    this.urlBefore = process.env.PLUMB_SANDBOX_URL;
    process.env.PLUMB_SANDBOX_URL = this.sandbox.url;
    const env: unknown = this.spec.setup ? await this.spec.setup(lifecycleContexts(this.owner, () => this.sandbox.url)) : undefined;
    this.refs = new Set(texts(env));
    this.base = this.spec.create(env) as Record<string, unknown>;
    this.alternates = [this.spec.update, this.spec.replace, this.spec.another].flatMap((make) => (make ? [make(env) as Record<string, unknown>] : []));
    const settings = Object.entries(this.owner.settings ?? {}).map(([key, value]) => [`${this.provider}:${key}`, String(value)]);
    this.stack = new GeneratedStack(join(this.folder, 'stack'), this.type.token, Object.fromEntries(settings));
  }

  async stop(): Promise<void> {
    if (this.urlBefore === undefined) delete process.env.PLUMB_SANDBOX_URL;
    else process.env.PLUMB_SANDBOX_URL = this.urlBefore;
    await this.sandbox?.close();
    rmSync(this.folder, { recursive: true, force: true });
  }

  /** The provider's world now, as its data file holds it. */
  world(): Leaves {
    return readWorld(this.sandbox, join(this.folder, 'world'), this.provider);
  }

  /** What variations are made from. */
  varyContext(): VaryContext {
    return { type: this.type, base: this.base, refs: this.refs, alternates: this.alternates, observed: this.observed };
  }

  /**
   * The baseline cycle: the base object is created, the next plan is empty, drift finds nothing,
   * and the destroy leaves nothing of it; learns what the API reports of it and its delete's call.
   */
  async baseline(): Promise<void> {
    const problems: string[] = [];
    const w0 = this.world();
    await takeCalls(this.sandbox, this.provider);
    const made = await this.createBase();
    const order = (await takeCalls(this.sandbox, this.provider)).find((c) => mutating(c) && callText(c).includes(this.spec.createCall));
    if (order) this.orderCall = signature(order, this.names(made.id));
    else problems.push(`the create made no call the spec's createCall (${this.spec.createCall}) names`);
    this.observed = reveal(made.outputs);
    await this.converged(problems, 'after the create');
    await takeCalls(this.sandbox, this.provider);
    await this.destroyAll(problems, w0, [made.id], [this.base], (calls) => {
      const names = this.names(made.id);
      const last = calls.filter(mutating).pop();
      this.deleteCall = last && signature(last, names);
      this.deletes = calls.filter((c) => last && signature(c, names) === this.deleteCall).length;
    });
    if (problems.length) throw new Error(oneLineEach(problems));
  }

  /** What a call's path may name: the objects made first, and the parts of an id. */
  names(...ids: string[]): string[] {
    return [...this.refs, ...ids.flatMap((id) => [id, ...id.split(/[:/#]/)])];
  }

  /** Declares and applies the base object (or the one a variation starts from); returns its record. */
  async createBase(inputs: Record<string, unknown> = this.base): Promise<ResourceState> {
    this.stack.declare(inputs);
    applied(await this.stack.apply(), 'creating the base object');
    const made = (await this.stack.state()).resources[SUBJECT];
    if (!made) throw new Error('after creating the base object, state records no subject');
    return made;
  }

  /** The next plan changes nothing, and drift finds nothing. */
  async converged(problems: string[], when: string): Promise<void> {
    // One line per field, so that a known problem of one field leaves the others to be seen.
    const next = await this.stack.plan();
    if ('refused' in next) problems.push(`${when}, the next plan is refused: ${next.refused}`);
    else {
      for (const c of next.plan.changes.filter(changesSomething)) {
        const paths = c.patch.length ? c.patch.map((op) => op.path) : [c.reason];
        problems.push(...paths.map((path) => `${when}, the next plan still ${c.action === 'replace' ? 'replaces' : `${c.action}s`} ${c.address}: ${path}`));
      }
    }
    const drift = await this.stack.drift();
    for (const r of drift.report.resources.filter((r) => r.status !== 'in-sync')) {
      if (!r.fields.length) problems.push(`${when}, drift exits ${drift.exit}: ${r.address} ${r.status}${r.error ? `: ${r.error}` : ''}`);
      for (const f of r.fields) problems.push(`${when}, drift exits ${drift.exit}: ${f.path}: state ${JSON.stringify(f.state)}, remote ${JSON.stringify(f.remote)}`);
    }
  }

  /**
   * Destroys the stack, and checks that nothing it made is left in the world (no live record
   * names an id it was given that the world did not have before) and, but for a type managing
   * part of another's object, that what its inputs named is as it was before the cycle.
   */
  async destroyAll(problems: string[], w0: Leaves, ids: string[], inputs: Array<Record<string, unknown>>, sent?: (calls: Awaited<ReturnType<typeof takeCalls>>) => void): Promise<void> {
    this.stack.declare(this.base);
    const outcome = await this.stack.apply(true);
    sent?.(await takeCalls(this.sandbox, this.provider));
    if (!ok(outcome)) problems.push(`the destroy failed: ${failure(outcome)}`);
    const left = Object.keys((await this.stack.state()).resources);
    if (left.length) problems.push(`after the destroy, state still records ${left.join(', ')}`);
    const w3 = this.world();
    const made = ids.flatMap((id) => [id, ...id.split(/[:/#]/)]).filter((id) => id.length >= 4 && !mentions(w0, id));
    const live = leftOf(w3, made);
    if (live.length) problems.push(`after the destroy, the world still has ${live.join(', ')}`);
    // What the stack made under ids plumb never recorded (a second order, a leaked object) is left
    // too: a live record the world did not have, but for one of what the setup made (its labels,
    // its schema config) or of an object that ended (a cancelled router's prefix lists). A world
    // its sandbox had not yet written (no call made before) is nothing to compare with.
    const before = new Set([...w0.keys()].map(recordOf));
    const partOfOthers = new Set([...recordsNaming(w3, [...this.refs]), ...withEnded(w3)]);
    const fresh = w0.size ? [...new Set([...w3.keys()].map(recordOf))].filter((r) => !before.has(r) && alive(w3, r) && !live.includes(r) && !partOfOthers.has(r)) : [];
    if (fresh.length) problems.push(`after the destroy, the world has records it did not have before: ${fresh.join(', ')}`);
    if (this.spec.partOf) return;
    const used = [...this.refs].filter((ref) => inputs.some((i) => JSON.stringify(i).includes(ref)));
    const moved = changedIn(w0, w3, recordsNaming(w0, used));
    if (moved.length) problems.push(`after the destroy, what the object used is not as it was: ${moved.map((d) => `${d.path}: ${JSON.stringify(d.before)} → ${JSON.stringify(d.after)}`).join('; ')}`);
  }
}

/** Every text in a value (the ids a setup returns, however it shapes them). */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return value !== null && typeof value === 'object' ? Object.values(value).flatMap(texts) : [];
}

function ok(outcome: Outcome): boolean {
  return !('refused' in outcome) && (outcome.report?.ok ?? true);
}

/** What went wrong with a plan or apply, in a line. */
function failure(outcome: Outcome): string {
  if ('refused' in outcome) return `refused: ${outcome.refused}`;
  return (outcome.report?.results ?? [])
    .filter((r) => r.status !== 'done')
    .map((r) => `${r.address} ${r.action} ${r.status}: ${r.error ?? r.cause ?? ''}`)
    .join('; ');
}

/** Throws unless the plan was applied in full. */
function applied(outcome: Outcome, what: string): void {
  if (!ok(outcome)) throw new Error(`${what}: ${failure(outcome)}`);
}
