import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyPlan } from '../../src/engine/applying/apply.js';
import type { ResourceType } from '../../src/engine/contracts/resource-type.js';
import { buildGraph } from '../../src/engine/graph/graph.js';
import { makePlan } from '../../src/engine/planning/plan.js';
import type { EngineDeps } from '../../src/engine/types.js';
import { RemoteError } from '../../src/kernel/errors.js';
import { parseManifest } from '../../src/manifest/parse.js';
import { MemoryStore } from '../support/fakes.js';

/**
 * Two accounts of one fake provider, each with objects of its own: an object is found, changed
 * and deleted only through the connection of the account it was made in.
 */
function accounts(options: { loseCreateReply?: boolean } = {}) {
  const objects = new Map<string, Map<string, Record<string, unknown>>>();
  const calls: Array<{ verb: string; address: string; account: string; id?: string }> = [];
  const connected: string[] = [];
  let next = 1;
  const of = (ctx: { client: unknown }) => (ctx.client as { account: string }).account;
  const store = (account: string) => objects.get(account) ?? objects.set(account, new Map()).get(account)!;
  const type: ResourceType = {
    token: 'fake:index/thing:Thing',
    provider: 'fake',
    description: 'a fake thing',
    inputs: z.object({ name: z.string(), size: z.number().optional() }).strict(),
    outputs: z.object({ name: z.string(), size: z.number().optional(), uid: z.string() }),
    replace: {
      on: [],
    },
    async create(ctx, inputs) {
      calls.push({ verb: 'create', address: ctx.address, account: of(ctx) });
      const id = `thing-${next++}`;
      store(of(ctx)).set(id, { ...inputs, uid: id });
      ctx.recordId(id);
      if (options.loseCreateReply) throw new RemoteError('unavailable', `GET /thing/${id}: 503 unavailable`);
      return { id, outputs: { ...inputs, uid: id } };
    },
    async read(ctx, id) {
      calls.push({ verb: 'read', address: ctx.address, account: of(ctx), id });
      return store(of(ctx)).get(id) as never;
    },
    async update(ctx, id, _prior, desired) {
      calls.push({ verb: 'update', address: ctx.address, account: of(ctx), id });
      if (!store(of(ctx)).has(id)) throw new Error(`${id} is not in account ${of(ctx)}`);
      store(of(ctx)).set(id, { ...desired, uid: id });
      return { ...desired, uid: id } as never;
    },
    async delete(ctx, id) {
      calls.push({ verb: 'delete', address: ctx.address, account: of(ctx), id });
      if (!store(of(ctx)).delete(id)) throw new Error(`${id} is not in account ${of(ctx)}`);
    },
  };
  const deps: EngineDeps = {
    project: 'test',
    stack: 'test',
    log: pino({ level: 'silent' }),
    workDir: '/tmp',
    resourceType: (token) => (token === type.token ? type : undefined),
    lookup: () => undefined,
    connect: async (_provider, instance) => {
      connected.push(instance ?? 'default');
      return { client: { account: instance ?? 'default' }, settings: {} };
    },
  };
  return { type, deps, calls, connected, objects };
}

async function apply(yaml: string, fake: ReturnType<typeof accounts>, store: MemoryStore, destroy = false, ok = true) {
  const { manifest, diagnostics } = parseManifest(yaml, 'm.yaml', { resources: [fake.type.token], functions: [] });
  expect(diagnostics).toEqual([]);
  const { graph } = buildGraph(manifest);
  const planned = await makePlan(manifest, graph, await store.read(), fake.deps, { refresh: true, destroy, replace: [] });
  expect(planned.diagnostics).toEqual([]);
  const report = await applyPlan({ ...planned, manifest, state: await store.read(), store, deps: fake.deps, parallelism: 4, emit: () => {} });
  expect(report.ok).toBe(ok);
  return planned.plan;
}

const manifest = (bProvider: string, size = 1) => `
resources:
  east:
    type: pulumi:providers:fake
    properties: { region: east, waitTime: ${size} }
  west:
    type: pulumi:providers:fake
    properties: { region: west }
  a:
    type: fake:Thing
    properties: { name: a }
  b:
    type: fake:Thing
    properties: { name: b }
${bProvider}
`;

