/**
 * Anti-DDoS (UADS) BGP service IPs and their forwarding rules: create, list, remark, update and
 * delete. A new IP or a created or updated rule is `Pending` for `provisioningMs`, then
 * `Success`. The calls take no Region or ProjectId (the SDK's structs declare none). An IP that
 * still forwards through rules is refused on delete (its rules go first).
 */
import { randomUUID } from 'node:crypto';
import { paramError, type ActionContext, type ActionHandler, type ActionRequest } from './request.js';
import type { UadsInstance } from './seed-uads.js';
import type { Rec } from './seed-util.js';

/** Service IPs an instance may hold. */
const IP_QUOTA = 10;
/** Per service IP: load-balanced and other rules (UpdateBGPServiceFwdRule's documented limits). */
const MAX_LOAD_BALANCED = 2;
const MAX_PLAIN = 8;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;

function status(record: Rec, ctx: ActionContext): string {
  if (record._settleAt === undefined) return String(record.Status ?? 'Success');
  return ctx.now < Number(record._settleAt) ? 'Pending' : 'Success';
}

function instanceOf(req: ActionRequest, ctx: ActionContext): UadsInstance {
  const id = req.required('ResourceId');
  const found = ctx.db.uadsInstances.find((i) => i.ResourceId === id && i.VisibleAt <= ctx.now);
  if (!found) throw paramError('ResourceId', `no anti-DDoS instance ${id}`);
  return found;
}

function rulesOf(ctx: ActionContext, resourceId: string, ip?: string): Rec[] {
  return ctx.db.uadsRules.filter((r) => r.ResourceId === resourceId && (ip === undefined || r.BgpIP === ip));
}

/** A service IP as GetBGPServiceIP and DescribeHighProtectGameIPInfo answer it. */
export function serviceIpView(ip: Rec, ctx: ActionContext): Rec {
  const made = ip._settleAt !== undefined;
  const rules = made ? rulesOf(ctx, String(ip.ResourceId), String(ip.DefenceIP)) : [];
  const sources = [...new Set(rules.flatMap((r) => ((r.SourceInfo as { Conf: Rec[] }).Conf ?? []).map((c) => String(c.Source))))];
  return {
    DefenceIP: ip.DefenceIP,
    Cname: ip.Cname,
    LineType: ip.LineType,
    Remark: ip.Remark,
    RuleCnt: made ? rules.length : ip.RuleCnt,
    SrcIP: made ? sources : ip.SrcIP,
    Status: status(ip, ctx),
  };
}

function serviceIp(req: ActionRequest, ctx: ActionContext, resourceId: string, param: string): Rec {
  const address = req.required(param);
  const found = ctx.db.uadsIps.find((ip) => ip.ResourceId === resourceId && ip.DefenceIP === address);
  if (!found) throw paramError(param, `${address} is not a service IP of ${resourceId}`);
  return found;
}

/** The back-end addresses, ports and TOA ids, sent as parallel `.N` arrays. */
function sources(req: ActionRequest, type: string): Rec[] {
  const addrs = req.list('SourceAddrArr');
  const ports = req.list('SourcePortArr');
  const toas = req.list('SourceToaIDArr');
  if (!addrs.length) throw paramError('SourceAddrArr.0', 'at least one back-end address is required');
  return addrs.map((source, i) => {
    if (type === 'IP' ? !IPV4.test(source) : !HOST.test(source)) throw paramError(`SourceAddrArr.${i}`, `"${source}" is not ${type === 'IP' ? 'an IPv4 address' : 'a domain name'}`);
    const port = Number(ports[i] ?? 0);
    const toa = Number(toas[i] ?? 200);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw paramError(`SourcePortArr.${i}`, 'must be 0-65535');
    if (!Number.isInteger(toa) || toa < 0 || toa > 254) throw paramError(`SourceToaIDArr.${i}`, 'must be 0-254');
    return { Source: source, Port: port, Toa: toa, IPList: type === 'IP' ? [source] : [] };
  });
}

