import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../../src/manifest/parse.js';
import { applyFake, planFake } from '../../support/engine-run.js';
import { fakeType, MemoryStore } from '../../support/fakes.js';

const reader = (id: string) => `
resources:
  existing:
    type: fake:Thing
    get: { id: ${id} }
  mine:
    type: fake:Thing
    properties: { name: mine, ref: "\${existing.uid}" }
outputs:
  seen: \${existing.name}
`;

/** A fake holding one object made outside this stack; its id and the fake, calls cleared. */
async function elsewhere() {
  const fake = fakeType();
  await applyFake('resources:\n  other: { type: fake:Thing, properties: { name: theirs } }\n', fake, new MemoryStore());
  fake.calls.length = 0;
  return fake;
}

describe('get: reading without managing', () => {
  it('reads the object by id when planning; references see its outputs; state never records it', async () => {
    const fake = await elsewhere();
    const store = new MemoryStore();
    const { plan, report } = await applyFake(reader('thing-1'), fake, store);
    expect(plan.changes.map((c) => [c.address, c.action, c.id])).toEqual([
      ['existing', 'read', 'thing-1'],
      ['mine', 'create', undefined],
    ]);
    expect(plan.summary).toMatchObject({ read: 1, add: 1 });
    expect(plan.outputs).toEqual({ seen: 'theirs' });
    expect(report.ok).toBe(true);
    expect(fake.calls.filter((c) => c.verb !== 'read').map((c) => [c.verb, c.address])).toEqual([['create', 'mine']]);
    const state = await store.read();
    expect(Object.keys(state.resources)).toEqual(['mine']);
    expect(state.resources.mine.inputs.ref).toBe('thing-1');
    expect(state.outputs).toEqual({ seen: 'theirs' });
  });

  it('a destroy reads nothing and leaves the object alone', async () => {
    const fake = await elsewhere();
    const store = new MemoryStore();
    await applyFake(reader('thing-1'), fake, store);
    fake.calls.length = 0;
    const { plan } = await applyFake(reader('thing-1'), fake, store, { destroy: true });
    expect(plan.changes.map((c) => [c.address, c.action])).toEqual([['mine', 'delete']]);
    expect(fake.calls.filter((c) => c.id === 'thing-1')).toEqual([]);
  });

  it('an id with no object is an error naming the resource and the id, and nothing is made', async () => {
    const fake = await elsewhere();
    const { diagnostics } = await planFake(reader('thing-9'), fake, new MemoryStore());
    expect(diagnostics.map((d) => [d.summary, d.pos?.line])).toEqual([['existing: there is no fake:index/thing:Thing with id "thing-9" to read', 3]]);
  });

  it('an address state records as managed cannot become a get:', async () => {
    const fake = await elsewhere();
    const store = new MemoryStore();
    await applyFake('resources:\n  existing: { type: fake:Thing, properties: { name: x } }\n', fake, store);
    const { diagnostics } = await planFake(reader('thing-1'), fake, store);
    expect(diagnostics.map((d) => d.summary)).toEqual(['existing is managed (state records thing-2): it cannot be read with get: instead']);
  });

  it('state:, properties and managing options beside get: are refused at their keys', () => {
    const yaml =
      'resources:\n  r:\n    type: fake:Thing\n    properties: { name: x }\n    options: { protect: true, dependsOn: [] }\n    get: { id: a, state: { name: x } }\n  s:\n    type: fake:Thing\n    get: {}\n';
    const { diagnostics } = parseManifest(yaml, 'm.yaml', { resources: ['fake:index/thing:Thing'], functions: [] });
    expect(diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}`)).toEqual([
      '6:19 get: state is not supported in "r"',
      '4:5 "r" is read with get: it takes no properties',
      '5:16 option "protect" means nothing for "r", which is read with get:',
      '9:10 get of "s" needs the id of the object to read',
    ]);
  });
});
