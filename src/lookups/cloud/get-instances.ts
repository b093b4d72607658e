/** getInstances: cloud hosts. */
import * as z from 'zod';
import { describeAll } from '../../providers/cloud/api/listing.js';
import { HOST_LISTING, type HostInfo } from '../../providers/cloud/api/uhost.js';
import { int, rfc3339, snake, str } from '../../providers/cloud/wire.js';
import { availabilityZoneArg, cloudLookup, filterItems, idsArg, ipSetElement, listResultBase, nameRegexArg, outputFileArg, summary, tagArg, writeOutputFile } from './kit.js';

const argsShape = {
  availabilityZone: availabilityZoneArg,
  tag: tagArg,
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const instance = z.object({
  id: z.string().describe('Host id.'),
  availabilityZone: z.string().describe('Zone.'),
  name: z.string().describe('Host name.'),
  instanceType: z.string().describe('`<machine>-<highcpu|basic|standard|highmem>-<cpu>`, or `n-customized-<cpu>-<memory GB>` for other shapes; empty without CPUs.'),
  cpu: z.number().int().describe('CPU cores.'),
  memory: z.number().int().describe('Memory, GB.'),
  chargeType: z.string().describe('Billing, snake_case.'),
  autoRenew: z.boolean().describe('Whether it renews automatically.'),
  remark: z.string().describe('Remark.'),
  tag: z.string().describe('Business group.'),
  status: z.string().describe('State, e.g. `Running`.'),
  vpcId: z.string().describe('VPC of the private address.'),
  subnetId: z.string().describe('Subnet of the private address.'),
  privateIp: z.string().describe('Private address.'),
  createTime: z.string().describe('RFC 3339.'),
  expireTime: z.string().describe('RFC 3339.'),
  diskSet: z
    .array(
      z.object({
        id: z.string().describe('Disk id.'),
        type: z.string().describe('Disk type as the API reports it, lower-cased (e.g. `cloud_ssd`).'),
        size: z.number().int().describe('Size in GB.'),
        isBoot: z.boolean().describe('True for the boot disk.'),
      }),
    )
    .describe('Disks: id, type, size (GB), isBoot.'),
  ipSet: z.array(ipSetElement).describe('Addresses: ip and type (`Private`, `BGP`…).'),
});

const result = z.object({ ...argsShape, ...listResultBase, instances: z.array(instance).describe('The matching hosts.') });

const FAMILIES: Record<number, string> = { 1: 'highcpu', 2: 'basic', 4: 'standard', 8: 'highmem' };

/** The upstream shape name: family by memory-GB per CPU, or customized. */
export function hostInstanceType(cpu: number, memoryGb: number, machineType: string): string {
  if (cpu === 0) return '';
  const family = memoryGb % cpu === 0 ? FAMILIES[memoryGb / cpu] : undefined;
  return family ? `${machineType.toLowerCase()}-${family}-${cpu}` : `n-customized-${cpu}-${memoryGb}`;
}

/** Lists hosts; ids, zone and tag go to the API, nameRegex is applied here. */
export const getInstances = cloudLookup({
  name: 'getInstances',
  description: 'Cloud hosts, filtered by zone, tag, ids and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await describeAll<HostInfo>(ctx.client, HOST_LISTING, { Zone: args.availabilityZone, Tag: args.tag, UHostIds: args.ids });
    const instances = filterItems(all, { nameRegex: args.nameRegex, nameOf: (h) => h.Name }).map((h) => {
      const priv = (h.IPSet ?? []).find((ip) => ip.Type === 'Private');
      const memoryGb = Math.floor(int(h.Memory) / 1024);
      return {
        id: h.UHostId,
        availabilityZone: str(h.Zone),
        name: str(h.Name),
        instanceType: hostInstanceType(int(h.CPU), memoryGb, str(h.MachineType) || 'n'),
        cpu: int(h.CPU),
        memory: memoryGb,
        chargeType: snake(h.ChargeType),
        autoRenew: h.AutoRenew === 'Yes',
        remark: str(h.Remark),
        tag: str(h.Tag),
        status: str(h.State),
        vpcId: str(priv?.VPCId),
        subnetId: str(priv?.SubnetId),
        privateIp: str(priv?.IP),
        createTime: rfc3339(h.CreateTime),
        expireTime: rfc3339(h.ExpireTime),
        diskSet: (h.DiskSet ?? []).map((d) => ({ id: str(d.DiskId), type: str(d.DiskType).toLowerCase(), size: int(d.Size), isBoot: d.IsBoot === 'True' })),
        ipSet: (h.IPSet ?? []).map((ip) => ({ ip: str(ip.IP), internetType: str(ip.Type) })),
      };
    });
    await writeOutputFile(ctx, args.outputFile, instances);
    return { ...args, ...summary(instances.map((i) => i.id)), instances };
  },
});
