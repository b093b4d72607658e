/**
 * What an object holds that its successor needs (ResourceType.holds): a replacement keeps it by
 * deleting first and waiting until it is let go; an address taking over another's waits for that
 * one's delete; what cannot be ordered is refused before any call. An object that leaves the
 * manifest, or is replaced, goes only once what used it has moved off it.
 */
import { describe, expect, it } from 'vitest';
import { applyFake, planFake } from '../../support/engine-run.js';
import { fakeType, MemoryStore } from '../../support/fakes.js';

const HOLD = 30_000;
const writes = (fake: ReturnType<typeof fakeType>) => fake.calls.filter((c) => c.verb !== 'read').map((c) => `${c.verb} ${c.address}`);

describe('a replacement whose new object needs what the old one holds', () => {
  const one = (size: number, options = '') => `
resources:
  edge:
    type: fake:Thing
    properties: { name: edge, size: ${size} }
    ${options}
`;

  it('deletes first, says why, and orders the new one only once the old one has let go of it', async () => {
    const fake = fakeType({ holdNameMs: HOLD });
    const store = new MemoryStore();
    await applyFake(one(1), fake, store);
    fake.calls.length = 0;
    const started = fake.clock.now();
    const { plan, report } = await applyFake(one(2), fake, store);
    expect(plan.changes[0]).toMatchObject({ action: 'replace', replaceOrder: 'delete-first' });
    expect(plan.changes[0].notes).toContain('deleted first: the new object needs the thing name: edge the old one holds, so apply waits for the old one to let go of it before ordering');
    expect(report.ok).toBe(true);
    expect(writes(fake)).toEqual(['delete edge', 'create edge']);
    expect(fake.clock.now() - started).toBeGreaterThanOrEqual(HOLD);
  });

  it('is refused before any call when the manifest asks for it to be created first', async () => {
    const fake = fakeType({ holdNameMs: HOLD });
    const store = new MemoryStore();
    await applyFake(one(1), fake, store);
    fake.calls.length = 0;
    const { diagnostics } = await planFake(one(2, 'options: { deleteBeforeReplace: false }'), fake, store);
    expect(diagnostics.map((d) => [d.address, d.summary, d.detail])).toEqual([
      [
        'edge',
        'edge cannot be replaced by creating first: the new object needs the thing name: edge the old one holds',
        'remove "deleteBeforeReplace: false" from its options, so that it is replaced by deleting first',
      ],
    ]);
    expect(writes(fake)).toEqual([]);
  });
});

describe('an address renamed without an alias', () => {
  const stack = (agent: string, name: string, user = true) => `
resources:
  ${agent}: { type: fake:Thing, properties: { name: ${name} } }
${user ? `  erp: { type: fake:Thing, properties: { name: erp, ref: "\${${agent}.uid}" } }` : ''}
`;

  it('keeping the name it holds, while something uses it: refused before any call, saying to give the alias', async () => {
    const fake = fakeType({ holdNameMs: HOLD });
    const store = new MemoryStore();
    await applyFake(stack('proxy', 'nyc'), fake, store);
    fake.calls.length = 0;
    const { diagnostics } = await planFake(stack('proxyX', 'nyc'), fake, store);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ address: 'proxyX', summary: expect.stringMatching(/^proxyX would take over the thing name: nyc that proxy holds, and proxy cannot go first: /) });
    expect(diagnostics[0].detail).toBe(
      'if proxyX is proxy under a new name, say so with "aliases: [proxy]" in its options (or run plumb state mv proxy proxyX), so it stays one object; otherwise give it another thing name',
    );
    expect(writes(fake)).toEqual([]);
  });

  it('keeping the name, with nothing using it: the old one goes first, and the new one waits until its name is let go', async () => {
    const fake = fakeType({ holdNameMs: HOLD });
    const store = new MemoryStore();
    await applyFake(stack('proxy', 'nyc', false), fake, store);
    fake.calls.length = 0;
    const { report } = await applyFake(stack('proxyX', 'nyc', false), fake, store);
    expect(report.ok).toBe(true);
    expect(writes(fake)).toEqual(['delete proxy', 'create proxyX']);
  });

  it('with a name of its own: the new one is made, what used the old one moves to it, and only then the old one goes', async () => {
    const fake = fakeType({ holdNameMs: HOLD, replaceOn: ['size'] });
    const store = new MemoryStore();
    await applyFake(stack('proxy', 'nyc'), fake, store);
    fake.calls.length = 0;
    const { report } = await applyFake(stack('proxyX', 'nyc-2'), fake, store);
    expect(report.ok).toBe(true);
    expect(writes(fake)).toEqual(['create proxyX', 'update erp', 'delete proxy']);
    expect((await store.read()).resources.erp.dependencies).toEqual(['proxyX']);
  });

  it('what used the old one fails to move: the old one stays, and state still says it is used', async () => {
    let refuse = false;
    const fake = fakeType({ holdNameMs: HOLD, replaceOn: ['size'] });
    const update = fake.type.update;
    fake.type.update = async (ctx, id, prior, desired) => {
      if (refuse) throw new Error('the connection cannot move now');
      return update(ctx, id, prior, desired);
    };
    const store = new MemoryStore();
    await applyFake(stack('proxy', 'nyc'), fake, store);
    fake.calls.length = 0;
    refuse = true;
    const { report } = await applyFake(stack('proxyX', 'nyc-2'), fake, store);
    expect(report.ok).toBe(false);
    expect(report.results.find((r) => r.address === 'proxy')).toMatchObject({ action: 'delete', status: 'skipped', cause: 'erp' });
    expect(writes(fake)).toEqual(['create proxyX']);
    const state = await store.read();
    expect(state.resources.erp.dependencies).toEqual(['proxy']);
    expect(Object.keys(state.resources).sort()).toEqual(['erp', 'proxy', 'proxyX']);
  });
});

