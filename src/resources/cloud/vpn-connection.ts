/**
 * VpnConnection: an IPSec tunnel from a VPN gateway to a customer gateway (the API's VPN tunnel).
 *
 * Every IKE and IPSec setting, the pre-shared key included, changes in place in one
 * UpdateVPNTunnelAttribute call carrying the whole set. That Action takes no name, tag or remark
 * and no other changes them, so those replace the connection (never a change silently left
 * unapplied). The key is a secret: the API returns it in clear, plumb keeps it sealed. Import
 * by the tunnel id (`vpntunnel-…`).
 */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared, unreportedFromManifest } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { APPEARS_WITHIN_MS, autoName, DEFAULT_TAG, deleteListed, listingVerbs, ownedAmong, prefixedId, vanished, type CloudCtx } from './kit.js';
import { createAndWait } from './create.js';
import { describeAll, describeOne } from '../../providers/cloud/api/listing.js';
import { TUNNEL_LISTING as LISTING, type TunnelInfo } from '../../providers/cloud/api/vpn.js';
import { TUNNEL_DEFAULTS, tunnelParams, vpnConnectionInputs, type VpnConnectionInputs } from './vpn-connection-inputs.js';

export { vpnConnectionInputs, type VpnConnectionInputs };

const NO_ACTION = 'UpdateVPNTunnelAttribute takes no name, tag or remark, and no other Action changes them';
const text = (what: string) => z.string().describe(what);

/** What is read back about a VPN connection. */
export const vpnConnectionOutputs = z.object({
  connectionId: text('Tunnel id, e.g. `vpntunnel-1a2b3c4d`.'),
  vpnGatewayId: text('Its VPN gateway.'),
  customerGatewayId: text('Its customer gateway.'),
  vpcId: text('Its VPC.'),
  name: text('Name.'),
  tag: text('Tag.'),
  remark: text('Remark.'),
  preSharedKey: text('The pre-shared key as the API holds it. A secret.'),
  ikeVersion: text('`ikev1` or `ikev2`.'),
  ikeExchangeMode: text('IKE v1 negotiation mode.'),
  ikeEncryptionAlgorithm: text('IKE encryption.'),
  ikeAuthenticationAlgorithm: text('IKE authentication.'),
  ikeDhGroup: text('IKE Diffie-Hellman group.'),
  ikeSaLifetime: z.number().describe('IKE SA lifetime (seconds).'),
  ikeLocalId: text('Local identity.'),
  ikeRemoteId: text('Remote identity.'),
  ipsecLocalSubnetIds: z.array(z.string()).describe('Local subnets.'),
  ipsecRemoteSubnets: z.array(z.string()).describe("The customer's ranges."),
  ipsecProtocol: text('`esp` or `ah`.'),
  ipsecEncryptionAlgorithm: text('IPSec encryption.'),
  ipsecAuthenticationAlgorithm: text('IPSec authentication.'),
  ipsecPfsDhGroup: text('PFS group or `disable`.'),
  ipsecSaLifetime: z.number().describe('IPSec SA lifetime (seconds).'),
  ipsecSaLifetimeBytes: z.number().optional().describe('IPSec SA lifetime (bytes), when set.'),
  createTime: text('When it was made (RFC 3339).'),
});

/** Observed VPN connection. */
export type VpnConnectionOutputs = z.output<typeof vpnConnectionOutputs>;

function toOutputs(t: TunnelInfo): VpnConnectionOutputs {
  const ike = t.IKEData ?? {};
  const ipsec = t.IPSecData ?? {};
  const bytes = str(ipsec.IPSecSALifetimeBytes);
  return {
    connectionId: t.VPNTunnelId,
    vpnGatewayId: str(t.VPNGatewayId),
    customerGatewayId: str(t.RemoteVPNGatewayId),
    vpcId: str(t.VPCId),
    name: str(t.VPNTunnelName),
    tag: str(t.Tag) || DEFAULT_TAG,
    remark: str(t.Remark),
    preSharedKey: str(ike.IKEPreSharedKey),
    ikeVersion: str(ike.IKEVersion).toLowerCase().replace(/\s/g, ''),
    ikeExchangeMode: str(ike.IKEExchangeMode),
    ikeEncryptionAlgorithm: str(ike.IKEEncryptionAlgorithm),
    ikeAuthenticationAlgorithm: str(ike.IKEAuthenticationAlgorithm),
    ikeDhGroup: str(ike.IKEDhGroup),
    ikeSaLifetime: Number(ike.IKESALifetime ?? 0),
    ikeLocalId: str(ike.IKELocalId),
    ikeRemoteId: str(ike.IKERemoteId),
    ipsecLocalSubnetIds: (ipsec.IPSecLocalSubnetIds as string[] | undefined) ?? [],
    ipsecRemoteSubnets: (ipsec.IPSecRemoteSubnets as string[] | undefined) ?? [],
    ipsecProtocol: str(ipsec.IPSecProtocol),
    ipsecEncryptionAlgorithm: str(ipsec.IPSecEncryptionAlgorithm),
    ipsecAuthenticationAlgorithm: str(ipsec.IPSecAuthenticationAlgorithm),
    ipsecPfsDhGroup: str(ipsec.IPSecPFSDhGroup).toLowerCase(),
    ipsecSaLifetime: Number(ipsec.IPSecSALifetime ?? 0),
    ...(bytes ? { ipsecSaLifetimeBytes: Number(bytes) } : {}),
    createTime: rfc3339(t.CreateTime),
  };
}

