/**
 * What an interrupted create made, once found and adopted (by settling, or by the create step
 * that looks for it), is recorded as the finished create would have recorded it: what it
 * depends on included, so that what it uses is deleted only after it. An interrupted update,
 * which may or may not have moved its object, keeps it depending on both what it used and what
 * the update would have made it use. What settling concluded is journaled before apply goes on.
 */
import { describe, expect, it } from 'vitest';
import { RemoteError } from '../../src/kernel/errors.js';
import { applyFake, planFake } from '../support/engine-run.js';
import { fakeType, MemoryStore } from '../support/fakes.js';

const withUser = `
resources:
  a: { type: fake:Thing, properties: { name: a } }
  b: { type: fake:Thing, properties: { name: b, ref: "\${a.uid}" } }
`;
const deletes = (fake: ReturnType<typeof fakeType>) => fake.calls.filter((c) => c.verb === 'delete').map((c) => c.address);

describe('an object an interrupted create made, adopted', () => {
  it('records what it depends on: a destroy deletes it before what it uses', async () => {
    let lose = true;
    const fake = fakeType({ loseCreateReply: (inputs) => lose && inputs.name === 'b' });
    const store = new MemoryStore();
    await applyFake(withUser, fake, store);
    expect((await store.read()).pending).toMatchObject([{ address: 'b', action: 'create', id: 'thing-2' }]);
    lose = false;
    const gone = await applyFake(withUser, fake, store, { destroy: true });
    expect(gone.plan.settled).toEqual(['b: an interrupted create had ordered thing-2; it is adopted']);
    expect(gone.report.ok).toBe(true);
    expect(deletes(fake)).toEqual(['b', 'a']);
  });

  it('without an id, found by its order: the same', async () => {
    let lose = true;
    const fake = fakeType({ findable: true, loseOrderReply: (inputs) => lose && inputs.name === 'b' });
    const store = new MemoryStore();
    await applyFake(withUser, fake, store);
    lose = false;
    const gone = await applyFake(withUser, fake, store, { destroy: true });
    expect(gone.plan.settled).toEqual(['b: an interrupted create had ordered thing-2; it is adopted']);
    expect(deletes(fake)).toEqual(['b', 'a']);
  });
});

const one = (address: string, size: number, alias = '') => `
resources:
  ${address}: { type: fake:Thing, properties: { name: a, size: ${size} }${alias ? `, options: { aliases: [${alias}] }` : ''} }
`;

describe('what settling concluded, then a rename, then a kill', () => {
  it('an adopted object renamed by its alias is recorded once, at its new address', async () => {
    let lose = true;
    const fake = fakeType({ loseCreateReply: () => lose });
    const store = new MemoryStore();
    await applyFake(one('a', 1), fake, store);
    lose = false;
    const revive = store.dieAfter(store.journal.length + 2);
    await expect(applyFake(one('b', 1, 'a'), fake, store)).rejects.toThrow('killed');
    revive();
    const next = await planFake(one('b', 1, 'a'), fake, store);
    expect(next.diagnostics).toEqual([]);
    expect(Object.keys(next.prior)).toEqual(['b']);
    expect(next.plan.changes.map((c) => [c.address, c.action])).toEqual([['b', 'noop']]);
  });

  it('the object a create-first replacement replaced stays recorded until its delete', async () => {
    let lose = false;
    const fake = fakeType({ loseCreateReply: () => lose });
    const store = new MemoryStore();
    await applyFake(one('a', 1), fake, store);
    lose = true;
    await applyFake(one('a', 2), fake, store);
    expect((await store.read()).pending).toMatchObject([{ address: 'a', id: 'thing-2', replacing: 'thing-1' }]);
    lose = false;
    const revive = store.dieAfter(store.journal.length + 2);
    await expect(applyFake(one('b', 2, 'a'), fake, store)).rejects.toThrow('killed');
    revive();
    const next = await applyFake(one('b', 2, 'a'), fake, store);
    expect(next.report.ok).toBe(true);
    expect(fake.calls.filter((c) => c.verb === 'delete').map((c) => c.id)).toEqual(['thing-1']);
    expect([...fake.objects.keys()]).toEqual(['thing-2']);
    expect(Object.keys((await store.read()).resources)).toEqual(['b']);
  });
});

describe('an object an interrupted update may have moved to another', () => {
  const stack = (users: string, spare = true) => `
resources:
  a: { type: fake:Thing, properties: { name: a } }
${spare ? '  c: { type: fake:Thing, properties: { name: c } }\n' : ''}  b: { type: fake:Thing, properties: { name: b, ref: "\${${users}.uid}" } }
`;

  it('depends on both until an update succeeds: what it may use is deleted only after it has moved off it', async () => {
    let mode: 'apply' | 'lose' | 'refuse' = 'apply';
    const fake = fakeType();
    const update = fake.type.update;
    fake.type.update = async (ctx, id, prior, desired) => {
      if (mode === 'refuse') throw new Error('b cannot move now');
      const outputs = await update(ctx, id, prior, desired);
      if (mode === 'lose') throw new RemoteError('unavailable', `PUT /thing/${id}: connection reset`);
      return outputs;
    };
    const store = new MemoryStore();
    await applyFake(stack('a'), fake, store);
    mode = 'lose';
    await applyFake(stack('c'), fake, store);
    expect((await store.read()).pending).toMatchObject([{ address: 'b', action: 'update' }]);
    // b now uses c, and state cannot tell: the update's answer was lost.
    mode = 'refuse';
    const { plan, report } = await applyFake(stack('a', false), fake, store);
    expect(plan.settled).toEqual(['b: an interrupted update was checked against the remote object thing-3']);
    expect(report.results.find((r) => r.address === 'c')).toMatchObject({ action: 'delete', status: 'skipped', cause: 'b' });
    expect(fake.calls.filter((c) => c.verb === 'delete')).toEqual([]);
    expect((await store.read()).resources.b.dependencies.sort()).toEqual(['a', 'c']);
    mode = 'apply';
    expect((await applyFake(stack('a', false), fake, store)).report.ok).toBe(true);
    expect((await store.read()).resources.b.dependencies).toEqual(['a']);
  });
});
