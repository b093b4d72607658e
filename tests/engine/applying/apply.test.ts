import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyPlan } from '../../../src/engine/applying/apply.js';
import { buildGraph } from '../../../src/engine/graph/graph.js';
import { makePlan } from '../../../src/engine/planning/plan.js';
import type { JournalEntry } from '../../../src/engine/contracts/state.js';
import type { EngineEvent } from '../../../src/engine/types.js';
import { parseManifest } from '../../../src/manifest/parse.js';
import { fakeDeps, fakeType, MemoryStore } from '../../support/fakes.js';
import type { ResourceType } from '../../../src/engine/contracts/resource-type.js';

async function run(yaml: string, fake: ReturnType<typeof fakeType>, store: MemoryStore, opts: { destroy?: boolean; replace?: string[] } = {}) {
  const { manifest, diagnostics } = parseManifest(yaml, 'm.yaml', { resources: [fake.type.token], functions: [] });
  expect(diagnostics).toEqual([]);
  const { graph } = buildGraph(manifest);
  const deps = fakeDeps(fake.type);
  const state = await store.read();
  const planned = await makePlan(manifest, graph, state, deps, { refresh: true, destroy: opts.destroy ?? false, replace: opts.replace ?? [] });
  expect(planned.diagnostics).toEqual([]);
  const events: EngineEvent[] = [];
  const report = await applyPlan({ manifest, plan: planned.plan, prior: planned.prior, imported: planned.imported, state, store, deps, parallelism: 4, emit: (e) => events.push(e) });
  return { plan: planned.plan, report, events };
}

const chain = (extra = '') => `
resources:
  a: { type: fake:Thing, properties: { name: a, size: 1 } }
  b: { type: fake:Thing, properties: { name: b, ref: "\${a.uid}" } }
  c: { type: fake:Thing, properties: { name: c, ref: "\${b.uid}" } }
  lone: { type: fake:Thing, properties: { name: lone } }
${extra}`;

