import { resolve } from 'node:path';
import { UserError } from '../kernel/errors.js';
import { nameProblem, stackNameProblem } from '../kernel/names.js';
import { LocalStore } from './local.js';
import { PostgresStore } from './postgres.js';
import type { SecretCodec } from './secrets.js';
import type { StateStore } from './store.js';

/** Whether `location` names a PostgreSQL database rather than a folder. */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * The state backend for `--state` / PLUMB_STATE, for one project (the manifest's name) and stack:
 * a `postgres://` or `postgresql://` URL opens a PostgresStore, anything else is a folder
 * (relative paths resolve against the working directory) holding `<project>/<stack>/`.
 */
export function openStateStore(location: string, project: string, stack: string, codec: SecretCodec): StateStore {
  checkStackName(stack);
  const problem = nameProblem(project);
  if (problem) throw new UserError(`invalid project name "${project}"`, problem);
  if (isPostgresLocation(location)) return new PostgresStore(location, project, stack, codec);
  return new LocalStore(resolve(location), project, stack, codec);
}

/** A stack names a folder (or a row): nothing that could reach outside the state location. */
export function checkStackName(stack: string): void {
  const problem = stackNameProblem(stack);
  if (problem) throw new UserError(problem.summary, problem.detail);
}
