import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffInputs, pathMatches } from '../../src/engine/planning/diff/diff.js';
import { outcomeUnknown } from '../../src/engine/applying/journal.js';
import type { ProviderDef } from '../../src/engine/contracts/provider.js';
import type { ResourceContext, ResourceType } from '../../src/engine/contracts/resource-type.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';
import { contextWait } from '../../src/engine/applying/wait.js';
import { deletesFirst } from '../../src/engine/planning/classify.js';

/** A handler context of the lifecycle suite, with the ids the handler recorded before its answer. */
export type LifecycleContext = ResourceContext & { recorded: string[] };

/** Makes a context for an address; the same operation token can be given again (a later look for what it made). */
export type MakeContext = (address: string, operationToken?: string) => Promise<LifecycleContext>;

/** What a spec's census gets: the running sandbox, and contexts against it. */
export interface LifecycleWorld {
  sandbox: Sandbox;
  ctx: MakeContext;
}

/** What a resource type's lifecycle conformance needs to know about it. */
export interface LifecycleSpec<In, Env = unknown> {
  type: ResourceType<In>;
  /** Creates what the resource needs first (a port for a VXC...) and returns it. */
  setup?(ctx: MakeContext): Promise<Env>;
  /** Inputs to create with. */
  create(env: Env): NoInfer<In>;
  /** Inputs that differ only in fields changed in place. */
  update(env: Env): NoInfer<In>;
  /** Inputs that differ in a field that forces replacement (omit when nothing does). */
  replace?(env: Env): NoInfer<In>;
  /** Inputs of a second object that can live beside the one `create` makes (default: update's). */
  another?(env: Env): NoInfer<In>;
  /** Checks that the observed outputs reflect the inputs. */
  reflects(outputs: Record<string, unknown>, inputs: In): void;
  /** The import id of a created object (default: its id). */
  importId?(id: string, outputs: Record<string, unknown>): string;
  /** A malformed import id, when the type has an import format. */
  badImportId?: string;
  /** An id of the type's form that names no object, for the bulk read. */
  ghostId(env: Env): string;
  /** What the call that makes the object contains (`METHOD /path?query` below the provider's prefix): the fault cases aim at it. */
  createCall: string;
  /** The ids of the type's live objects as the API reports them to anyone (not through the type), to count what a create made. */
  census(world: LifecycleWorld, env: Env): Promise<string[]>;
  /**
   * The type manages part of an object another type makes (a connection's schedule): its create
   * makes nothing new and its delete leaves the object, which still reads. The census then lists
   * the objects whose part is as `create` declares it.
   */
  partOf?: boolean;
}

/** A provider's lifecycle specs: one per resource type, and the settings they run with. */
export interface ProviderLifecycleSpecs {
  provider: ProviderDef;
  /** Provider settings (defaults applied by the provider's schema). */
  settings?: Record<string, unknown>;
  specs: Array<LifecycleSpec<any, any>>;
}

/** Types a spec: `In` is the resource type's own input type, which the fixtures must satisfy. */
export function lifecycleSpec<In, Env = undefined>(spec: LifecycleSpec<In, Env>): LifecycleSpec<In, Env> {
  return spec;
}

/** One type's suite as its tests see it: the spec, contexts, and the sandbox and setup once they exist. */
interface Suite<In, Env> {
  owner: ProviderLifecycleSpecs;
  spec: LifecycleSpec<In, Env>;
  type: ResourceType<In>;
  ctx: MakeContext;
  env(): Env;
  world(): LifecycleWorld;
  /** Reads an object with nothing recorded of it (as an import does). */
  read(c: ResourceContext, id: string): Promise<Record<string, unknown> | undefined>;
}

/**
 * The lifecycle every resource type passes against its sandbox, over real HTTP: create, read,
 * update in place, replacement (classified by the type's own rules, then delete + create),
 * delete, delete of an already-deleted object, import, finding what a create whose answer was
 * forgotten made, discovery, the bulk read, removing plumb's ownership marks, and a 429 and a lost
 * answer during the create, after which the object exists exactly once. A verb the type lacks
 * (list, readMany, findOwned, owner) is not run.
 */
