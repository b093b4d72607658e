import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type pg from 'pg';
import { UserError } from '../kernel/errors.js';
import { prepareTables, type Tables } from './postgres-schema.js';
import { sealEntry, sealSnapshot, type SecretCodec } from './secrets.js';
import { checkEntry, checkSnapshot, emptySnapshot, lostJournal, nothingLost, replay, type StateStore } from './store.js';
import type { AcceptedLoss, JournalEntry, LockInfo, LostPart, StateSnapshot } from '../engine/contracts/state.js';

/**
 * State in PostgreSQL: one `plumb_stacks` row per project and stack (lineage, serial, snapshot),
 * the journal as `plumb_journal` rows and the lock holder in `plumb_locks`. The commit of an
 * apply's first journal rows also adds a `plumb_open_journals` row, which the snapshot's write
 * removes in its own commit: journal rows gone while it is there were lost, not folded in (a
 * crash cannot part them, each pair being one transaction). The lock itself is a
 * session-level advisory lock held by a dedicated connection, so PostgreSQL releases it when the
 * holder's connection dies; the row only names who holds it.
 */
export class PostgresStore implements StateStore {
  readonly location: string;
  private readonly pool: pg.Pool;
  private readonly key: string;
  private tables?: Promise<Tables>;
  private lockClient?: pg.Client;
  /** The backend pid of lockClient's session, as pg_locks shows it. */
  private lockPid?: number;
  private lockLost?: string;
  /** Serial and journal position as last read or written: a write refuses anything newer. */
  private base?: { serial: number | undefined; seq: number };
  private readonly ownSeqs = new Set<number>();
  private tail: Promise<unknown> = Promise.resolve();
  /** Journal entries recorded since the last append started: the next one inserts them together. */
  private waiting: Array<{ entry: unknown; resolve(): void; reject(err: unknown): void }> = [];
  /** This store's journal rows are known to be recorded as open (plumb_open_journals). */
  private opened = false;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly project: string,
    private readonly stack: string,
    private readonly codec: SecretCodec,
  ) {
    this.location = redact(url);
    this.key = `plumb:${project}/${stack}`;
    this.pool = new (driver().Pool)({ connectionString: url, max: 4, connectionTimeoutMillis: 10_000, application_name: 'plumb' });
    // An idle pooled connection that drops is replaced on next use; without a listener it would crash the process.
    this.pool.on('error', () => {});
    // A connection cut during a transaction fails that transaction's query; its error event must not end the process.
    this.pool.on('connect', (client) => client.on('error', () => {}));
  }

  async lock(info: LockInfo, timeoutMs = 0): Promise<void> {
    if (this.lockClient && !this.lockLost) return;
    await this.unlock();
    const t = await this.ready();
    const client = new (driver().Client)({ connectionString: this.url, connectionTimeoutMillis: 10_000, application_name: 'plumb lock', keepAlive: true });
    // Only the session that currently holds our lock matters; a previous one ending is expected.
    const lost = (why: string) => {
      if (this.lockClient === client) this.lockLost ??= why;
    };
    client.on('error', (err) => lost(this.scrub(err)));
    client.on('end', () => lost('its database connection closed'));
    await client.connect().catch((err) => Promise.reject(this.unreachable(err)));
    const deadline = Date.now() + timeoutMs;
    try {
      await keepSessionAlive(client);
      for (;;) {
        const { rows } = await client.query('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [this.key]);
        if (rows[0].ok) break;
        if (Date.now() >= deadline) {
          const holder = await this.holder(t);
          const h = holder.info?.backend === holder.pid ? holder.info?.lock : undefined;
          const who = h ? `pid ${h.pid} on ${h.host} since ${h.time} (${h.command})` : 'another process';
          throw new UserError(
            `state for stack "${this.stack}" is locked by ${who}`,
            'wait for it to finish, pass --lock-timeout 30s to wait, or run `plumb state unlock --force` if that process is gone',
          );
        }
        await new Promise((r) => setTimeout(r, Math.min(250, Math.max(0, deadline - Date.now()))));
      }
      const { rows } = await client.query(
        `INSERT INTO ${t.locks} (project, stack, holder, backend_pid) VALUES ($1, $2, $3::jsonb, pg_backend_pid())
         ON CONFLICT (project, stack) DO UPDATE SET holder = EXCLUDED.holder, backend_pid = EXCLUDED.backend_pid, locked_at = now()
         RETURNING backend_pid`,
        [this.project, this.stack, JSON.stringify(this.codec.encode(info))],
      );
      this.lockPid = rows[0].backend_pid;
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    this.lockLost = undefined;
    this.lockClient = client;
  }

  async unlock(): Promise<void> {
    await this.tail;
    const client = this.lockClient;
    if (!client) return;
    const lost = this.lockLost;
    this.lockClient = undefined;
    this.lockLost = undefined;
    try {
      if (!lost) {
        const t = await this.ready();
        await client.query(`DELETE FROM ${t.locks} WHERE project = $1 AND stack = $2 AND backend_pid = pg_backend_pid()`, [this.project, this.stack]);
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [this.key]);
      }
    } finally {
      // Ending the session releases the advisory lock even if the statements above failed.
      await client.end().catch(() => {});
    }
  }

  async forceUnlock(): Promise<LockInfo | undefined> {
    const t = await this.ready();
    const holder = await this.holder(t);
    if (this.lockClient && holder.pid === this.lockPid) {
      await this.unlock();
      return holder.info?.lock;
    }
    if (holder.pid !== undefined) {
      try {
        await this.pool.query('SELECT pg_terminate_backend($1)', [holder.pid]);
      } catch (err) {
        throw new UserError(`cannot end the PostgreSQL session (pid ${holder.pid}) holding the lock on stack "${this.stack}": ${this.scrub(err)}`);
      }
      // Termination is asynchronous: wait until the lock is really gone before reporting success.
      for (let i = 0; i < 100 && (await this.holder(t)).pid === holder.pid; i++) await new Promise((r) => setTimeout(r, 50));
    }
    await this.pool.query(`DELETE FROM ${t.locks} WHERE project = $1 AND stack = $2`, [this.project, this.stack]);
    return holder.info?.lock;
  }

  async read(): Promise<StateSnapshot> {
    const { snapshot, loss } = await this.readState();
    if (loss) throw lostJournal(loss, 'restore them from a backup of the database');
    return snapshot;
  }

  async acceptLoss(what: LostPart): Promise<AcceptedLoss> {
    if (what === 'snapshot') throw nothingLost('snapshot', `${this.rows()} in ${this.location}`);
    const { snapshot, loss } = await this.readState();
    if (!loss) throw nothingLost('journal', `${this.rows()} in ${this.location}`);
    // A new serial, whose commit also removes the journal's opening: a plan saved before it is stale.
    await this.write(snapshot);
    return { lost: loss, forgotten: [] };
  }

  /** The state, journal replayed, and why the journal rows an interrupted apply began count as lost. */
  private async readState(): Promise<{ snapshot: StateSnapshot; loss?: string }> {
    const t = await this.ready();
    // One snapshot of the database, so the snapshot row and the journal rows agree.
    return this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', async (c) => {
      const row = await c.query(`SELECT serial, snapshot FROM ${t.stacks} WHERE project = $1 AND stack = $2`, [this.project, this.stack]);
      const journal = await c.query(`SELECT seq, entry FROM ${t.journal} WHERE project = $1 AND stack = $2 ORDER BY seq`, [this.project, this.stack]);
      const opened = await c.query(`SELECT serial, opened_at FROM ${t.opened} WHERE project = $1 AND stack = $2`, [this.project, this.stack]);
      let snapshot = emptySnapshot(this.stack);
      if (row.rows.length) {
        const where = `the plumb_stacks row of ${this.rows()} in ${this.location}`;
        snapshot = checkSnapshot({ ...(this.codec.decode(row.rows[0].snapshot, where) as object), serial: Number(row.rows[0].serial) }, where);
      }
      snapshot.pending ??= [];
      const seqs = journal.rows.map((r) => Number(r.seq));
      this.base = { serial: row.rows.length ? Number(row.rows[0].serial) : undefined, seq: Math.max(0, ...seqs) };
      this.ownSeqs.clear();
      // A snapshot written since (by a plumb that kept no opening) has a higher serial, and holds them.
      const open = opened.rows[0] as { serial: string; opened_at: Date } | undefined;
      const loss =
        open && Number(open.serial) >= snapshot.serial && !journal.rows.length
          ? `the plumb_journal rows of ${this.rows()} in ${this.location} are gone (plumb_open_journals says an apply began them at ${open.opened_at.toISOString()}, and no snapshot has folded them in)`
          : undefined;
      const entries = journal.rows.map((r) => {
        const where = `plumb_journal row ${r.seq} of ${this.rows()} in ${this.location}`;
        return checkEntry(this.codec.decode(r.entry, where), where);
      });
      return { snapshot: replay(snapshot, entries), loss };
    });
  }

  /**
   * Entries land in call order even when a caller does not await the previous one. Those recorded
   * while an append is in flight are inserted together by the next one, in one transaction: a
   * commit's round trips and flush are shared by parallel steps, not paid once per entry.
   */
  async record(entry: JournalEntry): Promise<void> {
    const sealed = sealEntry(this.codec, entry);
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ entry: sealed, resolve, reject });
      if (this.waiting.length === 1) this.tail = this.tail.then(() => this.appendWaiting());
    });
  }

  async write(snapshot: StateSnapshot): Promise<void> {
    await this.tail;
    await this.checkLock(true);
    const t = await this.ready();
    const next = { ...snapshot, project: this.project, lineage: snapshot.lineage || randomUUID(), serial: snapshot.serial + 1 };
    const encoded = JSON.stringify(sealSnapshot(this.codec, next));
    await this.transaction('BEGIN', async (c) => {
      const current = await c.query(`SELECT serial, lineage FROM ${t.stacks} WHERE project = $1 AND stack = $2 FOR UPDATE`, [this.project, this.stack]);
      const stored = current.rows[0] as { serial: string; lineage: string } | undefined;
      // A stored stack always has a lineage, so an empty one here means the caller saw no stack at all.
      if (stored && stored.lineage !== snapshot.lineage) throw this.moved(`it now holds another lineage (${stored.lineage})`);
      // Without a prior read there is nothing to compare against: the stored serial is the base.
      const expected = this.base ? this.base.serial : stored && Number(stored.serial);
      const values = [this.project, this.stack, next.serial, next.lineage, encoded];
      const { rowCount } =
        expected === undefined
          ? await c.query(`INSERT INTO ${t.stacks} (project, stack, serial, lineage, snapshot) VALUES ($1, $2, $3, $4, $5::jsonb) ON CONFLICT (project, stack) DO NOTHING`, values)
          : await c.query(`UPDATE ${t.stacks} SET serial = $3, lineage = $4, snapshot = $5::jsonb, updated_at = now() WHERE project = $1 AND stack = $2 AND serial = $6`, [...values, expected]);
      if (rowCount !== 1) throw this.moved(`its serial is now ${stored?.serial ?? 'set'}, not ${expected ?? 'empty'} as read`);
      // The snapshot holds everything the journal said; entries nobody here saw mean another writer.
      const folded = await c.query(`DELETE FROM ${t.journal} WHERE project = $1 AND stack = $2 RETURNING seq`, [this.project, this.stack]);
      const foreign = this.base ? folded.rows.map((r) => Number(r.seq)).filter((s) => s > this.base!.seq && !this.ownSeqs.has(s)) : [];
      if (foreign.length) throw this.moved(`${foreign.length} journal entries were recorded by another writer`);
      await c.query(`DELETE FROM ${t.opened} WHERE project = $1 AND stack = $2`, [this.project, this.stack]);
    });
    this.opened = false;
    this.base = { serial: next.serial, seq: 0 };
    this.ownSeqs.clear();
    snapshot.serial = next.serial;
    snapshot.lineage = next.lineage;
    snapshot.project = next.project;
  }

  async stacks(): Promise<string[]> {
    const t = await this.ready();
    const { rows } = await this.pool.query(
      `SELECT stack FROM ${t.stacks} WHERE project = $1 UNION SELECT stack FROM ${t.journal} WHERE project = $1 UNION SELECT stack FROM ${t.opened} WHERE project = $1 ORDER BY 1`,
      [this.project],
    );
    return rows.map((r) => r.stack as string);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.unlock();
    } finally {
      await this.pool.end();
    }
  }

  private async appendWaiting(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    try {
      await this.checkLock(false);
      const t = await this.ready();
      await this.transaction('BEGIN', async (c) => {
        // The outcome of a remote call must survive a crash: never let the server defer the flush.
        await c.query('SET LOCAL synchronous_commit TO on');
        const { rows } = await c.query(
          `INSERT INTO ${t.journal} (project, stack, entry) SELECT $1, $2, e FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS batch(e, n) ORDER BY n RETURNING seq`,
          [this.project, this.stack, JSON.stringify(batch.map((b) => b.entry))],
        );
        for (const r of rows) this.ownSeqs.add(Number(r.seq));
        // Said in the same commit as the first rows, so that their loss is seen (see the class).
        if (!this.opened) {
          await c.query(
            `INSERT INTO ${t.opened} (project, stack, serial) SELECT $1, $2, coalesce((SELECT serial FROM ${t.stacks} WHERE project = $1 AND stack = $2), 0)
             ON CONFLICT (project, stack) DO UPDATE SET serial = EXCLUDED.serial, opened_at = now() WHERE ${t.opened}.serial < EXCLUDED.serial`,
            [this.project, this.stack],
          );
        }
      });
      this.opened = true;
      for (const b of batch) b.resolve();
    } catch (err) {
      for (const b of batch) b.reject(err);
    }
  }

  /** Refuses to go on once the lock's session has died: someone else may hold the stack now. */
  private async checkLock(ping: boolean): Promise<void> {
    if (!this.lockClient) return;
    if (ping && !this.lockLost) await this.lockClient.query('SELECT 1').catch((err) => (this.lockLost ??= this.scrub(err)));
    if (this.lockLost) {
      throw new UserError(`the lock on stack "${this.stack}" was lost (${this.lockLost}); another process may be changing its state`, 'run `plumb refresh` and `plumb plan` again before applying');
    }
  }

  /** The backend holding the advisory lock (from pg_locks) and the recorded holder row. */
  private async holder(t: Tables): Promise<{ pid?: number; info?: { lock: LockInfo; backend: number } }> {
    // A single-bigint advisory key shows in pg_locks split into classid (high) and objid (low).
    const { rows } = await this.pool.query(
      `SELECT (SELECT l.pid FROM pg_locks l
                WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                  AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtext($2)::bigint
                LIMIT 1) AS pid,
              (SELECT holder FROM ${t.locks} WHERE project = $3 AND stack = $1) AS holder,
              (SELECT backend_pid FROM ${t.locks} WHERE project = $3 AND stack = $1) AS backend`,
      [this.stack, this.key, this.project],
    );
    const r = rows[0];
    return { pid: r.pid ?? undefined, info: r.holder ? { lock: this.codec.decode(r.holder) as LockInfo, backend: r.backend } : undefined };
  }

  private ready(): Promise<Tables> {
    this.tables ??= this.createTables().catch((err) => {
      this.tables = undefined;
      throw err;
    });
    return this.tables;
  }

  private createTables(): Promise<Tables> {
    return this.transaction('BEGIN', (c) => prepareTables(c, this.location));
  }

  /** The rows of this stack, as messages name them. */
  private rows(): string {
    return `stack "${this.stack}" of project "${this.project}"`;
  }

  private async transaction<T>(begin: string, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect().catch((err) => Promise.reject(this.unreachable(err)));
    let broken = false;
    try {
      await c.query(begin);
      const result = await fn(c);
      await c.query('COMMIT');
      return result;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => (broken = true));
      throw err;
    } finally {
      c.release(broken);
    }
  }

  private moved(why: string): UserError {
    return new UserError(`state for stack "${this.stack}" was changed by another writer since it was read: ${why}`, 'someone applied this stack without holding its lock; run `plumb plan` again');
  }

  private unreachable(err: unknown): UserError {
    return new UserError(`cannot connect to the PostgreSQL state at ${this.location}: ${this.scrub(err)}`);
  }

  /** An error's message with the URL's password removed, in case a driver ever echoes it. */
  private scrub(err: unknown): string {
    const message = err instanceof Error ? err.message : String(err);
    const secrets = passwords(this.url).filter((p) => p.length > 0);
    return secrets.reduce((m, p) => m.split(p).join('***'), message);
  }
}

