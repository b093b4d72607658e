/**
 * Load balancer Actions: balancers (CLB: CreateULB, UpdateULBAttribute, DeleteULB), their listings,
 * and the listener, backend, policy and certificate Actions of actions-lb-vserver.ts and
 * actions-lb-ssl.ts. A new balancer shows in DescribeULB once provisioned; its IPSet lists the
 * EIPs bound to it (BindEIP ResourceType ulb), and deleting it unbinds them (or releases them
 * with ReleaseEip=true).
 */
import { enumParam } from './actions-compute.js';
import { grantFirewall, lbFirewall } from './actions-firewall.js';
import { lbSslActions } from './actions-lb-ssl.js';
import { lbVServerActions } from './actions-lb-vserver.js';
import { findLb, ipSetOf, LB_NOT_FOUND, vserversOf } from './lb-objects.js';
import { label, madeNow, newId, remark, remove, visible } from './network-objects.js';
import { ApiError, paramError, type ActionContext, type ActionRequest, type ActionHandler } from './request.js';
import { scoped, without } from './store.js';
import { privateIp, type Rec } from './seed-util.js';

/** The VPC and subnet a new balancer goes in: as sent, or the region's first VPC and its first subnet. */
function placement(req: ActionRequest, ctx: ActionContext): [vpc: string, subnet: string] {
  const vpcs = visible(ctx.db.vpcs, req, ctx);
  const vpc = req.str('VPCId') ?? String(vpcs[0]?.VPCId ?? '');
  if (!vpcs.some((v) => v.VPCId === vpc)) throw paramError('VPCId', `VPC [${vpc}] not exists`);
  const subnets = visible(ctx.db.subnets, req, ctx).filter((s) => s.VPCId === vpc);
  const subnet = req.str('SubnetId') ?? String(subnets[0]?.SubnetId ?? '');
  if (!subnets.some((s) => s.SubnetId === subnet)) throw paramError('SubnetId', `subnet [${subnet}] is not a subnet of ${vpc}`);
  return [vpc, subnet];
}

/** The balancer as DescribeULB reports it. */
function lbInfo(lb: Rec, ctx: ActionContext): Rec {
  return { ...without(lb, 'Region', 'ProjectId'), IPSet: ipSetOf(lb, ctx) };
}

