import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The layout of a state folder: `<root>/<project>/<stack>/` for each manifest's stacks; the key
 * file `<root>/secret.key` serves them all.
 */

/** A stack's snapshot, rewritten whole (atomically) by each write. */
export const SNAPSHOT = 'state.json';
/** A second name of the snapshot last written, so that losing `state.json` loses nothing and is seen. */
export const BACKUP = 'state.json.backup';
/** The journal of entries recorded since the snapshot. */
export const JOURNAL = 'journal.jsonl';
/** Names the journal an apply opened last and the snapshot serial it continues (see local-journal). */
export const MARK = 'journal.id';

/** Whether a folder holds a stack's state, or the trace of one (its backup, its journal's mark). */
export function holdsState(dir: string): boolean {
  return [SNAPSHOT, JOURNAL, BACKUP, MARK].some((name) => existsSync(join(dir, name)));
}

/** A state file under `root`, of any project or stack, that holds a sealed secret; undefined when none does. */
export function sealedStateFile(root: string): string | undefined {
  for (const dir of subfolders(root).flatMap(subfolders)) {
    for (const name of [SNAPSHOT, BACKUP, JOURNAL]) {
      const file = join(dir, name);
      if (existsSync(file) && readFileSync(file, 'utf8').includes('"$secret"')) return file;
    }
  }
  return undefined;
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(dir, d.name));
  } catch {
    return [];
  }
}
