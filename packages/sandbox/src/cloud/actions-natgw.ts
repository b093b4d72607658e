/**
 * NAT gateway Actions (VPC2.0): create on EIPs, a security group and subnets, describe, rename,
 * retag and remark (UpdateNATGW), replace the subnet list (UpdateNATGWSubnet), switch the white
 * list (EnableWhiteList) and add or remove its members (Add/DeleteWhiteListResource: hosts of the
 * gateway's VPC), delete; and the port-forwarding policies. A gateway's EIPs are bound
 * to it (UNet's BindEIP with ResourceType natgw adds more), and DescribeNATGW reports the EIPs
 * bound to it. Unknown ids answer 54002; a gateway that still has policies is not deleted (5024).
 */
import { settleEips } from './actions-eip.js';
import { ApiError, paramError, type ActionContext, type ActionHandler, type ActionRequest } from './request.js';
import { without } from './store.js';
import { label, madeNow, mustFind, newId, parseRange, remark, remove, visible, within } from './network-objects.js';
import type { Rec } from './seed-util.js';

/** The VPC2.0 service's code for an object that does not exist. */
const NOT_FOUND = 54002;
/** Refused while the gateway holds policies (inferred from the VPC's "remove associated resources first"). */
const IN_USE = 5024;
const PORT = /^(\d{1,5})(?:-(\d{1,5}))?$/;

function gateway(req: ActionRequest, ctx: ActionContext): Rec {
  return mustFind(ctx.db.natGateways, req, ctx, 'NATGWId', 'NATGWId', NOT_FOUND, 'NATGW');
}

/** The gateway's port-forwarding policies, kept on its record. */
function policiesOf(gw: Rec): Rec[] {
  gw._policies ??= [];
  return gw._policies as Rec[];
}

/** The firewall's count of bound resources moves by `delta`. */
function grant(ctx: ActionContext, firewallId: unknown, delta: number): void {
  const firewall = ctx.db.firewalls.find((f) => f.FWId === firewallId);
  if (firewall) firewall.ResourceCount = Math.max(0, Number(firewall.ResourceCount ?? 0) + delta);
}

/** The `SubnetworkIds.N` subnets, each of the gateway's VPC. */
function subnetsIn(req: ActionRequest, ctx: ActionContext, vpcId: unknown): Rec[] {
  return req.list('SubnetworkIds').map((id, i) => {
    const subnet = visible(ctx.db.subnets, req, ctx).find((s) => s.SubnetId === id);
    if (!subnet) throw new ApiError(NOT_FOUND, `subnet [${id}] not exists`);
    if (subnet.VPCId !== vpcId) throw paramError(`SubnetworkIds.${i}`, `subnet ${id} is not in ${String(vpcId)}`);
    return subnet;
  });
}

const subnetSet = (subnets: Rec[]) => subnets.map((s) => ({ SubnetworkId: s.SubnetId, Subnet: `${String(s.Subnet)}/${String(s.Netmask)}`, SubnetName: s.SubnetName }));

/** The EIPs bound to a gateway made here, as NatGatewayIPSet; a seeded gateway keeps its own. */
function ipSet(ctx: ActionContext, gw: Rec): Rec[] {
  if (!gw._made) return (gw.IPSet as Rec[]) ?? [];
  return ctx.db.eips
    .filter((e) => e.Status === 'used' && (e.Resource as Rec)?.ResourceID === gw.NATGWId)
    .map((e) => ({ EIPId: e.EIPId, Bandwidth: e.Bandwidth, BandwidthType: 'Bandwidth', Weight: e.Weight, IPResInfo: (e.EIPAddr as Rec[]).map((a) => ({ EIP: a.IP, OperatorName: a.OperatorName })) }));
}

/** NatGatewayDataSet: the scope and bookkeeping left out, the EIPs and policy ids as they stand. */
function info(ctx: ActionContext, gw: Rec): Rec {
  return { ...without(gw, 'Region', 'ProjectId'), IPSet: ipSet(ctx, gw), PolicyId: [...((gw.PolicyId as unknown[]) ?? []), ...policiesOf(gw).map((p) => p.PolicyId)] };
}

