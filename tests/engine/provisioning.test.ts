/**
 * Objects on their way: a create whose wait runs out, an order an interrupted apply left, an
 * object adopted while it provisions. Each is waited for — never forgotten, never bought again,
 * never replaced for being slow — and only the API's word (failed, or not listed long after the
 * order) says otherwise.
 */
import { describe, expect, it } from 'vitest';
import { applyFake, planFake } from '../support/engine-run.js';
import { fakeClock, fakeType, MemoryStore } from '../support/fakes.js';

const MINUTE = 60_000;
const creates = (fake: ReturnType<typeof fakeType>) => fake.calls.filter((c) => c.verb === 'create').length;

const withUser = (timeout = '') => `
resources:
  a:
    type: fake:Thing
    properties: { name: a }
    ${timeout}
  b: { type: fake:Thing, properties: { name: b, ref: "\${a.uid}" } }
`;

/**
 * A thing applied at `a`, then replaced (a new size) by an order whose answer is lost: the
 * replacement has no id, and the order is on its way. Later applies get their answers.
 */
async function replacementWithoutId() {
  let lose = false;
  const fake = fakeType({ provisionMs: 90_000, listedOnceReady: true, findable: true, loseOrderReply: () => lose });
  const store = new MemoryStore();
  const one = (address: string, size: number, options = '') => `
resources:
  ${address}: { type: fake:Thing, properties: { name: a, size: ${size} }${options} }
`;
  await applyFake(one('a', 1), fake, store);
  lose = true;
  await applyFake(one('a', 2), fake, store);
  lose = false;
  return { fake, store, one };
}

describe('a create whose wait runs out', () => {
  it('keeps the object it ordered, still provisioning; the next apply waits for it, then makes what uses it, and orders nothing again', async () => {
    const fake = fakeType({ provisionMs: MINUTE });
    const store = new MemoryStore();
    const first = await applyFake(withUser('options: { customTimeouts: { create: 3s } }'), fake, store);
    expect(first.report.ok).toBe(false);
    expect(first.report.results.find((r) => r.address === 'a')?.error).toMatch(
      /timed out after 3 s waiting for thing thing-1 to be ready \(last status: PROVISIONING\); thing-1 is recorded as still provisioning, and the next apply waits for it/,
    );
    expect((await store.read()).resources.a).toMatchObject({ id: 'thing-1', status: 'provisioning', orderedAt: expect.any(String) });

    const planned = await planFake(withUser(), fake, store);
    expect(planned.plan.changes.map((c) => [c.address, c.action, c.awaits])).toEqual([
      ['a', 'noop', 'provisioning'],
      ['b', 'create', undefined],
    ]);
    expect(planned.plan.summary).toMatchObject({ add: 1, wait: 1 });
    const second = await applyFake(withUser(), fake, store);
    expect(second.report.ok).toBe(true);
    expect(second.events.filter((e) => e.type === 'step-done').map((e) => `${e.address} ${'action' in e ? e.action : ''}`)).toEqual(['a wait', 'b create']);
    expect((await store.read()).resources.a).toMatchObject({ id: 'thing-1', status: 'ok', outputs: { state: 'READY' } });
    expect((await store.read()).resources.a.orderedAt).toBeUndefined();
    expect(creates(fake)).toBe(2);
  });
});

