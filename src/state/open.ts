import { resolve } from 'node:path';
import { UserError } from '../errors.js';
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
  checkStackName(stack);
  if (isPostgresLocation(location)) return new PostgresStore(location, stack, codec);
  return new LocalStore(resolve(location), stack, codec);
}

/** A stack names a folder (or a row): nothing that could reach outside the state location. */
export function checkStackName(stack: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(stack)) {
    throw new UserError(`invalid stack name "${stack}"`, 'a stack name is up to 100 letters, digits, ".", "_" and "-", starting with a letter or digit');
  }
}