/** Keeps the lock's session from being cut by server idle timeouts or outliving a vanished host. */
async function keepSessionAlive(client: pg.Client): Promise<void> {
  // TCP keepalives let the server notice a holder whose machine died, and so release its lock.
  const settings = ['tcp_keepalives_idle=60', 'tcp_keepalives_interval=10', 'tcp_keepalives_count=3', 'idle_in_transaction_session_timeout=0', 'statement_timeout=0'];
  const { rows } = await client.query("SELECT current_setting('server_version_num')::int AS version");
  if (rows[0].version >= 140000) settings.push('idle_session_timeout=0');
  for (const [name, value] of settings.map((s) => s.split('='))) await client.query('SELECT set_config($1, $2, false)', [name, value]);
}

/** The URL with its password (userinfo or `?password=`) shown as `***`. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    if (u.searchParams.has('password')) u.searchParams.set('password', '***');
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  }
}

/** The password as written in the URL and percent-decoded, whichever form a message might hold. */
export function passwords(url: string): string[] {
  try {
    const u = new URL(url);
    const raw = [u.password, u.searchParams.get('password') ?? ''];
    return [...raw, ...raw.map((p) => decodeURIComponent(p))];
  } catch {
    // A malformed URL or escape: pg will refuse it too, and the message cannot hold a parsed password.
    return [];
  }
}

/** The pg driver, loaded when a PostgreSQL state is opened rather than at every start of the CLI. */
export function driver(): typeof pg {
  return createRequire(import.meta.url)('pg') as typeof pg;
}