describe('an interrupted create whose object the API lists only once provisioned', () => {
  it('with the id the API gave: is recorded, waited for until listed, and never bought again', async () => {
    let lose = true;
    const fake = fakeType({ provisionMs: 90_000, listedOnceReady: true, loseCreateReply: () => lose });
    const store = new MemoryStore();
    await applyFake(withUser(), fake, store);
    expect((await store.read()).pending).toMatchObject([{ address: 'a', id: 'thing-1' }]);

    lose = false;
    const next = await applyFake(withUser(), fake, store);
    expect(next.plan.settled).toEqual(['a: an interrupted create had ordered thing-1, and it is not listed yet (it is listed once provisioned): apply waits for it, and orders nothing more']);
    expect(next.plan.changes.find((c) => c.address === 'a')).toMatchObject({ action: 'noop', awaits: 'provisioning' });
    expect(next.report.ok).toBe(true);
    expect(creates(fake)).toBe(2);
    expect([...fake.objects.keys()].sort()).toEqual(['thing-1', 'thing-2']);
    expect((await store.read()).resources.a).toMatchObject({ id: 'thing-1', status: 'ok' });
  });

  it('without an id: apply looks for it until it is listed, adopts it, and orders nothing', async () => {
    let lose = true;
    const fake = fakeType({ provisionMs: 90_000, listedOnceReady: true, findable: true, loseOrderReply: () => lose });
    const store = new MemoryStore();
    await applyFake(withUser(), fake, store);
    expect((await store.read()).pending).toMatchObject([{ address: 'a', action: 'create' }]);
    expect((await store.read()).pending[0].id).toBeUndefined();

    lose = false;
    const next = await applyFake(withUser(), fake, store);
    expect(next.plan.changes.find((c) => c.address === 'a')).toMatchObject({ action: 'create', awaits: 'order' });
    expect(next.plan.settled[0]).toMatch(/^a: a create interrupted at .* may have ordered an object that is not listed yet/);
    expect(next.report.ok).toBe(true);
    expect(creates(fake)).toBe(2);
    expect((await store.read()).resources.a).toMatchObject({ id: 'thing-1', status: 'ok' });
    expect((await store.read()).pending).toEqual([]);
  });

  it('without an id, renamed by its alias meanwhile: apply looks for it at its new address, adopts it there, and orders nothing', async () => {
    let lose = true;
    const fake = fakeType({ provisionMs: 90_000, listedOnceReady: true, findable: true, loseOrderReply: () => lose });
    const store = new MemoryStore();
    await applyFake(withUser(), fake, store);
    lose = false;
    const renamed = withUser().replace('  a:\n', '  a2:\n    options: { aliases: [a] }\n').replace('${a.uid}', '${a2.uid}');
    const next = await applyFake(renamed, fake, store);
    expect(next.plan.changes.find((c) => c.address === 'a2')).toMatchObject({ action: 'create', awaits: 'order' });
    expect(next.report.ok).toBe(true);
    expect(creates(fake)).toBe(2);
    expect(Object.keys((await store.read()).resources).sort()).toEqual(['a2', 'b']);
    expect((await store.read()).resources.a2).toMatchObject({ id: 'thing-1', status: 'ok' });
    expect((await store.read()).pending).toEqual([]);
  });

  it('a replacement without an id, renamed by its alias meanwhile: the same, and the object it replaces goes', async () => {
    const { fake, store, one } = await replacementWithoutId();
    expect((await store.read()).pending).toMatchObject([{ address: 'a', action: 'create', replacing: 'thing-1' }]);
    const next = await applyFake(one('a2', 2, ', options: { aliases: [a] }'), fake, store);
    expect(next.plan.changes.find((c) => c.address === 'a2')).toMatchObject({ action: 'replace', movedFrom: 'a', awaits: 'order' });
    expect(next.report.ok).toBe(true);
    expect(creates(fake)).toBe(2);
    expect([...fake.objects.keys()]).toEqual(['thing-2']);
    expect(Object.keys((await store.read()).resources)).toEqual(['a2']);
  });

  it('a replacement without an id, renamed by its alias, then a kill once the move is journaled: the next apply still finds it', async () => {
    const { fake, store, one } = await replacementWithoutId();
    // The process dies once the move is journaled: nothing more is recorded, not even the snapshot.
    const revive = store.dieAfter((entry) => entry.kind === 'outcome' && entry.address === 'a2');
    await expect(applyFake(one('a2', 2, ', options: { aliases: [a] }'), fake, store)).rejects.toThrow('killed');
    revive();
    const next = await applyFake(one('a2', 2, ', options: { aliases: [a] }'), fake, store);
    expect(next.report.ok).toBe(true);
    expect(creates(fake)).toBe(2);
    expect([...fake.objects.keys()]).toEqual(['thing-2']);
    expect(Object.keys((await store.read()).resources)).toEqual(['a2']);
  });

  it('a replacement without an id, renamed by its alias, then a kill once it is journaled at its new address: adopted there once listed', async () => {
    const { fake, store, one } = await replacementWithoutId();
    // The process dies once the interrupted create is journaled at its new address, before the move.
    const revive = store.dieAfter((entry) => entry.kind === 'intent' && entry.address === 'a2');
    await expect(applyFake(one('a2', 2, ', options: { aliases: [a] }'), fake, store)).rejects.toThrow('killed');
    revive();
    fake.clock.advance(90_000);
    const next = await applyFake(one('a2', 2, ', options: { aliases: [a] }'), fake, store);
    expect(next.plan.settled).toEqual(['a2: an interrupted create had ordered thing-2; it is adopted, and thing-1, which it replaces, is set aside for deletion']);
    expect(next.report.ok).toBe(true);
    expect(creates(fake)).toBe(2);
    expect([...fake.objects.keys()]).toEqual(['thing-2']);
    expect(Object.keys((await store.read()).resources)).toEqual(['a2']);
  });

  it('found once listed, failed: the create fails, saying so, and the next plan replaces it', async () => {
    let lose = true;
    const fake = fakeType({ provisionMs: 90_000, listedOnceReady: true, findable: true, loseOrderReply: () => lose, failProvisioning: () => true });
    const store = new MemoryStore();
    await applyFake(withUser(), fake, store);
    lose = false;
    const next = await applyFake(withUser(), fake, store);
    expect(next.report.ok).toBe(false);
    expect(next.report.results.find((r) => r.address === 'a')).toMatchObject({
      action: 'create',
      status: 'failed',
      error: expect.stringMatching(/the API reports thing-1 FAILED: its provisioning failed, and the next apply replaces it$/),
    });
    expect(next.events.some((e) => e.type === 'step-done' && e.address === 'a')).toBe(false);
    expect((await store.read()).resources.a).toMatchObject({ id: 'thing-1', status: 'tainted' });
    expect(creates(fake)).toBe(1);
    const replaced = await planFake(withUser(), fake, store);
    expect(replaced.plan.changes.find((c) => c.address === 'a')).toMatchObject({ action: 'replace', reason: 'tainted' });
  });

  it('still not listed long after its order: the order made nothing, and the address is ordered anew', async () => {
    let lose = true;
    const fake = fakeType({ provisionMs: 90_000, listedOnceReady: true, loseCreateReply: () => lose });
    const store = new MemoryStore();
    await applyFake(withUser(), fake, store);
    lose = false;
    // The API dropped the order: it never lists it.
    fake.objects.delete('thing-1');
    fake.clock.advance(10 * 90_000);
    const next = await applyFake(withUser(), fake, store);
    expect(next.plan.settled).toEqual(['a: an interrupted create left nothing behind; it will be created']);
    expect(next.report.ok).toBe(true);
    expect((await store.read()).resources.a.id).toBe('thing-2');
  });
});

