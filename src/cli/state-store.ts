import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, extname, join, resolve } from 'node:path';
import type { Document } from 'yaml';
import { UserError } from '../kernel/errors.js';
import { sealedStateFile } from '../state/local-layout.js';
import { projectNameProblem } from '../kernel/names.js';
import { checkStackName, isPostgresLocation, openStateStore } from '../state/open.js';
import { sealedSettingsFile } from '../manifest/stack-config.js';
import { projectFor } from '../manifest/project.js';
import { SecretCodec } from '../state/secrets.js';
import type { StateStore } from '../state/store.js';

/** The flags that say where state is. */
export interface StateFlags {
  stack: string;
  state?: string;
}

/** Where the state of a manifest lives: --state, PLUMB_STATE, or `.plumb` beside the manifest. */
export function stateLocation(opts: StateFlags, manifestDir: string): string {
  const location = opts.state ?? (process.env.PLUMB_STATE || join(manifestDir, '.plumb'));
  if (location === '') throw new UserError('--state is empty', 'give a folder path or a postgres:// URL');
  if (isPostgresLocation(location)) return location;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(location))
    throw new UserError(`state location ${location}: not a folder path or a postgres:// URL`, 'state lives in a folder (the default .plumb beside the manifest) or in PostgreSQL');
  if (existsSync(location) && !statSync(location).isDirectory())
    throw new UserError(`${location} is a file, where a folder is needed`, 'state lives in a folder (the default .plumb beside the manifest) or in PostgreSQL');
  return resolve(location);
}

/**
 * The codec for secrets in that state: PLUMB_PASSPHRASE, or the key file of a local state folder
 * (`<location>/secret.key`, shared by every manifest's state there). Nothing is read or made yet.
 */
export function stateCodec(opts: StateFlags, manifestDir: string): SecretCodec {
  const location = stateLocation(opts, manifestDir);
  if (isPostgresLocation(location)) {
    // A key file on one machine cannot be shared by a team: shared state needs the passphrase.
    if (!process.env.PLUMB_PASSPHRASE) throw new UserError('PostgreSQL state needs PLUMB_PASSPHRASE, the passphrase every machine uses to encrypt and read secrets in state');
    return SecretCodec.open('');
  }
  return SecretCodec.open(join(location, 'secret.key'), process.env.PLUMB_PASSPHRASE, () => sealedStateFile(location) ?? sealedSettingsFile(manifestDir));
}

/** Opens the state store of a project's stack. */
export function openStore(opts: StateFlags, manifestDir: string, project: string): StateStore {
  checkStackName(opts.stack);
  return openStateStore(stateLocation(opts, manifestDir), project, opts.stack, stateCodec(opts, manifestDir));
}

/**
 * The project a manifest's state is kept under: its `name`, or without one the file's name less
 * its extension (`plumb.yaml` → `plumb`), so that two manifests of one folder never share state.
 * A program kept in a Main file goes by its project file's (Pulumi.yaml), so that moving the
 * program between the two keeps its state. `parsed` is the name the manifest parser read, when
 * there is one (it says `unnamed` for none).
 */
export function manifestProject(program: string, parsed?: string): string {
  const file = projectFor(program)?.file ?? program;
  const { LineCounter, isMap, isScalar, parseDocument } = yamlPackage();
  let doc: Document | undefined;
  const lines = new LineCounter();
  const read = () => (doc ??= parseDocument(readFileSync(file, 'utf8'), { lineCounter: lines }));
  let name = parsed !== undefined && parsed !== 'unnamed' ? parsed : undefined;
  // The parser says `unnamed` for no name: only a manifest with a `name:` line can mean it.
  if (name === undefined && (parsed === undefined || /^["']?name["']?[ \t]*:/m.test(readFileSync(file, 'utf8')))) {
    const node = read().contents;
    if (read().errors.length && !isMap(node)) {
      const { line, col } = lines.linePos(read().errors[0].pos[0]);
      throw new UserError(`${file}:${line}:${col}: YAML syntax error: the manifest's name, which its state is kept under, cannot be read`, 'correct the manifest, or pass --project NAME');
    }
    const value = isMap(node) ? node.get('name', true) : undefined;
    if (isScalar(value) && typeof value.value === 'string') name = value.value;
  }
  const project = name ?? basename(file, extname(file));
  const problem = projectNameProblem(project, name !== undefined);
  if (!problem) return project;
  if (name === undefined) throw new UserError(`${file}:1:1: ${problem.summary}`, problem.detail);
  const node = read().contents;
  const { line, col } = lines.linePos((isMap(node) ? (node.get('name', true) as { range?: number[] } | undefined)?.range?.[0] : undefined) ?? 0);
  throw new UserError(`${file}:${line}:${col}: ${problem.summary}`, problem.detail);
}

/** The yaml package, loaded where first needed (as the manifest parser does): most commands never need it. */
function yamlPackage(): typeof import('yaml') {
  return createRequire(import.meta.url)('yaml') as typeof import('yaml');
}
