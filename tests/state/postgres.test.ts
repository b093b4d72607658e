import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/kernel/errors.js';
import { openStateStore } from '../../src/state/open.js';
import { PostgresStore } from '../../src/state/postgres.js';
import { SecretCodec } from '../../src/state/secrets.js';
import type { StateStore } from '../../src/state/store.js';
import { Secret } from '../../src/kernel/values.js';
import { crashAfterRecords, plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { postgresForFile } from '../support/postgres.js';
import { describeStateStore } from '../support/state-conformance.js';

const codec = SecretCodec.open('', 'conformance passphrase');
const PASSWORD = 'pw-never-shown-9c1f';
const db = postgresForFile(PASSWORD);
/** The server's URL with a password in it; trust auth ignores it, so every test also checks it stays hidden. */
const url = db.url;

describeStateStore('postgres', async () => {
  const stack = `conformance-${randomUUID().slice(0, 8)}`;
  // Projects of this fixture alone: other tests' stacks share the database.
  const [web, api] = [`web-${stack}`, `api-${stack}`];
  const opened: StateStore[] = [];
  const open = (project = web) => {
    const store = openStateStore(url(), project, stack, codec);
    opened.push(store);
    return store;
  };
  const trigger = `refuse_${stack.replace(/-/g, '_')}`;
  return {
    store: open(),
    other: async () => open(),
    otherProject: async () => open(api),
    async breakJournal() {
      // The server refuses every journal row of this stack from now on.
      await db.admin.query(`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`);
      await db.admin.query(`CREATE TRIGGER ${trigger} BEFORE INSERT ON plumb_journal FOR EACH ROW WHEN (NEW.stack = '${stack}') EXECUTE FUNCTION ${trigger}()`);
    },
    async loseJournal() {
      await db.admin.query('DELETE FROM plumb_journal WHERE project = $1 AND stack = $2', [web, stack]);
    },
    async crash() {
      // The holder's connection dies, as it would with its process or machine.
      const holders = await db.admin.query(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = hashtext($1)::bigint`, [
        `plumb:${web}/${stack}`,
      ]);
      expect(holders.rows).toHaveLength(1);
      await db.admin.query('SELECT pg_terminate_backend($1)', [holders.rows[0].pid]);
      while ((await db.admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [holders.rows[0].pid])).rows.length) await new Promise((r) => setTimeout(r, 20));
    },
    async raw() {
      const { rows } = await db.admin.query(
        `SELECT coalesce((SELECT snapshot::text FROM plumb_stacks WHERE project = $2 AND stack = $1), '') || (SELECT coalesce(string_agg(entry::text, E'\\n'), '') FROM plumb_journal WHERE project = $2 AND stack = $1) AS text`,
        [stack, web],
      );
      return rows[0].text as string;
    },
    async cleanup() {
      for (const store of opened) await store.close();
      await db.admin.query(`DROP TRIGGER IF EXISTS ${trigger} ON plumb_journal`);
      await db.admin.query(`DROP FUNCTION IF EXISTS ${trigger}()`);
    },
  };
});

describe('PostgresStore', () => {
  const info = { pid: process.pid, host: hostname(), time: '2024-05-01T10:00:00.000Z', command: 'apply' };

  it('is what openStateStore returns for postgres:// and postgresql:// URLs, shown without its password', async () => {
    for (const scheme of ['postgres', 'postgresql']) {
      const store = openStateStore(url().replace(/^postgres/, scheme), 'web', 'dev', codec);
      expect(store).toBeInstanceOf(PostgresStore);
      expect(store.location).toContain(`${scheme}://postgres:***@127.0.0.1:`);
      expect(store.location).not.toContain(PASSWORD);
      await store.close();
    }
  });

  it('keeps the password out of connection errors', async () => {
    const store = openStateStore(`postgres://plumb:${PASSWORD}@127.0.0.1:1/state`, 'web', 'dev', codec);
    const err = await store.read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/cannot connect to the PostgreSQL state at postgres:\/\/plumb:\*\*\*@127\.0\.0\.1:1\/state/);
    expect(String(err) + JSON.stringify(err)).not.toContain(PASSWORD);
    await store.close();
  });

  it('refuses a write when another writer moved the serial since the read', async () => {
    const stack = `serial-${randomUUID().slice(0, 8)}`;
    const [a, b] = [new PostgresStore(url(), 'web', stack, codec), new PostgresStore(url(), 'web', stack, codec)];
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

  it('inserts the journal entries recorded together in one transaction, not one commit each', async () => {
    const stack = `grouped-${randomUUID().slice(0, 8)}`;
    const store = new PostgresStore(url(), 'web', stack, codec);
    try {
      await store.record({ kind: 'outcome', address: 'x.first', resource: null, at: info.time });
      // Forty steps answered in the same moment, as an apply of many products has them.
      await Promise.all(Array.from({ length: 40 }, (_, i) => store.record({ kind: 'outcome', address: `x.n${i}`, resource: null, at: info.time })));
      // Each row carries the id of the transaction that inserted it (xmin).
      const { rows } = await db.admin.query(`SELECT count(*)::int AS rows, count(DISTINCT xmin::text)::int AS commits FROM plumb_journal WHERE project = 'web' AND stack = $1`, [stack]);
      expect(rows[0].rows).toBe(41);
      expect(rows[0].commits).toBeLessThanOrEqual(3);
    } finally {
      await store.close();
    }
  });

  it('refuses to record or write after its lock session was terminated', async () => {
    const stack = `lost-${randomUUID().slice(0, 8)}`;
    const [a, b] = [new PostgresStore(url(), 'web', stack, codec), new PostgresStore(url(), 'web', stack, codec)];
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
    const candidates = Array.from({ length: 16 }, (_, i) => `key-${i}`);
    const signs = await db.admin.query("SELECT n, sign(hashtext('plumb:web/' || n))::int AS s FROM unnest($1::text[]) n", [candidates]);
    const names = [-1, 1].map((sign) => signs.rows.find((r) => r.s === sign)?.n as string);
    expect(names.every(Boolean)).toBe(true);
    for (const stack of names) {
      const [a, b] = [new PostgresStore(url(), 'web', stack, codec), new PostgresStore(url(), 'web', stack, codec)];
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

  it('refuses another passphrase, naming the row whose secrets it cannot open', async () => {
    const stack = `keyed-${randomUUID().slice(0, 8)}`;
    const store = new PostgresStore(url(), 'web', stack, codec);
    const stranger = new PostgresStore(url(), 'web', stack, SecretCodec.open('', 'another passphrase'));
    try {
      await store.write({ ...(await store.read()), outputs: { password: new Secret('pg-secret-value-77') } });
      const refused = await stranger.read().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(UserError);
      expect((refused as Error).message).toContain(`cannot read the secrets in the plumb_stacks row of stack "${stack}" of project "web" in postgres://postgres:***@`);
      expect((refused as Error).message).toContain('PLUMB_PASSPHRASE is not the passphrase they were sealed with');
    } finally {
      await store.close();
      await stranger.close();
    }
  });

  it('creates its tables once when many stores start together', async () => {
    const stores = Array.from({ length: 6 }, (_, i) => new PostgresStore(url(), 'web', `burst-${i}`, codec));
    await Promise.all(stores.map((s) => s.read()));
    const { rows } = await db.admin.query("SELECT tablename FROM pg_tables WHERE tablename LIKE 'plumb\\_%' ORDER BY 1");
    expect(rows.map((r) => r.tablename)).toEqual(['plumb_journal', 'plumb_locks', 'plumb_open_journals', 'plumb_stacks']);
    await Promise.all(stores.map((s) => s.close()));
  });
});

describe('the CLI with PostgreSQL state', () => {
  let sandbox: Awaited<ReturnType<typeof testSandbox>>;
  beforeAll(async () => {
    sandbox = await testSandbox();
  });
  afterAll(async () => sandbox.close());

  const PORT_NAME = 'pg-port-name-secret-31c8';
  const manifest = `name: pg-echoes
resources:
  port:
    type: interconnect:Port
    properties:
      productName: { fn::secret: ${PORT_NAME} }
      portSpeed: 1000
      locationId: 2
      contractTermMonths: 1
      marketplaceVisibility: false
`;

  it('seals a secret the API echoes back, in the journal rows and the snapshot row, and plans no change after', async () => {
    const dir = workdir('plumb-pg-echo-');
    writeManifest(dir, 'plumb.yaml', manifest);
    const env = { ...sandbox.env, PLUMB_STATE: url(), PLUMB_PASSPHRASE: 'pg echo passphrase' };
    const rows = async () =>
      (
        await db.admin.query(
          `SELECT coalesce((SELECT string_agg(snapshot::text, '') FROM plumb_stacks WHERE project = 'pg-echoes'), '') || coalesce((SELECT string_agg(entry::text, '') FROM plumb_journal WHERE project = 'pg-echoes'), '') AS text`,
        )
      ).rows[0].text as string;
    // Killed once the port's outcome is journaled, before the snapshot row is written.
    const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...env, ...crashAfterRecords(3) } });
    expect(killed.code).not.toBe(0);
    expect(await rows()).toContain('"interface"');
    expect(await rows()).not.toContain(PORT_NAME);
    const applied = await plumb(['apply', '--yes', '--replace', 'port'], { cwd: dir, env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(await rows()).toContain('"interface"');
    expect(await rows()).not.toContain(PORT_NAME);
    const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
