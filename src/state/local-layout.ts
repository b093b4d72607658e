import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The layout of a state folder: `<root>/<project>/<stack>/` for each manifest's stacks, and,
 * from before state was kept per manifest, `<root>/<stack>/`; the key file `<root>/secret.key`
 * serves them all, so that no secret sealed before the move becomes unreadable.
 */

/** Whether a folder holds a stack's state (a snapshot or a journal). */
export function holdsState(dir: string): boolean {
  return existsSync(join(dir, 'state.json')) || existsSync(join(dir, 'journal.jsonl'));
}

/** A state file under `root`, of any project or stack, that holds a sealed secret; undefined when none does. */
export function sealedStateFile(root: string): string | undefined {
  const folders = [root, ...subfolders(root)];
  for (const dir of [...folders, ...folders.slice(1).flatMap(subfolders)]) {
    for (const name of ['state.json', 'journal.jsonl']) {
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