/** The number of EIPs bound to a gateway (UnBindEIP refuses to take its last one, 4235). */
export function natEipCount(ctx: ActionContext, natgwId: string): number {
  const gw = ctx.db.natGateways.find((g) => g.NATGWId === natgwId);
  return gw ? ipSet(ctx, gw).length : 0;
}

/** The ids of the resources on a gateway's white list, kept on its record. */
function whiteListOf(gw: Rec): string[] {
  gw._whiteList ??= [];
  return gw._whiteList as string[];
}

/** The `ResourceIds.N` of a white-list call, at least one. */
function resourceIds(req: ActionRequest): string[] {
  const ids = req.list('ResourceIds');
  if (!ids.length) throw paramError('ResourceIds.0', 'missing');
  return ids;
}

/** The host `id` names, which must be in the gateway's VPC to be white-listed. */
function memberHost(req: ActionRequest, ctx: ActionContext, gw: Rec, id: string, i: number): Rec {
  const host = visible(ctx.db.hosts, req, ctx).find((h) => h.UHostId === id);
  if (!host) throw new ApiError(NOT_FOUND, `resource [${id}] not exists`);
  if (!(host.IPSet as Rec[]).some((ip) => ip.Type === 'Private' && ip.VPCId === gw.VPCId)) throw paramError(`ResourceIds.${i}`, `${id} is not in ${String(gw.VPCId)}`);
  return host;
}

/** The white list as DescribeWhiteListResource reports it (a host that is gone drops out). */
function objectIpInfo(ctx: ActionContext, gw: Rec): Rec[] {
  return whiteListOf(gw).flatMap((id) => {
    const host = ctx.db.hosts.find((h) => h.UHostId === id);
    if (!host) return [];
    const ip = (host.IPSet as Rec[]).find((a) => a.Type === 'Private' && a.VPCId === gw.VPCId);
    return [
      { GwType: 'natgw', PrivateIP: ip?.IP ?? '', ResourceId: id, ResourceName: host.Name ?? '', ResourceType: 'uhost', SubResourceId: '', SubResourceName: '', SubResourceType: '', VPCId: gw.VPCId },
    ];
  });
}

/** GrantFirewall for a NAT gateway (ResourceType `unatgw`, or `natgw` as some clients send it). */
export function grantNatFirewall(req: ActionRequest, ctx: ActionContext, fwId: string): void {
  const gw = mustFind(ctx.db.natGateways, req, ctx, 'ResourceId', 'NATGWId', NOT_FOUND, 'NATGW');
  grant(ctx, gw.FirewallId, -1);
  gw.FirewallId = fwId;
  grant(ctx, fwId, 1);
}

/** A port or port range within 1-65535. */
function port(req: ActionRequest, name: string): string {
  const value = req.required(name);
  const m = PORT.exec(value);
  const ok = m && Number(m[1]) >= 1 && Number(m[1]) <= 65535 && (m[2] === undefined || (Number(m[2]) > Number(m[1]) && Number(m[2]) <= 65535));
  if (!ok) throw paramError(name, `"${value}" must be a port or a range A-B within 1-65535`);
  return value;
}

/** A policy's fields from the call, checked against the gateway's EIPs, subnets and other policies. */
function policyFields(req: ActionRequest, ctx: ActionContext, gw: Rec, self?: unknown): Rec {
  const protocol = req.required('Protocol').toUpperCase();
  if (protocol !== 'TCP' && protocol !== 'UDP') throw paramError('Protocol', 'must be TCP or UDP');
  const [srcPort, dstPort] = [port(req, 'SrcPort'), port(req, 'DstPort')];
  const span = (p: string) => (p.includes('-') ? Number(p.split('-')[1]) - Number(p.split('-')[0]) : 0);
  if ((srcPort.includes('-') || dstPort.includes('-')) && span(srcPort) !== span(dstPort)) throw paramError('DstPort', 'a port range must be as wide as SrcPort');
  const eip = ipSet(ctx, gw).find((e) => e.EIPId === req.required('SrcEIPId'));
  if (!eip) throw paramError('SrcEIPId', `${req.required('SrcEIPId')} is not an EIP of ${String(gw.NATGWId)}`);
  const dstIp = req.required('DstIP');
  const inSubnet = (gw.SubnetSet as Rec[]).some((s) => {
    const range = parseRange(String(s.Subnet));
    const host = parseRange(`${dstIp}/32`);
    return range && host && within(host, range);
  });
  if (!inSubnet) throw paramError('DstIP', `${dstIp} is not an address of a subnet of ${String(gw.NATGWId)}`);
  const clash = policiesOf(gw).find((p) => p.PolicyId !== self && p.Protocol === protocol && p.SrcEIPId === eip.EIPId && p.SrcPort === srcPort);
  if (clash) throw paramError('SrcPort', `${protocol} ${srcPort} on ${String(eip.EIPId)} is already forwarded by policy ${String(clash.PolicyId)}`);
  const ip = (eip.IPResInfo as Rec[])[0]?.EIP;
  return { Protocol: protocol, SrcEIPId: eip.EIPId, SrcEIP: ip, SrcPort: srcPort, DstIP: dstIp, DstPort: dstPort, PolicyName: label(req, 'PolicyName') ?? '' };
}

