/**
 * Disk: a cloud data disk (UDisk), attached to an instance with a DiskAttachment.
 *
 * The name changes in place (RenameUDisk) and the size grows in place: ResizeUDisk while it is
 * detached, ResizeAttachedDisk through its instance while attached, neither needing a stop. The
 * zone, type, billing and tag cannot change (no Action; UDisk has none for a tag), nor can a disk
 * shrink: those replace it. DescribeUDisk takes one id, so the bulk read lists the region's
 * disks once per pass and picks. Import by the disk id (`bsm-…`).
 */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { autoName, DEFAULT_TAG, deleteListed, nameField, ownedAmong, prefixedId, tagField } from './kit.js';
import { createAndWait } from './create.js';
import { allDisks, describeDisk, failedStatus, isSettled, settledDisk } from './udisk.js';
import type { DiskInfo } from '../../providers/cloud/api/udisk.js';
import { cloudChange, cloudQuote, prepaid } from './cost.js';
import { diskPrice } from '../../providers/cloud/api/prices.js';

const TYPES = { data_disk: 'DataDisk', ssd_data_disk: 'SSDDataDisk', essd_data_disk: 'ESSDDataDisk', rssd_data_disk: 'RSSDDataDisk' } as const;
type DiskType = keyof typeof TYPES;

/** Inputs of a disk. */
export const diskInputs = z
  .object({
    availabilityZone: z.string().min(1).describe('Zone, e.g. `cn-bj2-02`; an instance it attaches to must be in it. Required.'),
    size: z
      .number()
      .int()
      .min(1)
      .max(32000)
      .describe('Size in GB: 1–8000, up to 32000 for `rssd_data_disk`. Required. A larger size grows it in place, attached or not; a smaller one replaces it (a disk only grows).'),
    diskType: z
      .enum(['data_disk', 'ssd_data_disk', 'essd_data_disk', 'rssd_data_disk'])
      .optional()
      .describe('`data_disk`, `ssd_data_disk`, `essd_data_disk` or `rssd_data_disk`. Default `data_disk`.'),
    chargeType: z.enum(['month', 'year', 'dynamic']).optional().describe('Billing: `month`, `year` or `dynamic` (hourly). Default `dynamic`, as the API.'),
    name: nameField(),
    tag: tagField(),
  })
  .superRefine((v, ctx) => {
    if (typeof v.size === 'number' && v.size > 8000 && v.diskType !== 'rssd_data_disk')
      ctx.addIssue({ code: 'custom', path: ['size'], message: `size ${v.size} GB is over 8000, the most for ${v.diskType ?? 'data_disk'} (rssd_data_disk goes to 32000)` });
  });

/** Inputs of a disk. */
export type DiskInputs = z.output<typeof diskInputs>;

/** What is read back about a disk. */
export const diskOutputs = z.object({
  diskId: z.string().describe('Disk id, e.g. `bsm-1a2b3c4d`.'),
  availabilityZone: z.string().describe('Zone.'),
  size: z.number().describe('Size, GB.'),
  diskType: z.string().describe('Type (`data_disk`, `ssd_data_disk`, ...).'),
  chargeType: z.string().describe('`month`, `year` or `dynamic`.'),
  name: z.string().describe('Name.'),
  tag: z.string().describe('Tag.'),
  status: z.string().describe('`Available`, `InUse`, `Attaching`, `Detaching`, ...'),
  instanceId: z.string().describe('Instance it is attached to, empty when detached.'),
  deviceName: z.string().describe('Device on that instance (`/dev/vdc`), empty when detached.'),
  createTime: z.string().describe('When it was made (RFC 3339).'),
  expireTime: z.string().describe('When the billing period ends (RFC 3339), empty when none.'),
});

/** Observed disk. */
export type DiskOutputs = z.output<typeof diskOutputs>;

function typeOf(wire: unknown): string {
  const found = Object.entries(TYPES).find(([, w]) => w === wire);
  return found ? found[0] : str(wire);
}

function toOutputs(d: DiskInfo): DiskOutputs {
  return {
    diskId: d.UDiskId,
    availabilityZone: str(d.Zone),
    size: Number(d.Size ?? 0),
    diskType: typeOf(d.DiskType),
    chargeType: str(d.ChargeType).toLowerCase(),
    name: str(d.Name),
    tag: str(d.Tag) || DEFAULT_TAG,
    status: str(d.Status),
    instanceId: str(d.UHostId),
    deviceName: str(d.DeviceName),
    createTime: rfc3339(d.CreateTime),
    expireTime: d.ExpiredTime ? rfc3339(d.ExpiredTime) : '',
  };
}

/** Whether a listed disk is the one these inputs (and this name) ask for. */
function isFor(d: DiskInfo, name: string, inputs: DiskInputs): boolean {
  return d.Name === name && d.Zone === inputs.availabilityZone;
}

const upper = (v: string) => v.charAt(0).toUpperCase() + v.slice(1);

