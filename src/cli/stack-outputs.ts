/**
 * Stack references: another stack's outputs, read from the same state location as this
 * manifest's state. The read takes no lock and writes nothing; sealed outputs are opened with
 * the location's key and stay secrets.
 */
import { UserError } from '../kernel/errors.js';
import { openStore, type StateFlags } from './state-store.js';

/** The outputs of `name` (`stack`, `project/stack` or `org/project/stack`); a missing stack is a UserError naming it. */
export async function readStackOutputs(name: string, opts: StateFlags, manifestDir: string, project: string): Promise<Record<string, unknown>> {
  const parts = name.split('/');
  if (parts.length > 3 || parts.some((p) => !p)) throw new UserError(`stack reference "${name}": expected stack, project/stack or org/project/stack`);
  const stack = parts[parts.length - 1];
  const owner = parts.length > 1 ? parts[parts.length - 2] : project;
  const store = openStore({ ...opts, stack }, manifestDir, owner);
  try {
    const stacks = await store.stacks();
    if (!stacks.includes(stack)) {
      throw new UserError(`stack reference "${name}": project ${owner} has no stack ${stack} at ${store.location}`, `its stacks there: ${stacks.join(', ') || '(none)'}`);
    }
    return (await store.read()).outputs;
  } finally {
    await store.close();
  }
}
