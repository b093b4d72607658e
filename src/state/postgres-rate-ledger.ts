/**
 * The rate ledger in the state's PostgreSQL database, so that runners on many machines calling an
 * API as one account share one window (rate-window.ts): a `plumb_rate_ledger` row per key holding
 * the key's record, read `FOR UPDATE`, changed and written back in one transaction. Times are the
 * database server's (clock_timestamp, read once the row is held), so machines whose clocks
 * disagree still agree on when each call was made and when it leaves the window.
 */
import type pg from 'pg';
import { asLedgerData, emptyLedger, RecordLedger, type LedgerData } from '../providers/rate-window.js';
import { driver, passwords, redact } from './postgres.js';
import { prepareRateTable } from './postgres-schema.js';

/**
 * An exchange holds its key's row for milliseconds. One that holds it for seconds is from a
 * process that stopped or a machine that vanished mid-exchange (the server would notice only
 * when TCP gives up, hours later): the server ends that session after 5 s idle, and an exchange
 * waiting for the row gives up after 10 s (the window is then counted in this process, with a
 * warning) rather than holding every runner's calls. Set per transaction, so poolers that refuse
 * startup parameters still pass them.
 */
const BEGIN = "BEGIN; SET LOCAL idle_in_transaction_session_timeout = '5s'; SET LOCAL lock_timeout = '10s'; SET LOCAL statement_timeout = '15s'";

/** The ledger in the database at `url`; it connects on its first use, which only a rate window brings. */
export class PostgresLedger extends RecordLedger {
  readonly where: string;
  private pool?: pg.Pool;
  private table?: Promise<string>;

  /** `warn`: told when a row held something else than a record, which is then started afresh. */
  constructor(
    private readonly url: string,
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    super();
    this.where = redact(url);
  }

  override async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.table = undefined;
    await pool?.end();
  }

  /**
   * Reads the key's row under its row lock, changes it at the database's time, writes it back;
   * what `change` returns is the answer. Tickets stay unique across machines: the transactions of
   * a key are serialised, so no two read the same microsecond, and a ticket names its time.
   */
  protected async update<T>(key: string, change: (data: LedgerData, now: number) => T): Promise<T> {
    const table = await this.ready();
    return this.transaction(async (c) => {
      const data = (await this.lockRow(c, table, key)) ?? emptyLedger();
      const { rows } = await c.query('SELECT (extract(epoch from clock_timestamp()) * 1000)::float8 AS now');
      const result = change(data, Number(rows[0].now));
      await c.query(`UPDATE ${table} SET data = $2::jsonb, updated_at = now() WHERE key = $1`, [key, JSON.stringify(data)]);
      return result;
    });
  }

  /** The key's record with its row locked until the transaction ends (the row made when there is none). */
  private async lockRow(c: pg.PoolClient, table: string, key: string): Promise<LedgerData | undefined> {
    const select = () => c.query(`SELECT data FROM ${table} WHERE key = $1 FOR UPDATE`, [key]);
    let { rows } = await select();
    if (!rows.length) {
      // Two first uses of a key: the second insert waits for the first's commit and does nothing.
      await c.query(`INSERT INTO ${table} (key, data) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO NOTHING`, [key, JSON.stringify(emptyLedger())]);
      ({ rows } = await select());
    }
    const data = asLedgerData(rows[0]?.data);
    if (!data) this.warn(`the rate ledger row "${key}" in ${this.where} was not a rate ledger; it was started afresh`);
    return data;
  }

  private ready(): Promise<string> {
    this.table ??= this.transaction((c) => prepareRateTable(c, this.where)).catch((err) => {
      this.table = undefined;
      throw err;
    });
    return this.table;
  }

  private async transaction<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.connected()
      .connect()
      .catch((err) => Promise.reject(new Error(this.scrub(err))));
    let broken = false;
    try {
      await c.query(BEGIN);
      const result = await fn(c);
      await c.query('COMMIT');
      return result;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => (broken = true));
      throw new Error(this.scrub(err));
    } finally {
      c.release(broken);
    }
  }

  /** The pool, made on first use: two connections at most, as exchanges are batched per process. */
  private connected(): pg.Pool {
    if (this.pool) return this.pool;
    this.pool = new (driver().Pool)({ connectionString: this.url, max: 2, connectionTimeoutMillis: 10_000, allowExitOnIdle: true, application_name: 'plumb rate ledger' });
    // A connection that drops, idle or in an exchange, is replaced on next use; the exchange it cut
    // fails with its query. Without these listeners its error event would end the process.
    this.pool.on('error', () => {});
    this.pool.on('connect', (client) => client.on('error', () => {}));
    return this.pool;
  }

  /** An error's message with the URL's password removed, in case a driver ever echoes it. */
  private scrub(err: unknown): string {
    const message = err instanceof Error ? err.message : String(err);
    return passwords(this.url)
      .filter((p) => p.length > 0)
      .reduce((m, p) => m.split(p).join('***'), message);
  }
}
