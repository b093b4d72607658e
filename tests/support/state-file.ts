import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The state file of a stack in a folder whose state holds one manifest's stacks
 * (`.plumb/<project>/<stack>/state.json`, the project being the manifest's name).
 */
export function stateFile(dir: string, stack = 'default'): string {
  const root = join(dir, '.plumb');
  const found = readdirSync(root)
    .map((project) => join(root, project, stack, 'state.json'))
    .filter((file) => existsSync(file));
  if (found.length !== 1) throw new Error(`expected the state of one manifest's stack "${stack}" in ${root}, found ${found.length}`);
  return found[0];
}
