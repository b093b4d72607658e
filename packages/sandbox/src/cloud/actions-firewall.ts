/**
 * Firewall (security group) Actions of the UNet service: create with rules, describe, replace the
 * whole rule set, change name/tag/remark, delete. A rule is the string
 * `PROTOCOL|PORT|SOURCE_CIDR|ACTION|PRIORITY[|REMARK]`; DescribeFirewall answers each as an
 * object. The recommended firewalls cannot be deleted (4358), nor one bound to a resource (4361).
 * DescribeFirewallResource lists what a firewall is bound to (hosts, NAT gateways, balancers);
 * GrantFirewall binds one to an external balancer too (ResourceType ulb), the rest of that Action
 * being the host's (actions-uhost.ts), and DisassociateFirewall unbinds it from the balancer.
 */
import { uhostActions } from './actions-uhost.js';
import { findLb } from './lb-objects.js';
import { ApiError, paramError, type ActionContext, type ActionHandler, type ActionRequest } from './request.js';
import { without } from './store.js';
import { label, remark, madeNow, mustFind, newId, parseRange, remove, visible } from './network-objects.js';
import type { Rec } from './seed-util.js';

/** UNet's code for an unknown firewall id in DescribeFirewall (other Actions answer 4600). */
const DESCRIBE_NOT_FOUND = 54002;
const NOT_FOUND = 4600;
const PROTOCOLS = ['TCP', 'UDP', 'ICMP', 'GRE'];
const PORT = /^(\d{1,5})(?:-(\d{1,5}))?$/;

/** One `Rule.N` string as DescribeFirewall reports it; a parameter error (4359 for a priority) naming the rule otherwise. */
function parseRule(rule: string, i: number): Rec {
  const name = `Rule.${i}`;
  const [protocol, port = '', cidr = '', action = '', priority = '', remark = '', ...extra] = rule.split('|');
  if (extra.length) throw paramError(name, `"${rule}" has more than 6 fields`);
  if (!PROTOCOLS.includes(protocol)) throw paramError(name, `protocol "${protocol}" must be one of ${PROTOCOLS.join(', ')}`);
  const m = PORT.exec(port);
  const portOk = m && Number(m[1]) >= 1 && Number(m[1]) <= 65535 && (m[2] === undefined || (Number(m[2]) > Number(m[1]) && Number(m[2]) <= 65535));
  if ((protocol === 'TCP' || protocol === 'UDP') && !portOk) throw paramError(name, `port "${port}" must be N or A-B within 1-65535`);
  if ((protocol === 'ICMP' || protocol === 'GRE') && port !== '') throw paramError(name, `${protocol} takes no port`);
  if (!parseRange(cidr) && !/^\d+\.\d+\.\d+\.\d+$/.test(cidr)) throw paramError(name, `source "${cidr}" must be an IPv4 address or range`);
  if (action !== 'ACCEPT' && action !== 'DROP') throw paramError(name, `action "${action}" must be ACCEPT or DROP`);
  if (!['HIGH', 'MEDIUM', 'LOW'].includes(priority)) throw new ApiError(4359, `invalid priority "${priority}" in ${name}: HIGH, MEDIUM or LOW`);
  if (remark.length > 64) throw paramError(name, 'the remark is at most 64 characters');
  return { ProtocolType: protocol, DstPort: port, SrcIP: cidr, RuleAction: action, Priority: priority, Remark: remark };
}

function rules(req: ActionRequest): Rec[] {
  const list = req.list('Rule');
  if (!list.length) throw paramError('Rule.0', 'missing');
  return list.map(parseRule);
}

/**
 * With ResourceType and ResourceId, the id of the firewall bound to that resource ('' for none),
 * so that the listing holds it alone; undefined without them (every firewall).
 */
function boundTo(req: ActionRequest, ctx: ActionContext): string | undefined {
  const type = req.str('ResourceType');
  const id = req.str('ResourceId');
  if (type === undefined && id === undefined) return undefined;
  if (type === undefined) throw paramError('ResourceType', 'required with ResourceId');
  if (id === undefined) throw paramError('ResourceId', 'required with ResourceType');
  const kind = type.toLowerCase();
  if (kind === 'uhost') return String(ctx.db.hosts.find((h) => h.UHostId === id)?._firewall ?? '');
  if (kind === 'ulb') return String((ctx.db.lbs.find((l) => l.ULBId === id)?.FirewallSet as Rec[] | undefined)?.[0]?.FirewallId ?? '');
  if (kind === 'unatgw') return String(ctx.db.natGateways.find((n) => n.NATGWId === id)?.FirewallId ?? '');
  return '';
}

/** The firewall's count of bound resources moves by `delta`. */
export function grantFirewall(ctx: ActionContext, firewallId: unknown, delta: number): void {
  const firewall = ctx.db.firewalls.find((f) => f.FWId === firewallId);
  if (firewall) firewall.ResourceCount = Math.max(0, Number(firewall.ResourceCount ?? 0) + delta);
}

/** The firewall id a balancer is bound to, if any. */
export const lbFirewall = (lb: Rec): unknown => (lb.FirewallSet as Rec[] | undefined)?.[0]?.FirewallId;