export function describeLifecycle<In, Env>(owner: ProviderLifecycleSpecs, spec: LifecycleSpec<In, Env>): void {
  describe(`${spec.type.token} lifecycle`, () => {
    const suite = startSuite(owner, spec);
    describeVerbs(suite);
    describeFinding(suite);
    describeMarks(suite);
    describeFaults(suite);
  });
}

/** Handler contexts of a provider's types against the sandbox at `url`, as its lifecycle specs' setups make their objects. */
export function lifecycleContexts(owner: ProviderLifecycleSpecs, url: () => string): MakeContext {
  const log = pino({ level: 'silent' });
  return async (address, operationToken) => {
    const settings = owner.provider.settings.parse(owner.settings ?? {});
    const client = await owner.provider.connect(settings, { sandboxUrl: async () => url(), log, env: {} });
    const recorded: string[] = [];
    return {
      client,
      settings,
      log,
      address,
      project: 'lifecycle',
      stack: 'lifecycle',
      operationToken: operationToken ?? `token-${address}-${Math.random().toString(36).slice(2)}`,
      waitTimeMs: 30_000,
      progress: () => {},
      warn: () => {},
      recordId: (id) => void recorded.push(id),
      shared: (_key, make) => make(),
      wait: contextWait(),
      recorded,
    };
  };
}

/** Starts the sandbox and the spec's setup before the suite's tests, and stops it after. */
function startSuite<In, Env>(owner: ProviderLifecycleSpecs, spec: LifecycleSpec<In, Env>): Suite<In, Env> {
  let sandbox: Sandbox;
  let env: Env;
  const ctx = lifecycleContexts(owner, () => sandbox.url);
  beforeAll(async () => {
    sandbox = await startSandbox({ provisioningMs: 0 });
    env = spec.setup ? await spec.setup(ctx) : (undefined as Env);
  });
  afterAll(async () => sandbox.close());
  return {
    owner,
    spec,
    type: spec.type,
    ctx,
    env: () => env,
    world: () => ({ sandbox, ctx }),
    read: async (c, id) => (await spec.type.read(c, id)) as Record<string, unknown> | undefined,
  };
}

/** Create, read, update, delete twice; a replacement; an import. */
function describeVerbs<In, Env>({ spec, type, ctx, env, read }: Suite<In, Env>): void {
  it('creates, reads, updates in place, deletes, and deletes again', async () => {
    const c = await ctx('subject');
    const inputs = spec.create(env());
    const created = await type.create(c, inputs);
    expect(created.id).toBeTruthy();
    const observed = (await type.read(c, created.id, { inputs, outputs: created.outputs })) as Record<string, unknown>;
    expect(observed).toBeDefined();
    spec.reflects(observed, inputs);

    const changed = spec.update(env());
    const diff = diffInputs(inputs as Record<string, unknown>, changed as Record<string, unknown>);
    expect(diff.changed.length).toBeGreaterThan(0);
    expect(diff.changed.filter((p) => type.replace.on.some((r) => pathMatches(p, r.path)))).toEqual([]);
    const updated = await type.update(c, created.id, { inputs, outputs: created.outputs }, changed);
    spec.reflects(updated as Record<string, unknown>, changed);
    spec.reflects((await read(c, created.id))!, changed);

    await type.delete(c, created.id, { inputs: changed, outputs: updated });
    if (spec.partOf) expect(await read(c, created.id)).toBeDefined();
    else expect(await read(c, created.id)).toBeUndefined();
    await type.delete(c, created.id, { inputs: changed, outputs: updated });
  });

  const replace = spec.replace;
  if (replace) {
    it("a replace-forcing change is classified by the type's rules, and the replacement lives", async () => {
      const c = await ctx('replaced');
      const inputs = spec.create(env());
      const first = await type.create(c, inputs);
      const next = replace(env());
      const diff = diffInputs(inputs as Record<string, unknown>, next as Record<string, unknown>);
      const forced = [...diff.changed.filter((p) => type.replace.on.some((r) => pathMatches(p, r.path))), ...(type.replace.when?.rules(inputs, next) ?? []).map((d) => d.path)];
      expect(forced.length).toBeGreaterThan(0);
      // In the order the engine would replace it.
      const deleteFirst = deletesFirst(type, inputs as Record<string, unknown>, next as Record<string, unknown>);
      if (deleteFirst) await type.delete(c, first.id, { inputs, outputs: first.outputs });
      const second = await type.create(await ctx('replaced'), next);
      if (!deleteFirst) await type.delete(c, first.id, { inputs, outputs: first.outputs });
      expect(second.id).not.toBe(first.id);
      if (!spec.partOf) expect(await read(c, first.id)).toBeUndefined();
      spec.reflects((await read(c, second.id))!, next);
      await type.delete(c, second.id, { inputs: next, outputs: second.outputs });
    });
  }

  it('imports an existing object by its import id', async () => {
    const c = await ctx('imported');
    const inputs = spec.create(env());
    const created = await type.create(c, inputs);
    const raw = spec.importId ? spec.importId(created.id, created.outputs as Record<string, unknown>) : created.id;
    const id = type.importId ? type.importId.parse(raw) : raw;
    const observed = await read(c, id);
    expect(observed).toBeDefined();
    spec.reflects(observed!, inputs);
    if (spec.badImportId !== undefined) expect(() => type.importId!.parse(spec.badImportId!)).toThrow(type.importId!.format);
    await type.delete(c, id, { inputs, outputs: observed as never });
  });
}

