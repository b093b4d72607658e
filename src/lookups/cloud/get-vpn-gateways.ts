/** getVpnGateways: IPSec VPN gateways. */
import * as z from 'zod';
import { describeAll } from '../../providers/cloud/api/listing.js';
import { VPN_GATEWAY_LISTING, type VpnGatewayInfo } from '../../providers/cloud/api/vpn.js';
import { rfc3339, snake, str } from '../../providers/cloud/wire.js';
import { cloudLookup, filterItems, idsArg, ipSetElement, listResultBase, nameRegexArg, outputFileArg, summary, tagArg, writeOutputFile } from './kit.js';

const argsShape = {
  tag: tagArg,
  vpcId: z.string().min(1).optional().describe('Only gateways of this VPC. Default: any.'),
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const gateway = z.object({
  id: z.string().describe('VPN gateway id.'),
  name: z.string().describe('Name.'),
  grade: z.string().describe('`standard` or `enhanced`.'),
  remark: z.string().describe('Remark.'),
  tag: z.string().describe('Business group.'),
  chargeType: z.string().describe('Billing, snake_case.'),
  autoRenew: z.boolean().describe('Whether it renews automatically.'),
  vpcId: z.string().describe('VPC id.'),
  createTime: z.string().describe('RFC 3339.'),
  expireTime: z.string().describe('RFC 3339.'),
  ipSet: z.array(ipSetElement).describe('The gateway address (one entry).'),
});

const result = z.object({ ...argsShape, ...listResultBase, vpnGateways: z.array(gateway).describe('The matching VPN gateways.') });

/** Lists VPN gateways; ids (VPNGatewayIds.N), VPC and tag go to the API, nameRegex is applied here. */
export const getVpnGateways = cloudLookup({
  name: 'getVpnGateways',
  description: 'IPSec VPN gateways, filtered by VPC, tag, ids and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await describeAll<VpnGatewayInfo>(ctx.client, VPN_GATEWAY_LISTING, { VPNGatewayIds: args.ids, VPCId: args.vpcId, Tag: args.tag });
    const vpnGateways = filterItems(all, { nameRegex: args.nameRegex, nameOf: (g) => g.VPNGatewayName }).map((g) => ({
      id: g.VPNGatewayId,
      name: str(g.VPNGatewayName),
      grade: snake(g.Grade),
      remark: str(g.Remark),
      tag: str(g.Tag),
      chargeType: snake(g.ChargeType),
      autoRenew: g.AutoRenew === 'Yes',
      vpcId: str(g.VPCId),
      createTime: rfc3339(g.CreateTime),
      expireTime: rfc3339(g.ExpireTime),
      ipSet: [{ ip: str(g.EIP), internetType: str(g.EIPType) }],
    }));
    await writeOutputFile(ctx, args.outputFile, vpnGateways);
    return { ...args, ...summary(vpnGateways.map((g) => g.id)), vpnGateways };
  },
});
