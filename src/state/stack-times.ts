import { statSync } from 'node:fs';
import { join } from 'node:path';
import { JOURNAL, SNAPSHOT } from './local-layout.js';
import { isPostgresLocation } from './open.js';
import { driver, redact } from './postgres.js';
import { prepareTables } from './postgres-schema.js';

/**
 * When each stack of a project at a state location was last written: a folder's newest snapshot
 * or journal, a database's snapshot row. Stacks never written are left out.
 */
export async function lastUpdates(location: string, project: string, stacks: string[]): Promise<Map<string, Date>> {
  if (isPostgresLocation(location)) return databaseUpdates(location, project);
  const times = new Map<string, Date>();
  for (const stack of stacks) {
    const written = [SNAPSHOT, JOURNAL].map((name) => modified(join(location, project, stack, name))).filter((t): t is Date => t !== undefined);
    if (written.length) times.set(stack, new Date(Math.max(...written.map((t) => t.getTime()))));
  }
  return times;
}

function modified(file: string): Date | undefined {
  try {
    return statSync(file).mtime;
  } catch {
    return undefined;
  }
}

async function databaseUpdates(url: string, project: string): Promise<Map<string, Date>> {
  const pool = new (driver().Pool)({ connectionString: url, max: 1, connectionTimeoutMillis: 10_000, application_name: 'plumb' });
  pool.on('error', () => {});
  const client = await pool.connect();
  try {
    // The tables are made on first use, as every store does (in a transaction: prepareTables locks for it).
    await client.query('BEGIN');
    const t = await prepareTables(client, redact(url));
    await client.query('COMMIT');
    const { rows } = await client.query(`SELECT stack, updated_at FROM ${t.stacks} WHERE project = $1`, [project]);
    return new Map(rows.map((r) => [r.stack as string, new Date(r.updated_at as string)]));
  } finally {
    client.release();
    await pool.end();
  }
}