const describe = (ctx: CloudCtx, id: string) => describeOne<TunnelInfo>(ctx.client, LISTING, id);
const onGateway = (ctx: CloudCtx, gw: string) => describeAll<TunnelInfo>(ctx.client, { ...LISTING, params: { VPNGatewayId: gw } });
const isFor = (t: TunnelInfo, name: string, inputs: VpnConnectionInputs) => t.VPNTunnelName === name && t.RemoteVPNGatewayId === inputs.customerGatewayId;

/** The VpnConnection resource type. */
export const vpnConnection: ResourceType<VpnConnectionInputs, VpnConnectionOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/vpnConnection:VpnConnection',
  provider: 'cloud',
  description: 'A VPN connection: an IPSec tunnel from a VPN gateway to a customer gateway, with its IKE and IPSec settings.',
  inputs: vpnConnectionInputs,
  outputs: vpnConnectionOutputs,
  secrets: {
    paths: ['preSharedKey'],
  },
  diff: {
    computedInputs: ['name'],
    // The close action is never reported: an imported connection takes the manifest's.
    asDeclared: (recorded, _outputs, desired, origin) => {
      const defaults: Record<string, unknown> = { ...TUNNEL_DEFAULTS, tag: DEFAULT_TAG, remark: '' };
      if ((recorded.ikeVersion ?? desired.ikeVersion) === 'ikev2') defaults.ikeExchangeMode = recorded.ikeExchangeMode;
      return defaultsAsDeclared(unreportedFromManifest(recorded, desired, ['ipsecCloseAction'], origin), desired, defaults);
    },
    remoteManaged: ['createTime'],
  },
  replace: {
    on: [
      { path: 'vpnGatewayId', reason: 'a tunnel cannot move to another VPN gateway (no API Action)' },
      { path: 'customerGatewayId', reason: 'a tunnel cannot move to another customer gateway (no API Action)' },
      { path: 'vpcId', reason: 'a tunnel cannot move to another VPC (no API Action)' },
      { path: 'name', reason: NO_ACTION },
      { path: 'tag', reason: NO_ACTION },
      { path: 'remark', reason: NO_ACTION },
    ],
  },
  provisioning: {
    // The API lists a new tunnel only once it is provisioned.
    appearsWithinMs: APPEARS_WITHIN_MS,
  },
  cost: { unpriced: "not billed on its own: part of its VPN gateway's price" },
  importId: prefixedId('vpntunnel', 'VPN connection'),

  create: (ctx, inputs) =>
    createAndWait(ctx, {
      what: 'VPN connection',
      action: 'CreateVPNTunnel',
      params: {
        VPNGatewayId: inputs.vpnGatewayId,
        RemoteVPNGatewayId: inputs.customerGatewayId,
        VPCId: inputs.vpcId,
        VPNTunnelName: inputs.name ?? autoName(ctx.address, ctx.operationToken),
        Tag: inputs.tag,
        Remark: inputs.remark,
        ...tunnelParams(inputs),
      },
      idAt: 'VPNTunnelId',
      within: APPEARS_WITHIN_MS,
      findOwned: (order) => vpnConnection.findOwned!(ctx, inputs, order),
      read: (id) => vpnConnection.read(ctx, id),
    }),

  ...listingVerbs<TunnelInfo, VpnConnectionOutputs>(LISTING, (record) => toOutputs(record)),

  // No ownership marks: the tunnel of this name to this customer gateway made since the order.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const name = inputs.name ?? autoName(ctx.address, ctx.operationToken);
    const found = ownedAmong(
      `VPN connection named "${name}"`,
      await onGateway(ctx, inputs.vpnGatewayId),
      (t) => isFor(t, name, inputs),
      order,
      (t) => t.VPNTunnelId,
    );
    return found && { id: found.VPNTunnelId, outputs: toOutputs(found) };
  },

  // The whole IKE and IPSec set in one call (the close action included, which the API needs
  // when the tunnel has none yet).
  async update(ctx, id, _prior, desired) {
    await ctx.client.call('UpdateVPNTunnelAttribute', { VPNTunnelId: id, ...tunnelParams(desired) });
    const after = await describe(ctx, id);
    if (!after) throw vanished('VPN connection', id);
    return toOutputs(after);
  },

  async delete(ctx, id) {
    await deleteListed(
      ctx,
      `VPN connection ${id}`,
      async () => (await describe(ctx, id)) !== undefined,
      () => ctx.client.call('DeleteVPNTunnel', { VPNTunnelId: id }),
    );
  },
};