describe('an object adopted while it provisions', () => {
  it('is waited for, not tainted; one the API reports failed is tainted and replaced', async () => {
    let lose = true;
    let fail = false;
    const fake = fakeType({ provisionMs: MINUTE, loseCreateReply: () => lose, failProvisioning: () => fail });
    const store = new MemoryStore();
    await applyFake(withUser(), fake, store);
    lose = false;
    const next = await applyFake(withUser(), fake, store);
    expect(next.plan.settled).toEqual(['a: an interrupted create had ordered thing-1; it is adopted, still provisioning: apply waits for it']);
    expect(next.report.ok).toBe(true);
    expect(creates(fake)).toBe(2);

    const store2 = new MemoryStore();
    const failing = fakeType({ provisionMs: MINUTE, loseCreateReply: () => lose, failProvisioning: () => fail, clock: fakeClock() });
    lose = true;
    fail = true;
    await applyFake(withUser(), failing, store2);
    lose = false;
    failing.clock.advance(MINUTE);
    const replaced = await planFake(withUser(), failing, store2);
    expect(replaced.plan.settled).toEqual(['a: an interrupted create had ordered thing-1; it is adopted, and the API reports it failed: it will be replaced']);
    expect(replaced.plan.changes.find((c) => c.address === 'a')).toMatchObject({ action: 'replace', reason: 'tainted' });
  });

  it('is deleted once listed, never left behind unlisted', async () => {
    let lose = true;
    const fake = fakeType({ provisionMs: 90_000, listedOnceReady: true, loseCreateReply: () => lose });
    const store = new MemoryStore();
    await applyFake(withUser(), fake, store);
    lose = false;
    const gone = await applyFake(withUser(), fake, store, { destroy: true });
    expect(gone.report.ok).toBe(true);
    expect(fake.calls.filter((c) => c.verb === 'delete').map((c) => c.id)).toEqual(['thing-1']);
    expect(fake.objects.size).toBe(0);
  });
});
