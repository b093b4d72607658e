import { describe, expect, it } from 'vitest';
import { applyFake, planFake } from '../support/engine-run.js';
import { fakeType, MemoryStore } from '../support/fakes.js';

const one = (size: number) => `
resources:
  a: { type: fake:Thing, properties: { name: a, size: ${size} } }
`;
const withDependent = (size: number) => `
resources:
  a: { type: fake:Thing, properties: { name: a, size: ${size} } }
  b: { type: fake:Thing, properties: { name: b, ref: "\${a.uid}" } }
`;

const deletes = (fake: ReturnType<typeof fakeType>) => fake.calls.filter((c) => c.verb === 'delete').map((c) => c.id);
const keys = async (store: MemoryStore) => Object.keys((await store.read()).resources).sort();

describe('create-first replacements that do not finish', () => {
  it('a timed-out replacement, then another: every object stays tracked and each is deleted by its own call', async () => {
    let slow = false;
    const fake = fakeType({ timeoutCreate: () => slow });
    const store = new MemoryStore();
    await applyFake(one(1), fake, store);

    slow = true;
    const first = await applyFake(one(1), fake, store, { replace: ['a'] });
    expect(first.report.ok).toBe(false);
    // The new object is kept, tainted; the old one is set aside under its own id.
    const afterFirst = await store.read();
    expect(afterFirst.resources.a).toMatchObject({ id: 'thing-2', status: 'tainted' });
    expect(afterFirst.resources['a~thing-1']).toMatchObject({ id: 'thing-1', address: 'a~thing-1' });

    slow = false;
    const second = await applyFake(one(1), fake, store);
    expect(second.plan.changes.map((c) => [c.address, c.action, c.reason])).toEqual([
      ['a', 'replace', 'tainted'],
      ['a~thing-1', 'delete', 'deposed'],
    ]);
    expect(second.report.ok).toBe(true);
    expect(deletes(fake).sort()).toEqual(['thing-1', 'thing-2']);
    expect([...fake.objects.keys()]).toEqual(['thing-3']);
    expect(await keys(store)).toEqual(['a']);
    const done = second.events.filter((e) => e.type === 'step-done').map((e) => [e.address, e.action, 'id' in e ? e.id : undefined]);
    expect(done).toContainEqual(['a~thing-1', 'delete-deposed', 'thing-1']);
    expect(done).toContainEqual(['a', 'delete-old', 'thing-2']);

    const settled = await planFake(one(1), fake, store);
    expect(settled.plan.changes.every((c) => c.action === 'noop')).toBe(true);
  });

  it('two replacements that time out in a row leave three objects tracked, none lost', async () => {
    let slow = false;
    const fake = fakeType({ timeoutCreate: () => slow });
    const store = new MemoryStore();
    await applyFake(withDependent(1), fake, store);
    slow = true;
    await applyFake(withDependent(1), fake, store, { replace: ['a'] });
    await applyFake(withDependent(1), fake, store);
    // thing-1 (the first), thing-3 (timed out), thing-4 (timed out again); b stays on thing-1.
    expect(await keys(store)).toEqual(['a', 'a~thing-1', 'a~thing-3', 'b']);
    expect([...fake.objects.keys()].sort()).toEqual(['thing-1', 'thing-2', 'thing-3', 'thing-4']);

    slow = false;
    const done = await applyFake(withDependent(1), fake, store);
    expect(done.report.ok).toBe(true);
    expect([...fake.objects.keys()].sort()).toEqual(['thing-2', 'thing-5']);
    expect(await keys(store)).toEqual(['a', 'b']);
    // The dependent moved to the new object before any old one went.
    const verbs = fake.calls.filter((c) => c.verb !== 'read').map((c) => `${c.verb}:${c.id ?? c.address}`);
    const moved = verbs.lastIndexOf('update:thing-2');
    for (const old of ['thing-1', 'thing-3', 'thing-4']) expect(verbs.indexOf(`delete:${old}`)).toBeGreaterThan(moved);
  });

  it('a type that replaces delete-first deletes every older object of the address before the new one is made', async () => {
    let slow = false;
    const fake = fakeType({ timeoutCreate: () => slow });
    const store = new MemoryStore();
    await applyFake(one(1), fake, store);
    slow = true;
    await applyFake(one(1), fake, store, { replace: ['a'] });
    expect(await keys(store)).toEqual(['a', 'a~thing-1']);

    slow = false;
    const deleteFirst = fakeType({ deleteBeforeReplace: true });
    deleteFirst.objects.clear();
    for (const [id, o] of fake.objects) deleteFirst.objects.set(id, o);
    const { report } = await applyFake(one(1), deleteFirst, store);
    expect(report.ok).toBe(true);
    const verbs = deleteFirst.calls.filter((c) => c.verb !== 'read').map((c) => `${c.verb}:${c.id ?? c.address}`);
    expect(verbs.indexOf('delete:thing-1')).toBeLessThan(verbs.indexOf('create:a'));
    expect(verbs.indexOf('delete:thing-2')).toBeLessThan(verbs.indexOf('create:a'));
  });

  it('a replacement whose order went through but whose answer was lost buys nothing more and settles next time', async () => {
    let lose = false;
    const fake = fakeType({ loseCreateReply: () => lose });
    const store = new MemoryStore();
    await applyFake(one(1), fake, store);
    lose = true;
    const lost = await applyFake(one(2), fake, store);
    expect(lost.report.ok).toBe(false);
    // Not tainted, not forgotten: the order is pending with the id it was given.
    const state = await store.read();
    expect(state.resources.a.id).toBe('thing-1');
    expect(state.pending).toMatchObject([{ address: 'a', action: 'create', id: 'thing-2', replacing: 'thing-1' }]);

    lose = false;
    const next = await applyFake(one(2), fake, store);
    expect(next.plan.settled).toEqual(['a: an interrupted create had ordered thing-2; it is adopted, and thing-1, which it replaces, is set aside for deletion']);
    expect(next.plan.changes.map((c) => [c.address, c.action])).toEqual([
      ['a', 'noop'],
      ['a~thing-1', 'delete'],
    ]);
    expect(next.report.ok).toBe(true);
    expect(fake.calls.filter((c) => c.verb === 'create')).toHaveLength(2);
    expect([...fake.objects.keys()]).toEqual(['thing-2']);
  });
});