/** What a firewall is bound to, as DescribeFirewallResource's ResourceSet lists it. */
function boundResources(req: ActionRequest, ctx: ActionContext, fwId: string): Rec[] {
  const item = (type: string, id: unknown, r: Rec, ip: unknown) => ({
    ResourceType: type,
    ResourceID: id,
    Name: r.Name ?? r.NATGWName ?? '',
    PrivateIP: ip ?? '',
    Remark: r.Remark ?? '',
    Tag: r.Tag ?? 'Default',
    Status: 0,
    SubResourceId: '',
    SubResourceName: '',
    SubResourceType: '',
  });
  return [
    ...visible(ctx.db.hosts, req, ctx)
      .filter((h) => h._firewall === fwId)
      .map((h) => item('uhost', h.UHostId, h, (h.IPSet as Rec[]).find((a) => a.Type === 'Private')?.IP)),
    ...visible(ctx.db.natGateways, req, ctx)
      .filter((g) => g.FirewallId === fwId)
      .map((g) => item('unatgw', g.NATGWId, g, '')),
    ...visible(ctx.db.lbs, req, ctx)
      .filter((l) => lbFirewall(l) === fwId)
      .map((l) => item('ulb', l.ULBId, l, l.PrivateIP)),
  ];
}

/** GrantFirewall for a balancer: an external one only, as the API allows. */
function grantLb(req: ActionRequest, ctx: ActionContext, fw: Rec): void {
  const lb = findLb(req, ctx, 'ResourceId');
  if (lb.ULBType !== 'OuterMode') throw paramError('ResourceId', `${String(lb.ULBId)} is an internal (InnerMode) ULB: only an external one takes a firewall`);
  grantFirewall(ctx, lbFirewall(lb), -1);
  lb.FirewallSet = [{ FirewallId: fw.FWId, FirewallName: fw.Name }];
  grantFirewall(ctx, fw.FWId, 1);
}

/** Firewall Actions by name. */
export const firewallActions: Record<string, ActionHandler> = {
  CreateFirewall(req, ctx) {
    const firewall: Rec = {
      ...madeNow(req, ctx),
      FWId: newId('firewall'),
      GroupId: String(20000 + ctx.db.firewalls.length),
      Name: label(req, 'Name') ?? req.required('Name'),
      Rule: rules(req),
      Tag: label(req, 'Tag') ?? 'Default',
      Remark: remark(req) ?? '',
      Type: 'user defined',
      ResourceCount: 0,
    };
    ctx.db.firewalls.push(firewall);
    return { FWId: firewall.FWId };
  },

  DescribeFirewall(req, ctx) {
    const id = req.str('FWId');
    const bound = boundTo(req, ctx);
    const all = visible(ctx.db.firewalls, req, ctx).filter((f) => bound === undefined || f.FWId === bound);
    const matches = id === undefined ? all : all.filter((f) => f.FWId === id);
    if (id !== undefined && !matches.length) throw new ApiError(DESCRIBE_NOT_FOUND, `firewall [${id}] not exists`);
    const { items, total } = req.page(matches, 20);
    return { DataSet: items.map((f) => without(f, 'Region', 'ProjectId')), TotalCount: total };
  },

  UpdateFirewall(req, ctx) {
    const firewall = mustFind(ctx.db.firewalls, req, ctx, 'FWId', 'FWId', NOT_FOUND, 'firewall');
    // The rules sent replace every rule the firewall had.
    firewall.Rule = rules(req);
    return { FWId: firewall.FWId };
  },

  UpdateFirewallAttribute(req, ctx) {
    const firewall = mustFind(ctx.db.firewalls, req, ctx, 'FWId', 'FWId', NOT_FOUND, 'firewall');
    const [name, tag, note] = [label(req, 'Name'), label(req, 'Tag'), remark(req)];
    if (name === undefined && tag === undefined && note === undefined) throw paramError('Name', 'one of Name, Tag or Remark is required');
    if (name !== undefined) firewall.Name = name;
    if (tag !== undefined) firewall.Tag = tag;
    if (note !== undefined) firewall.Remark = note;
    return {};
  },

  DescribeFirewallResource(req, ctx) {
    const firewall = mustFind(ctx.db.firewalls, req, ctx, 'FWId', 'FWId', NOT_FOUND, 'firewall');
    const { items, total } = req.page(boundResources(req, ctx, String(firewall.FWId)), 20);
    return { ResourceSet: items, TotalCount: total };
  },

  GrantFirewall(req, ctx) {
    if (req.str('ResourceType')?.toLowerCase() !== 'ulb') return uhostActions.GrantFirewall(req, ctx);
    grantLb(req, ctx, mustFind(ctx.db.firewalls, req, ctx, 'FWId', 'FWId', NOT_FOUND, 'firewall'));
    return {};
  },

  DisassociateFirewall(req, ctx) {
    const firewall = mustFind(ctx.db.firewalls, req, ctx, 'FWId', 'FWId', NOT_FOUND, 'firewall');
    if (req.required('ResourceType').toLowerCase() !== 'ulb') throw paramError('ResourceType', 'only ULB is unbound by this Action');
    const lb = findLb(req, ctx, 'ResourceId');
    if (lbFirewall(lb) !== firewall.FWId) throw paramError('ResourceId', `${String(lb.ULBId)} is not bound to ${String(firewall.FWId)}`);
    lb.FirewallSet = [];
    grantFirewall(ctx, firewall.FWId, -1);
    return {};
  },

  DeleteFirewall(req, ctx) {
    const firewall = mustFind(ctx.db.firewalls, req, ctx, 'FWId', 'FWId', NOT_FOUND, 'firewall');
    if (firewall.Type !== 'user defined') throw new ApiError(4358, `firewall [${String(firewall.FWId)}] is a recommended firewall and cannot be deleted`);
    if (Number(firewall.ResourceCount) > 0) throw new ApiError(4361, `firewall [${String(firewall.FWId)}] is in use and cannot be deleted`);
    remove(ctx.db.firewalls, firewall);
    return {};
  },
};
