/** getVpnCustomerGateways: customer (remote) gateways of IPSec VPN. */
import * as z from 'zod';
import { describeAll } from '../../providers/cloud/api/listing.js';
import { REMOTE_GATEWAY_LISTING, type RemoteGatewayInfo } from '../../providers/cloud/api/vpn.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { cloudLookup, filterItems, idsArg, listResultBase, nameRegexArg, outputFileArg, summary, tagArg, writeOutputFile } from './kit.js';

const argsShape = {
  tag: tagArg,
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const gateway = z.object({
  id: z.string().describe('Customer gateway id.'),
  name: z.string().describe('Name.'),
  ipAddress: z.string().describe('Public address of the remote end.'),
  remark: z.string().describe('Remark.'),
  tag: z.string().describe('Business group.'),
  createTime: z.string().describe('RFC 3339.'),
});

const result = z.object({ ...argsShape, ...listResultBase, vpnCustomerGateways: z.array(gateway).describe('The matching customer gateways.') });

/** Lists customer gateways; ids (RemoteVPNGatewayIds.N) and tag go to the API, nameRegex is applied here. */
export const getVpnCustomerGateways = cloudLookup({
  name: 'getVpnCustomerGateways',
  description: 'Customer (remote) VPN gateways, filtered by tag, ids and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await describeAll<RemoteGatewayInfo>(ctx.client, REMOTE_GATEWAY_LISTING, { RemoteVPNGatewayIds: args.ids, Tag: args.tag });
    const vpnCustomerGateways = filterItems(all, { nameRegex: args.nameRegex, nameOf: (g) => g.RemoteVPNGatewayName }).map((g) => ({
      id: g.RemoteVPNGatewayId,
      name: str(g.RemoteVPNGatewayName),
      ipAddress: str(g.RemoteVPNGatewayAddr),
      remark: str(g.Remark),
      tag: str(g.Tag),
      createTime: rfc3339(g.CreateTime),
    }));
    await writeOutputFile(ctx, args.outputFile, vpnCustomerGateways);
    return { ...args, ...summary(vpnCustomerGateways.map((g) => g.id)), vpnCustomerGateways };
  },
});
