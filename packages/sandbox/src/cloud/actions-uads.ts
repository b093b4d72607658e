/**
 * Anti-DDoS (UADS) Actions: buying, describing, renaming, resizing and deleting instances,
 * their allowed-domain lists and protected IPs. Buying and adding domains take
 * `provisioningMs`; statuses are derived from timestamps so they survive restarts.
 */
import { randomBytes } from 'node:crypto';
import { serviceIpView } from './actions-uads-bgp.js';
import { ActionRequest, paramError, type ActionContext, type ActionHandler } from './request.js';
import type { UadsDomain, UadsInstance } from './seed-uads.js';

/** The engine rooms of each anti-DDoS area line. */
export const AREAS: Record<string, string[]> = { EastChina: ['Zaozhuang', 'Yangzhou', 'Taizhou'], NorthChina: ['Shijiazhuang'] };
const NAME = /^[A-Za-z0-9\p{Script=Han}_-]{1,63}$/u;
const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;
const REGION_IDS: Record<string, number> = { 'cn-bj2': 1000001, 'cn-sh2': 1000009, hk: 1000005 };

/** Allowed-domain status codes: 1 Adding, 2 Success, 3 Deleting, 4 Failure, 5 Deleted. */
function domainStatus(entry: UadsDomain, ctx: ActionContext): number {
  if (entry.DeletedAt !== undefined) return ctx.now - entry.DeletedAt >= ctx.provisioningMs ? 5 : 3;
  if (ctx.now < entry.SettleAt) return 1;
  return entry.Fails ? 4 : 2;
}

function defenceStatus(inst: UadsInstance, ctx: ActionContext): string {
  if (ctx.now >= inst.ExpiredTime * 1000) return 'Expired';
  return inst.Stopped ? 'Stopped' : 'Started';
}

function serviceInfo(inst: UadsInstance, ctx: ActionContext): Record<string, unknown> {
  return {
    ResourceId: inst.ResourceId,
    Name: inst.Name,
    AreaLine: inst.AreaLine,
    EngineRoom: inst.EngineRoom,
    SrcBandwidth: inst.SrcBandwidth,
    DefenceDDosBaseFlowArr: [inst.Base],
    DefenceDDosMaxFlowArr: [inst.Max],
    DefenceStatus: defenceStatus(inst, ctx),
    DefenceType: 'TypeDynamic',
    LineType: 'BGP',
    ChargeType: inst.ChargeType,
    CreateTime: inst.CreateTime,
    ExpiredTime: inst.ExpiredTime,
    AutoRenew: 'No',
    ProjectId: inst.ProjectId,
    RegionId: REGION_IDS[inst.Region] ?? 0,
    GameId: 0,
    Vendor: 0,
    AccessMode: 'Domain',
    ForwardType: 'Proxy',
    NapType: 1,
  };
}

/** A visible instance by ResourceId, or the API's parameter error. */
function instance(req: ActionRequest, ctx: ActionContext): UadsInstance {
  const id = req.required('ResourceId');
  const found = ctx.db.uadsInstances.find((i) => i.ResourceId === id && i.VisibleAt <= ctx.now);
  if (!found) throw paramError('ResourceId', `no anti-DDoS instance ${id}`);
  return found;
}

/** Checks the sizing parameters shared by buy and upgrade. */
function sizing(req: ActionRequest): { bandwidth: number; base: number; max: number } {
  const bandwidth = req.int('SrcBandwidth');
  const base = Number(req.list('DefenceDDosBaseFlowArr')[0]);
  const max = Number(req.list('DefenceDDosMaxFlowArr')[0]);
  if (bandwidth === undefined || bandwidth < 50) throw paramError('SrcBandwidth', 'must be at least 50 (Mbps)');
  if (!Number.isInteger(base) || base < 30) throw paramError('DefenceDDosBaseFlowArr.0', 'must be at least 30 (Gbps)');
  if (!Number.isInteger(max) || max < base) throw paramError('DefenceDDosMaxFlowArr.0', 'must not be less than the base defence value');
  return { bandwidth, base, max };
}