/** What finds objects other than by a recorded id: findOwned, discovery, the bulk read. */
function describeFinding<In, Env>({ spec, type, ctx, env }: Suite<In, Env>): void {
  const findOwned = type.findOwned?.bind(type);
  if (findOwned) {
    it('finds what a create made when its answer was forgotten, by the operation and its inputs', async () => {
      const started = Date.now();
      const c = await ctx('forgotten');
      const inputs = spec.create(env());
      const created = await type.create(c, inputs);
      const found = await findOwned(await ctx('forgotten', c.operationToken), inputs, { earliestMs: started - 60_000, recorded: () => false });
      expect(found?.id).toBe(created.id);
      spec.reflects(found!.outputs as Record<string, unknown>, inputs);
      await type.delete(c, created.id, { inputs, outputs: created.outputs });
    });
  }

  const list = type.list?.bind(type);
  if (list) {
    it('discovery lists the created object as a read reports it', async () => {
      const c = await ctx('listed');
      const inputs = spec.create(env());
      const created = await type.create(c, inputs);
      const listed = (await list(await ctx('discovery'))).filter((o) => o.id === created.id);
      expect(listed).toHaveLength(1);
      spec.reflects(listed[0].outputs as Record<string, unknown>, inputs);
      await type.delete(c, created.id, { inputs, outputs: created.outputs });
    });
  }

  const readMany = type.readMany?.bind(type);
  if (readMany) {
    it('a bulk read of two objects returns both as a read reports them; an id it lacks is absent', async () => {
      const c = await ctx('bulk');
      const [one, two] = [spec.create(env()), (spec.another ?? spec.update)(env())];
      const first = await type.create(c, one);
      const second = await type.create(await ctx('bulk-2'), two);
      const ghost = spec.ghostId(env());
      const warn = () => {};
      const targets = [
        { id: first.id, prior: { inputs: one, outputs: first.outputs }, warn },
        { id: second.id, prior: { inputs: two, outputs: second.outputs }, warn },
        { id: ghost, warn },
      ];
      const observed = await readMany(await ctx(''), targets);
      spec.reflects(observed.get(first.id) as Record<string, unknown>, one);
      spec.reflects(observed.get(second.id) as Record<string, unknown>, two);
      expect(observed.get(ghost)).toBeUndefined();
      await type.delete(c, first.id, { inputs: one, outputs: first.outputs });
      await type.delete(c, second.id, { inputs: two, outputs: second.outputs });
    });
  }
}

