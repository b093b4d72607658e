import type pg from 'pg';
import { UserError } from '../kernel/errors.js';

/** plumb's tables, qualified with the schema they are in. */
export type Tables = Record<'stacks' | 'journal' | 'locks' | 'opened', string>;

/** Each table's key: the project joins the stack in all of them. */
const KEYS: Record<keyof Tables, string[]> = { stacks: ['project', 'stack'], journal: ['project', 'stack', 'seq'], locks: ['project', 'stack'], opened: ['project', 'stack'] };

/**
 * Creates plumb's tables in the connection's current schema on first use, and brings tables made
 * before state was kept per project up to date: each gains a `project` column, '' for the rows
 * already there (a manifest claims them, see StateStore.legacy), and the project joins every key.
 * Runs inside a transaction; concurrent first uses are serialised.
 */
export async function prepareTables(c: pg.PoolClient, location: string): Promise<Tables> {
  // Concurrent CREATE TABLE IF NOT EXISTS can still collide in the catalog: serialise first use.
  await c.query("SELECT pg_advisory_xact_lock(hashtext('plumb-schema'))");
  const { rows } = await c.query('SELECT current_schema() AS schema');
  if (!rows[0].schema) throw new UserError(`no schema to create plumb's tables in at ${location}: check the search_path`);
  const schema = `"${String(rows[0].schema).replace(/"/g, '""')}"`;
  const t: Tables = { stacks: `${schema}.plumb_stacks`, journal: `${schema}.plumb_journal`, locks: `${schema}.plumb_locks`, opened: `${schema}.plumb_open_journals` };
  await c.query(`CREATE TABLE IF NOT EXISTS ${t.stacks} (
    project text NOT NULL DEFAULT '', stack text NOT NULL, lineage text NOT NULL, serial bigint NOT NULL, snapshot jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (project, stack))`);
  await c.query(`CREATE TABLE IF NOT EXISTS ${t.journal} (
    project text NOT NULL DEFAULT '', stack text NOT NULL, seq bigint GENERATED ALWAYS AS IDENTITY, entry jsonb NOT NULL, PRIMARY KEY (project, stack, seq))`);
  // A stack's journal rows an apply began and no snapshot has folded in yet, and the serial they continue.
  await c.query(`CREATE TABLE IF NOT EXISTS ${t.opened} (
    project text NOT NULL DEFAULT '', stack text NOT NULL, serial bigint NOT NULL, opened_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (project, stack))`);
  await c.query(`CREATE TABLE IF NOT EXISTS ${t.locks} (
    project text NOT NULL DEFAULT '', stack text NOT NULL, holder jsonb NOT NULL, backend_pid integer NOT NULL,
    locked_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (project, stack))`);
  for (const name of Object.keys(KEYS) as Array<keyof Tables>) await keyByProject(c, t[name], KEYS[name]);
  return t;
}

/** Adds the project column and key to a table made before state was kept per project (a no-op after). */
async function keyByProject(c: pg.PoolClient, table: string, key: string[]): Promise<void> {
  const { rows } = await c.query(
    `SELECT c.conname, array_agg(a.attname::text ORDER BY a.attname) AS columns
       FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
      WHERE c.conrelid = $1::regclass AND c.contype = 'p' GROUP BY c.conname`,
    [table],
  );
  const current = rows[0] as { conname: string; columns: string[] } | undefined;
  // Checked first: ALTER TABLE locks the table against every reader until the end of the transaction.
  if (current && current.columns.includes('project')) return;
  const drop = current ? `DROP CONSTRAINT "${current.conname.replace(/"/g, '""')}", ` : '';
  await c.query(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS project text NOT NULL DEFAULT ''`);
  await c.query(`ALTER TABLE ${table} ${drop}ADD PRIMARY KEY (${key.join(', ')})`);
}

/**
 * Creates the rate ledger's table (rate-window.ts) in the connection's current schema on first use:
 * one row per key, the key as given (an API and the account or address it counts by, hashed where
 * it would name an account) and the key's record as jsonb. Runs inside a transaction; concurrent
 * first uses are serialised with the state tables' own.
 */
export async function prepareRateTable(c: pg.PoolClient, location: string): Promise<string> {
  await c.query("SELECT pg_advisory_xact_lock(hashtext('plumb-schema'))");
  const { rows } = await c.query('SELECT current_schema() AS schema');
  if (!rows[0].schema) throw new UserError(`no schema to create plumb's rate ledger in at ${location}: check the search_path`);
  const table = `"${String(rows[0].schema).replace(/"/g, '""')}".plumb_rate_ledger`;
  await c.query(`CREATE TABLE IF NOT EXISTS ${table} (key text PRIMARY KEY, data jsonb NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`);
  return table;
}