/** The rule fields create and update share, checked; `prior` supplies what an update leaves out. */
function ruleFields(req: ActionRequest, prior: Rec | undefined, allowed: string[]): Rec {
  const fwdType = req.str('FwdType') ?? String(prior?.FwdType ?? 'IP');
  if (!allowed.includes(fwdType)) throw paramError('FwdType', `must be ${allowed.join(' or ')}`);
  const port = req.int('BgpIPPort') ?? Number(prior?.BgpIPPort ?? 0);
  if (fwdType === 'IP' ? port !== 0 : port < 1 || port > 65535) throw paramError('BgpIPPort', fwdType === 'IP' ? 'an IP rule forwards every port: 0' : 'must be 1-65535');
  const loadBalance = req.str('LoadBalance') ?? String(prior?.LoadBalance ?? 'No');
  if (loadBalance !== 'Yes' && loadBalance !== 'No') throw paramError('LoadBalance', 'must be Yes or No');
  const detect = req.int('SourceDetect') ?? Number(prior?.SourceDetect ?? 0);
  if (detect !== 0 && detect !== 1) throw paramError('SourceDetect', 'must be 0 or 1');
  const backupIp = req.str('BackupIP') ?? (prior?.BackupIP as string | undefined) ?? '';
  const backupPort = req.int('BackupPort') ?? Number(prior?.BackupPort ?? 0);
  if (backupIp && !IPV4.test(backupIp)) throw paramError('BackupIP', 'must be an IPv4 address');
  if ((loadBalance === 'Yes' || detect === 1) && !backupIp) throw paramError('BackupIP', 'a load-balanced or checked rule needs a backup server');
  const type = req.str('SourceType') ?? String((prior?.SourceInfo as Rec | undefined)?.Type ?? 'IP');
  if (type !== 'IP' && type !== 'Domain') throw paramError('SourceType', 'must be IP or Domain');
  const conf = req.list('SourceAddrArr').length || !prior ? sources(req, type) : (prior.SourceInfo as { Conf: Rec[] }).Conf;
  return { FwdType: fwdType, BgpIPPort: port, LoadBalance: loadBalance, SourceDetect: detect, BackupIP: backupIp, BackupPort: backupPort, SourceInfo: { Type: type, Conf: conf } };
}

/** Refuses a port another rule of the IP forwards, and more rules of a kind than the IP takes. */
function checkRoom(ctx: ActionContext, rule: Rec, resourceId: string, ip: string): void {
  const others = rulesOf(ctx, resourceId, ip).filter((r) => r.RuleIndex !== rule.RuleIndex);
  if (others.some((r) => r.BgpIPPort === rule.BgpIPPort)) throw paramError('BgpIPPort', `${ip} already forwards port ${String(rule.BgpIPPort)}`);
  const balanced = rule.LoadBalance === 'Yes';
  const same = others.filter((r) => (r.LoadBalance === 'Yes') === balanced).length;
  if (same >= (balanced ? MAX_LOAD_BALANCED : MAX_PLAIN))
    throw paramError('LoadBalance', `${ip} holds at most ${balanced ? MAX_LOAD_BALANCED : MAX_PLAIN} ${balanced ? 'load-balanced' : 'non-load-balanced'} rules`);
}

function findRule(req: ActionRequest, ctx: ActionContext, resourceId: string): Rec {
  const index = req.required('RuleIndex');
  const found = rulesOf(ctx, resourceId).find((r) => String(r.RuleIndex) === index);
  if (!found) throw paramError('RuleIndex', `no forwarding rule ${index} on ${resourceId}`);
  return found;
}

