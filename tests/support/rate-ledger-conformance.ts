/**
 * The contract every RateLedger meets (STYLE rule 15), run against each implementation: the
 * process's own, the machine's file and the database's row. Windows are real and short, or long
 * enough that nothing leaves them during a test; what is asserted is tickets and counts, and waits
 * only as bounds a window sets (never how long anything took).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { RateLedger, RateWindow } from '../../src/providers/rate-window.js';

/** One ledger under test, and a second one on the same store, as another process (or machine) would open it. */
export interface LedgerFixture {
  ledger: RateLedger;
  other: () => RateLedger;
  cleanup?: () => Promise<void>;
}

const MINUTE: RateWindow = { limit: 3, windowMs: 60_000 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The contract, for the ledgers `make` opens (each test gets its own keys, so fixtures may share a store). */
export function describeRateLedger(name: string, make: () => Promise<LedgerFixture>): void {
  describe(`RateLedger conformance: ${name}`, () => {
    let fixture: LedgerFixture | undefined;
    const opened: RateLedger[] = [];
    const open = async () => {
      fixture = await make();
      const other = fixture.other;
      opened.push(fixture.ledger);
      return {
        ledger: fixture.ledger,
        other: () => {
          const ledger = other();
          opened.push(ledger);
          return ledger;
        },
      };
    };
    const key = () => `test ${randomUUID()}`;
    afterEach(async () => {
      for (const ledger of opened.splice(0)) await ledger.close();
      await fixture?.cleanup?.();
      fixture = undefined;
    });

    it('gives tickets while the window has room, and none beyond it, saying how long until a slot frees', async () => {
      const { ledger } = await open();
      const k = key();
      const first = await ledger.take(k, MINUTE, 2, []);
      expect(first).toMatchObject({ used: 2, waitMs: 0 });
      expect(first.tickets).toHaveLength(2);
      const second = await ledger.take(k, MINUTE, 2, []);
      expect(second.tickets).toHaveLength(1);
      expect(second.used).toBe(3);
      // Three calls in flight, none answered: a slot frees a window after one is answered, at the soonest.
      expect(second.waitMs).toBeGreaterThanOrEqual(MINUTE.windowMs);
      const none = await ledger.take(k, MINUTE, 1, []);
      expect(none.tickets).toEqual([]);
      expect(new Set([...first.tickets, ...second.tickets]).size).toBe(3);
    });

    it('waits for the oldest answered call to leave the window, not for the whole window', async () => {
      const { ledger } = await open();
      const k = key();
      const window = { limit: 2, windowMs: 10_000 };
      const [older] = (await ledger.take(k, window, 1, [])).tickets;
      await ledger.answered(k, [older!]);
      await sleep(1500);
      const [newer] = (await ledger.take(k, window, 1, [])).tickets;
      await ledger.answered(k, [newer!]);
      const refused = await ledger.take(k, window, 1, []);
      expect(refused.tickets).toEqual([]);
      expect(refused.used).toBe(2);
      // The older call leaves the window 10 s after its answer, 1.5 s of which have passed.
      expect(refused.waitMs).toBeGreaterThan(0);
      expect(refused.waitMs).toBeLessThanOrEqual(window.windowMs - 1000);
    });

    it('counts an answered call from its answer, however long it was in flight, and drops it a window later', async () => {
      const { ledger } = await open();
      const k = key();
      const window = { limit: 2, windowMs: 1000 };
      const { tickets } = await ledger.take(k, window, 2, []);
      await sleep(1200);
      // Taken over a window ago, answered now: both still count.
      const grant = await ledger.take(k, window, 1, tickets);
      expect(grant).toMatchObject({ tickets: [], used: 2 });
      expect(grant.waitMs).toBeGreaterThan(0);
      expect(grant.waitMs).toBeLessThanOrEqual(window.windowMs + 100);
      await sleep(1200);
      expect(await ledger.room(k, window)).toEqual({ used: 0, waitMs: 0 });
      expect((await ledger.take(k, window, 2, [])).tickets).toHaveLength(2);
    });

    it('adds the calls a quota header counts and it does not know of, and never forgets its own for a lower count', async () => {
      const { ledger } = await open();
      const k = key();
      const window = { limit: 10, windowMs: 60_000 };
      await ledger.take(k, window, 1, []);
      await ledger.counted(k, window, 6);
      expect((await ledger.room(k, window)).used).toBe(6);
      await ledger.counted(k, window, 2);
      expect((await ledger.room(k, window)).used).toBe(6);
      expect((await ledger.take(k, window, 10, [])).tickets).toHaveLength(4);
    });

    it('gives no ticket to anyone while paused, and says how long the pause has left', async () => {
      const { ledger, other } = await open();
      const k = key();
      await ledger.pause(k, 30_000);
      const grant = await other().take(k, MINUTE, 1, []);
      expect(grant.tickets).toEqual([]);
      expect(grant.waitMs).toBeGreaterThan(25_000);
      expect(grant.waitMs).toBeLessThanOrEqual(30_000);
      expect((await ledger.room(k, MINUTE)).waitMs).toBeGreaterThan(25_000);
      // A shorter pause does not cut a longer one short.
      await other().pause(k, 10);
      await sleep(50);
      expect((await ledger.take(k, MINUTE, 1, [])).tickets).toEqual([]);
    });

    it('says how long until the window has room for a number of calls, taking none', async () => {
      const { ledger } = await open();
      const k = key();
      const window = { limit: 5, windowMs: 60_000 };
      const { tickets } = await ledger.take(k, window, 3, []);
      await ledger.answered(k, tickets);
      expect(await ledger.room(k, window, 2)).toEqual({ used: 3, waitMs: 0 });
      const three = await ledger.room(k, window, 3);
      expect(three.used).toBe(3);
      expect(three.waitMs).toBeGreaterThan(window.windowMs - 5000);
      expect(three.waitMs).toBeLessThanOrEqual(window.windowMs + 100);
      expect((await ledger.take(k, window, 5, [])).tickets).toHaveLength(2);
    });

    it('shares one window between two ledgers on one store, each seeing the calls of the other', async () => {
      const { ledger, other } = await open();
      const k = key();
      const second = other();
      expect((await ledger.take(k, MINUTE, 2, [])).tickets).toHaveLength(2);
      const theirs = await second.take(k, MINUTE, 2, []);
      expect(theirs).toMatchObject({ used: 3 });
      expect(theirs.tickets).toHaveLength(1);
      await second.answered(k, theirs.tickets);
      expect((await ledger.room(k, MINUTE)).used).toBe(3);
      expect((await ledger.take(k, MINUTE, 1, [])).tickets).toEqual([]);
    });

    it('never gives two ledgers racing for one window more tickets together than its limit', async () => {
      const { ledger, other } = await open();
      const k = key();
      const window = { limit: 500, windowMs: 60_000 };
      const second = other();
      const race = (l: RateLedger) => Promise.all(Array.from({ length: 300 }, () => l.take(k, window, 1, [])));
      const grants = (await Promise.all([race(ledger), race(second)])).flat();
      const tickets = grants.flatMap((g) => g.tickets);
      expect(tickets).toHaveLength(500);
      expect(new Set(tickets).size).toBe(500);
      expect(grants.filter((g) => !g.tickets.length)).toHaveLength(100);
      expect((await ledger.room(k, window)).used).toBe(500);
    });
  });
}
