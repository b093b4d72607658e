import type pg from 'pg';
import { UserError } from '../kernel/errors.js';

/** plumb's tables, qualified with the schema they are in. */
export type Tables = Record<'stacks' | 'journal' | 'locks' | 'opened', string>;

/**
 * Creates plumb's tables in the connection's current schema on first use; the project and stack
 * key every one of them. Runs inside a transaction; concurrent first uses are serialised.
 */
export async function prepareTables(c: pg.PoolClient, location: string): Promise<Tables> {
  // Concurrent CREATE TABLE IF NOT EXISTS can still collide in the catalog: serialise first use.
  await c.query("SELECT pg_advisory_xact_lock(hashtext('plumb-schema'))");
  const { rows } = await c.query('SELECT current_schema() AS schema');
  if (!rows[0].schema) throw new UserError(`no schema to create plumb's tables in at ${location}: check the search_path`);
  const schema = `"${String(rows[0].schema).replace(/"/g, '""')}"`;
  const t: Tables = { stacks: `${schema}.plumb_stacks`, journal: `${schema}.plumb_journal`, locks: `${schema}.plumb_locks`, opened: `${schema}.plumb_open_journals` };
  await c.query(`CREATE TABLE IF NOT EXISTS ${t.stacks} (
    project text NOT NULL, stack text NOT NULL, lineage text NOT NULL, serial bigint NOT NULL, snapshot jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (project, stack))`);
  await c.query(`CREATE TABLE IF NOT EXISTS ${t.journal} (
    project text NOT NULL, stack text NOT NULL, seq bigint GENERATED ALWAYS AS IDENTITY, entry jsonb NOT NULL, PRIMARY KEY (project, stack, seq))`);
  // A stack's journal rows an apply began and no snapshot has folded in yet, and the serial they continue.
  await c.query(`CREATE TABLE IF NOT EXISTS ${t.opened} (
    project text NOT NULL, stack text NOT NULL, serial bigint NOT NULL, opened_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (project, stack))`);
  await c.query(`CREATE TABLE IF NOT EXISTS ${t.locks} (
    project text NOT NULL, stack text NOT NULL, holder jsonb NOT NULL, backend_pid integer NOT NULL,
    locked_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (project, stack))`);
  return t;
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
