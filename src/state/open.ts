import { resolve } from 'node:path';
import { LocalStore } from './local.js';
import { PostgresStore } from './postgres.js';
import type { SecretCodec } from './secrets.js';
import type { StateStore } from './store.js';

/** Whether `location` names a PostgreSQL database rather than a folder. */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * The state backend for `--state` / PLUMB_STATE: a `postgres://` or `postgresql://` URL opens a
 * PostgresStore, anything else is a folder (relative paths resolve against the working directory).
 */
export function openStateStore(location: string, stack: string, codec: SecretCodec): StateStore {
  if (isPostgresLocation(location)) return new PostgresStore(location, stack, codec);
  return new LocalStore(resolve(location), stack, codec);
}
