/**
 * AntiDdosRule: a forwarding rule of an anti-DDoS service IP, sending what reaches the IP (on one
 * TCP port, or every port for an IP rule) to back-end servers.
 *
 * Ports, protocol, back ends, TOA, health checking and the backup server change in place with
 * UpdateBGPServiceFwdRule, the remark with SetNapFwdRuleRemark; each create or update is Pending
 * until applied. The instance, the service IP and the kind of back-end address (IP or domain)
 * cannot change (UpdateBGPServiceFwdRule does not take them). The id and import format is
 * `<instance_id>/<rule_index>`: the rule index is what the API's Actions address a rule by.
 */
import * as z from 'zod';
import { UserError } from '../../kernel/errors.js';
import { listServiceInfo } from '../../providers/cloud/api/anti-ddos.js';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { UADS_CALL } from './anti-ddos-ip.js';
import { ruleParams, ruleRecords, type FwdRule, type RuleInputs } from './anti-ddos-rule-wire.js';
import { deleteListed, findMade, noId, ownedAmong, PACE, remarkField, vanished, type CloudCtx } from './kit.js';

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
/** A domain name as the API takes a `domain` rule's back end: labels of letters, digits and hyphens, ending in a letter-led one. */
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;
const port = z.number().int().min(1).max(65535);

/** Inputs of a forwarding rule. */
export const antiDdosRuleInputs = z
  .object({
    instanceId: z.string().min(1).describe('Id of the anti-DDoS instance (`usecure_ghp-…`). Required.'),
    ip: z.string().regex(IPV4, 'an IPv4 address').describe("The service IP the rule forwards from (an AntiDdosIp's `ip`). Required."),
    port: port.optional().describe('TCP port of the service IP to forward, 1-65535; unique among the rules of the IP. Left out, the rule forwards every port (an IP rule).'),
    sourceType: z.enum(['ip', 'domain']).optional().describe('Whether back ends are IP addresses or domain names: `ip` or `domain`. Default `ip`.'),
    realServers: z
      .array(
        z.object({
          address: z.string().min(1).describe('Back-end IPv4 address (or domain name, with `sourceType: domain`).'),
          port: port.optional().describe('Back-end port. Required for a TCP rule; not allowed for an IP rule (it forwards every port).'),
        }),
      )
      .min(1, 'at least one back end')
      .describe('Back ends traffic is forwarded to; more than one balances the load between them (and then needs `backupServer`). Required.'),
    toaId: z.number().int().min(0).max(254).optional().describe('TCP option (TOA) id that carries the client address to the back ends, 0-254. Default 200.'),
    detection: z.boolean().optional().describe('Check the back ends and fail over to `backupServer`. Default false (needs `backupServer` when true).'),
    backupServer: z
      .object({ ip: z.string().regex(IPV4, 'an IPv4 address').describe('Backup IPv4 address.'), port: port.optional().describe('Backup port (TCP rules).') })
      .optional()
      .describe('Where traffic goes when the back ends fail. Required with several back ends or with `detection`. Dropping it replaces the rule (an empty BackupIP is never sent).'),
    remark: remarkField('Default empty.'),
  })
  .superRefine((rule, ctx) => {
    rule.realServers.forEach((server, i) => {
      if (rule.port !== undefined && server.port === undefined) ctx.addIssue({ code: 'custom', path: ['realServers', i, 'port'], message: 'a TCP rule (port set) needs the back-end port' });
      if (rule.port === undefined && server.port !== undefined)
        ctx.addIssue({ code: 'custom', path: ['realServers', i, 'port'], message: 'an IP rule (no port) forwards every port: leave the back-end port out' });
      if (typeof server.address !== 'string') return;
      if ((rule.sourceType ?? 'ip') === 'ip' && !IPV4.test(server.address))
        ctx.addIssue({ code: 'custom', path: ['realServers', i, 'address'], message: 'an IPv4 address (or set sourceType: domain)' });
      if (rule.sourceType === 'domain' && !HOST.test(server.address))
        ctx.addIssue({ code: 'custom', path: ['realServers', i, 'address'], message: 'a domain name such as origin.example.com, since sourceType is domain (or set sourceType: ip for addresses)' });
    });
    if ((rule.realServers.length > 1 || rule.detection) && !rule.backupServer) {
      ctx.addIssue({ code: 'custom', path: ['backupServer'], message: 'required with several back ends (load balancing) or with detection: true' });
    }
  });

