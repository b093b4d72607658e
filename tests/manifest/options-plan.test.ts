import { describe, expect, it } from 'vitest';
import { applyFake, planFake } from '../support/engine-run.js';
import { fakeType, MemoryStore } from '../support/fakes.js';

const triggered = (trigger: string | undefined) => `
resources:
  thing:
    type: fake:Thing
    properties: { name: a }
${trigger === undefined ? '' : `    options: { replacementTrigger: ${trigger} }\n`}`;

describe('replacementTrigger', () => {
  it('a changed value replaces the object; the same value changes nothing', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await applyFake(triggered('v1'), fake, store);
    expect((await store.read()).resources.thing.replacementTrigger).toBe('v1');
    expect((await planFake(triggered('v1'), fake, store)).plan.changes.map((c) => c.action)).toEqual(['noop']);
    const { plan } = await planFake(triggered('v2'), fake, store);
    expect(plan.changes[0]).toMatchObject({ action: 'replace', replacePaths: [{ path: 'options.replacementTrigger', reason: 'the replacementTrigger value changed' }] });
    fake.calls.length = 0;
    await applyFake(triggered('v2'), fake, store);
    expect(fake.calls.filter((c) => c.verb !== 'read').map((c) => c.verb)).toEqual(['create', 'delete']);
    expect((await store.read()).resources.thing.replacementTrigger).toBe('v2');
  });

  it('the first value given to an existing object is only recorded, with no call; a later change replaces', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await applyFake(triggered(undefined), fake, store);
    fake.calls.length = 0;
    const { plan } = await applyFake(triggered('"2026-05"'), fake, store);
    expect(plan.changes[0]).toMatchObject({ action: 'update', recordOnly: true });
    expect(fake.calls.filter((c) => c.verb !== 'read')).toEqual([]);
    expect((await planFake(triggered('"2026-06"'), fake, store)).plan.changes[0].action).toBe('replace');
  });

  it('a value known only at apply replaces, as Pulumi previews it', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    const yaml = (size: number) => `
resources:
  source: { type: fake:Thing, properties: { name: src, size: ${size} } }
  thing:
    type: fake:Thing
    properties: { name: a }
    options: { replacementTrigger: "\${source.uid}" }
`;
    await applyFake(yaml(1), fake, store);
    const { plan } = await planFake(yaml(2), fake, store);
    expect(plan.changes.find((c) => c.address === 'thing')).toMatchObject({ action: 'replace', replacePaths: [{ reason: 'the replacementTrigger value is known only at apply' }] });
  });
});

describe('deletedWith', () => {
  const both = `
resources:
  router: { type: fake:Thing, properties: { name: router } }
  route:
    type: fake:Thing
    properties: { name: route, ref: "\${router.uid}" }
    options: { deletedWith: "\${router}" }
`;

  it('deleting both in one run calls delete for the named resource only, and forgets the other after it', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await applyFake(both, fake, store);
    fake.calls.length = 0;
    const { plan, report } = await applyFake(both, fake, store, { destroy: true });
    expect(plan.changes.find((c) => c.address === 'route')).toMatchObject({ action: 'delete', deletedWith: 'router' });
    expect(fake.calls.filter((c) => c.verb === 'delete').map((c) => c.address)).toEqual(['router']);
    expect(report.results.map((r) => `${r.address} ${r.status}`)).toEqual(['router done', 'route done']);
    expect((await store.read()).resources).toEqual({});
  });

  it('when the named resource fails to delete, the other stays recorded', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await applyFake(both, fake, store);
    fake.type.delete = async () => {
      throw new Error('refused: in use');
    };
    const { report } = await applyFake(both, fake, store, { destroy: true });
    expect(report.results.map((r) => `${r.address} ${r.status}`)).toEqual(['router failed', 'route skipped']);
    expect(Object.keys((await store.read()).resources).sort()).toEqual(['route', 'router']);
  });

  it('deleting only the resource that names another is an ordinary delete', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await applyFake(both, fake, store);
    fake.calls.length = 0;
    const { plan } = await applyFake(both, fake, store, { destroy: true, targets: ['route'] });
    expect(plan.changes.map((c) => [c.address, c.action, c.deletedWith])).toEqual([['route', 'delete', undefined]]);
    expect(fake.calls.filter((c) => c.verb === 'delete').map((c) => c.address)).toEqual(['route']);
  });
});

describe('hideDiffs', () => {
  const named = (name: string) => `
resources:
  thing:
    type: fake:Thing
    properties: { name: ${name}, ref: r }
    options: { hideDiffs: [name] }
`;

  it('the plan says the path changed without its values; the change is still made', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await applyFake(named('before-value'), fake, store);
    fake.calls.length = 0;
    const { plan } = await applyFake(named('after-value'), fake, store);
    const change = plan.changes[0];
    expect(change).toMatchObject({ action: 'update', patch: [{ op: 'replace', path: '/name', value: { $hidden: 'name' } }] });
    expect(JSON.stringify(change)).not.toMatch(/before-value|after-value/);
    expect(fake.calls.filter((c) => c.verb === 'update').map((c) => c.inputs)).toEqual([{ name: 'after-value', ref: 'r' }]);
  });

  it('names only inputs of the type, said where the option is written', async () => {
    const { diagnostics } = await planFake('resources:\n  thing:\n    type: fake:Thing\n    properties: { name: a }\n    options:\n      hideDiffs: [nmae]\n', fakeType(), new MemoryStore());
    expect(diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary} (${d.detail})`)).toEqual([
      '6:19 hideDiffs: fake:index/thing:Thing has no input "nmae" (did you mean "name"? inputs: name, size, ref)',
    ]);
  });
});

describe('protect as an expression', () => {
  const yaml = (prod: string) => `
variables:
  prod: ${prod}
resources:
  thing:
    type: fake:Thing
    properties: { name: a }
    options: { protect: "\${prod}" }
`;

  it('is evaluated when planning: true refuses a destroy, false allows it', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await applyFake(yaml('true'), fake, store);
    expect((await planFake(yaml('true'), fake, store, { destroy: true })).diagnostics.map((d) => d.summary)).toEqual(['thing is protected and cannot be destroyed']);
    expect((await planFake(yaml('false'), fake, store, { destroy: true })).diagnostics).toEqual([]);
  });

  it('must be true or false, said at its position', async () => {
    const { diagnostics } = await planFake(yaml('maybe'), fakeType(), new MemoryStore());
    expect(diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}`)).toEqual(['8:25 option protect of thing must be true or false when planning; it is "maybe"']);
  });
});

describe('customTimeouts.read', () => {
  it('bounds reading the object options.import names; the plan says which read took too long', async () => {
    const fake = fakeType();
    fake.objects.set('thing-9', { name: 'a', uid: 'thing-9' });
    const read = fake.type.read;
    fake.type.read = (...args) => new Promise((done) => setTimeout(() => done(read(...args)), 2_000));
    const yaml = 'resources:\n  thing:\n    type: fake:Thing\n    properties: { name: a }\n    options: { import: thing-9, customTimeouts: { read: 0.05s } }\n';
    const { diagnostics } = await planFake(yaml, fake, new MemoryStore());
    expect(diagnostics.map((d) => d.summary)).toEqual(['reading thing (thing-9) for import took longer than customTimeouts.read (0.05s)']);
  });
});