/** The Disk resource type. */
export const disk: ResourceType<DiskInputs, DiskOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/disk:Disk',
  provider: 'cloud',
  description: 'A cloud data disk (UDisk); renamed and grown in place, attached with a DiskAttachment. Import id: the disk id (`bsm-…`).',
  inputs: diskInputs,
  outputs: diskOutputs,
  diff: {
    computedInputs: ['name'],
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { diskType: 'data_disk', chargeType: 'dynamic', tag: DEFAULT_TAG }),
    remoteManaged: ['status', 'instanceId', 'deviceName', 'createTime', 'expireTime'],
  },
  replace: {
    on: [
      { path: 'availabilityZone', reason: 'a disk cannot move to another zone (no API Action)' },
      { path: 'diskType', reason: "a disk's type is fixed when it is made" },
      { path: 'chargeType', reason: "no Action changes a disk's billing period" },
      { path: 'tag', reason: 'UDisk has no Action that retags a disk' },
    ],
    when: {
      inputs: ['size'],
      rules: (prior, desired) => (desired.size < prior.size ? [{ path: 'size', reason: 'a disk only grows (ResizeUDisk and ResizeAttachedDisk take a larger size)' }] : []),
    },
  },
  provisioning: {
    ready: (outputs) => isSettled(String(outputs.status)),
    failed: (outputs) => failedStatus(String(outputs.status)),
    // The API lists a new disk at once, Initializating (sic) until it is Available.
    appearsWithinMs: 0,
  },
  cost: {
    quote: (inputs, ctx) =>
      cloudQuote(ctx, diskPrice, inputs.chargeType ?? 'dynamic', { Zone: inputs.availabilityZone, Size: inputs.size, DiskType: TYPES[(inputs.diskType ?? 'data_disk') as DiskType] }),
    source: 'DescribeUDiskPrice',
    change: async (prior, desired, ctx) =>
      prepaid(prior.outputs.chargeType) && desired.size > prior.outputs.size
        ? cloudChange(ctx, 'DescribeUDiskUpgradePrice', { Zone: prior.outputs.availabilityZone, SourceId: prior.id, Size: desired.size })
        : undefined,
  },
  importId: prefixedId('bsm', 'disk'),

  create: (ctx, inputs) =>
    createAndWait(ctx, {
      what: 'disk',
      action: 'CreateUDisk',
      params: {
        Zone: inputs.availabilityZone,
        Name: inputs.name ?? autoName(ctx.address, ctx.operationToken),
        Size: inputs.size,
        DiskType: TYPES[(inputs.diskType ?? 'data_disk') as DiskType],
        ChargeType: upper(inputs.chargeType ?? 'dynamic'),
        Tag: inputs.tag,
      },
      idAt: 'UDiskId[0]',
      within: 0,
      findOwned: (order) => disk.findOwned!(ctx, inputs, order),
      settle: async (id) => toOutputs(await settledDisk(ctx, id)),
    }),

  async read(ctx, id) {
    const seen = await describeDisk(ctx, id);
    return seen && toOutputs(seen);
  },

  async readMany(ctx, targets) {
    const byId = new Map((await ctx.shared('cloud:udisks', () => allDisks(ctx))).map((d) => [d.UDiskId, d]));
    const out = new Map<string, DiskOutputs | undefined>();
    for (const t of targets) {
      const found = byId.get(t.id);
      if (found) out.set(t.id, toOutputs(found));
    }
    return out;
  },

  async list(ctx) {
    return (await allDisks(ctx)).map((d) => ({ id: d.UDiskId, outputs: toOutputs(d) }));
  },

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const name = inputs.name ?? autoName(ctx.address, ctx.operationToken);
    const found = ownedAmong(
      `disk named "${name}"`,
      await allDisks(ctx),
      (d) => isFor(d, name, inputs),
      order,
      (d) => d.UDiskId,
    );
    return found && { id: found.UDiskId, outputs: toOutputs(found) };
  },

  async update(ctx, id, _prior, desired) {
    const live = await settledDisk(ctx, id);
    if (desired.name !== undefined && desired.name !== live.Name) await ctx.client.call('RenameUDisk', { Zone: live.Zone, UDiskId: id, UDiskName: desired.name });
    if (desired.size > Number(live.Size)) {
      if (live.Status === 'InUse') await ctx.client.call('ResizeAttachedDisk', { Zone: live.Zone, UHostId: live.UHostId, DiskId: id, DiskSpace: desired.size });
      else await ctx.client.call('ResizeUDisk', { Zone: live.Zone, UDiskId: id, Size: desired.size });
    }
    return toOutputs(await settledDisk(ctx, id));
  },

  async delete(ctx, id) {
    const exists = async () => (await describeDisk(ctx, id)) !== undefined;
    if (!(await exists())) return;
    const live = await settledDisk(ctx, id);
    await deleteListed(ctx, `disk ${id}`, exists, () => ctx.client.call('DeleteUDisk', { Zone: live.Zone, UDiskId: id }));
  },
};