describe('explicit providers', () => {
  it('routes each resource to its provider resource, records it, and plans no change after', async () => {
    const fake = accounts();
    const store = new MemoryStore();
    const plan = await apply(manifest('    options: { provider: "${east}" }'), fake, store);
    expect(plan.changes.map((c) => [c.address, c.action])).toEqual([
      ['a', 'create'],
      ['b', 'create'],
    ]);
    expect(fake.calls.filter((c) => c.verb === 'create').map((c) => [c.address, c.account])).toEqual(
      expect.arrayContaining([
        ['a', 'default'],
        ['b', 'east'],
      ]),
    );
    const state = await store.read();
    expect(state.resources.a.provider).toBeUndefined();
    expect(state.resources.b.provider).toBe('east');
    expect(Object.keys(state.resources).sort()).toEqual(['a', 'b']);
    // west is declared but nothing uses it: no connection is made for it.
    expect(fake.connected).not.toContain('west');

    fake.calls.length = 0;
    const again = await apply(manifest('    options: { provider: "${east}" }'), fake, store);
    expect(again.changes.map((c) => c.action)).toEqual(['noop', 'noop']);
    expect(fake.calls.map((c) => [c.verb, c.address, c.account]).sort()).toEqual([
      ['read', 'a', 'default'],
      ['read', 'b', 'east'],
    ]);
  });

  it('a change of a provider resource’s settings changes none of its resources', async () => {
    const fake = accounts();
    const store = new MemoryStore();
    await apply(manifest('    options: { provider: "${east}" }'), fake, store);
    const plan = await apply(manifest('    options: { provider: "${east}" }', 5), fake, store);
    expect(plan.changes.map((c) => c.action)).toEqual(['noop', 'noop']);
  });

  it('a resource moved to another provider resource is replaced, saying so; the old object is deleted where it was made', async () => {
    const fake = accounts();
    const store = new MemoryStore();
    await apply(manifest('    options: { provider: "${east}" }'), fake, store);
    const old = (await store.read()).resources.b.id;
    fake.calls.length = 0;
    const plan = await apply(manifest('    options: { providers: { fake: "${west}" } }'), fake, store);
    const b = plan.changes.find((c) => c.address === 'b')!;
    expect(b.action).toBe('replace');
    expect(b.replacePaths).toEqual([{ path: 'provider', reason: 'moved from `east` to `west`' }]);
    const writes = fake.calls.filter((c) => c.verb !== 'read').map((c) => [c.verb, c.address, c.account, c.id]);
    expect(writes).toEqual([
      ['create', 'b', 'west', undefined],
      ['delete', 'b', 'east', old],
    ]);
    expect((await store.read()).resources.b.provider).toBe('west');

    fake.calls.length = 0;
    const back = await apply(manifest(''), fake, store);
    expect(back.changes.find((c) => c.address === 'b')!.replacePaths).toEqual([{ path: 'provider', reason: 'moved from `west` to default' }]);
    expect((await store.read()).resources.b.provider).toBeUndefined();
  });

  it('a create through a provider resource whose answer was lost is settled through it: found, adopted, never bought again', async () => {
    const fake = accounts({ loseCreateReply: true });
    const store = new MemoryStore();
    await apply(manifest('    options: { provider: "${east}" }'), fake, store, false, false);
    const pending = (await store.read()).pending;
    expect(pending.map((p) => [p.address, p.provider])).toEqual(expect.arrayContaining([['b', 'east']]));
    const made = [...fake.objects.get('east')!.keys()];
    fake.calls.length = 0;
    const plan = await apply(manifest('    options: { provider: "${east}" }'), fake, store);
    expect(plan.settled.join('\n')).toContain(`b: an interrupted create had ordered ${made[0]}; it is adopted`);
    const forB = fake.calls.filter((c) => c.address === 'b');
    expect(forB.length).toBeGreaterThan(0);
    expect(forB.every((c) => c.verb === 'read' && c.account === 'east')).toBe(true);
    expect((await store.read()).resources.b).toMatchObject({ id: made[0], provider: 'east' });
  });

  it('destroy deletes each object through its own provider resource and leaves nothing of the providers', async () => {
    const fake = accounts();
    const store = new MemoryStore();
    await apply(manifest('    options: { provider: "${west}" }'), fake, store);
    fake.calls.length = 0;
    const plan = await apply(manifest('    options: { provider: "${west}" }'), fake, store, true);
    expect(plan.changes.map((c) => [c.address, c.action]).sort()).toEqual([
      ['a', 'delete'],
      ['b', 'delete'],
    ]);
    expect(
      fake.calls
        .filter((c) => c.verb === 'delete')
        .map((c) => [c.address, c.account])
        .sort(),
    ).toEqual([
      ['a', 'default'],
      ['b', 'west'],
    ]);
    expect((await store.read()).resources).toEqual({});
    expect([...fake.objects.values()].every((m) => m.size === 0)).toBe(true);
  });
});