/** BGP service IP and forwarding-rule Actions by name. */
export const uadsBgpActions: Record<string, ActionHandler> = {
  CreateBGPServiceIP(req, ctx) {
    const inst = instanceOf(req, ctx);
    const remark = req.str('Remark') ?? '';
    if (remark.length > 255) throw paramError('Remark', 'at most 255 characters');
    const type = req.str('TypeIP') ?? 'TypeFree';
    if (ctx.db.uadsIps.filter((ip) => ip.ResourceId === inst.ResourceId).length >= IP_QUOTA) throw paramError('ResourceId', `the instance's IP quota (${IP_QUOTA}) is used up`);
    const taken = new Set(ctx.db.uadsIps.map((ip) => ip.DefenceIP));
    let n = 1;
    while (taken.has(`123.59.200.${n}`)) n++;
    const address = `123.59.200.${n}`;
    const ipId = 7000 + ctx.db.uadsIps.length + n;
    const cname = `gp${ipId}.ddos.sandbox-cdn.com`;
    ctx.db.uadsIps.push({ ResourceId: inst.ResourceId, DefenceIP: address, Cname: cname, LineType: 'BGP', Remark: remark, TypeIP: type, IPId: ipId, _settleAt: ctx.now + ctx.provisioningMs });
    return { DefenceIP: address, Cname: cname, IPId: ipId, EnableSwitch: 0 };
  },

  GetBGPServiceIP(req, ctx) {
    const inst = instanceOf(req, ctx);
    const only = req.str('BgpIP');
    const ips = ctx.db.uadsIps.filter((ip) => ip.ResourceId === inst.ResourceId && (only === undefined || ip.DefenceIP === only));
    const { items, total } = req.page(ips, 32, 100);
    const used = ctx.db.uadsIps.filter((ip) => ip.ResourceId === inst.ResourceId).length;
    return { GameIPInfo: items.map((ip) => serviceIpView(ip, ctx)), TotalCount: total, AvailableIPQuota: Math.max(0, IP_QUOTA - used) };
  },

  SetNapIpRemark(req, ctx) {
    const inst = instanceOf(req, ctx);
    const ip = serviceIp(req, ctx, inst.ResourceId, 'NapIp');
    const remark = req.str('Remark') ?? '';
    if (remark.length > 255) throw paramError('Remark', 'at most 255 characters');
    ip.Remark = remark;
    return {};
  },

  DeleteBGPServiceIP(req, ctx) {
    const inst = instanceOf(req, ctx);
    const ip = serviceIp(req, ctx, inst.ResourceId, 'DefenceIp');
    const rules = rulesOf(ctx, inst.ResourceId, String(ip.DefenceIP));
    if (rules.length) throw paramError('DefenceIp', `${String(ip.DefenceIP)} still forwards through ${rules.length} rule(s); delete them first`);
    ctx.db.uadsIps = ctx.db.uadsIps.filter((other) => other !== ip);
    return {};
  },

  CreateBGPServiceFwdRule(req, ctx) {
    const inst = instanceOf(req, ctx);
    const ip = serviceIp(req, ctx, inst.ResourceId, 'BgpIP');
    if (status(ip, ctx) !== 'Success') throw paramError('BgpIP', `${String(ip.DefenceIP)} is still being set up`);
    const index = Math.max(0, ...rulesOf(ctx, inst.ResourceId).map((r) => Number(r.RuleIndex))) + 1;
    const rule: Rec = { ResourceId: inst.ResourceId, RuleID: randomUUID(), RuleIndex: index, BgpIP: ip.DefenceIP, ...ruleFields(req, undefined, ['IP', 'TCP']) };
    checkRoom(ctx, rule, inst.ResourceId, String(ip.DefenceIP));
    const at = Math.floor(ctx.now / 1000);
    Object.assign(rule, { Remark: req.str('Remark') ?? '', CreateTime: at, UpdateTime: at, _settleAt: ctx.now + ctx.provisioningMs });
    ctx.db.uadsRules.push(rule);
    return { RuleIndex: index };
  },

  UpdateBGPServiceFwdRule(req, ctx) {
    const inst = instanceOf(req, ctx);
    const rule = findRule(req, ctx, inst.ResourceId);
    if (req.required('RuleID') !== rule.RuleID) throw paramError('RuleID', `rule ${String(rule.RuleIndex)} has another RuleID`);
    if (req.required('BgpIP') !== rule.BgpIP) throw paramError('BgpIP', `rule ${String(rule.RuleIndex)} forwards ${String(rule.BgpIP)}`);
    const fields = ruleFields(req, rule, ['IP', 'TCP', 'UDP']);
    checkRoom(ctx, { ...rule, ...fields }, inst.ResourceId, String(rule.BgpIP));
    Object.assign(rule, fields, { UpdateTime: Math.floor(ctx.now / 1000), _settleAt: ctx.now + ctx.provisioningMs });
    return { RuleIndex: rule.RuleIndex };
  },

  SetNapFwdRuleRemark(req, ctx) {
    const inst = instanceOf(req, ctx);
    const rule = findRule(req, ctx, inst.ResourceId);
    const remark = req.str('Remark') ?? '';
    if (remark.length > 255) throw paramError('Remark', 'at most 255 characters');
    rule.Remark = remark;
    return {};
  },

  DeleteBGPServiceFwdRule(req, ctx) {
    const inst = instanceOf(req, ctx);
    if (req.int('RuleIndex') === undefined) throw paramError('RuleIndex', 'missing');
    const rule = findRule(req, ctx, inst.ResourceId);
    ctx.db.uadsRules = ctx.db.uadsRules.filter((r) => r !== rule);
    return {};
  },

  GetBGPServiceFwdRule(req, ctx) {
    const inst = instanceOf(req, ctx);
    const ip = req.str('BgpIP');
    const index = req.int('RuleIndex');
    const matches = rulesOf(ctx, inst.ResourceId, ip).filter((r) => index === undefined || r.RuleIndex === index);
    const { items, total } = req.page(matches, 32, 100);
    const extra: Rec = {};
    if (ip !== undefined) {
      const mine = rulesOf(ctx, inst.ResourceId, ip);
      const balanced = mine.filter((r) => r.LoadBalance === 'Yes').length;
      Object.assign(extra, { AvailLoad: MAX_LOAD_BALANCED - balanced, AvailNonload: MAX_PLAIN - (mine.length - balanced), IpRuleExist: mine.some((r) => r.FwdType === 'IP') });
    }
    const view = (r: Rec): Rec => {
      const { ResourceId: _owner, _settleAt: _at, ...rest } = r;
      return { ...rest, Status: status(r, ctx) };
    };
    return { RuleInfo: items.map(view), RuleCnt: total, ...extra };
  },
};