describe('apply', () => {
  it('creates in dependency order, passing outputs to dependents', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    const { report } = await run(chain(), fake, store);
    expect(report.ok).toBe(true);
    const order = fake.calls.filter((c) => c.verb === 'create').map((c) => c.address);
    expect(order.indexOf('a')).toBeLessThan(order.indexOf('b'));
    expect(order.indexOf('b')).toBeLessThan(order.indexOf('c'));
    const state = await store.read();
    expect(state.resources.b.inputs.ref).toBe(state.resources.a.id);
    expect(state.resources.c.dependencies).toEqual(['b']);
  });

  it('a failure skips only its dependents, names the cause at its resource, and keeps independent work', async () => {
    const fake = fakeType({ failCreate: (i) => i.name === 'b' });
    const store = new MemoryStore();
    const { report } = await run(chain(), fake, store);
    expect(report.ok).toBe(false);
    const byAddress = Object.fromEntries(report.results.map((r) => [r.address, r]));
    // The API's refusal is said at the resource that asked for it: b is declared on line 4.
    expect(byAddress.b).toMatchObject({ status: 'failed', error: 'm.yaml:4:3: cannot create b' });
    expect(byAddress.c).toMatchObject({ status: 'skipped', cause: 'b' });
    expect(byAddress.lone.status).toBe('done');
    expect(Object.keys((await store.read()).resources).sort()).toEqual(['a', 'lone']);
  });

  it('an unchanged manifest plans no changes after apply', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await run(chain(), fake, store);
    const { plan } = await run(chain(), fake, store);
    expect(plan.changes.every((c) => c.action === 'noop')).toBe(true);
  });

  it('a replace-forcing change replaces create-first and moves dependents before deleting the old object', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await run(chain(), fake, store);
    const oldA = (await store.read()).resources.a.id;
    fake.calls.length = 0;
    const { plan, report } = await run(chain().replace('size: 1', 'size: 2'), fake, store);
    expect(report.ok).toBe(true);
    const a = plan.changes.find((c) => c.address === 'a')!;
    expect(a).toMatchObject({ action: 'replace', reason: 'forced-replace', replaceOrder: 'create-first', replacePaths: [{ path: 'size', reason: 'size is fixed' }] });
    expect(plan.changes.find((c) => c.address === 'b')!.action).toBe('update');
    const verbs = fake.calls.filter((c) => c.verb !== 'read').map((c) => `${c.verb}:${c.address}`);
    expect(verbs.indexOf('create:a')).toBeLessThan(verbs.indexOf('update:b'));
    expect(verbs.indexOf('update:b')).toBeLessThan(verbs.indexOf('delete:a'));
    expect(fake.objects.has(oldA)).toBe(false);
    const state = await store.read();
    expect(Object.keys(state.resources).sort()).toEqual(['a', 'b', 'c', 'lone']);
  });

  it('deleteBeforeReplace deletes the old object first', async () => {
    const fake = fakeType({ deleteBeforeReplace: true });
    const store = new MemoryStore();
    await run(chain(), fake, store);
    fake.calls.length = 0;
    await run(chain().replace('size: 1', 'size: 3'), fake, store);
    const verbs = fake.calls.filter((c) => c.verb !== 'read').map((c) => `${c.verb}:${c.address}`);
    expect(verbs.indexOf('delete:a')).toBeLessThan(verbs.indexOf('create:a'));
  });

  it('destroy deletes dependents first', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await run(chain(), fake, store);
    fake.calls.length = 0;
    await run(chain(), fake, store, { destroy: true });
    const deletes = fake.calls.filter((c) => c.verb === 'delete').map((c) => c.address);
    expect(deletes.indexOf('c')).toBeLessThan(deletes.indexOf('b'));
    expect(deletes.indexOf('b')).toBeLessThan(deletes.indexOf('a'));
    expect((await store.read()).resources).toEqual({});
    expect(fake.objects.size).toBe(0);
  });

  it('an object deleted outside plumb is planned as create', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await run(chain(), fake, store);
    fake.objects.delete((await store.read()).resources.lone.id);
    const { plan } = await run(chain(), fake, store);
    expect(plan.changes.find((c) => c.address === 'lone')).toMatchObject({ action: 'create', reason: 'gone-remotely' });
  });

  it('protect refuses a replacement at plan time', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    const yaml = chain().replace('properties: { name: a, size: 1 } }', 'properties: { name: a, size: 1 }, options: { protect: true } }');
    await run(yaml, fake, store);
    const { manifest } = parseManifest(yaml.replace('size: 1', 'size: 2'), 'm.yaml', { resources: [fake.type.token], functions: [] });
    const planned = await makePlan(manifest, buildGraph(manifest).graph, await store.read(), fakeDeps(fake.type), { refresh: false, destroy: false, replace: [] });
    expect(planned.diagnostics.map((d) => d.summary)).toEqual(['a is protected and cannot be replaced']);
  });

  it('ignoreChanges keeps the recorded value and plans no change', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    const yaml = (name: string) => `resources:\n  a: { type: fake:Thing, properties: { name: ${name} }, options: { ignoreChanges: [name] } }\n`;
    await run(yaml('first'), fake, store);
    const { plan } = await run(yaml('second'), fake, store);
    expect(plan.changes[0].action).toBe('noop');
  });

  it('options.import adopts an existing object, updates what differs, then plans no changes', async () => {
    const fake = fakeType();
    fake.objects.set('existing-1', { name: 'old-name', size: 5, uid: 'existing-1' });
    const store = new MemoryStore();
    const yaml = 'resources:\n  a: { type: fake:Thing, properties: { name: new-name, size: 5 }, options: { import: existing-1 } }\n';
    const { plan, report } = await run(yaml, fake, store);
    expect(plan.changes[0]).toMatchObject({ action: 'import', reason: 'import-requested', id: 'existing-1' });
    // Said and counted as what it is: an import, then an update of the name.
    expect(plan.changes[0].patch).toEqual([{ op: 'replace', path: '/name', value: 'new-name' }]);
    expect(plan.summary).toMatchObject({ import: 1, change: 1, add: 0 });
    expect(report.results).toEqual([{ address: 'a', action: 'import', status: 'done' }]);
    expect(fake.calls.filter((c) => c.verb === 'create')).toEqual([]);
    expect(fake.objects.get('existing-1')).toMatchObject({ name: 'new-name' });
    const again = await run(yaml, fake, store);
    expect(again.plan.changes[0].action).toBe('noop');
  });

  it('an import that would force a replacement is refused at plan time', async () => {
    const fake = fakeType();
    fake.objects.set('existing-2', { name: 'x', size: 5, uid: 'existing-2' });
    const { manifest } = parseManifest('resources:\n  a: { type: fake:Thing, properties: { name: x, size: 6 }, options: { import: existing-2 } }\n', 'm.yaml', {
      resources: [fake.type.token],
      functions: [],
    });
    const planned = await makePlan(manifest, buildGraph(manifest).graph, await new MemoryStore().read(), fakeDeps(fake.type), { refresh: false, destroy: false, replace: [] });
    expect(planned.diagnostics[0].summary).toBe('importing a would replace existing-2 at once: size (size is fixed)');
  });

  it('replaceOnChanges makes an in-place field force a replacement, with the option named as the reason', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    const yaml = (name: string) => `resources:\n  a: { type: fake:Thing, properties: { name: ${name} }, options: { replaceOnChanges: [name] } }\n`;
    await run(yaml('one'), fake, store);
    const { plan } = await run(yaml('two'), fake, store);
    expect(plan.changes[0]).toMatchObject({ action: 'replace', replacePaths: [{ path: 'name', reason: 'listed in the replaceOnChanges option' }], replaceOrder: 'create-first' });
  });

  it('the deleteBeforeReplace option deletes first even when the type would create first', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    const yaml = (size: number) => `resources:\n  a: { type: fake:Thing, properties: { name: a, size: ${size} }, options: { deleteBeforeReplace: true } }\n`;
    await run(yaml(1), fake, store);
    fake.calls.length = 0;
    const { plan } = await run(yaml(2), fake, store);
    expect(plan.changes[0].replaceOrder).toBe('delete-first');
    const verbs = fake.calls.filter((c) => c.verb !== 'read').map((c) => c.verb);
    expect(verbs).toEqual(['delete', 'create']);
  });

  it('retainOnDelete forgets the object without deleting it', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await run('resources:\n  a: { type: fake:Thing, properties: { name: a }, options: { retainOnDelete: true } }\n', fake, store);
    const id = (await store.read()).resources.a.id;
    fake.calls.length = 0;
    const { plan } = await run('resources: {}\n', fake, store);
    expect(plan.changes[0]).toMatchObject({ action: 'delete', retain: true, notes: ['retainOnDelete: the object is only removed from state and stays billed'] });
    expect(fake.calls.filter((c) => c.verb === 'delete')).toEqual([]);
    expect(fake.objects.has(id)).toBe(true);
    expect((await store.read()).resources).toEqual({});
  });

  it('journals the ids of orders answered together at once, each before its outcome', async () => {
    // A journal write takes a moment (an fsync): had each id waited for the one before it, every
    // order of a large apply would wait for all those answered before it.
    class SyncingStore extends MemoryStore {
      entries: string[] = [];
      idWrites = 0;
      mostIdWrites = 0;
      override async record(entry: JournalEntry): Promise<void> {
        this.entries.push(`${entry.kind} ${entry.address}`);
        await super.record(entry);
        if (entry.kind !== 'id') return;
        this.mostIdWrites = Math.max(this.mostIdWrites, ++this.idWrites);
        await new Promise((done) => setTimeout(done, 5));
        this.idWrites--;
      }
    }
    const store = new SyncingStore();
    const names = ['p', 'q', 'r', 's', 't', 'u', 'v', 'w'];
    const { report } = await run(`resources:\n${names.map((n) => `  ${n}: { type: fake:Thing, properties: { name: ${n} } }\n`).join('')}`, fakeType(), store);
    expect(report.ok).toBe(true);
    expect(store.mostIdWrites).toBeGreaterThan(1);
    for (const n of names) expect(store.entries.indexOf(`id ${n}`)).toBeLessThan(store.entries.indexOf(`outcome ${n}`));
  });

  it('inputs known only at apply are checked before the call: a key the type does not name, arriving in an output, is refused where it is written', async () => {
    // An object output carries a field the input's object does not name (what the API adds to it).
    const fake = fakeType();
    const spec = z.object({ size: z.number() });
    const type: ResourceType = {
      ...fake.type,
      inputs: z.object({ name: z.string(), spec: spec.optional() }),
      outputs: z.object({ name: z.string(), uid: z.string(), spec: z.object({ size: z.number(), zone: z.string() }).optional() }),
      async create(ctx, inputs) {
        const made = await fake.type.create(ctx, inputs);
        return { ...made, outputs: { ...made.outputs, ...(inputs.spec ? { spec: { ...inputs.spec, zone: 'z1' } } : {}) } };
      },
    };
    const yaml = 'resources:\n  a: { type: fake:Thing, properties: { name: a, spec: { size: 1 } } }\n  b: { type: fake:Thing, properties: { name: b, spec: "${a.spec}" } }\n';
    const { report } = await run(yaml, { ...fake, type }, new MemoryStore());
    expect(report.results.find((r) => r.address === 'b')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^m\.yaml:3:\d+: unknown property "spec\.zone" for fake:index\/thing:Thing/),
    });
    expect(fake.calls.filter((c) => c.verb === 'create').map((c) => c.address)).toEqual(['a']);
  });
});