/**
 * A type whose objects carry plumb's ownership marks removes them (`plumb state rm`), so that no
 * state claims the object and the user's own tags stay as they were; again, there is nothing to
 * remove, and of an object that is gone, nothing to find.
 */
function describeMarks<In, Env>({ spec, type, ctx, env, read }: Suite<In, Env>): void {
  const owner = type.owner?.bind(type);
  const disown = type.disown?.bind(type);
  if (!owner || !disown) return;
  it("removes plumb's ownership marks, keeping the user's tags", async () => {
    const c = await ctx('disowned');
    const inputs = spec.create(env());
    const created = await type.create(c, inputs);
    expect(await owner(c, created.id)).toMatchObject({ project: 'lifecycle', stack: 'lifecycle', address: 'disowned' });
    expect(await disown(c, created.id)).toBe('removed');
    expect(await owner(c, created.id)).toBeUndefined();
    spec.reflects((await read(c, created.id))!, inputs);
    expect(await disown(c, created.id)).toBe('unmarked');
    await type.delete(c, created.id, { inputs, outputs: created.outputs });
    expect(await disown(c, created.id)).toBe('gone');
  });
}

/** A 429 and a lost answer during the create: the object exists exactly once, as the API counts. */
function describeFaults<In, Env>(suite: Suite<In, Env>): void {
  const { owner, spec, type, ctx, env, world, read } = suite;
  const cases: Array<[string, Record<string, unknown>, number]> = [
    ['a 429 is waited out and sent again', { status: 429, retryAfter: '0' }, 429],
    ['a lost answer is settled as the engine settles it', { drop: 'reply' }, 0],
  ];
  for (const [name, fault, status] of cases) {
    it(`${name}: the object exists exactly once`, async () => {
      const { sandbox } = world();
      const before = new Set(await spec.census(world(), env()));
      const inputs = spec.create(env());
      const c = await ctx('faulted');
      const started = Date.now();
      await admin(sandbox, 'DELETE', 'calls');
      await admin(sandbox, 'POST', 'faults', { provider: owner.provider.name, next: [{ match: spec.createCall, ...fault }] });
      const outcome = await type.create(c, inputs).then(
        (made) => ({ made }),
        (error: unknown) => ({ error }),
      );
      await admin(sandbox, 'DELETE', 'faults');
      // The fault was met: exactly one call got it.
      const calls = (await (await admin(sandbox, 'GET', `calls?provider=${owner.provider.name}`)).json()) as Array<{ status: number }>;
      expect(calls.filter((call) => call.status === status)).toHaveLength(1);
      const id = 'made' in outcome ? outcome.made.id : await settle(suite, c, inputs, outcome.error, started);
      if (spec.partOf) expect(await spec.census(world(), env())).toContain(id);
      else expect((await spec.census(world(), env())).filter((made) => !before.has(made))).toEqual([id]);
      const observed = await read(c, id);
      spec.reflects(observed!, inputs);
      await type.delete(c, id, { inputs, outputs: observed as never });
    });
  }
}

/** What the engine makes of a create that failed: a recorded id is read; else the next plan looks with findOwned, or creates again. */
async function settle<In, Env>({ type, ctx }: Suite<In, Env>, c: LifecycleContext, inputs: In, error: unknown, started: number): Promise<string> {
  if (c.recorded.length) return c.recorded[c.recorded.length - 1];
  // With nothing recorded, the engine takes any other failure as "nothing was made".
  expect(outcomeUnknown(error), String(error)).toBe(true);
  const again = await ctx('faulted', c.operationToken);
  if (!type.findOwned) return (await type.create(again, inputs)).id;
  const found = await type.findOwned(again, inputs, { earliestMs: started - 60_000, recorded: () => false });
  expect(found).toBeDefined();
  return found!.id;
}

/** One call to the sandbox's admin endpoints. */
function admin(sandbox: Sandbox, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${sandbox.url}/_sandbox/${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
}
