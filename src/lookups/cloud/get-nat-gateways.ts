/** getNatGateways: NAT gateways. */
import * as z from 'zod';
import { describeAll } from '../../providers/cloud/api/listing.js';
import { NAT_GATEWAY_LISTING, type NatGatewayInfo } from '../../providers/cloud/api/nat.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { cloudLookup, filterItems, idsArg, ipSetElement, listResultBase, nameRegexArg, outputFileArg, summary, writeOutputFile } from './kit.js';

const argsShape = {
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const natGateway = z.object({
  id: z.string().describe('NAT gateway id.'),
  name: z.string().describe('Name.'),
  remark: z.string().describe('Remark.'),
  tag: z.string().describe('Business group.'),
  vpcId: z.string().describe('VPC id.'),
  securityGroup: z.string().describe('Firewall (security group) id.'),
  subnetIds: z.array(z.string()).describe('Subnets whose traffic it carries.'),
  createTime: z.string().describe('RFC 3339.'),
  ipSet: z.array(ipSetElement).describe('Egress addresses and their lines.'),
});

const result = z.object({ ...argsShape, ...listResultBase, natGateways: z.array(natGateway).describe('The matching NAT gateways.') });

/** Lists NAT gateways; ids go to the API as NATGWIds.N, nameRegex is applied here. */
export const getNatGateways = cloudLookup({
  name: 'getNatGateways',
  description: 'NAT gateways, filtered by ids and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await describeAll<NatGatewayInfo>(ctx.client, NAT_GATEWAY_LISTING, { NATGWIds: args.ids });
    const natGateways = filterItems(all, { nameRegex: args.nameRegex, nameOf: (n) => n.NATGWName }).map((n) => ({
      id: n.NATGWId,
      name: str(n.NATGWName),
      remark: str(n.Remark),
      tag: str(n.Tag),
      vpcId: str(n.VPCId),
      securityGroup: str(n.FirewallId),
      subnetIds: (n.SubnetSet ?? []).map((s) => str(s.SubnetworkId)),
      createTime: rfc3339(n.CreateTime),
      // An address entry without resolved IPs is skipped (upstream indexes it and panics).
      ipSet: (n.IPSet ?? []).flatMap((ip) => {
        const first = ip.IPResInfo?.[0];
        return first ? [{ ip: str(first.EIP), internetType: str(first.OperatorName) }] : [];
      }),
    }));
    await writeOutputFile(ctx, args.outputFile, natGateways);
    return { ...args, ...summary(natGateways.map((n) => n.id)), natGateways };
  },
});
