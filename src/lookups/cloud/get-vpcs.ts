/** getVpcs: virtual private clouds. */
import * as z from 'zod';
import { describeAll } from '../../providers/cloud/api/listing.js';
import { VPC_LISTING, type VpcInfo } from '../../providers/cloud/api/vpc.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { cloudLookup, filterItems, idsArg, listResultBase, nameRegexArg, outputFileArg, summary, tagArg, writeOutputFile } from './kit.js';

const argsShape = {
  tag: tagArg,
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const vpc = z.object({
  id: z.string().describe('VPC id.'),
  name: z.string().describe('Name.'),
  cidrBlocks: z.array(z.string()).describe('Address ranges.'),
  tag: z.string().describe('Business group.'),
  createTime: z.string().describe('RFC 3339.'),
  updateTime: z.string().describe('RFC 3339.'),
});

const result = z.object({ ...argsShape, ...listResultBase, vpcs: z.array(vpc).describe('The matching VPCs.') });

/** Lists VPCs; ids (VPCIds.N) and tag go to the API, nameRegex is applied here. */
export const getVpcs = cloudLookup({
  name: 'getVpcs',
  description: 'VPCs of the region, filtered by tag, ids and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await describeAll<VpcInfo>(ctx.client, VPC_LISTING, { VPCIds: args.ids, Tag: args.tag });
    const vpcs = filterItems(all, { nameRegex: args.nameRegex, nameOf: (v) => v.Name }).map((v) => ({
      id: v.VPCId,
      name: str(v.Name),
      cidrBlocks: v.Network ?? [],
      tag: str(v.Tag),
      createTime: rfc3339(v.CreateTime),
      updateTime: rfc3339(v.UpdateTime),
    }));
    await writeOutputFile(ctx, args.outputFile, vpcs);
    return { ...args, ...summary(vpcs.map((v) => v.id)), vpcs };
  },
});
