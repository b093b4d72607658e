/**
 * DiskAttachment: a disk attached to an instance of its zone.
 *
 * Attaching passes through `Attaching` to `InUse`, detaching through `Detaching` to `Available`.
 * Nothing about an attachment changes in place: another disk or instance is another attachment,
 * and a disk attaches to one instance at a time, so moving it detaches it first. Detaching can
 * stop the instance first (and start it again) where the operating system needs it. Import by
 * `<disk_id>:<instance_id>`.
 */
import * as z from 'zod';
import { isRemote, RemoteError, UserError } from '../../kernel/errors.js';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { str } from '../../providers/cloud/wire.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { defaultsAsDeclared } from '../as-declared.js';
import { whileStopped } from './instance-power.js';
import { APPEARS_WITHIN_MS, type CloudCtx } from './kit.js';
import { allDisks, describeDisk, settledDisk, waitDisk } from './udisk.js';
import type { DiskInfo } from '../../providers/cloud/api/udisk.js';

/** Inputs of a disk attachment. */
export const diskAttachmentInputs = z.object({
  diskId: z.string().min(1).describe('Id of the disk (`bsm-…`). Required.'),
  instanceId: z.string().min(1).describe("Id of the instance (`uhost-…`), in the disk's zone. Required. Changing it detaches the disk and attaches it there."),
  stopInstanceBeforeDetaching: z
    .boolean()
    .optional()
    .describe(
      'Stop the instance before detaching, and start it again after. Default false. How plumb detaches, never sent to the API: a change, adding it included, is only recorded, with no call, and the plan says so.',
    ),
});

/** Inputs of a disk attachment. */
export type DiskAttachmentInputs = z.output<typeof diskAttachmentInputs>;

/** What is read back about a disk attachment. */
export const diskAttachmentOutputs = z.object({
  diskId: z.string().describe('Id of the disk.'),
  instanceId: z.string().describe('Id of the instance.'),
  deviceName: z.string().describe('Device on the instance, e.g. `/dev/vdc`.'),
});

/** Observed disk attachment. */
export type DiskAttachmentOutputs = z.output<typeof diskAttachmentOutputs>;

const FORMAT = '<disk_id>:<instance_id>';

/** Splits `<disk_id>:<instance_id>`. */
function parseId(id: string): { diskId: string; instanceId: string } {
  const [diskId, instanceId, extra] = id.split(':');
  if (!/^bsm?-[A-Za-z0-9]+$/.test(diskId ?? '') || !/^uhost-[A-Za-z0-9]+$/.test(instanceId ?? '') || extra !== undefined) {
    throw new UserError(`invalid disk attachment id "${id}": expected ${FORMAT}, e.g. bsm-1a2b3c4d:uhost-5e6f7a8b`);
  }
  return { diskId, instanceId };
}

/** The attachment a disk's record shows, if it is settled on an instance. */
function attached(d: DiskInfo | undefined): DiskAttachmentOutputs | undefined {
  if (!d || d.Status !== 'InUse' || !d.UHostId) return undefined;
  return { diskId: d.UDiskId, instanceId: str(d.UHostId), deviceName: str(d.DeviceName) };
}

async function readAttachment(ctx: CloudCtx, id: string): Promise<DiskAttachmentOutputs | undefined> {
  const { diskId, instanceId } = parseId(id);
  const seen = attached(await describeDisk(ctx, diskId));
  return seen?.instanceId === instanceId ? seen : undefined;
}

/** Waits until the disk is InUse on the instance; attached to another one is a conflict. */
async function waitAttached(ctx: CloudCtx, diskId: string, instanceId: string): Promise<DiskAttachmentOutputs> {
  const seen = await waitDisk(ctx, diskId, (d) => d.Status === 'InUse' || d.Status === 'Available', `attached to ${instanceId}`);
  const on = attached(seen);
  if (on?.instanceId !== instanceId) {
    throw new RemoteError('conflict', on ? `disk ${diskId} is attached to ${on.instanceId}; detach it there first` : `disk ${diskId} did not attach to ${instanceId}`, { provider: 'cloud' });
  }
  return on;
}