/** Inputs of a forwarding rule. */
export type AntiDdosRuleInputs = z.output<typeof antiDdosRuleInputs>;

/** What is read back about a forwarding rule. */
export const antiDdosRuleOutputs = z.object({
  antiDdosRuleId: z.string().describe('`<instance_id>/<rule_index>`.'),
  instanceId: z.string().describe('Id of the anti-DDoS instance.'),
  ip: z.string().describe('The service IP.'),
  ruleIndex: z.number().describe('The index the API addresses the rule by.'),
  ruleId: z.string().describe('The rule UUID.'),
  protocol: z.string().describe('`IP` (every port) or `TCP`.'),
  port: z.number().optional().describe('The forwarded port (TCP rules).'),
  sourceType: z.string().describe('`ip` or `domain`.'),
  realServers: z.array(z.object({ address: z.string(), port: z.number().optional() })).describe('Back ends.'),
  toaId: z.number().describe('TOA id.'),
  detection: z.boolean().describe('Whether back ends are checked.'),
  loadBalance: z.boolean().describe('Whether the load is balanced between several back ends.'),
  backupServer: z.object({ ip: z.string(), port: z.number().optional() }).optional().describe('Backup server.'),
  remark: z.string().describe('Remark.'),
  status: z.string().describe('`Pending` while being applied, then `Success`.'),
  createTime: z.string().describe('When it was made (RFC 3339).'),
});

/** Observed forwarding rule. */
export type AntiDdosRuleOutputs = z.output<typeof antiDdosRuleOutputs>;

/** Splits `<instance_id>/<rule_index>`; a UserError naming the format otherwise. */
export function parseAntiDdosRuleId(id: string): { instanceId: string; index: number } {
  const m = /^(usecure_ghp-[A-Za-z0-9]+)\/(\d+)$/.exec(id.trim());
  if (!m) throw new UserError(`invalid anti-DDoS rule id "${id}": expected <instance_id>/<rule_index>`, 'e.g. usecure_ghp-1a2b3c4d/3 (the index is listed by plumb lookup or the console)');
  return { instanceId: m[1], index: Number(m[2]) };
}

function toOutputs(instanceId: string, r: FwdRule): AntiDdosRuleOutputs {
  const tcp = r.FwdType !== 'IP';
  const conf = r.SourceInfo?.Conf ?? [];
  return {
    antiDdosRuleId: `${instanceId}/${r.RuleIndex}`,
    instanceId,
    ip: r.BgpIP,
    ruleIndex: r.RuleIndex,
    ruleId: str(r.RuleID),
    protocol: str(r.FwdType),
    ...(tcp ? { port: r.BgpIPPort } : {}),
    sourceType: r.SourceInfo?.Type === 'Domain' ? 'domain' : 'ip',
    realServers: conf.map((c) => (tcp ? { address: c.Source, port: c.Port } : { address: c.Source })),
    toaId: conf[0]?.Toa ?? 200,
    detection: r.SourceDetect === 1,
    loadBalance: r.LoadBalance === 'Yes',
    ...(r.BackupIP ? { backupServer: tcp ? { ip: r.BackupIP, port: r.BackupPort } : { ip: r.BackupIP } } : {}),
    remark: str(r.Remark),
    status: str(r.Status),
    createTime: rfc3339(r.CreateTime),
  };
}

async function observe(ctx: CloudCtx, instanceId: string, index: number): Promise<AntiDdosRuleOutputs | undefined> {
  const found = (await ruleRecords(ctx, instanceId, { RuleIndex: index })).find((r) => r.RuleIndex === index);
  return found && toOutputs(instanceId, found);
}

