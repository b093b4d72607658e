/**
 * The rate ledger in PostgreSQL meets the RateLedger contract, two ledgers on one database being
 * two machines; it connects only when used, and names the database without its password.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PostgresLedger } from '../../src/state/postgres-rate-ledger.js';
import { startPostgres, type PostgresServer } from '../support/postgres.js';
import { describeRateLedger } from '../support/rate-ledger-conformance.js';

const PASSWORD = 'pw-never-shown-5e2a';
let server: PostgresServer;
let admin: pg.Client;

/** The server's URL with a password in it; trust auth ignores it, so the tests also check it stays hidden. */
const url = () => server.url.replace('postgres@', `postgres:${PASSWORD}@`);

beforeAll(async () => {
  server = await startPostgres();
  admin = new pg.Client(server.url);
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

describeRateLedger('postgres', async () => ({ ledger: new PostgresLedger(url()), other: () => new PostgresLedger(url()) }));

describe('PostgresLedger', () => {
  /** Sessions the ledger holds open now. */
  const sessions = async () => Number((await admin.query("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'plumb rate ledger'")).rows[0].n);

  /** Sessions once those being ended have gone (the server ends a closed session a moment after the client). */
  const settled = async () => {
    for (let i = 0; i < 100 && (await sessions()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    return sessions();
  };

  it('connects on its first use only, and ends its connections on close', async () => {
    expect(await settled()).toBe(0);
    const unused = new PostgresLedger(url());
    const ledger = new PostgresLedger(url());
    await ledger.room('lazy key', { limit: 5, windowMs: 1000 });
    expect(await sessions()).toBe(1);
    await Promise.all([ledger.take('lazy key', { limit: 5, windowMs: 1000 }, 1, []), ledger.take('lazy key', { limit: 5, windowMs: 1000 }, 1, [])]);
    expect(await sessions()).toBeLessThanOrEqual(2);
    await unused.close();
    await ledger.close();
    expect(await settled()).toBe(0);
  });

  it('keeps one row per key, the key as given', async () => {
    const ledger = new PostgresLedger(url());
    try {
      await ledger.take('interconnect api.example per address', { limit: 5, windowMs: 1000 }, 2, []);
      await ledger.take('interconnect api.example per address', { limit: 5, windowMs: 1000 }, 1, []);
      const { rows } = await admin.query("SELECT data FROM plumb_rate_ledger WHERE key = 'interconnect api.example per address'");
      expect(rows).toHaveLength(1);
      expect(Object.keys(rows[0].data.inFlight)).toHaveLength(3);
    } finally {
      await ledger.close();
    }
  });

  it("counts by the database's clock, whatever this machine's says", async () => {
    const ledger = new PostgresLedger(url());
    // This machine's clock twenty years behind: the calls are still counted at the server's time.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2006-01-01T00:00:00Z') });
    try {
      await ledger.take('clock key', { limit: 5, windowMs: 60_000 }, 1, []);
    } finally {
      vi.useRealTimers();
      await ledger.close();
    }
    const { rows } = await admin.query("SELECT data, (extract(epoch from clock_timestamp()) * 1000)::float8 AS now FROM plumb_rate_ledger WHERE key = 'clock key'");
    const [started] = Object.values(rows[0].data.inFlight as Record<string, number>);
    expect(rows[0].now - started!).toBeGreaterThanOrEqual(0);
    expect(rows[0].now - started!).toBeLessThan(60_000);
  });

  it('starts a row that holds something else afresh, saying so', async () => {
    await admin.query(`INSERT INTO plumb_rate_ledger (key, data) VALUES ('broken key', '{"calls": 3}') ON CONFLICT (key) DO UPDATE SET data = EXCLUDED.data`);
    const warnings: string[] = [];
    const ledger = new PostgresLedger(url(), (m) => warnings.push(m));
    try {
      expect((await ledger.take('broken key', { limit: 5, windowMs: 1000 }, 2, [])).tickets).toHaveLength(2);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/rate ledger row "broken key" in postgres:\/\/postgres:\*\*\*@.* was not a rate ledger/);
    } finally {
      await ledger.close();
    }
  });

  it('names the database without its password, also when it cannot be reached', async () => {
    const ledger = new PostgresLedger(`postgres://plumb:${PASSWORD}@127.0.0.1:1/ledger`);
    expect(ledger.where).toBe('postgres://plumb:***@127.0.0.1:1/ledger');
    const failed = await ledger.take('k', { limit: 5, windowMs: 1000 }, 1, []).catch((err: Error) => err);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).not.toContain(PASSWORD);
    await ledger.close();
  });
});
