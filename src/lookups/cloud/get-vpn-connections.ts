/** getVpnConnections: IPSec VPN tunnels with their IKE and IPSec settings. */
import * as z from 'zod';
import { describeAll } from '../../providers/cloud/api/listing.js';
import { TUNNEL_LISTING, type TunnelInfo } from '../../providers/cloud/api/vpn.js';
import { RemoteError } from '../../kernel/errors.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { Secret } from '../../kernel/values.js';
import { cloudLookup, filterItems, idsArg, listResultBase, nameRegexArg, outputFileArg, summary, tagArg, writeOutputFile } from './kit.js';

const argsShape = {
  tag: tagArg,
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const ikeConfig = z.object({
  ikeVersion: z.string().describe('`ikev1` or `ikev2`.'),
  preSharedKey: z.custom<Secret<string>>((v) => v instanceof Secret).describe('Pre-shared key; secret (written as [secret] to outputFile).'),
  exchangeMode: z.string().describe('`main` or `aggressive`.'),
  encryptionAlgorithm: z.string().describe('IKE encryption algorithm.'),
  authenticationAlgorithm: z.string().describe('IKE authentication algorithm.'),
  localId: z.string().describe('Local id (`auto` or an address).'),
  remoteId: z.string().describe('Remote id (`auto` or an address).'),
  dhGroup: z.string().describe('Diffie-Hellman group.'),
  saLifeTime: z.number().int().describe('IKE SA lifetime, seconds.'),
});

const ipsecConfig = z.object({
  localSubnetIds: z.array(z.string()).describe('Local subnets in the tunnel.'),
  remoteSubnets: z.array(z.string()).describe('Remote address ranges in the tunnel.'),
  protocol: z.string().describe('`esp` or `ah`.'),
  encryptionAlgorithm: z.string().describe('IPSec encryption algorithm.'),
  authenticationAlgorithm: z.string().describe('IPSec authentication algorithm.'),
  pfsDhGroup: z.string().describe('PFS group, or `disable`.'),
  saLifeTime: z.number().int().describe('IPSec SA lifetime, seconds.'),
  saLifeTimeBytes: z.number().int().optional().describe('IPSec SA lifetime, bytes (absent when not set).'),
});

const connection = z.object({
  id: z.string().describe('Tunnel id.'),
  name: z.string().describe('Name.'),
  remark: z.string().describe('Remark.'),
  tag: z.string().describe('Business group.'),
  vpcId: z.string().describe('VPC id.'),
  vpnGatewayId: z.string().describe('VPN gateway id.'),
  customerGatewayId: z.string().describe('Customer (remote) gateway id.'),
  createTime: z.string().describe('RFC 3339.'),
  ikeConfig: z.array(ikeConfig).describe('IKE settings (one entry).'),
  ipsecConfig: z.array(ipsecConfig).describe('IPSec settings (one entry).'),
});

const result = z.object({ ...argsShape, ...listResultBase, vpnConnections: z.array(connection).describe('The matching tunnels.') });

/** A lifetime sent as a numeric string; anything else is an error naming the tunnel and field. */
function lifetime(tunnel: string, field: string, value: unknown): number {
  const text = str(value);
  if (!/^\d+$/.test(text)) throw new RemoteError('invalid', `VPN tunnel ${tunnel}: ${field} "${text}" is not a whole number of seconds or bytes`, { provider: 'cloud' });
  return Number(text);
}

function lowerAuto(value: unknown): string {
  const text = str(value);
  return text === 'Auto' || text === 'Disable' ? text.toLowerCase() : text;
}

function toElement(t: TunnelInfo): z.output<typeof connection> {
  const ike = t.IKEData ?? {};
  const ipsec = t.IPSecData ?? {};
  const bytes = str(ipsec.IPSecSALifetimeBytes);
  return {
    id: t.VPNTunnelId,
    name: str(t.VPNTunnelName),
    remark: str(t.Remark),
    tag: str(t.Tag),
    vpcId: str(t.VPCId),
    vpnGatewayId: str(t.VPNGatewayId),
    customerGatewayId: str(t.RemoteVPNGatewayId),
    createTime: rfc3339(t.CreateTime),
    ikeConfig: [
      {
        ikeVersion: str(ike.IKEVersion).replace(/\s+/g, '').toLowerCase(),
        preSharedKey: new Secret(str(ike.IKEPreSharedKey)),
        exchangeMode: str(ike.IKEExchangeMode),
        encryptionAlgorithm: str(ike.IKEEncryptionAlgorithm),
        authenticationAlgorithm: str(ike.IKEAuthenticationAlgorithm),
        localId: lowerAuto(ike.IKELocalId),
        remoteId: lowerAuto(ike.IKERemoteId),
        dhGroup: str(ike.IKEDhGroup),
        saLifeTime: lifetime(t.VPNTunnelId, 'IKESALifetime', ike.IKESALifetime),
      },
    ],
    ipsecConfig: [
      {
        localSubnetIds: (ipsec.IPSecLocalSubnetIds as string[] | undefined) ?? [],
        remoteSubnets: (ipsec.IPSecRemoteSubnets as string[] | undefined) ?? [],
        protocol: str(ipsec.IPSecProtocol),
        encryptionAlgorithm: str(ipsec.IPSecEncryptionAlgorithm),
        authenticationAlgorithm: str(ipsec.IPSecAuthenticationAlgorithm),
        pfsDhGroup: lowerAuto(ipsec.IPSecPFSDhGroup),
        saLifeTime: lifetime(t.VPNTunnelId, 'IPSecSALifetime', ipsec.IPSecSALifetime),
        ...(bytes ? { saLifeTimeBytes: lifetime(t.VPNTunnelId, 'IPSecSALifetimeBytes', bytes) } : {}),
      },
    ],
  };
}

/** Lists VPN tunnels; ids (VPNTunnelIds.N) and tag go to the API, nameRegex is applied here. */
export const getVpnConnections = cloudLookup({
  name: 'getVpnConnections',
  description: 'IPSec VPN tunnels with their IKE and IPSec settings, filtered by tag, ids and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await describeAll<TunnelInfo>(ctx.client, TUNNEL_LISTING, { VPNTunnelIds: args.ids, Tag: args.tag });
    const vpnConnections = filterItems(all, { nameRegex: args.nameRegex, nameOf: (t) => t.VPNTunnelName }).map(toElement);
    await writeOutputFile(ctx, args.outputFile, vpnConnections);
    return { ...args, ...summary(vpnConnections.map((c) => c.id)), vpnConnections };
  },
});