describe('an object replaced while what used it moves to another', () => {
  const stack = (size: number, user: string) => `
resources:
  port: { type: fake:Thing, properties: { name: port, size: ${size} } }
  spare: { type: fake:Thing, properties: { name: spare } }
  vxc: { type: fake:Thing, properties: { name: vxc, ref: "\${${user}.uid}" } }
`;

  it('goes only once what used it has moved off it; one that fails to move keeps it', async () => {
    let refuse = false;
    const fake = fakeType({ replaceOn: ['size'] });
    const update = fake.type.update;
    fake.type.update = async (ctx, id, prior, desired) => {
      if (refuse) throw new Error('the connection cannot move now');
      return update(ctx, id, prior, desired);
    };
    const store = new MemoryStore();
    await applyFake(stack(1, 'port'), fake, store);
    fake.calls.length = 0;
    refuse = true;
    const { plan, report } = await applyFake(stack(2, 'spare'), fake, store);
    expect(plan.changes.find((c) => c.address === 'port')).toMatchObject({ action: 'replace', replaceOrder: 'create-first' });
    expect(report.results.find((r) => r.address === 'port' && r.action === 'delete-old')).toMatchObject({ status: 'skipped', cause: 'vxc' });
    expect(writes(fake)).toEqual(['create port']);
    expect((await store.read()).resources.vxc.dependencies).toEqual(['port']);

    refuse = false;
    fake.calls.length = 0;
    expect((await applyFake(stack(2, 'spare'), fake, store)).report.ok).toBe(true);
    expect(writes(fake)).toEqual(['update vxc', 'delete port']);
  });
});

describe('an object an earlier replacement set aside, holding what the new one needs', () => {
  const one = (name: string) => `
resources:
  edge: { type: fake:Thing, properties: { name: ${name} } }
`;

  it('is deleted before the new one is ordered, which waits until it is let go', async () => {
    let lose = false;
    const fake = fakeType({ holdNameMs: HOLD, replaceOn: ['name'], loseCreateReply: () => lose });
    const store = new MemoryStore();
    await applyFake(one('nyc'), fake, store);
    lose = true;
    await applyFake(one('nyc-2'), fake, store);
    lose = false;
    fake.calls.length = 0;
    const { plan, report } = await applyFake(one('nyc'), fake, store);
    expect(plan.settled).toEqual(['edge: an interrupted create had ordered thing-2; it is adopted, and thing-1, which it replaces, is set aside for deletion']);
    expect(plan.changes.map((c) => [c.address, c.action])).toEqual([
      ['edge', 'replace'],
      ['edge~thing-1', 'delete'],
    ]);
    expect(report.ok).toBe(true);
    expect(writes(fake)).toEqual(['delete edge', 'create edge', 'delete edge']);
    expect(fake.calls.filter((c) => c.verb === 'delete').map((c) => c.id)).toEqual(['thing-1', 'thing-2']);
  });
});

describe('what used an object leaving the manifest, replaced to use a new one that needs the object gone first', () => {
  const stack = (size: number, link: string) => `
resources:
  gw: { type: fake:Thing, properties: { name: gw, size: ${size} } }
  ${link}: { type: fake:Thing, properties: { name: ${link}, ref: "\${gw.uid}" } }
  route: { type: fake:Thing, properties: { name: route-${link}, ref: "\${${link}.uid}" } }
`;

  it('is replaced by deleting first, saying why: its old object goes before the object it used, which goes before the new one it will use is made', async () => {
    const fake = fakeType({ holdNameMs: HOLD, replaceOn: ['size', 'ref'] });
    const store = new MemoryStore();
    await applyFake(stack(1, 'old'), fake, store);
    fake.calls.length = 0;
    const { plan, report } = await applyFake(stack(2, 'new'), fake, store);
    expect(plan.changes.map((c) => [c.address, c.action, c.replaceOrder])).toEqual([
      ['gw', 'replace', 'delete-first'],
      ['new', 'create', undefined],
      ['old', 'delete', undefined],
      ['route', 'replace', 'delete-first'],
    ]);
    expect(plan.changes.find((c) => c.address === 'route')?.notes[0]).toMatch(/^replaced by deleting first, as gw is: created first, its steps would wait on each other/);
    expect(report.ok).toBe(true);
    expect(writes(fake)).toEqual(['delete route', 'delete old', 'delete gw', 'create gw', 'create new', 'create route']);
  });
});

describe('an object moving off what it holds by an update', () => {
  it('lets another take it over only once the update is done', async () => {
    const fake = fakeType({ holdNameMs: HOLD });
    const store = new MemoryStore();
    const first = `
resources:
  a: { type: fake:Thing, properties: { name: nyc } }
`;
    const second = `
resources:
  a: { type: fake:Thing, properties: { name: nyc-old } }
  b: { type: fake:Thing, properties: { name: nyc } }
`;
    await applyFake(first, fake, store);
    fake.calls.length = 0;
    const { plan, report } = await applyFake(second, fake, store);
    expect(plan.changes.map((c) => [c.address, c.action])).toEqual([
      ['a', 'update'],
      ['b', 'create'],
    ]);
    expect(report.ok).toBe(true);
    expect(writes(fake)).toEqual(['update a', 'create b']);
  });
});