/** The status of a rule that failed to apply: any but Pending and Success, as the upstream provider treats it. */
function failedStatus(status: string): string | undefined {
  return status === 'Pending' || status === 'Success' ? undefined : status;
}

/** Waits for Pending to settle into Success; any other status is an error. */
function waitApplied(ctx: CloudCtx, instanceId: string, index: number): Promise<AntiDdosRuleOutputs> {
  return ctx.wait(
    `forwarding rule ${instanceId}/${index} to be applied`,
    async () => {
      const seen = await observe(ctx, instanceId, index);
      if (!seen) throw vanished('anti-DDoS forwarding rule', `${instanceId}/${index}`);
      if (seen.status === 'Success') return { done: true, value: seen };
      if (failedStatus(seen.status)) {
        throw new Error(`forwarding rule ${instanceId}/${index} ended in status ${seen.status}, which it does not leave by itself: replace it (plumb apply --replace ${ctx.address})`);
      }
      return { done: false, status: seen.status };
    },
    PACE,
  );
}

/** A port identifies a rule among those of its service IP (the API refuses a second rule on it). */
const isFor = (inputs: AntiDdosRuleInputs) => (r: FwdRule) => r.BgpIP === inputs.ip && r.BgpIPPort === (inputs.port ?? 0);

/** Whether the rule as observed differs from the desired one in what UpdateBGPServiceFwdRule changes. */
function fieldsDiffer(live: AntiDdosRuleOutputs, desired: AntiDdosRuleInputs): boolean {
  const want = ruleParams(desired);
  const have = ruleParams({ ...desired, port: live.port, realServers: live.realServers, toaId: live.toaId, detection: live.detection, backupServer: live.backupServer });
  return JSON.stringify(want) !== JSON.stringify(have);
}