describe('reads that fail', () => {
  it('a create whose read-back fails is not tainted and never bought again; a read that keeps failing fails the plan naming the resource', async () => {
    let lose = true;
    let unreadable = false;
    const fake = fakeType({ loseCreateReply: () => lose, failRead: () => unreadable });
    const store = new MemoryStore();
    const lost = await applyFake(one(1), fake, store);
    expect(lost.report.ok).toBe(false);
    expect((await store.read()).pending).toMatchObject([{ address: 'a', id: 'thing-1' }]);

    lose = false;
    unreadable = true;
    await expect(planFake(one(1), fake, store)).rejects.toThrow(/^a: could not settle an interrupted create: GET \/thing\/thing-1: 503/);
    expect(fake.calls.filter((c) => c.verb === 'create')).toHaveLength(1);

    unreadable = false;
    const next = await applyFake(one(1), fake, store);
    expect(next.plan.changes.map((c) => c.action)).toEqual(['noop']);
    expect(fake.calls.filter((c) => c.verb === 'create')).toHaveLength(1);
    expect((await store.read()).resources.a).toMatchObject({ id: 'thing-1', status: 'ok' });
  });
});

describe('a state that cannot be written', () => {
  it('stops the apply: steps not started are skipped with the reason, nothing is left unhandled', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    const chain = `
resources:
  a: { type: fake:Thing, properties: { name: a } }
  b: { type: fake:Thing, properties: { name: b, ref: "\${a.uid}" } }
  c: { type: fake:Thing, properties: { name: c, ref: "\${b.uid}" } }
`;
    // a's intent, id and outcome are written; b's intent is refused, so b is never ordered.
    store.failFrom = 3;
    const { report } = await applyFake(chain, fake, store);
    expect(report.ok).toBe(false);
    expect(report.results.map((r) => [r.address, r.status])).toEqual([
      ['a', 'done'],
      ['b', 'failed'],
      ['c', 'skipped'],
    ]);
    expect(report.results[1].error).toBe('state could not be written (memory): ENOSPC: no space left on device');
    expect(fake.calls.filter((c) => c.verb === 'create').map((c) => c.address)).toEqual(['a']);
    expect(Object.keys(store.snapshot.resources)).toEqual(['a']);
  });
});