/** NAT gateway Actions by name. */
export const natgwActions: Record<string, ActionHandler> = {
  CreateNATGW(req, ctx) {
    settleEips(ctx);
    const name = label(req, 'NATGWName') ?? req.required('NATGWName');
    const fwId = req.required('FirewallId');
    if (!visible(ctx.db.firewalls, req, ctx).some((f) => f.FWId === fwId)) throw new ApiError(4600, `firewall [${fwId}] not exists`);
    const eipIds = req.list('EIPIds');
    if (!eipIds.length) throw paramError('EIPIds.0', 'missing');
    const eips = eipIds.map((id) => {
      const eip = visible(ctx.db.eips, req, ctx).find((e) => e.EIPId === id);
      if (!eip) throw new ApiError(4210, `EIP [${id}] not exists`);
      if (eip.Status !== 'free' || eip._binding) throw new ApiError(4154, `EIP [${id}] is already bound or being bound`);
      return eip;
    });
    const vpcId = req.str('VPCId') ?? visible(ctx.db.vpcs, req, ctx)[0]?.VPCId;
    if (!visible(ctx.db.vpcs, req, ctx).some((v) => v.VPCId === vpcId)) throw new ApiError(NOT_FOUND, `VPC [${String(vpcId)}] not exists`);
    const ifOpen = req.int('IfOpen') ?? 0;
    if (ifOpen !== 0 && ifOpen !== 1) throw paramError('IfOpen', 'must be 0 or 1');
    const gw: Rec = {
      ...madeNow(req, ctx),
      NATGWId: newId('natgw'),
      NATGWName: name,
      Tag: label(req, 'Tag') ?? 'Default',
      Remark: remark(req) ?? '',
      VPCId: vpcId,
      VPCName: ctx.db.vpcs.find((v) => v.VPCId === vpcId)?.Name,
      FirewallId: fwId,
      IsSnatpoolEnabled: 'disable',
      SubnetSet: subnetSet(subnetsIn(req, ctx, vpcId)),
      _made: true,
      _ifOpen: ifOpen,
    };
    ctx.db.natGateways.push(gw);
    for (const eip of eips) Object.assign(eip, { Status: 'used', Resource: { ResourceType: 'natgw', ResourceID: gw.NATGWId, ResourceName: name, EIPId: eip.EIPId } });
    grant(ctx, fwId, 1);
    return { NATGWId: gw.NATGWId };
  },

  DescribeNATGW(req, ctx) {
    settleEips(ctx);
    const ids = req.list('NATGWIds');
    const matches = visible(ctx.db.natGateways, req, ctx).filter((g) => !ids.length || ids.includes(String(g.NATGWId)));
    const { items, total } = req.page(matches, 20);
    return { DataSet: items.map((g) => info(ctx, g)), TotalCount: total };
  },

  UpdateNATGW(req, ctx) {
    const gw = gateway(req, ctx);
    const [name, tag, note] = [label(req, 'NATGWName'), label(req, 'Tag'), remark(req)];
    if (name === undefined && tag === undefined && note === undefined) throw paramError('NATGWName', 'one of NATGWName, Tag or Remark is required');
    if (name !== undefined) gw.NATGWName = name;
    if (tag !== undefined) gw.Tag = tag;
    if (note !== undefined) gw.Remark = note;
    return {};
  },

  UpdateNATGWSubnet(req, ctx) {
    const gw = gateway(req, ctx);
    // The list sent is the whole new list.
    gw.SubnetSet = subnetSet(subnetsIn(req, ctx, gw.VPCId));
    return {};
  },

  EnableWhiteList(req, ctx) {
    const gw = gateway(req, ctx);
    const ifOpen = req.int('IfOpen');
    if (ifOpen !== 0 && ifOpen !== 1) throw paramError('IfOpen', 'must be 0 or 1');
    gw._ifOpen = ifOpen;
    return {};
  },

  AddWhiteListResource(req, ctx) {
    const gw = gateway(req, ctx);
    const ids = resourceIds(req);
    for (const [i, id] of ids.entries()) memberHost(req, ctx, gw, id, i);
    gw._whiteList = [...new Set([...whiteListOf(gw), ...ids])];
    return {};
  },

  DeleteWhiteListResource(req, ctx) {
    const gw = gateway(req, ctx);
    const ids = resourceIds(req);
    const missing = ids.find((id) => !whiteListOf(gw).includes(id));
    if (missing !== undefined) throw new ApiError(NOT_FOUND, `resource [${missing}] is not in the white list of NATGW [${String(gw.NATGWId)}]`);
    gw._whiteList = whiteListOf(gw).filter((id) => !ids.includes(id));
    return {};
  },

  DescribeWhiteListResource(req, ctx) {
    const ids = req.list('NATGWIds');
    if (!ids.length) throw paramError('NATGWIds.0', 'missing');
    const matches = visible(ctx.db.natGateways, req, ctx).filter((g) => ids.includes(String(g.NATGWId)));
    const { items, total } = req.page(matches, 20);
    return { DataSet: items.map((g) => ({ NATGWId: g.NATGWId, IfOpen: Number(g._ifOpen ?? 0), ObjectIPInfo: objectIpInfo(ctx, g) })), TotalCount: total };
  },

  DeleteNATGW(req, ctx) {
    settleEips(ctx);
    const gw = gateway(req, ctx);
    if (policiesOf(gw).length) throw new ApiError(IN_USE, `NATGW [${String(gw.NATGWId)}] still has forwarding policies: remove the associated resources first`);
    const release = req.bool('ReleaseEip') === true;
    for (const eip of ctx.db.eips.filter((e) => (e.Resource as Rec)?.ResourceID === gw.NATGWId)) {
      if (release) remove(ctx.db.eips, eip);
      else Object.assign(eip, { Status: 'free', Resource: {} });
    }
    grant(ctx, gw.FirewallId, -1);
    remove(ctx.db.natGateways, gw);
    return {};
  },

  CreateNATGWPolicy(req, ctx) {
    settleEips(ctx);
    const gw = gateway(req, ctx);
    const policy: Rec = { NATGWId: gw.NATGWId, PolicyId: newId('natgwpolicy'), ...policyFields(req, ctx, gw) };
    policiesOf(gw).push(policy);
    return { PolicyId: policy.PolicyId };
  },

  UpdateNATGWPolicy(req, ctx) {
    settleEips(ctx);
    const gw = gateway(req, ctx);
    const policy = policiesOf(gw).find((p) => p.PolicyId === req.required('PolicyId'));
    if (!policy) throw new ApiError(NOT_FOUND, `policy [${req.required('PolicyId')}] not exists`);
    Object.assign(policy, policyFields(req, ctx, gw, policy.PolicyId));
    return {};
  },

  DeleteNATGWPolicy(req, ctx) {
    const gw = gateway(req, ctx);
    const policy = policiesOf(gw).find((p) => p.PolicyId === req.required('PolicyId'));
    if (!policy) throw new ApiError(NOT_FOUND, `policy [${req.required('PolicyId')}] not exists`);
    remove(policiesOf(gw), policy);
    return {};
  },

  DescribeNATGWPolicy(req, ctx) {
    const gw = gateway(req, ctx);
    const { items, total } = req.page(policiesOf(gw), 10000, 10000);
    return { DataSet: items.map((p) => ({ ...p })), TotalCount: total };
  },
};