/** The AntiDdosRule resource type. */
export const antiDdosRule: ResourceType<AntiDdosRuleInputs, AntiDdosRuleOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/antiDdosRule:AntiDdosRule',
  provider: 'cloud',
  description: 'A forwarding rule of an anti-DDoS service IP: a port (or every port) sent to back-end servers; waits until applied.',
  inputs: antiDdosRuleInputs as unknown as z.ZodType<AntiDdosRuleInputs>,
  outputs: antiDdosRuleOutputs,
  diff: {
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { sourceType: 'ip', toaId: 200, detection: false, remark: '' }),
    remoteManaged: ['status', 'createTime', 'ruleId', 'ruleIndex', 'protocol', 'loadBalance'],
  },
  replace: {
    on: [
      { path: 'instanceId', reason: 'a rule belongs to one anti-DDoS instance (no Action moves it)' },
      { path: 'ip', reason: 'UpdateBGPServiceFwdRule takes the service IP only to find the rule: it cannot move to another IP' },
      { path: 'sourceType', reason: 'UpdateBGPServiceFwdRule takes no SourceType' },
    ],
    // A service IP forwards a port through one rule (every port, 0, through one IP rule): a rule
    // replaced keeping its port is deleted first.
    holds: [{ what: 'forwarded port of an anti-DDoS IP', paths: ['instanceId', 'ip', 'port'], defaults: { port: () => 0 } }],
    when: {
      inputs: ['backupServer'],
      // The API never receives an empty value (empty parameters are not sent), so no update clears
      // a backup server once set.
      rules: (prior, desired) =>
        prior.backupServer && !desired.backupServer ? [{ path: 'backupServer', reason: 'UpdateBGPServiceFwdRule cannot clear a backup server (an empty BackupIP is never sent)' }] : [],
    },
  },
  provisioning: {
    ready: (outputs) => outputs.status === 'Success',
    failed: (outputs) => failedStatus(String(outputs.status)),
    // The API lists a new rule at once, Pending until it is applied.
    appearsWithinMs: 0,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: {
    format: '<instance_id>/<rule_index>',
    parse(id) {
      const { instanceId, index } = parseAntiDdosRuleId(id);
      return `${instanceId}/${index}`;
    },
  },

  async create(ctx, inputs) {
    const { instanceId } = inputs;
    const sentAt = Date.now();
    const recover = async () => {
      const made = await findMade(ctx, {
        within: 0,
        what: 'forwarding rule',
        sentAt,
        findOwned: (order) => antiDdosRule.findOwned!(ctx, inputs, order),
      });
      return made && { RetCode: 0, RuleIndex: made.outputs.ruleIndex };
    };
    const body = await ctx.client.call<{ RuleIndex?: number }>(
      'CreateBGPServiceFwdRule',
      { ResourceId: instanceId, BgpIP: inputs.ip, SourceType: inputs.sourceType === 'domain' ? 'Domain' : 'IP', Remark: inputs.remark, ...ruleParams(inputs) },
      { ...UADS_CALL, recover },
    );
    if (body.RuleIndex === undefined) throw noId('CreateBGPServiceFwdRule', 'RuleIndex');
    const id = `${instanceId}/${body.RuleIndex}`;
    // Recorded before waiting, so a rule that never settles is still known (and can be deleted).
    ctx.recordId(id);
    return { id, outputs: await waitApplied(ctx, instanceId, body.RuleIndex) };
  },

  read(ctx, id) {
    const { instanceId, index } = parseAntiDdosRuleId(id);
    return observe(ctx, instanceId, index);
  },

  // One listing of an instance's rules serves every rule of it.
  async readMany(ctx, targets) {
    const out = new Map<string, AntiDdosRuleOutputs | undefined>();
    const instances = [...new Set(targets.map((t) => parseAntiDdosRuleId(t.id).instanceId))];
    await Promise.all(
      instances.map(async (instanceId) => {
        for (const r of await ruleRecords(ctx, instanceId)) {
          const outputs = toOutputs(instanceId, r);
          if (targets.some((t) => t.id === outputs.antiDdosRuleId)) out.set(outputs.antiDdosRuleId, outputs);
        }
      }),
    );
    return out;
  },

  async list(ctx) {
    const instances = await listServiceInfo(ctx.client);
    const found = [];
    for (const { ResourceId: instanceId } of instances) {
      for (const r of await ruleRecords(ctx, instanceId)) found.push({ id: `${instanceId}/${r.RuleIndex}`, outputs: toOutputs(instanceId, r) });
    }
    return found;
  },

  // The port identifies a rule on its IP, so what an interrupted create made is the rule of that
  // port there, made since the order was journaled.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const rules = await ruleRecords(ctx, inputs.instanceId, { BgpIP: inputs.ip });
    const found = ownedAmong(`forwarding rule of ${inputs.ip}`, rules, isFor(inputs), order, (r) => `${inputs.instanceId}/${r.RuleIndex}`);
    return found && { id: `${inputs.instanceId}/${found.RuleIndex}`, outputs: toOutputs(inputs.instanceId, found) };
  },

  async update(ctx, id, _prior, desired) {
    const { instanceId, index } = parseAntiDdosRuleId(id);
    const live = await observe(ctx, instanceId, index);
    if (!live) throw vanished('anti-DDoS forwarding rule', id);
    if (fieldsDiffer(live, desired)) {
      await ctx.client.call('UpdateBGPServiceFwdRule', { ResourceId: instanceId, BgpIP: live.ip, RuleIndex: index, RuleID: live.ruleId, ...ruleParams(desired) }, UADS_CALL);
    }
    if ((desired.remark ?? '') !== live.remark) {
      // This Action takes the rule index as a string.
      await ctx.client.call('SetNapFwdRuleRemark', { ResourceId: instanceId, RuleIndex: String(index), Remark: desired.remark ?? '' }, UADS_CALL);
    }
    return waitApplied(ctx, instanceId, index);
  },

  async delete(ctx, id) {
    const { instanceId, index } = parseAntiDdosRuleId(id);
    await deleteListed(
      ctx,
      `forwarding rule ${id}`,
      async () => (await observe(ctx, instanceId, index)) !== undefined,
      () => ctx.client.call('DeleteBGPServiceFwdRule', { ResourceId: instanceId, RuleIndex: index }, UADS_CALL),
    );
  },
};
