import { UserError } from '../kernel/errors.js';
import type { Disowned, ResourceType } from '../engine/contracts/resource-type.js';
import type { ResourceState } from '../engine/contracts/state.js';
import { describeForgotten, disownRecorded, forgetting, type Forgetting } from '../engine/applying/forget.js';
import { loadResourceTypes } from './catalog.js';
import { openSession } from './session.js';
import type { StateAccess } from './state-access.js';

/** What became of the ownership marks of the object forgotten: none to deal with, kept on request, or what `disown` found. */
type Marks = 'no-marks' | 'kept' | Disowned;

/**
 * `state rm KEY [--keep-marks]`: forgets the record at KEY (an address, or `ADDR~ID` for an object
 * a replacement set aside) and the interrupted operations journaled for it. The remote object
 * stays, and stays billed. plumb's ownership marks on it are removed first, through its type, so
 * that another project or stack can import it; when they cannot be, nothing is changed and the
 * refusal says how to go on. Forgotten first, the object would be one no state records whose
 * marks still say it is managed, and nothing would be left to remove them.
 */
export async function removeFromState(access: StateAccess, key: string, keepMarks: boolean): Promise<void> {
  let forgot: Forgetting | undefined;
  let type: ResourceType | undefined;
  let marks: Marks = 'no-marks';
  await access.change(
    'rm',
    async (snapshot) => {
      forgot = forgetting(snapshot, key);
      type = forgot.record && (await loadResourceTypes([forgot.record.type.split(':')[0]])).get(forgot.record.type);
      if (forgot.record && type?.owner) marks = keepMarks ? 'kept' : await releaseMarks(access, type, forgot.record);
      return forgot.after;
    },
    'edit',
  );
  for (const op of forgot!.pending) process.stdout.write(`${describeForgotten(op)}\n`);
  if (forgot!.record) process.stdout.write(`${removedLine(key, forgot!.record, type, marks)}\n`);
}

/** Removes the record's ownership marks over the connection the manifest's settings make; a failure refuses the whole removal. */
async function releaseMarks(access: StateAccess, type: ResourceType, record: ResourceState): Promise<Disowned> {
  const { file, opts } = await access.where();
  const address = record.address;
  if (!file) {
    throw new UserError(
      `${address}: removing plumb's ownership marks from ${record.id} takes the provider settings of the manifest that manages it; nothing was changed`,
      `give the manifest with -f MANIFEST, or pass --keep-marks to forget ${address} without removing them: ${adoptAnyway(type, record)}`,
    );
  }
  const session = await openSession(file, opts);
  try {
    return await disownRecorded(type, record, session.deps);
  } catch (err) {
    throw new UserError(
      `${address}: could not remove plumb's ownership marks from ${type.token} ${record.id}: ${(err as Error).message}; nothing was changed`,
      `run plumb state rm ${address} again once the ${type.provider} API answers, or pass --keep-marks to forget it without removing them: ${adoptAnyway(type, record)}`,
    );
  } finally {
    await session.close();
  }
}

/** How another project or stack adopts an object whose marks still name this stack. */
function adoptAnyway(type: ResourceType, record: ResourceState): string {
  return `another project or stack adopts it only with plumb import --force ADDRESS ${type.token} ${record.id} (options.import refuses it)`;
}

/** What `state rm` did with the record, and what that means for adopting the object elsewhere. */
function removedLine(key: string, record: ResourceState, type: ResourceType | undefined, marks: Marks): string {
  const removed = `removed ${key} from state`;
  if (marks === 'gone') {
    return (
      `${removed}; ${record.type} ${record.id} was not found remotely (gone, or not seen with these provider settings), so no ownership marks were removed from it; ` +
      `should it still exist, ${adoptAnyway(type!, record)}`
    );
  }
  const kept = `${removed}; ${record.id} still exists remotely (and stays billed) and is not managed by plumb any more`;
  const adopt = `so another project or stack can adopt it with options.import: ${record.id} or plumb import`;
  if (marks === 'removed') return `${kept}; plumb's ownership marks were removed from it, ${adopt}`;
  if (marks === 'unmarked') return `${kept}; it carries no ownership marks of plumb, ${adopt}`;
  if (marks === 'kept') return `${kept}; its ownership marks were kept (--keep-marks) and still name this stack, which can import it again as before; ${adoptAnyway(type!, record)}`;
  return kept;
}
