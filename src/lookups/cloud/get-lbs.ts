/** getLbs: load balancers. */
import * as z from 'zod';
import { listLbs } from '../../providers/cloud/api/ulb.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { cloudLookup, filterItems, idsArg, ipSetElement, listResultBase, nameRegexArg, outputFileArg, summary, writeOutputFile } from './kit.js';

const argsShape = {
  vpcId: z.string().min(1).optional().describe('Only load balancers in this VPC. Default: any.'),
  subnetId: z.string().min(1).optional().describe('Only load balancers in this subnet. Default: any.'),
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const lb = z.object({
  id: z.string().describe('Load balancer id.'),
  name: z.string().describe('Name.'),
  internal: z.boolean().describe('true for an internal (VPC-only) balancer.'),
  tag: z.string().describe('Business group.'),
  remark: z.string().describe('Remark.'),
  vpcId: z.string().describe('VPC id.'),
  subnetId: z.string().describe('Subnet id.'),
  privateIp: z.string().describe('Private address.'),
  createTime: z.string().describe('RFC 3339.'),
  ipSet: z.array(ipSetElement).describe('Public addresses and their lines.'),
});

const result = z.object({ ...argsShape, ...listResultBase, lbs: z.array(lb).describe('The matching load balancers.') });

/** Lists load balancers; VPC and subnet go to the API, ids and nameRegex are applied here. */
export const getLbs = cloudLookup({
  name: 'getLbs',
  description: 'Load balancers, filtered by VPC, subnet, ids and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await listLbs(ctx.client, { VPCId: args.vpcId, SubnetId: args.subnetId });
    const lbs = filterItems(all, { ids: args.ids, idOf: (l) => l.ULBId, nameRegex: args.nameRegex, nameOf: (l) => str(l.Name) }).map((l) => ({
      id: l.ULBId,
      name: str(l.Name),
      internal: l.ULBType === 'InnerMode',
      tag: str(l.Tag),
      remark: str(l.Remark),
      vpcId: str(l.VPCId),
      subnetId: str(l.SubnetId),
      privateIp: str(l.PrivateIP),
      createTime: rfc3339(l.CreateTime),
      ipSet: (l.IPSet ?? []).map((ip) => ({ ip: str(ip.EIP), internetType: str(ip.OperatorName) })),
    }));
    await writeOutputFile(ctx, args.outputFile, lbs);
    return { ...args, ...summary(lbs.map((l) => l.id)), lbs };
  },
});
