import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { openStateStore } from '../../src/state/open.js';
import { PostgresStore } from '../../src/state/postgres.js';
import { SecretCodec } from '../../src/state/secrets.js';
import type { StateStore } from '../../src/state/store.js';
import { startPostgres, type PostgresServer } from '../support/postgres.js';
import { describeStateStore } from '../support/state-conformance.js';

const codec = SecretCodec.open('', 'conformance passphrase');
const PASSWORD = 'pw-never-shown-9c1f';
let server: PostgresServer;
let admin: pg.Client;

/** The server's URL with a password in it; trust auth ignores it, so every test also checks it stays hidden. */
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

describeStateStore('postgres', async () => {
  const stack = `conformance-${randomUUID().slice(0, 8)}`;
  const opened: StateStore[] = [];
  const open = () => {
    const store = openStateStore(url(), stack, codec);
    opened.push(store);
    return store;
  };
  return {
    store: open(),
    other: async () => open(),
    async crash() {
      // The holder's connection dies, as it would with its process or machine.
      const holders = await admin.query(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = hashtext($1)::bigint`, [`plumb:${stack}`]);
      expect(holders.rows).toHaveLength(1);
      await admin.query('SELECT pg_terminate_backend($1)', [holders.rows[0].pid]);
      while ((await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [holders.rows[0].pid])).rows.length) await new Promise((r) => setTimeout(r, 20));
    },
    async raw() {
      const { rows } = await admin.query(
        `SELECT coalesce((SELECT snapshot::text FROM plumb_stacks WHERE stack = $1), '') || (SELECT coalesce(string_agg(entry::text, E'\\n'), '') FROM plumb_journal WHERE stack = $1) AS text`,
        [stack],
      );
      return rows[0].text as string;
    },
    async cleanup() {
      for (const store of opened) await store.close();
    },
  };
});

describe('PostgresStore', () => {
  const info = { pid: process.pid, host: hostname(), time: '2024-05-01T10:00:00.000Z', command: 'apply' };

  it('is what openStateStore returns for postgres:// and postgresql:// URLs, shown without its password', async () => {
    for (const scheme of ['postgres', 'postgresql']) {
      const store = openStateStore(url().replace(/^postgres/, scheme), 'dev', codec);
      expect(store).toBeInstanceOf(PostgresStore);
      expect(store.location).toContain(`${scheme}://postgres:***@127.0.0.1:`);
      expect(store.location).not.toContain(PASSWORD);
      await store.close();
    }
  });

  it('keeps the password out of connection errors', async () => {
    const store = openStateStore(`postgres://plumb:${PASSWORD}@127.0.0.1:1/state`, 'dev', codec);
    const err = await store.read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/cannot connect to the PostgreSQL state at postgres:\/\/plumb:\*\*\*@127\.0\.0\.1:1\/state/);
    expect(String(err) + JSON.stringify(err)).not.toContain(PASSWORD);
    await store.close();
  });

  it('refuses a write when another writer moved the serial since the read', async () => {
    const stack = `serial-${randomUUID().slice(0, 8)}`;
    const [a, b] = [new PostgresStore(url(), stack, codec), new PostgresStore(url(), stack, codec)];
    try {
      await a.write(await a.read());
      const [fromA, fromB] = [await a.read(), await b.read()];
      await a.write(fromA);
      await expect(b.write(fromB)).rejects.toThrow(new RegExp(`state for stack "${stack}" was changed by another writer`));
      expect((await b.read()).serial).toBe(2);
      // Journal entries another store recorded after this one's read would be lost by folding.
      const again = await a.read();
      await b.record({ kind: 'outcome', address: 'x.y', resource: null, at: info.time });
      await expect(a.write(again)).rejects.toThrow(/1 journal entries were recorded by another writer/);
      expect((await a.read()).serial).toBe(3);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refuses to record or write after its lock session was terminated', async () => {
    const stack = `lost-${randomUUID().slice(0, 8)}`;
    const [a, b] = [new PostgresStore(url(), stack, codec), new PostgresStore(url(), stack, codec)];
    try {
      await a.lock(info);
      const state = await a.read();
      expect(await b.forceUnlock()).toEqual(info);
      await b.lock({ ...info, command: 'rescue' });
      await expect(a.write(state)).rejects.toThrow(/lock on stack .* was lost/);
      await expect(a.record({ kind: 'outcome', address: 'x.y', resource: null, at: info.time })).rejects.toThrow(/was lost/);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('finds the lock holder in pg_locks whether the stack key hashes negative or positive', async () => {
    const names = ['key-a', 'key-b'];
    const signs = await admin.query("SELECT sign(hashtext('plumb:' || n))::int AS s FROM unnest($1::text[]) n", [names]);
    expect(signs.rows.map((r) => r.s)).toEqual([-1, 1]);
    for (const stack of names) {
      const [a, b] = [new PostgresStore(url(), stack, codec), new PostgresStore(url(), stack, codec)];
      try {
        await a.lock(info);
        expect(await b.forceUnlock()).toEqual(info);
        await b.lock({ ...info, command: 'rescue' });
      } finally {
        await a.close();
        await b.close();
      }
    }
  });

  it('creates its tables once when many stores start together', async () => {
    const stores = Array.from({ length: 6 }, (_, i) => new PostgresStore(url(), `burst-${i}`, codec));
    await Promise.all(stores.map((s) => s.read()));
    const { rows } = await admin.query("SELECT tablename FROM pg_tables WHERE tablename LIKE 'plumb\\_%' ORDER BY 1");
    expect(rows.map((r) => r.tablename)).toEqual(['plumb_journal', 'plumb_locks', 'plumb_stacks']);
    await Promise.all(stores.map((s) => s.close()));
  });
});
