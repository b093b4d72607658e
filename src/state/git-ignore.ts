import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** What a `.gitignore` plumb writes says first. */
const HEADER = '# plumb: state, its key and the sandbox world stay out of git; back them up instead.\n';

/**
 * Writes `<folder>/.gitignore` ignoring `patterns` (everything in it, itself included, by
 * default), so that `git add -A` never stages state (ids, inputs, sealed secrets), the key that
 * opens them or the sandbox's world. Called before plumb first keeps anything in a folder, not
 * when a read only locks it (a read leaves the folder as it found it). A `.gitignore` already
 * there, the user's own among them, is left as it is.
 */
export function keepGitOut(folder: string, patterns: string[] = ['*']): void {
  try {
    writeFileSync(join(folder, '.gitignore'), `${HEADER}${patterns.join('\n')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/**
 * Whether everything in a state folder is plumb's: `.plumb` beside a manifest, or a folder
 * (given with --state or PLUMB_STATE) that did not exist before plumb made it. A folder that
 * was already there is the user's (`--state .` names the project itself): plumb names only its
 * own entries in it.
 */
export function ownsFolder(folder: string, made: string | undefined): boolean {
  if (basename(folder) === '.plumb') return true;
  return made !== undefined && (folder === made || folder.startsWith(`${made}/`) || folder.startsWith(`${made}\\`));
}

/**
 * Keeps git out of the folder a key file is made in: all of it when it is plumb's, else the
 * key alone. Made here when missing, so that whose it is can be told.
 */
export function keepGitOutOfKey(file: string): void {
  const folder = dirname(file);
  const made = existsSync(folder) ? undefined : mkdirSync(folder, { recursive: true, mode: 0o700 });
  keepGitOut(folder, ownsFolder(folder, made) ? ['*'] : [`/${basename(file)}`]);
}

/**
 * Keeps git out of a sandbox world before it is written: `.plumb` when the world is kept there
 * (`.plumb/sandbox` beside a manifest), else the world's own folder (`--data DIR`) when it is
 * the world's alone: made now, empty, or holding only the world's JSON files. A folder holding
 * anything else is the user's, left as it is.
 */
export function keepGitOutOfWorld(dataDir: string): void {
  const folder = dirname(dataDir);
  if (basename(folder) === '.plumb') {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    keepGitOut(folder);
    return;
  }
  const made = existsSync(dataDir) ? undefined : mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (made !== undefined || readdirSync(dataDir).every((name) => /\.json(\.tmp)?$/.test(name))) keepGitOut(dataDir);
}