/** Balancer Actions by name. */
const ulbActions: Record<string, ActionHandler> = {
  CreateULB(req, ctx) {
    // Both Yes: external wins, as the API documents.
    const outer = req.str('OuterMode') === 'Yes' || req.str('InnerMode') !== 'Yes';
    const listenType = enumParam(req, 'ListenType', ['RequestProxy', 'PacketsTransmit']) ?? (outer ? 'RequestProxy' : 'PacketsTransmit');
    const [vpc, subnet] = placement(req, ctx);
    const name = label(req, 'ULBName') ?? 'ULB';
    const id = newId('ulb');
    const firewall = req.str('FirewallId');
    const fw = firewall === undefined ? undefined : visible(ctx.db.firewalls, req, ctx).find((f) => f.FWId === firewall);
    if (firewall !== undefined && !fw) throw new ApiError(4600, `firewall [${firewall}] not exists`);
    if (fw && !outer) throw paramError('FirewallId', 'only an external (OuterMode) ULB takes a firewall');
    ctx.db.lbs.push({
      ...madeNow(req, ctx),
      ULBId: id,
      Name: name,
      ULBName: name,
      ULBType: outer ? 'OuterMode' : 'InnerMode',
      Tag: label(req, 'Tag') ?? 'Default',
      Remark: remark(req) ?? '',
      VPCId: vpc,
      SubnetId: subnet,
      PrivateIP: privateIp(`ulb/${id}`),
      Bandwidth: 0,
      BandwidthType: 0,
      IPSet: [],
      VServerSet: [],
      FirewallSet: fw ? [{ FirewallId: fw.FWId, FirewallName: fw.Name }] : [],
      ListenType: listenType,
      IPVersion: 'IPv4',
      ChargeType: enumParam(req, 'ChargeType', ['Year', 'Month', 'Dynamic']) ?? 'Month',
    });
    grantFirewall(ctx, fw?.FWId, 1);
    return { ULBId: id, IPv6AddressId: '' };
  },

  DescribeULB(req, ctx) {
    const [id, vpc, subnet] = [req.str('ULBId'), req.str('VPCId'), req.str('SubnetId')];
    const all = visible(ctx.db.lbs, req, ctx);
    if (id !== undefined && !all.some((lb) => lb.ULBId === id)) throw new ApiError(LB_NOT_FOUND, `ULB [${id}] not exists`);
    const matches = all.filter((lb) => (id === undefined || lb.ULBId === id) && (vpc === undefined || lb.VPCId === vpc) && (subnet === undefined || lb.SubnetId === subnet));
    const { items, total } = req.page(matches, 20);
    return { DataSet: items.map((lb) => lbInfo(lb, ctx)), TotalCount: total };
  },

  // The listing without the listeners: their count instead, 10000 a page by default.
  DescribeULBSimple(req, ctx) {
    const [id, vpc, subnet] = [req.str('ULBId'), req.str('VPCId'), req.str('SubnetId')];
    const all = visible(ctx.db.lbs, req, ctx);
    if (id !== undefined && !all.some((lb) => lb.ULBId === id)) throw new ApiError(LB_NOT_FOUND, `ULB [${id}] not exists`);
    const matches = all.filter((lb) => (id === undefined || lb.ULBId === id) && (vpc === undefined || lb.VPCId === vpc) && (subnet === undefined || lb.SubnetId === subnet));
    const { items, total } = req.page(matches, 10000, 10000);
    const simple = (lb: Rec) => ({ ...without(lbInfo(lb, ctx), 'VServerSet', 'ULBName', 'ChargeType', 'ExpireTime'), VServerCount: vserversOf(lb).length, EnableLog: 0 });
    return { DataSet: items.map(simple), TotalCount: total };
  },

  UpdateULBAttribute(req, ctx) {
    const lb = findLb(req, ctx);
    const [name, tag, note] = [label(req, 'Name'), label(req, 'Tag'), remark(req)];
    if (name !== undefined) [lb.Name, lb.ULBName] = [name, name];
    if (tag !== undefined) lb.Tag = tag;
    // Absent (or empty, which the SDK never sends) means unchanged.
    if (note !== undefined) lb.Remark = note;
    return {};
  },

  DeleteULB(req, ctx) {
    const lb = findLb(req, ctx);
    const release = req.bool('ReleaseEip') ?? false;
    for (const ip of ipSetOf(lb, ctx)) {
      const eip = ctx.db.eips.find((e) => e.EIPId === ip.EIPId);
      if (!eip) continue;
      if (release) remove(ctx.db.eips, eip);
      else [eip.Resource, eip.Status] = [{}, 'free'];
    }
    grantFirewall(ctx, lbFirewall(lb), -1);
    for (const ssl of ctx.db.ssls) ssl.BindedTargetSet = ((ssl.BindedTargetSet as Rec[] | undefined) ?? []).filter((t) => t.ULBId !== lb.ULBId);
    remove(ctx.db.lbs, lb);
    return {};
  },
};

/** Load balancer Actions by name. */
export const lbActions: Record<string, ActionHandler> = {
  ...ulbActions,
  ...lbVServerActions,
  ...lbSslActions,

  DescribeVServer(req, ctx) {
    const lb = findLb(req, ctx);
    const vservers = vserversOf(lb);
    const vserverId = req.str('VServerId');
    if (vserverId !== undefined && !vservers.some((v) => v.VServerId === vserverId)) throw new ApiError(LB_NOT_FOUND, `VServer [${vserverId}] not exists`);
    const { items, total } = req.page(
      vservers.filter((v) => vserverId === undefined || v.VServerId === vserverId),
      20,
    );
    return { DataSet: items, TotalCount: total };
  },

  DescribeSSL(req, ctx) {
    const id = req.str('SSLId');
    const matches = scoped(ctx.db.ssls, req.region(), req.project()).filter((s) => id === undefined || s.SSLId === id);
    const { items, total } = req.page(matches, 20);
    return { DataSet: items.map((s) => without(s, 'Region', 'ProjectId')), TotalCount: total };
  },
};