function checkName(req: ActionRequest): string {
  const name = req.required('HighProtectGameServiceName');
  if (!NAME.test(name)) throw paramError('HighProtectGameServiceName', '1-63 characters: Chinese, letters, digits, - and _');
  return name;
}

/** Drops entries whose deletion has settled, so they vanish from every listing. */
function liveDomains(ctx: ActionContext): UadsDomain[] {
  ctx.db.uadsDomains = ctx.db.uadsDomains.filter((d) => domainStatus(d, ctx) !== 5);
  return ctx.db.uadsDomains;
}

/** UADS Actions by name. */
export const uadsActions: Record<string, ActionHandler> = {
  BuyHighProtectGameService(req, ctx) {
    const region = req.region();
    const project = req.project();
    const name = checkName(req);
    const area = req.required('AreaLine');
    if (!AREAS[area]) throw paramError('AreaLine', 'must be EastChina or NorthChina');
    const room = req.list('EngineRoom')[0];
    if (!room || !AREAS[area].includes(room)) throw paramError('EngineRoom.0', `must be one of ${AREAS[area].join(', ')} for ${area}`);
    const { bandwidth, base, max } = sizing(req);
    const charge = req.str('ChargeType') ?? 'Month';
    if (charge !== 'Month' && charge !== 'Year') throw paramError('ChargeType', 'must be Month or Year');
    const quantity = req.int('Quantity') ?? 1;
    if (quantity < 0 || quantity > 9) throw paramError('Quantity', 'must be between 0 and 9');
    const created = Math.floor(ctx.now / 1000);
    const months = (charge === 'Year' ? 12 : 1) * Math.max(quantity, 1);
    const expires = new Date(created * 1000);
    expires.setUTCMonth(expires.getUTCMonth() + months);
    const id = `usecure_ghp-${randomBytes(4).toString('hex')}`;
    ctx.db.uadsInstances.push({
      ResourceId: id,
      Name: name,
      AreaLine: area,
      EngineRoom: [room],
      SrcBandwidth: bandwidth,
      Base: base,
      Max: max,
      ChargeType: charge,
      Quantity: quantity,
      CreateTime: created,
      ExpiredTime: Math.floor(expires.getTime() / 1000),
      ProjectId: project ?? 'org-sandbox',
      Region: region,
      Stopped: false,
      VisibleAt: ctx.now + ctx.provisioningMs,
    });
    return { ResourceInfo: { ResourceId: id } };
  },

  DescribeNapServiceInfo(req, ctx) {
    if (req.str('Region') !== undefined) req.region();
    const project = req.project();
    const napType = req.int('NapType') ?? 1;
    const id = req.str('ResourceId');
    const matches = ctx.db.uadsInstances.filter((i) => i.VisibleAt <= ctx.now && napType === 1 && (id === undefined || i.ResourceId === id) && (project === undefined || i.ProjectId === project));
    const { items, total } = req.page(matches, 10);
    return { ServiceInfo: items.map((i) => serviceInfo(i, ctx)), TotalCount: total };
  },

  ModifyHighProtectGameService(req, ctx) {
    const inst = instance(req, ctx);
    inst.Name = checkName(req);
    return {};
  },

  UpgradeHighProtectGameService(req, ctx) {
    const inst = instance(req, ctx);
    const area = req.str('AreaLine');
    const room = req.list('EngineRoom')[0];
    if (area !== undefined && area !== inst.AreaLine) throw paramError('AreaLine', 'the area of an instance cannot change');
    if (room !== undefined && room !== inst.EngineRoom[0]) throw paramError('EngineRoom.0', 'the data centre of an instance cannot change');
    if (defenceStatus(inst, ctx) === 'Expired') throw paramError('ResourceId', 'the instance has expired; renew it before upgrading');
    const { bandwidth, base, max } = sizing(req);
    Object.assign(inst, { SrcBandwidth: bandwidth, Base: base, Max: max });
    return { ResourceInfo: { ResourceId: inst.ResourceId } };
  },

  DeleteHighProtectGameService(req, ctx) {
    const inst = instance(req, ctx);
    ctx.db.uadsInstances = ctx.db.uadsInstances.filter((i) => i !== inst);
    ctx.db.uadsDomains = ctx.db.uadsDomains.filter((d) => d.ResourceId !== inst.ResourceId);
    ctx.db.uadsIps = ctx.db.uadsIps.filter((ip) => ip.ResourceId !== inst.ResourceId);
    ctx.db.uadsRules = ctx.db.uadsRules.filter((r) => r.ResourceId !== inst.ResourceId);
    return {};
  },

  AddNapAllowListDomain(req, ctx) {
    const inst = instance(req, ctx);
    const domains = req.list('Domain');
    if (domains.length === 0) throw paramError('Domain.0', 'missing');
    const entries = liveDomains(ctx);
    const data = domains.map((domain) => {
      if (!HOSTNAME.test(domain)) return { Domain: domain, Code: 230, Message: `${domain} is not a valid domain name` };
      const existing = entries.find((d) => d.ResourceId === inst.ResourceId && d.Domain === domain);
      // Adding a domain that is already listed changes nothing, like the console does.
      if (existing && existing.DeletedAt === undefined) return { Domain: domain, Code: 0, Message: '' };
      if (existing) ctx.db.uadsDomains = ctx.db.uadsDomains.filter((d) => d !== existing);
      ctx.db.uadsDomains.push({
        ResourceId: inst.ResourceId,
        Domain: domain,
        Remark: '',
        CreateTime: Math.floor(ctx.now / 1000),
        SettleAt: ctx.now + ctx.provisioningMs,
        // The platform refuses domains on its block list; the sandbox blocks any with a `blocked` label.
        Fails: domain.split('.').some((label) => label.includes('blocked')),
      });
      return { Domain: domain, Code: 0, Message: '' };
    });
    return { Data: data };
  },

  GetNapAllowListDomain(req, ctx) {
    const id = req.required('ResourceId');
    const exact = req.str('Domain');
    const like = req.str('DomainLike');
    const matches = liveDomains(ctx).filter((d) => d.ResourceId === id && (exact === undefined || d.Domain === exact) && (like === undefined || d.Domain.includes(like)));
    const { items, total } = req.page(matches, 1000);
    return { DomainList: items.map((d) => ({ Domain: d.Domain, CreateTime: d.CreateTime, Remark: d.Remark, Status: domainStatus(d, ctx) })), TotalCount: total };
  },

  SetNapDomainEntryRemark(req, ctx) {
    const inst = instance(req, ctx);
    const domain = req.required('Domain');
    const entry = liveDomains(ctx).find((d) => d.ResourceId === inst.ResourceId && d.Domain === domain && d.DeletedAt === undefined);
    if (!entry) throw paramError('Domain', `${domain} is not in the allow list of ${inst.ResourceId}`);
    entry.Remark = req.str('Remark') ?? '';
    return {};
  },

  DeleteNapAllowListDomain(req, ctx) {
    const inst = instance(req, ctx);
    const domains = req.list('Domain');
    if (domains.length === 0) throw paramError('Domain.0', 'missing');
    const entries = liveDomains(ctx);
    const data = domains.map((domain) => {
      const entry = entries.find((d) => d.ResourceId === inst.ResourceId && d.Domain === domain);
      if (!entry) return { Domain: domain, Code: 230, Message: `${domain} is not in the allow list` };
      entry.DeletedAt ??= ctx.now;
      return { Domain: domain, Code: 0, Message: '' };
    });
    return { Data: data };
  },

  DescribeHighProtectGameIPInfo(req, ctx) {
    const inst = instance(req, ctx);
    const ips = ctx.db.uadsIps.filter((ip) => ip.ResourceId === inst.ResourceId);
    const { items, total } = req.page(ips, 50);
    return { GameIPInfo: items.map((ip) => serviceIpView(ip, ctx)), TotalCount: total, AvailableIPQuota: Math.max(0, 10 - ips.length) };
  },
};
