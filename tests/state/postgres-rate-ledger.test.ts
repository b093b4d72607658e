/**
 * The rate ledger in PostgreSQL meets the RateLedger contract, two ledgers on one database being
 * two machines; it connects only when used, and names the database without its password.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rateRuntimes } from '../../src/cli/rate-ledger.js';
import { limiterFor } from '../../src/providers/limiter.js';
import { PostgresLedger } from '../../src/state/postgres-rate-ledger.js';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { postgresForFile } from '../support/postgres.js';
import { describeRateLedger } from '../support/rate-ledger-conformance.js';

const PASSWORD = 'pw-never-shown-5e2a';
const db = postgresForFile(PASSWORD);
/** The server's URL with a password in it; trust auth ignores it, so the tests also check it stays hidden. */
const url = db.url;

describeRateLedger('postgres', async () => ({ ledger: new PostgresLedger(url()), other: () => new PostgresLedger(url()) }));

describe('PostgresLedger', () => {
  /** Sessions the ledger holds open now. */
  const sessions = async () => Number((await db.admin.query("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'plumb rate ledger'")).rows[0].n);

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
      const { rows } = await db.admin.query("SELECT data FROM plumb_rate_ledger WHERE key = 'interconnect api.example per address'");
      expect(rows).toHaveLength(1);
      expect(Object.keys(rows[0].data.inFlight)).toHaveLength(3);
    } finally {
      await ledger.close();
    }
  });

  it('makes its table once when several ledgers first use a new database at the same moment', async () => {
    const fresh = await database('first_use');
    const ledgers = Array.from({ length: 8 }, () => new PostgresLedger(fresh.url));
    try {
      const grants = await Promise.all(ledgers.map((l) => l.take('first use', { limit: 3, windowMs: 60_000 }, 1, [])));
      expect(grants.flatMap((g) => g.tickets)).toHaveLength(3);
      expect(await fresh.tables()).toContain('plumb_rate_ledger');
    } finally {
      await Promise.all(ledgers.map((l) => l.close()));
    }
  });

  it('a connection cut in the middle of an exchange fails that exchange alone; the next one connects again', async () => {
    const ledger = new PostgresLedger(url());
    const window = { limit: 5, windowMs: 60_000 };
    await ledger.room('cut key', window);
    // The exchanges of this key wait in the server until the test cuts their connection.
    await db.admin.query('CREATE FUNCTION hold_rate_ledger() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(30); RETURN NEW; END $$');
    await db.admin.query("CREATE TRIGGER hold_rate_ledger BEFORE UPDATE ON plumb_rate_ledger FOR EACH ROW WHEN (NEW.key = 'cut key') EXECUTE FUNCTION hold_rate_ledger()");
    try {
      const cut = ledger.take('cut key', window, 1, []).catch((err: Error) => err);
      const held = async () => (await db.admin.query("SELECT pid FROM pg_stat_activity WHERE application_name = 'plumb rate ledger' AND query LIKE 'UPDATE%'")).rows;
      while (!(await held()).length) await new Promise((r) => setTimeout(r, 20));
      await db.admin.query('SELECT pg_terminate_backend($1)', [(await held())[0].pid]);
      expect(await cut).toBeInstanceOf(Error);
      // Still in this process, which a dropped connection's error event would have ended.
      expect((await ledger.take('another key', window, 1, [])).tickets).toHaveLength(1);
    } finally {
      await db.admin.query('DROP TRIGGER IF EXISTS hold_rate_ledger ON plumb_rate_ledger');
      await db.admin.query('DROP FUNCTION IF EXISTS hold_rate_ledger()');
      await ledger.close();
    }
  });

  it('gives up on a row another session holds without end, rather than waiting with it', async () => {
    const ledger = new PostgresLedger(url());
    const holder = new pg.Client(db.server.url);
    await holder.connect();
    try {
      await ledger.room('held key', { limit: 5, windowMs: 60_000 });
      // A session that took the row and stopped, as a process frozen mid-exchange would.
      await holder.query('BEGIN');
      await holder.query("SELECT 1 FROM plumb_rate_ledger WHERE key = 'held key' FOR UPDATE");
      const failed = await ledger.take('held key', { limit: 5, windowMs: 60_000 }, 1, []).catch((err: Error) => err);
      expect(failed).toBeInstanceOf(Error);
      expect((failed as Error).message).toMatch(/lock timeout/);
    } finally {
      await holder.end();
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
    const { rows } = await db.admin.query("SELECT data, (extract(epoch from clock_timestamp()) * 1000)::float8 AS now FROM plumb_rate_ledger WHERE key = 'clock key'");
    const [started] = Object.values(rows[0].data.inFlight as Record<string, number>);
    expect(rows[0].now - started!).toBeGreaterThanOrEqual(0);
    expect(rows[0].now - started!).toBeLessThan(60_000);
  });

  it('starts a row that holds something else afresh, saying so', async () => {
    await db.admin.query(`INSERT INTO plumb_rate_ledger (key, data) VALUES ('broken key', '{"calls": 3}') ON CONFLICT (key) DO UPDATE SET data = EXCLUDED.data`);
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

  it('a database that cannot be reached is warned of once, naming it without the password, and the calls go on counted by this process', async () => {
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
    const rates = rateRuntimes(`postgres://plumb:${PASSWORD}@127.0.0.1:1/ledger`, () => undefined);
    let ran = 0;
    try {
      const limiter = limiterFor({ rateLimit: { limit: 10, windowMs: 60_000 } }, { maxConcurrency: 4 }, true, {}, { key: 'unreachable', ...rates.for('interconnect') });
      await Promise.all(Array.from({ length: 6 }, () => limiter.run(async () => void ran++)));
    } finally {
      stderr.mockRestore();
      await rates.close();
    }
    expect(ran).toBe(6);
    const warnings = written
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('Warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Warning: the rate ledger in postgres:\/\/plumb:\*\*\*@127\.0\.0\.1:1\/ledger could not be used \(.*ECONNREFUSED.*\); calls are counted by this process alone$/);
    expect(written.join('')).not.toContain(PASSWORD);
  });
});

/** A new database on the server, its URL (with the password) and the tables it holds. */
async function database(prefix: string) {
  const name = `${prefix}_${Math.random().toString(36).slice(2, 8)}`;
  await db.admin.query(`CREATE DATABASE ${name}`);
  const at = url().replace(/\/postgres$/, `/${name}`);
  return {
    url: at,
    async tables() {
      const client = new pg.Client(at);
      await client.connect();
      try {
        return (await client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).rows.map((r) => r.tablename as string);
      } finally {
        await client.end();
      }
    },
  };
}

describe('two plumb processes on two machines, against one API window', () => {
  let sandbox: Awaited<ReturnType<typeof testSandbox>>;
  beforeAll(async () => {
    sandbox = await testSandbox();
  });
  afterAll(async () => sandbox?.close());

  /** The sandbox refuses a 13th interconnect call within 3 s, as the API refuses a 501st within 5 minutes. */
  const smallLimit = async () => {
    const res = await fetch(`${sandbox.url}/_sandbox/limits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limits: [{ provider: 'interconnect', name: 'requests', max: 12, windowMs: 3000, per: 'address' }] }),
    });
    expect(res.status).toBe(200);
    await sandbox.clearCalls();
  };

  /** A manifest of `count` ports, its client keeping to the sandbox's window, in a folder of its own. */
  const stack = (name: string, count = 5) => {
    const dir = workdir(`plumb-${name}-`);
    const ports = Array.from(
      { length: count },
      (_, i) => `  p${i}:\n    type: interconnect:Port\n    properties: { productName: ${name}-${i}, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }`,
    );
    writeManifest(dir, 'plumb.yaml', [`name: ${name}`, 'config:', '  interconnect:rateLimit: 12/3s', 'resources:', ...ports].join('\n'));
    return dir;
  };

  /** Applies both folders at once, each process with a cache folder of its own (so only `state` can share a ledger), every product ordered alone. */
  const applyBoth = async (dirs: string[], state: (dir: string) => Record<string, string>) => {
    const runs = dirs.map((dir) => plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, PLUMB_READS: 'one-by-one', XDG_CACHE_HOME: workdir('plumb-cache-'), ...state(dir) } }));
    return Promise.all(runs);
  };

  const refused = async () => (await sandbox.calls('interconnect')).filter((c) => c.status === 429).length;

  it('with state in PostgreSQL, they share the window through the database: no call is refused', async () => {
    await smallLimit();
    const results = await applyBoth([stack('shared-a'), stack('shared-b')], () => ({ PLUMB_STATE: url(), PLUMB_PASSPHRASE: 'rate ledger passphrase' }));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(await refused()).toBe(0);
    // The window was counted in the database, under the API's address.
    const { rows } = await db.admin.query('SELECT key FROM plumb_rate_ledger WHERE key = $1', [`interconnect ${new URL(sandbox.url).host} per address`]);
    expect(rows).toHaveLength(1);
  });

  it('with state in folders and a cache folder each, they count apart and the API refuses some calls', async () => {
    await smallLimit();
    const results = await applyBoth([stack('apart-a'), stack('apart-b')], () => ({}));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(await refused()).toBeGreaterThan(0);
  });

  it('a command whose providers keep to no window never touches the ledger: a new database gains no ledger table', async () => {
    await fetch(`${sandbox.url}/_sandbox/limits`, { method: 'DELETE' });
    const fresh = await database('no_window');
    const dir = workdir('plumb-no-window-');
    writeManifest(
      dir,
      'plumb.yaml',
      'name: no-window\nresources:\n  p:\n    type: interconnect:Port\n    properties: { productName: nw, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }\n',
    );
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, PLUMB_STATE: fresh.url, PLUMB_PASSPHRASE: 'rate ledger passphrase' } });
    expect(applied.code, applied.stderr).toBe(0);
    expect(await fresh.tables()).toEqual(expect.arrayContaining(['plumb_stacks']));
    expect(await fresh.tables()).not.toContain('plumb_rate_ledger');
  });

  it('a ledger the database refuses to write is warned of once, without the password, and the command succeeds', async () => {
    const ledger = new PostgresLedger(url());
    await ledger.room('made by this test', { limit: 1, windowMs: 1000 });
    await ledger.close();
    await db.admin.query("CREATE FUNCTION refuse_rate_ledger() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'rate ledger refused'; END $$");
    await db.admin.query('CREATE TRIGGER refuse_rate_ledger BEFORE INSERT OR UPDATE ON plumb_rate_ledger FOR EACH ROW EXECUTE FUNCTION refuse_rate_ledger()');
    try {
      const dir = stack('refused-ledger', 3);
      const applied = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, PLUMB_READS: 'one-by-one', PLUMB_STATE: url(), PLUMB_PASSPHRASE: 'rate ledger passphrase' } });
      expect(applied.code, applied.stderr).toBe(0);
      const warnings = applied.stderr.split('\n').filter((line) => line.startsWith('Warning:'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/the rate ledger in postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres could not be used \(rate ledger refused\)/);
      expect(applied.stdout + applied.stderr).not.toContain(PASSWORD);
    } finally {
      await db.admin.query('DROP TRIGGER IF EXISTS refuse_rate_ledger ON plumb_rate_ledger');
      await db.admin.query('DROP FUNCTION IF EXISTS refuse_rate_ledger()');
    }
  });
});
