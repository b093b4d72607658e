import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/kernel/errors.js';
import type { StateStore } from '../../src/state/store.js';
import type { JournalEntry, LockInfo, ResourceState, StateSnapshot } from '../../src/engine/contracts/state.js';
import { noteSecretText } from '../../src/kernel/secret-mask.js';
import { Secret } from '../../src/kernel/values.js';

/** One backend instance under test, on a stack of its own. */
export interface StoreFixture {
  store: StateStore;
  /** Another store on the same stack and location, as a second machine would open it. */
  other: () => Promise<StateStore>;
  /** A store of another project (another manifest's name) for the same stack name and location. */
  otherProject: () => Promise<StateStore>;
  /** Makes every journal append of `store`'s stack fail from now on, as a full disk or a refusing server would. */
  breakJournal: () => Promise<void>;
  /** Deletes the stack's journal and nothing else (the file, the rows), as someone tidying up after a kill would. */
  loseJournal: () => Promise<void>;
  /** Kills whoever holds `store`'s lock the way a crash would (dead pid, dropped connection). */
  crash?: () => Promise<void>;
  /** Everything the backend has stored for the stack, as text, to look for plaintext secrets. */
  raw: () => Promise<string>;
  cleanup: () => Promise<void>;
}

/** The contract every StateStore must meet (STYLE rule 15): each backend's test file calls this once. */
export function describeStateStore(name: string, make: () => Promise<StoreFixture>): void {
  describe(`StateStore conformance: ${name}`, () => {
    let fixture: StoreFixture | undefined;
    const open = async () => (fixture = await make());
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });

    it('reads an empty stack at serial 0 with no lineage yet', async () => {
      const { store } = await open();
      const state = await store.read();
      expect(state).toMatchObject({ version: 1, lineage: '', serial: 0, resources: {}, outputs: {}, pending: [] });
      expect(await store.stacks()).not.toContain(state.stack);
    });

    it('reads back a write with the serial bumped, a lineage given by the first write and kept after', async () => {
      const { store, other } = await open();
      const state = await store.read();
      await store.write({ ...state, resources: { 'thing.a': thing('a', 'id-a') }, outputs: { url: 'https://a' } });
      const back = await (await other()).read();
      expect(back).toMatchObject({ serial: 1, resources: { 'thing.a': thing('a', 'id-a') }, outputs: { url: 'https://a' } });
      expect(back.lineage).toMatch(/\S{8,}/);
      await store.write(await store.read());
      expect(await (await other()).read()).toMatchObject({ lineage: back.lineage, serial: 2 });
      expect(await store.stacks()).toContain(state.stack);
    });

    it('replays recorded journal entries on read: outcomes count, intents without outcome stay pending', async () => {
      const { store, other } = await open();
      const base = await store.read();
      for (const entry of journal()) await store.record(entry);
      // Another store sees them: record resolved only after the entry was durably stored.
      const state = await (await other()).read();
      expect(state.serial).toBe(base.serial + 2);
      expect(Object.keys(state.resources).sort()).toEqual(['thing.a', 'thing.b']);
      expect(state.pending).toEqual([{ address: 'thing.c', type: 'fake:Thing', action: 'create', token: 't-c', id: 'id-c', at: AT }]);
    });

    it('keeps entries in call order when the caller does not wait for one before recording the next', async () => {
      const { store, other } = await open();
      // Made, deleted, made again...: only the order of the entries says which object is left.
      const entries: JournalEntry[] = Array.from({ length: 21 }, (_, i) => ({ kind: 'outcome', address: 'thing.a', token: `t-${i}`, resource: i % 2 ? null : thing('a', `id-${i}`), at: AT }));
      await Promise.all(entries.map((entry) => store.record(entry)));
      expect((await (await other()).read()).resources['thing.a']?.id).toBe('id-20');
    });

    it('folds the journal into the snapshot on write', async () => {
      const { store } = await open();
      for (const entry of journal().slice(0, 2)) await store.record(entry);
      const state = await store.read();
      const serial = state.serial;
      expect(serial).toBe(1);
      await store.write(state);
      const again = await store.read();
      // Had the journal survived the write, its outcome would be counted a second time.
      expect(again.serial).toBe(serial + 1);
      expect(again.resources).toEqual(state.resources);
      await store.record({ kind: 'outcome', address: 'thing.a', token: 't-a2', resource: null, at: AT });
      expect(await store.read()).toMatchObject({ serial: again.serial + 1, resources: {} });
    });

    it('refuses a second holder the lock, naming the first, until it is unlocked', async () => {
      const { store, other } = await open();
      const stack = (await store.read()).stack;
      const second = await other();
      await store.lock(holder('apply'));
      const refused = await second.lock(holder('destroy')).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(UserError);
      const h = holder('apply');
      expect((refused as Error).message).toBe(`state for stack "${stack}" is locked by pid ${h.pid} on ${h.host} since ${h.time} (apply)`);
      await store.unlock();
      await second.lock(holder('destroy'));
      await expect(store.lock(holder('apply'))).rejects.toThrow(/\(destroy\)/);
      await second.unlock();
    });

    it('grants the lock to exactly one of two stores racing for it', async () => {
      const { store, other } = await open();
      const results = await Promise.allSettled([store.lock(holder('a')), (await other()).lock(holder('b'))]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    });

    it('waits up to the lock timeout for a release', async () => {
      const { store, other } = await open();
      const second = await other();
      await store.lock(holder('apply'));
      let started = Date.now();
      await expect(second.lock(holder('plan'), 300)).rejects.toThrow(/is locked by/);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      setTimeout(() => void store.unlock(), 300);
      started = Date.now();
      await second.lock(holder('plan'), 10_000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      await second.unlock();
    });

    it('releases the lock of a holder that crashed', async (ctx) => {
      const { store, other, crash } = await open();
      if (!crash) return ctx.skip();
      await store.lock(holder('apply'));
      await crash();
      const second = await other();
      await second.lock(holder('apply again'), 2_000);
      await second.unlock();
    });

    it('force-unlock returns the holder and frees the stack', async () => {
      const { store, other } = await open();
      const second = await other();
      expect(await second.forceUnlock()).toBeUndefined();
      await store.lock(holder('apply'));
      expect(await second.forceUnlock()).toEqual(holder('apply'));
      await second.lock(holder('rescue'));
      await second.unlock();
    });

    it("keeps each project's state of a stack apart, and lists only its own stacks", async () => {
      const { store, other, otherProject } = await open();
      const stack = (await store.read()).stack;
      await store.write({ ...(await store.read()), resources: { 'thing.a': thing('a', 'id-a') } });
      const elsewhere = await otherProject();
      expect(await elsewhere.read()).toMatchObject({ stack, serial: 0, resources: {} });
      expect(await elsewhere.stacks()).toEqual([]);
      await elsewhere.record({ kind: 'outcome', address: 'thing.b', resource: thing('b', 'id-b'), at: AT });
      expect(Object.keys((await (await other()).read()).resources)).toEqual(['thing.a']);
      expect(Object.keys((await elsewhere.read()).resources)).toEqual(['thing.b']);
      expect(await store.stacks()).toEqual([stack]);
      // Each project's stack has a lock of its own.
      await store.lock(holder('apply'));
      await elsewhere.lock(holder('apply elsewhere'));
      await elsewhere.unlock();
      await store.unlock();
    });

    it('records the project in what it writes', async () => {
      const { store, other, raw } = await open();
      await store.write(await store.read());
      const project = (await (await other()).read()).project!;
      expect(project).toMatch(/\S/);
      expect(await raw()).toMatch(new RegExp(`"project": ?"${project}"`));
    });

    it('rejects a record whose journal write fails, and keeps the entries recorded before it', async () => {
      const { store, other, breakJournal } = await open();
      await store.record(journal()[0]);
      await breakJournal();
      await expect(store.record(journal()[1])).rejects.toThrow();
      expect((await (await other()).read()).pending.map((p) => p.address)).toEqual(['thing.a']);
    });

    it('refuses to read a stack whose journal an interrupted apply began is lost, until the loss is accepted, then watches the next journal', async () => {
      const { store, other, loseJournal } = await open();
      await store.write({ ...(await store.read()), resources: { 'thing.a': thing('a', 'id-a') } });
      const before = await store.read();
      // Killed once b was made and c was ordered: nothing after c's id reaches the journal.
      for (const entry of journal().slice(2, 6)) await store.record(entry);
      await loseJournal();
      for (const reader of [store, await other()]) {
        const refused = await reader.read().catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(UserError);
        expect((refused as UserError).message).toMatch(/: the apply that opened it was interrupted, and what it ordered may be recorded nowhere$/);
        expect((refused as UserError).hint).toContain('`plumb state repair --accept-lost-journal`');
        expect((refused as UserError).hint).toContain('`plumb import --discover TYPE`');
      }
      const accepted = await (await other()).acceptLoss('journal');
      expect(accepted).toMatchObject({ lost: expect.stringMatching(/journal/), forgotten: [] });
      const after = await (await other()).read();
      expect(after).toMatchObject({ lineage: before.lineage, resources: { 'thing.a': thing('a', 'id-a') }, pending: [] });
      // A new serial: a plan saved before the loss is stale.
      expect(after.serial).toBeGreaterThan(before.serial);
      await expect((await other()).acceptLoss('journal')).rejects.toThrow(/^no lost journal to accept: /);

      const next = await other();
      await next.read();
      await next.record(journal()[0]);
      await loseJournal();
      await expect((await other()).read()).rejects.toThrow(/may be recorded nowhere/);
    });

    it('does not take a journal a snapshot holds, nor a stack never applied, for a lost one', async () => {
      const { store, other, loseJournal } = await open();
      await expect(store.acceptLoss('journal')).rejects.toThrow(/^no lost journal to accept: /);
      await expect(store.acceptLoss('snapshot')).rejects.toThrow(/^no lost state to accept: /);
      for (const entry of journal()) await store.record(entry);
      await store.write(await store.read());
      await loseJournal();
      expect(Object.keys((await (await other()).read()).resources).sort()).toEqual(['thing.a', 'thing.b']);
    });

    it('seals any string holding the text of a secret the process holds, in the journal and the snapshot', async () => {
      const { store, other, raw } = await open();
      const secret = 'echoed-secret-name-5e1f';
      noteSecretText(secret);
      const echoed: ResourceState = {
        ...thing('e', 'id-e'),
        inputs: { name: new Secret(secret) },
        outputs: { name: new Secret(secret), resources: { interface: { name: `${secret} (port)` } }, aEndCurrent: [{ productName: secret }] },
      };
      await store.record({ kind: 'outcome', address: 'thing.e', token: 't-e', resource: echoed, at: AT });
      expect(await raw()).not.toContain(secret);
      await store.write({ ...(await store.read()), outputs: { label: `named ${secret}` } });
      expect(await raw()).not.toContain(secret);
      const back = await (await other()).read();
      const outputs = back.resources['thing.e'].outputs as { resources: { interface: { name: Secret } }; aEndCurrent: Array<{ productName: Secret }> };
      expect(outputs.resources.interface.name).toBeInstanceOf(Secret);
      expect(outputs.resources.interface.name.value).toBe(`${secret} (port)`);
      expect(outputs.aEndCurrent[0].productName.value).toBe(secret);
      expect((back.outputs.label as Secret).value).toBe(`named ${secret}`);
      expect(back.resources['thing.e'].id).toBe('id-e');
    });

    it('round-trips secrets and never stores their plaintext', async () => {
      const { store, other, raw } = await open();
      const plain = 'hunter2-do-not-store';
      const secretThing: ResourceState = { ...thing('s', 'id-s'), outputs: { key: new Secret(plain), nested: { list: [new Secret({ pin: 'pin-code-4711' })] } } };
      await store.record({ kind: 'outcome', address: 'thing.s', token: 't-s', resource: secretThing, at: AT });
      expect(await raw()).not.toContain(plain);
      checkSecrets(await (await other()).read());
      await store.write({ ...(await store.read()), outputs: { password: new Secret(plain) } });
      const stored = await raw();
      expect(stored).not.toContain(plain);
      expect(stored).not.toContain('pin-code-4711');
      const back = await (await other()).read();
      checkSecrets(back);
      expect(back.outputs.password).toBeInstanceOf(Secret);
      expect((back.outputs.password as Secret).value).toBe(plain);

      function checkSecrets(s: StateSnapshot): void {
        const outputs = s.resources['thing.s'].outputs as { key: Secret; nested: { list: Secret[] } };
        expect(outputs.key).toBeInstanceOf(Secret);
        expect(outputs.key.value).toBe(plain);
        expect(outputs.nested.list[0]).toBeInstanceOf(Secret);
        expect(outputs.nested.list[0].value).toEqual({ pin: 'pin-code-4711' });
      }
    });
  });
}

