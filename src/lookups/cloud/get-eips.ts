/** getEips: elastic IPs. */
import * as z from 'zod';
import { EIP_LISTING, type EipInfo } from '../../providers/cloud/api/eip.js';
import { describeAll } from '../../providers/cloud/api/listing.js';
import { int, rfc3339, snake, str } from '../../providers/cloud/wire.js';
import { cloudLookup, filterItems, idsArg, ipSetElement, listResultBase, nameRegexArg, outputFileArg, summary, writeOutputFile } from './kit.js';

const argsShape = {
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const eip = z.object({
  id: z.string().describe('EIP id (upstream leaves it out of the element; it is the same as in ids).'),
  name: z.string().describe('Name.'),
  bandwidth: z.number().int().describe('Bandwidth, Mbps.'),
  chargeType: z.string().describe('Billing, snake_case.'),
  chargeMode: z.string().describe('`traffic`, `bandwidth` or `share_bandwidth`.'),
  shareBandwidthPackageId: z.string().describe('Shared bandwidth package id (empty unless shared).'),
  shareBandwidthPackageName: z.string().describe('Shared bandwidth package name (empty unless shared).'),
  shareBandwidth: z.number().int().describe('Shared bandwidth, Mbps (0 unless shared).'),
  remark: z.string().describe('Remark.'),
  tag: z.string().describe('Business group.'),
  status: z.string().describe('`used`, `free` or `freeze`.'),
  createTime: z.string().describe('RFC 3339.'),
  expireTime: z.string().describe('RFC 3339.'),
  ipSet: z.array(ipSetElement).describe('Addresses and their lines.'),
});

const result = z.object({ ...argsShape, ...listResultBase, eips: z.array(eip).describe('The matching EIPs.') });

/** Lists elastic IPs; ids go to the API as EIPIds.N, nameRegex is applied here. */
export const getEips = cloudLookup({
  name: 'getEips',
  description: 'Elastic IPs, filtered by ids and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await describeAll<EipInfo>(ctx.client, EIP_LISTING, { EIPIds: args.ids });
    const eips = filterItems(all, { nameRegex: args.nameRegex, nameOf: (e) => e.Name }).map((e) => {
      const shared = e.PayMode === 'ShareBandwidth' || e.BandwidthType === 1 ? e.ShareBandwidthSet : undefined;
      return {
        id: e.EIPId,
        name: str(e.Name),
        bandwidth: int(e.Bandwidth),
        chargeType: snake(e.ChargeType),
        chargeMode: snake(e.PayMode),
        shareBandwidthPackageId: str(shared?.ShareBandwidthId),
        shareBandwidthPackageName: str(shared?.ShareBandwidthName),
        shareBandwidth: int(shared?.ShareBandwidth),
        remark: str(e.Remark),
        tag: str(e.Tag),
        status: str(e.Status),
        createTime: rfc3339(e.CreateTime),
        expireTime: rfc3339(e.ExpireTime),
        ipSet: (e.EIPAddr ?? []).map((a) => ({ ip: str(a.IP), internetType: str(a.OperatorName) })),
      };
    });
    await writeOutputFile(ctx, args.outputFile, eips);
    return { ...args, ...summary(eips.map((e) => e.id)), eips };
  },
});