describe('records a crash could leave doubled', () => {
  it('the same id as current and set aside is repaired without any delete', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await applyFake(one(1), fake, store);
    const a = store.snapshot.resources.a;
    store.snapshot.resources['a~thing-1'] = { ...a, address: 'a~thing-1' };
    const { plan, report } = await applyFake(one(1), fake, store);
    expect(plan.settled).toEqual(['a: state recorded thing-1 both as current and as set aside for deletion; it is kept as current and nothing is deleted']);
    expect(plan.changes.map((c) => c.action)).toEqual(['noop']);
    expect(report.ok).toBe(true);
    expect(fake.calls.filter((c) => c.verb === 'delete')).toEqual([]);
    expect([...fake.objects.keys()]).toEqual(['thing-1']);
  });
});

describe('a replacement deleted first with a dependent that would be created first', () => {
  const chain = (size: number, childOptions = '') => `
resources:
  parent:
    type: fake:Thing
    properties: { name: parent, size: ${size} }
    options: { deleteBeforeReplace: true }
  child:
    type: fake:Thing
    properties: { name: child, ref: "\${parent.uid}" }
    ${childOptions}
`;

  it('replaces the dependent delete-first too, says why, and runs every step it reports', async () => {
    const fake = fakeType({ replaceOn: ['size', 'ref'] });
    const store = new MemoryStore();
    await applyFake(chain(1), fake, store);
    fake.calls.length = 0;

    const { plan, report, events } = await applyFake(chain(2), fake, store);
    const child = plan.changes.find((c) => c.address === 'child')!;
    expect(child).toMatchObject({ action: 'replace', replaceOrder: 'delete-first' });
    expect(child.notes.join('\n')).toMatch(/replaced by deleting first, as parent is: created first, its steps would wait on each other \(.*delete the old parent/);
    expect(fake.calls.filter((c) => c.verb !== 'read').map((c) => `${c.verb} ${c.address}`)).toEqual(['delete child', 'delete parent', 'create parent', 'create child']);
    expect(report.ok).toBe(true);
    // Every step reported done was started, and made its call.
    const started = events.filter((e) => e.type === 'step-start').map((e) => `${e.address} ${'action' in e ? e.action : ''}`);
    expect(report.results.map((r) => `${r.address} ${r.action}`).sort()).toEqual(started.sort());
    expect([...fake.objects.values()].map((o) => o.name).sort()).toEqual(['child', 'parent']);
    expect((await planFake(chain(2), fake, store)).plan.changes.every((c) => c.action === 'noop')).toBe(true);
  });

  it('is refused before any call when the manifest asks for the dependent to be created first', async () => {
    const fake = fakeType({ replaceOn: ['size', 'ref'] });
    const store = new MemoryStore();
    await applyFake(chain(1), fake, store);
    fake.calls.length = 0;

    const { diagnostics } = await planFake(chain(2, 'options: { deleteBeforeReplace: false }'), fake, store);
    expect(diagnostics.map((d) => [d.address, d.summary, d.detail])).toEqual([
      [
        'child',
        expect.stringMatching(/^the steps of (child, parent|parent, child) wait on each other: .*delete the old parent/),
        'remove "deleteBeforeReplace: false" from the options of child, so that it can be replaced by deleting first',
      ],
    ]);
    expect(fake.calls.filter((c) => c.verb !== 'read')).toEqual([]);
  });
});
