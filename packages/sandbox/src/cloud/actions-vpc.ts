/**
 * VPC and subnet Actions (VPC2.0): create, describe, change the address ranges, rename and retag
 * a subnet, delete. A VPC has no Action that renames or retags it and reports no remark. A VPC
 * or subnet shows in listings once provisioned; deleting one that still holds subnets or
 * resources is refused (5024, 4411), as the API does.
 */
import { ApiError, paramError, type ActionContext, type ActionHandler, type ActionRequest } from './request.js';
import { without } from './store.js';
import { label, remark, madeNow, mustFind, newId, overlaps, parseRange, PRIVATE_RANGES, remove, visible, within, type Range } from './network-objects.js';
import type { Rec } from './seed-util.js';

/** The VPC2.0 service's code for an object that does not exist. */
const NOT_FOUND = 54002;

/** The `Network.N` ranges, each a private IPv4 range with zero host bits. */
function networks(req: ActionRequest): string[] {
  const list = req.list('Network');
  if (!list.length) throw paramError('Network.0', 'missing');
  list.forEach((cidr, i) => {
    const range = parseRange(cidr);
    if (!range || range.bits < 8 || range.bits > 29 || !PRIVATE_RANGES.some((p) => within(range, p))) {
      throw paramError(`Network.${i}`, `${cidr} is not a private range (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16) of prefix /8 to /29`);
    }
  });
  return list;
}

function subnetRange(s: Rec): Range {
  return parseRange(`${String(s.Subnet)}/${String(s.Netmask)}`)!;
}

/** The subnets of a VPC, provisioned or not. */
function subnetsOf(ctx: ActionContext, vpcId: unknown): Rec[] {
  return ctx.db.subnets.filter((s) => s.VPCId === vpcId);
}

/** What a host, balancer or NAT gateway in the subnet is, as DescribeSubnetResource lists it. */
function resourcesIn(ctx: ActionContext, subnetId: unknown): Rec[] {
  const hosts = ctx.db.hosts
    .filter((h) => (h.IPSet as Rec[] | undefined)?.some((ip) => ip.SubnetId === subnetId))
    .map((h) => ({ ResourceId: h.UHostId, ResourceType: 'uhost', Name: h.Name, IP: (h.IPSet as Rec[]).find((ip) => ip.SubnetId === subnetId)?.IP }));
  const lbs = ctx.db.lbs.filter((l) => l.SubnetId === subnetId).map((l) => ({ ResourceId: l.ULBId, ResourceType: 'ulb', Name: l.Name, IP: l.PrivateIP }));
  const nats = ctx.db.natGateways
    .filter((n) => (n.SubnetSet as Rec[] | undefined)?.some((s) => s.SubnetworkId === subnetId))
    .map((n) => ({ ResourceId: n.NATGWId, ResourceType: 'natgw', Name: n.NATGWName, IP: '' }));
  return [...hosts, ...lbs, ...nats];
}

/** DescribeVPC's record: the subnet counts from the subnets the VPC holds. */
function vpcInfo(vpc: Rec, ctx: ActionContext): Rec {
  const subnets = subnetsOf(ctx, vpc.VPCId);
  const info = (vpc.Network as string[]).map((n) => ({ Network: n, SubnetCount: subnets.filter((s) => within(subnetRange(s), parseRange(n)!)).length }));
  return { ...without(vpc, 'Region', 'ProjectId'), NetworkInfo: info, SubnetCount: subnets.length };
}

