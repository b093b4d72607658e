/** getDisks: cloud disks. */
import * as z from 'zod';
import { listDisks, type DiskInfo } from '../../providers/cloud/api/udisk.js';
import { int, rfc3339, snake, str } from '../../providers/cloud/wire.js';
import { availabilityZoneArg, cloudLookup, filterItems, idsArg, listResultBase, nameRegexArg, outputFileArg, summary, writeOutputFile } from './kit.js';

/** Argument disk types and the API's names for them. */
const DISK_TYPES = {
  data_disk: 'DataDisk',
  ssd_data_disk: 'SSDDataDisk',
  system_disk: 'SystemDisk',
  ssd_system_disk: 'SSDSystemDisk',
  rssd_data_disk: 'RSSDDataDisk',
} as const;

const FROM_WIRE = Object.fromEntries(Object.entries(DISK_TYPES).map(([k, v]) => [v, k])) as Record<string, string>;

const argsShape = {
  availabilityZone: availabilityZoneArg,
  diskType: z
    .enum(['data_disk', 'ssd_data_disk', 'system_disk', 'ssd_system_disk', 'rssd_data_disk'])
    .optional()
    .describe('`data_disk`, `ssd_data_disk`, `system_disk`, `ssd_system_disk` or `rssd_data_disk`. Default: every type.'),
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const disk = z.object({
  id: z.string().describe('Disk id.'),
  availabilityZone: z.string().describe('Zone.'),
  name: z.string().describe('Disk name.'),
  diskSize: z.number().int().describe('Size, GB.'),
  diskType: z.string().describe('Disk type as in the diskType argument (unknown types pass through).'),
  chargeType: z.string().describe('Billing, snake_case.'),
  tag: z.string().describe('Business group.'),
  status: z.string().describe('`Available`, `InUse`…'),
  createTime: z.string().describe('RFC 3339.'),
  expireTime: z.string().describe('RFC 3339.'),
});

const result = z.object({ ...argsShape, ...listResultBase, disks: z.array(disk).describe('The matching disks.') });

/** Lists cloud disks, filtered by zone, type, ids and name. */
export const getDisks = cloudLookup({
  name: 'getDisks',
  description: 'Cloud disks, filtered by zone, type, ids and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await listDisks(ctx.client, { Zone: args.availabilityZone, DiskType: args.diskType && DISK_TYPES[args.diskType] });
    const disks = filterItems(all, { ids: args.ids, idOf: (d) => d.UDiskId, nameRegex: args.nameRegex, nameOf: (d) => d.Name }).map((d) => ({
      id: d.UDiskId,
      availabilityZone: str(d.Zone),
      name: str(d.Name),
      diskSize: int(d.Size),
      diskType: FROM_WIRE[d.DiskType] ?? str(d.DiskType),
      chargeType: snake(d.ChargeType),
      tag: str(d.Tag),
      status: str(d.Status),
      createTime: rfc3339(d.CreateTime),
      expireTime: rfc3339(d.ExpiredTime),
    }));
    await writeOutputFile(ctx, args.outputFile, disks);
    return { ...args, ...summary(disks.map((d) => d.id)), disks };
  },
});