const AT = '2024-05-01T10:00:00.000Z';

/** A lock holder that is alive on this host (a local lock with a dead pid counts as stale). */
function holder(command: string): LockInfo {
  return { pid: process.pid, host: hostname(), time: AT, command };
}

function thing(name: string, id: string): ResourceState {
  return { address: `thing.${name}`, type: 'fake:Thing', id, inputs: { name }, outputs: { name, uid: id }, dependencies: [], status: 'ok' };
}

/** Two created resources, one create interrupted after its id was known, one failed create. */
function journal(): JournalEntry[] {
  return [
    { kind: 'intent', address: 'thing.a', type: 'fake:Thing', action: 'create', token: 't-a', at: AT },
    { kind: 'outcome', address: 'thing.a', token: 't-a', resource: thing('a', 'id-a'), at: AT },
    { kind: 'intent', address: 'thing.b', type: 'fake:Thing', action: 'create', token: 't-b', at: AT },
    { kind: 'outcome', address: 'thing.b', token: 't-b', resource: thing('b', 'id-b'), at: AT },
    { kind: 'intent', address: 'thing.c', type: 'fake:Thing', action: 'create', token: 't-c', at: AT },
    { kind: 'id', address: 'thing.c', token: 't-c', id: 'id-c', at: AT },
    { kind: 'intent', address: 'thing.d', type: 'fake:Thing', action: 'create', token: 't-d', at: AT },
    { kind: 'failed', address: 'thing.d', token: 't-d', at: AT },
  ];
}