/** The DiskAttachment resource type. */
export const diskAttachment: ResourceType<DiskAttachmentInputs, DiskAttachmentOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/diskAttachment:DiskAttachment',
  provider: 'cloud',
  description: 'A disk attached to an instance (AttachUDisk), detached on delete. Import id: `<disk_id>:<instance_id>`.',
  inputs: diskAttachmentInputs,
  outputs: diskAttachmentOutputs,
  diff: {
    // How plumb detaches, never sent to the API: a change (one added to an attachment made without
    // it included) is only recorded, and shown in the plan as such.
    recordOnly: ['stopInstanceBeforeDetaching'],
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { stopInstanceBeforeDetaching: false }),
    remoteManaged: ['deviceName'],
  },
  replace: {
    on: [
      { path: 'diskId', reason: 'an attachment is of one disk: another disk is another attachment' },
      { path: 'instanceId', reason: 'an attached disk cannot move: DetachUDisk, then AttachUDisk' },
    ],
    // A disk attaches to one instance at a time: the old attachment must go first.
    holds: [{ what: 'attachment of a disk', paths: ['diskId'] }],
  },
  provisioning: {
    // An attachment reads as one only once the disk is InUse on the instance, which upstream allows
    // three minutes for: until then an attachment not read is no evidence that the attach did nothing.
    appearsWithinMs: APPEARS_WITHIN_MS,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: {
    format: FORMAT,
    parse(id) {
      const { diskId, instanceId } = parseId(id.trim());
      return `${diskId}:${instanceId}`;
    },
  },

  async create(ctx, inputs) {
    // A disk just made settles first (AttachUDisk refuses one still initializing).
    await settledDisk(ctx, inputs.diskId);
    try {
      await ctx.client.call('AttachUDisk', { UDiskId: inputs.diskId, HostId: inputs.instanceId });
    } catch (err) {
      // An attach sent again after a lost answer meets the first one: waiting tells whether it was ours.
      if (!isRemote(err, 'conflict')) throw err;
    }
    const id = `${inputs.diskId}:${inputs.instanceId}`;
    ctx.recordId(id);
    return { id, outputs: await waitAttached(ctx, inputs.diskId, inputs.instanceId) };
  },

  read: (ctx, id) => readAttachment(ctx, id),

  async readMany(ctx, targets) {
    const byDisk = new Map((await ctx.shared('cloud:udisks', () => allDisks(ctx))).map((d) => [d.UDiskId, d]));
    const out = new Map<string, DiskAttachmentOutputs | undefined>();
    for (const t of targets) {
      const { diskId, instanceId } = parseId(t.id);
      // Listed but detached or on another instance: this attachment is gone.
      if (byDisk.has(diskId)) {
        const on = attached(byDisk.get(diskId));
        out.set(t.id, on?.instanceId === instanceId ? on : undefined);
      }
    }
    return out;
  },

  async list(ctx) {
    const all = (await allDisks(ctx)).map(attached).filter((a) => a !== undefined);
    return all.map((a) => ({ id: `${a.diskId}:${a.instanceId}`, outputs: a }));
  },

  // The id says what the attachment is: an interrupted attach made this one if the disk is on that instance.
  async findOwned(ctx, inputs) {
    if (!inputs) return undefined;
    const id = `${inputs.diskId}:${inputs.instanceId}`;
    const seen = await readAttachment(ctx, id);
    return seen && { id, outputs: seen };
  },

  async update(ctx, id) {
    const seen = await readAttachment(ctx, id);
    if (!seen) throw new RemoteError('not-found', `disk attachment ${id} no longer exists`, { provider: 'cloud' });
    return seen;
  },

  async delete(ctx, id, prior) {
    const { diskId, instanceId } = parseId(id);
    const live = await describeDisk(ctx, diskId);
    if (!live || live.UHostId !== instanceId) return;
    await settledDisk(ctx, diskId);
    const detach = async () => {
      try {
        await ctx.client.call('DetachUDisk', { UDiskId: diskId, HostId: instanceId });
      } catch (err) {
        // 17060 (detach failed) and 17061 (detach in progress) mean waiting, as the API asks.
        if (!isRemote(err, 'conflict')) throw err;
      }
      await waitDisk(ctx, diskId, (d) => d.UHostId !== instanceId || d.Status === 'Available', `detached from ${instanceId}`);
    };
    if (prior?.inputs?.stopInstanceBeforeDetaching) await whileStopped(ctx, instanceId, detach);
    else await detach();
  },
};
