/**
 * IPSecVPN Actions: VPN gateways (create on a VPC with an optional EIP, change the grade, delete),
 * customer (remote) gateways (create, delete: the API has no update), and tunnels (create with
 * their IKE and IPSec settings, UpdateVPNTunnelAttribute for any of them but never the name, tag
 * or remark, delete). DescribeVPNTunnel returns the pre-shared key in clear, as the API does.
 * Unknown ids answer 54002; a gateway with tunnels is not deleted (4238).
 */
import { enumParam } from './actions-compute.js';
import { settleEips } from './actions-eip.js';
import { ApiError, paramError, type ActionContext, type ActionHandler, type ActionRequest } from './request.js';
import { without } from './store.js';
import { label, madeNow, mustFind, newId, parseRange, remark, remove, visible } from './network-objects.js';
import type { Rec } from './seed-util.js';

/** The IPSecVPN service's code for an object that does not exist. */
const NOT_FOUND = 54002;
/** UNet's "tunnels still exist on the VPN gateway", answered for either gateway of a tunnel. */
const HAS_TUNNELS = 4238;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const ALGORITHMS = ['aes128', 'aes192', 'aes256', 'aes512', '3des'];
const HASHES = ['md5', 'sha1', 'sha2-256'];
const GROUPS = ['1', '2', '5', '14', '15', '16'];

const tunnelsOf = (ctx: ActionContext, field: string, id: unknown) => ctx.db.vpnTunnels.filter((t) => t[field] === id);

/** A string-encoded integer parameter within bounds. */
function lifetime(req: ActionRequest, name: string, min: number, max: number): string | undefined {
  const value = req.int(name);
  if (value !== undefined && (value < min || value > max)) throw paramError(name, `must be ${min}-${max}`);
  return value === undefined ? undefined : String(value);
}