/** VPC and subnet Actions by name. */
export const vpcActions: Record<string, ActionHandler> = {
  CreateVPC(req, ctx) {
    const name = label(req, 'Name') ?? req.required('Name');
    const nets = networks(req);
    const vpc: Rec = { ...madeNow(req, ctx), VPCId: newId('uvnet'), Name: name, Network: nets, Tag: label(req, 'Tag') ?? 'Default', IPv6Network: '', OperatorName: '', VPCType: 'Normal' };
    vpc.UpdateTime = vpc.CreateTime;
    // Accepted and kept, but never reported: VPCInfo has no remark.
    vpc._remark = remark(req) ?? '';
    ctx.db.vpcs.push(vpc);
    return { VPCId: vpc.VPCId };
  },

  DescribeVPC(req, ctx) {
    const ids = req.list('VPCIds');
    const tag = req.str('Tag');
    const matches = visible(ctx.db.vpcs, req, ctx).filter((v) => (!ids.length || ids.includes(String(v.VPCId))) && (tag === undefined || v.Tag === tag));
    const { items, total } = req.page(matches, 20);
    return { DataSet: items.map((v) => vpcInfo(v, ctx)), TotalCount: total };
  },

  AddVPCNetwork(req, ctx) {
    const vpc = mustFind(ctx.db.vpcs, req, ctx, 'VPCId', 'VPCId', NOT_FOUND, 'VPC');
    const added = networks(req);
    const current = vpc.Network as string[];
    added.forEach((n, i) => {
      if (current.some((c) => overlaps(parseRange(c)!, parseRange(n)!))) throw paramError(`Network.${i}`, `${n} overlaps a range of ${String(vpc.VPCId)}`);
    });
    vpc.Network = [...current, ...added];
    vpc.UpdateTime = Math.floor(ctx.now / 1000);
    return {};
  },

  UpdateVPCNetwork(req, ctx) {
    const vpc = mustFind(ctx.db.vpcs, req, ctx, 'VPCId', 'VPCId', NOT_FOUND, 'VPC');
    const keep = networks(req);
    const current = vpc.Network as string[];
    // This Action can only delete ranges: what it is sent is the ranges to keep.
    const unknown = keep.find((n) => !current.includes(n));
    if (unknown) throw paramError('Network', `${unknown} is not a range of ${String(vpc.VPCId)}; UpdateVPCNetwork only removes ranges (add with AddVPCNetwork)`);
    const dropped = current.filter((n) => !keep.includes(n));
    const used = subnetsOf(ctx, vpc.VPCId).find((s) => dropped.some((n) => within(subnetRange(s), parseRange(n)!)));
    if (used) throw new ApiError(5024, `network of subnet [${String(used.SubnetId)}] cannot be removed: remove the associated resources first`);
    vpc.Network = keep;
    vpc.UpdateTime = Math.floor(ctx.now / 1000);
    return {};
  },

  DeleteVPC(req, ctx) {
    const vpc = mustFind(ctx.db.vpcs, req, ctx, 'VPCId', 'VPCId', NOT_FOUND, 'VPC');
    const subnets = subnetsOf(ctx, vpc.VPCId);
    if (subnets.length) throw new ApiError(5024, `VPC [${String(vpc.VPCId)}] still has subnets (${subnets.map((s) => s.SubnetId).join(', ')}): remove the associated resources first`);
    remove(ctx.db.vpcs, vpc);
    return {};
  },

  CreateSubnet(req, ctx) {
    const vpc = mustFind(ctx.db.vpcs, req, ctx, 'VPCId', 'VPCId', NOT_FOUND, 'VPC');
    const netmask = req.int('Netmask') ?? 24;
    if (netmask < 16 || netmask > 29) throw paramError('Netmask', 'must be between 16 and 29');
    const address = req.required('Subnet');
    const range = parseRange(`${address}/${netmask}`);
    if (!range) throw paramError('Subnet', `${address}/${netmask} is not a network address (its host bits must be zero)`);
    if (!(vpc.Network as string[]).some((n) => within(range, parseRange(n)!)))
      throw paramError('Subnet', `${address}/${netmask} is outside the ranges of ${String(vpc.VPCId)}: ${(vpc.Network as string[]).join(', ')}`);
    const clash = subnetsOf(ctx, vpc.VPCId).find((s) => overlaps(subnetRange(s), range));
    if (clash) throw paramError('Subnet', `${address}/${netmask} overlaps subnet ${String(clash.SubnetId)} (${String(clash.Subnet)}/${String(clash.Netmask)})`);
    const gateway = address.replace(/\d+$/, (last) => String(Number(last) + 1));
    const subnet: Rec = {
      ...madeNow(req, ctx),
      SubnetId: newId('subnet'),
      SubnetName: label(req, 'SubnetName') ?? 'Subnet',
      Subnet: address,
      Netmask: String(netmask),
      Gateway: gateway,
      VPCId: vpc.VPCId,
      VPCName: vpc.Name,
      Tag: label(req, 'Tag') ?? 'Default',
      Remark: remark(req) ?? '',
      Zone: '',
      SubnetType: 2,
      HasNATGW: false,
      IPv6Network: '',
    };
    ctx.db.subnets.push(subnet);
    return { SubnetId: subnet.SubnetId };
  },

  DescribeSubnet(req, ctx) {
    const one = req.str('SubnetId');
    const ids = one !== undefined ? [one] : req.list('SubnetIds');
    const [vpcId, tag] = [req.str('VPCId'), req.str('Tag')];
    const matches = visible(ctx.db.subnets, req, ctx).filter(
      (s) => (!ids.length || ids.includes(String(s.SubnetId))) && (vpcId === undefined || s.VPCId === vpcId) && (tag === undefined || s.Tag === tag),
    );
    const { items, total } = req.page(matches, 20);
    return { DataSet: items.map((s) => without(s, 'Region', 'ProjectId')), TotalCount: total };
  },

  UpdateSubnetAttribute(req, ctx) {
    const subnet = mustFind(ctx.db.subnets, req, ctx, 'SubnetId', 'SubnetId', NOT_FOUND, 'subnet');
    const [name, tag] = [label(req, 'Name'), label(req, 'Tag')];
    if (name === undefined && tag === undefined) throw paramError('Name', 'one of Name or Tag is required');
    if (name !== undefined) subnet.SubnetName = name;
    if (tag !== undefined) subnet.Tag = tag;
    return {};
  },

  DescribeSubnetResource(req, ctx) {
    const subnet = mustFind(ctx.db.subnets, req, ctx, 'SubnetId', 'SubnetId', NOT_FOUND, 'subnet');
    const type = req.str('ResourceType')?.toLowerCase();
    const { items, total } = req.page(
      resourcesIn(ctx, subnet.SubnetId).filter((r) => type === undefined || r.ResourceType === type),
      20,
    );
    return { DataSet: items, TotalCount: total };
  },

  DeleteSubnet(req, ctx) {
    const subnet = mustFind(ctx.db.subnets, req, ctx, 'SubnetId', 'SubnetId', NOT_FOUND, 'subnet');
    const held = resourcesIn(ctx, subnet.SubnetId);
    if (held.length) throw new ApiError(4411, `subnet [${String(subnet.SubnetId)}] still has resources: ${held.map((r) => r.ResourceId).join(', ')}`);
    remove(ctx.db.subnets, subnet);
    return {};
  },
};