/** The IKE fields a call sends, checked; absent ones are left out. */
function ikeParams(req: ActionRequest): Rec {
  const psk = req.str('IKEPreSharedKey');
  if (psk !== undefined && (psk.length > 128 || !/^[A-Za-z0-9!@#$%^&*()_+\-={}[\]:,./'~]+$/.test(psk))) throw paramError('IKEPreSharedKey', "1-128 characters of A-Z a-z 0-9 !@#$%^&*()_+-={}[]:,./'~");
  const out: Rec = {
    IKEVersion: enumParam(req, 'IKEVersion', ['IKE V1', 'IKE V2']),
    IKEPreSharedKey: psk,
    IKEExchangeMode: enumParam(req, 'IKEExchangeMode', ['main', 'aggressive']),
    IKEEncryptionAlgorithm: enumParam(req, 'IKEEncryptionAlgorithm', ALGORITHMS),
    IKEAuthenticationAlgorithm: enumParam(req, 'IKEAuthenticationAlgorithm', HASHES),
    IKEDhGroup: enumParam(req, 'IKEDhGroup', GROUPS),
    IKESALifetime: lifetime(req, 'IKESALifetime', 600, 604800),
    IKELocalId: req.str('IKELocalId'),
    IKERemoteId: req.str('IKERemoteId'),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/** The IPSec fields a call sends, checked; the local subnets must be of the tunnel's VPC. */
function ipsecParams(req: ActionRequest, ctx: ActionContext, vpcId: unknown): Rec {
  const locals = req.list('IPSecLocalSubnetIds');
  if (locals.length > 10) throw paramError('IPSecLocalSubnetIds', 'at most 10 subnets');
  locals.forEach((id, i) => {
    if (!visible(ctx.db.subnets, req, ctx).some((s) => s.SubnetId === id && s.VPCId === vpcId)) throw paramError(`IPSecLocalSubnetIds.${i}`, `${id} is not a subnet of ${String(vpcId)}`);
  });
  const remotes = req.list('IPSecRemoteSubnets');
  if (remotes.length > 20) throw paramError('IPSecRemoteSubnets', 'at most 20 ranges');
  remotes.forEach((cidr, i) => {
    if (!parseRange(cidr)) throw paramError(`IPSecRemoteSubnets.${i}`, `${cidr} is not a network range`);
  });
  const out: Rec = {
    IPSecLocalSubnetIds: locals.length ? locals : undefined,
    IPSecRemoteSubnets: remotes.length ? remotes : undefined,
    IPSecProtocol: enumParam(req, 'IPSecProtocol', ['esp', 'ah']),
    IPSecEncryptionAlgorithm: enumParam(req, 'IPSecEncryptionAlgorithm', ALGORITHMS),
    IPSecAuthenticationAlgorithm: enumParam(req, 'IPSecAuthenticationAlgorithm', HASHES),
    IPSecPFSDhGroup: enumParam(req, 'IPSecPFSDhGroup', ['disable', ...GROUPS]),
    IPSecSALifetime: lifetime(req, 'IPSecSALifetime', 1200, 604800),
    IPSecSALifetimeBytes: lifetime(req, 'IPSecSALifetimeBytes', 8000, 20000000),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/** IKE V2 has no `auto` identities: both ends must be named. */
function checkIdentities(ike: Rec): void {
  if (ike.IKEVersion !== 'IKE V2') return;
  for (const key of ['IKELocalId', 'IKERemoteId']) if (ike[key] === undefined || ike[key] === 'auto') throw paramError(key, 'IKE V2 needs an IP address or domain, not auto');
}

function createTunnel(req: ActionRequest, ctx: ActionContext): Rec {
  const gw = mustFind(ctx.db.vpnGateways, req, ctx, 'VPNGatewayId', 'VPNGatewayId', NOT_FOUND, 'VPN gateway');
  const remote = mustFind(ctx.db.remoteGateways, req, ctx, 'RemoteVPNGatewayId', 'RemoteVPNGatewayId', NOT_FOUND, 'remote VPN gateway');
  const vpcId = req.required('VPCId');
  if (gw.VPCId !== vpcId) throw paramError('VPCId', `VPN gateway ${String(gw.VPNGatewayId)} is in ${String(gw.VPCId)}`);
  for (const name of ['VPNTunnelName', 'IKEVersion', 'IKEPreSharedKey', 'IPSecLocalSubnetIds.0', 'IPSecRemoteSubnets.0']) req.required(name);
  const ike = {
    IKEExchangeMode: 'main',
    IKEEncryptionAlgorithm: 'aes128',
    IKEAuthenticationAlgorithm: 'sha1',
    IKEDhGroup: '15',
    IKESALifetime: '86400',
    IKELocalId: 'auto',
    IKERemoteId: 'auto',
    ...ikeParams(req),
  };
  checkIdentities(ike);
  const ipsec = {
    IPSecProtocol: 'esp',
    IPSecEncryptionAlgorithm: 'aes128',
    IPSecAuthenticationAlgorithm: 'sha1',
    IPSecPFSDhGroup: 'disable',
    IPSecSALifetime: '3600',
    IPSecSALifetimeBytes: '',
    ...ipsecParams(req, ctx, vpcId),
  };
  const tunnel: Rec = {
    ...madeNow(req, ctx),
    VPNTunnelId: newId('vpntunnel'),
    VPNTunnelName: label(req, 'VPNTunnelName'),
    Tag: label(req, 'Tag') ?? 'Default',
    Remark: remark(req) ?? '',
    VPCId: vpcId,
    VPCName: ctx.db.vpcs.find((v) => v.VPCId === vpcId)?.Name,
    VPNGatewayId: gw.VPNGatewayId,
    VPNGatewayName: gw.VPNGatewayName,
    RemoteVPNGatewayId: remote.RemoteVPNGatewayId,
    RemoteVPNGatewayName: remote.RemoteVPNGatewayName,
    IKEData: ike,
    IPSecData: ipsec,
    _closeAction: enumParam(req, 'IPSecCloseAction', ['none', 'restart']) ?? 'none',
  };
  ctx.db.vpnTunnels.push(tunnel);
  return { VPNTunnelId: tunnel.VPNTunnelId };
}

/** A listing of the visible records of the scope, by an id list and exact filters, paged by 20. */
function listing(table: (ctx: ActionContext) => Rec[], idsParam: string, idField: string, filters: string[], shape: (ctx: ActionContext, r: Rec) => Rec = (_c, r) => r): ActionHandler {
  return (req, ctx) => {
    settleEips(ctx);
    const ids = req.list(idsParam);
    const wanted = filters.map((f) => [f, req.str(f)] as const);
    const matches = visible(table(ctx), req, ctx).filter((r) => (!ids.length || ids.includes(String(r[idField]))) && wanted.every(([f, v]) => v === undefined || r[f] === v));
    const { items, total } = req.page(matches, 20);
    return { DataSet: items.map((r) => without(shape(ctx, r), 'Region', 'ProjectId')), TotalCount: total };
  };
}

/** IPSecVPN Actions by name. */
export const ipsecVpnActions: Record<string, ActionHandler> = {
  CreateVPNGateway(req, ctx) {
    settleEips(ctx);
    const vpc = mustFind(ctx.db.vpcs, req, ctx, 'VPCId', 'VPCId', NOT_FOUND, 'VPC');
    const name = label(req, 'VPNGatewayName') ?? req.required('VPNGatewayName');
    const grade = enumParam(req, 'Grade', ['Standard', 'Enhanced']) ?? req.required('Grade');
    const charge = enumParam(req, 'ChargeType', ['Year', 'Month', 'Dynamic', 'Trial']) ?? 'Month';
    const eipId = req.str('EIPId');
    const eip = eipId === undefined ? undefined : visible(ctx.db.eips, req, ctx).find((e) => e.EIPId === eipId);
    if (eipId !== undefined && !eip) throw new ApiError(4210, `EIP [${eipId}] not exists`);
    if (eip && (eip.Status !== 'free' || eip._binding)) throw new ApiError(4154, `EIP [${eipId}] is already bound or being bound`);
    const expires = new Date(ctx.now);
    expires.setUTCMonth(expires.getUTCMonth() + (charge === 'Year' ? 12 : 1) * Math.max(req.int('Quantity') ?? 1, 1));
    const gw: Rec = {
      ...madeNow(req, ctx),
      VPNGatewayId: newId('vpngw'),
      VPNGatewayName: name,
      Grade: grade,
      Tag: label(req, 'Tag') ?? 'Default',
      Remark: remark(req) ?? '',
      ChargeType: charge,
      AutoRenew: 'Yes',
      VPCId: vpc.VPCId,
      VPCName: vpc.Name,
      ExpireTime: charge === 'Dynamic' ? 0 : Math.floor(expires.getTime() / 1000),
      _made: true,
    };
    ctx.db.vpnGateways.push(gw);
    if (eip) Object.assign(eip, { Status: 'used', Resource: { ResourceType: 'vpngw', ResourceID: gw.VPNGatewayId, ResourceName: name, EIPId: eip.EIPId } });
    return { VPNGatewayId: gw.VPNGatewayId };
  },

  DescribeVPNGateway: listing(
    (ctx) => ctx.db.vpnGateways,
    'VPNGatewayIds',
    'VPNGatewayId',
    ['Tag', 'VPCId'],
    (ctx, gw) => {
      if (!gw._made) return gw;
      // A gateway made here reports the EIP bound to it now.
      const eip = ctx.db.eips.find((e) => e.Status === 'used' && (e.Resource as Rec)?.ResourceID === gw.VPNGatewayId);
      const addr = (eip?.EIPAddr as Rec[] | undefined)?.[0];
      return { ...gw, EIPId: eip?.EIPId ?? '', EIP: addr?.IP ?? '', EIPType: addr?.OperatorName ?? '' };
    },
  ),

  UpdateVPNGateway(req, ctx) {
    const gw = mustFind(ctx.db.vpnGateways, req, ctx, 'VPNGatewayId', 'VPNGatewayId', NOT_FOUND, 'VPN gateway');
    gw.Grade = enumParam(req, 'Grade', ['Standard', 'Enhanced']) ?? req.required('Grade');
    return {};
  },

  DeleteVPNGateway(req, ctx) {
    settleEips(ctx);
    const gw = mustFind(ctx.db.vpnGateways, req, ctx, 'VPNGatewayId', 'VPNGatewayId', NOT_FOUND, 'VPN gateway');
    const tunnels = tunnelsOf(ctx, 'VPNGatewayId', gw.VPNGatewayId);
    if (tunnels.length) throw new ApiError(HAS_TUNNELS, `VPN gateway [${String(gw.VPNGatewayId)}] still has tunnels: ${tunnels.map((t) => t.VPNTunnelId).join(', ')}`);
    const release = req.bool('ReleaseEip') === true;
    for (const eip of ctx.db.eips.filter((e) => (e.Resource as Rec)?.ResourceID === gw.VPNGatewayId)) {
      if (release) remove(ctx.db.eips, eip);
      else Object.assign(eip, { Status: 'free', Resource: {} });
    }
    remove(ctx.db.vpnGateways, gw);
    return {};
  },

  CreateRemoteVPNGateway(req, ctx) {
    const name = label(req, 'RemoteVPNGatewayName') ?? req.required('RemoteVPNGatewayName');
    const addr = req.required('RemoteVPNGatewayAddr');
    const m = IPV4.exec(addr);
    if (!m || m.slice(1).some((p) => Number(p) > 255)) throw paramError('RemoteVPNGatewayAddr', `${addr} is not an IPv4 address`);
    const rg: Rec = {
      ...madeNow(req, ctx),
      RemoteVPNGatewayId: newId('remotevpngw'),
      RemoteVPNGatewayName: name,
      RemoteVPNGatewayAddr: addr,
      Tag: label(req, 'Tag') ?? 'Default',
      Remark: remark(req) ?? '',
      ActiveTunnels: [],
    };
    ctx.db.remoteGateways.push(rg);
    return { RemoteVPNGatewayId: rg.RemoteVPNGatewayId };
  },

  DescribeRemoteVPNGateway: listing(
    (ctx) => ctx.db.remoteGateways,
    'RemoteVPNGatewayIds',
    'RemoteVPNGatewayId',
    ['Tag'],
    (ctx, rg) => ({
      ...rg,
      TunnelCount: tunnelsOf(ctx, 'RemoteVPNGatewayId', rg.RemoteVPNGatewayId).length,
    }),
  ),

  DeleteRemoteVPNGateway(req, ctx) {
    const rg = mustFind(ctx.db.remoteGateways, req, ctx, 'RemoteVPNGatewayId', 'RemoteVPNGatewayId', NOT_FOUND, 'remote VPN gateway');
    const tunnels = tunnelsOf(ctx, 'RemoteVPNGatewayId', rg.RemoteVPNGatewayId);
    if (tunnels.length) throw new ApiError(HAS_TUNNELS, `remote VPN gateway [${String(rg.RemoteVPNGatewayId)}] still has tunnels: ${tunnels.map((t) => t.VPNTunnelId).join(', ')}`);
    remove(ctx.db.remoteGateways, rg);
    return {};
  },

  CreateVPNTunnel: createTunnel,

  DescribeVPNTunnel: listing((ctx) => ctx.db.vpnTunnels, 'VPNTunnelIds', 'VPNTunnelId', ['Tag', 'VPCId', 'VPNGatewayId']),

  UpdateVPNTunnelAttribute(req, ctx) {
    const tunnel = mustFind(ctx.db.vpnTunnels, req, ctx, 'VPNTunnelId', 'VPNTunnelId', NOT_FOUND, 'VPN tunnel');
    const close = enumParam(req, 'IPSecCloseAction', ['none', 'restart']);
    // The close action must be sent when the tunnel has none yet.
    if (close === undefined && !tunnel._closeAction) throw paramError('IPSecCloseAction', 'missing: this tunnel has no close action yet');
    const ike = { ...(tunnel.IKEData as Rec), ...ikeParams(req) };
    checkIdentities(ike);
    tunnel.IKEData = ike;
    tunnel.IPSecData = { ...(tunnel.IPSecData as Rec), ...ipsecParams(req, ctx, tunnel.VPCId) };
    if (close !== undefined) tunnel._closeAction = close;
    return {};
  },

  DeleteVPNTunnel(req, ctx) {
    const tunnel = mustFind(ctx.db.vpnTunnels, req, ctx, 'VPNTunnelId', 'VPNTunnelId', NOT_FOUND, 'VPN tunnel');
    remove(ctx.db.vpnTunnels, tunnel);
    return {};
  },
};
