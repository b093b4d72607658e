/**
 * SecurityGroup: a firewall (UNet) with its rules inline.
 *
 * Rules change in place with UpdateFirewall, which is sent the whole new rule set; name, tag and
 * remark with UpdateFirewallAttribute (the remark goes in Remark, never in Tag). An empty value
 * there means "no change", so a remark cannot be cleared: emptying one replaces the group.
 * Import by the firewall id (`firewall-…`).
 */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ReplaceRule, ResourceType } from '../../engine/contracts/resource-type.js';
import { isRemote } from '../../kernel/errors.js';
import { APPEARS_WITHIN_MS, autoName, DEFAULT_TAG, deleteListed, nameField, ownedAmong, prefixedId, remarkField, tagField, vanished, type CloudCtx } from './kit.js';
import { createAndWait } from './create.js';
import { describeAll, type Listing } from '../../providers/cloud/api/listing.js';

const PORT = /^(\d{1,5})(?:-(\d{1,5}))?$/;
const RULE_DEFAULTS = { cidrBlock: '0.0.0.0/0', policy: 'accept', priority: 'high' } as const;

/** Whether a rule's source is what the API takes: an IPv4 address, or one with a prefix length of 0-32. */
function isIpv4OrRange(value: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/.exec(value);
  return !!m && m.slice(1, 5).every((o) => Number(o) <= 255) && (m[5] === undefined || Number(m[5]) <= 32);
}

/** One rule of a security group. */
const rule = z
  .object({
    protocol: z.enum(['tcp', 'udp', 'icmp', 'gre']).describe('`tcp`, `udp`, `icmp` or `gre`. Required.'),
    port: z.string().optional().describe('Destination port `N` or range `A-B` (1–65535, A < B). Required for tcp and udp; not allowed for icmp and gre.'),
    cidrBlock: z
      .string()
      .refine(isIpv4OrRange, 'an IPv4 address or range, such as 203.0.113.7 or 10.0.0.0/8')
      .optional()
      .describe('Source IPv4 address (`203.0.113.7`) or range (`10.0.0.0/8`). Default `0.0.0.0/0`.'),
    policy: z.enum(['accept', 'drop']).optional().describe('`accept` or `drop`. Default `accept`.'),
    priority: z.enum(['high', 'medium', 'low']).optional().describe('`high`, `medium` or `low`. Default `high`.'),
    description: z
      .string()
      .max(64)
      .regex(/^[^|]*$/, 'no | in a description')
      .optional()
      .describe('Note of at most 64 characters (no `|`).'),
  })
  .superRefine((r, ctx) => {
    if (typeof r.protocol !== 'string') return;
    const tcpish = r.protocol === 'tcp' || r.protocol === 'udp';
    if (tcpish && r.port === undefined) ctx.addIssue({ code: 'custom', path: ['port'], message: `${r.protocol} rules need a port: N or A-B within 1-65535` });
    if (!tcpish && r.port !== undefined) ctx.addIssue({ code: 'custom', path: ['port'], message: `${r.protocol} rules take no port; remove it` });
    const m = typeof r.port === 'string' ? PORT.exec(r.port) : null;
    const ok = m && Number(m[1]) >= 1 && Number(m[1]) <= 65535 && (m[2] === undefined || (Number(m[2]) > Number(m[1]) && Number(m[2]) <= 65535));
    if (tcpish && typeof r.port === 'string' && !ok) ctx.addIssue({ code: 'custom', path: ['port'], message: `port "${r.port}" must be N or A-B with 1 <= A < B <= 65535` });
  })
  // The API's names of the fields (DescribeFirewall's Rule, the `PROTOCOL|PORT|SRC|ACTION|PRIORITY` strings), hinted when written instead.
  .meta({ aka: { ProtocolType: 'protocol', DstPort: 'port', SrcIP: 'cidrBlock', RuleAction: 'policy', Action: 'policy', Remark: 'description' } });

/** Inputs of a security group. */
export const securityGroupInputs = z.object({
  name: nameField(),
  rules: z.array(rule).min(1, 'at least one rule').max(50, 'at most 50 rules').describe('Inbound rules, in order. Required (at least one). A change sends the whole set.'),
  tag: tagField(),
  remark: remarkField('Emptying it replaces the group (the API cannot clear a remark). Default empty.'),
});

/** Inputs of a security group. */
export type SecurityGroupInputs = z.output<typeof securityGroupInputs>;
type Rule = SecurityGroupInputs['rules'][number];

/** What is read back about a security group. */
export const securityGroupOutputs = z.object({
  securityGroupId: z.string().describe('Firewall id, e.g. `firewall-1a2b3c4d`.'),
  name: z.string().describe('Name.'),
  rules: z.array(rule).describe('Rules, every default written out.'),
  tag: z.string().describe('Tag.'),
  remark: z.string().describe('Remark.'),
  type: z.string().describe("`user defined`, or `recommend web` / `recommend non web` for the platform's own."),
  resourceCount: z.number().describe('How many resources it is applied to.'),
  createTime: z.string().describe('When it was made (RFC 3339).'),
});

/** Observed security group. */
export type SecurityGroupOutputs = z.output<typeof securityGroupOutputs>;

interface FirewallInfo extends Record<string, unknown> {
  FWId: string;
  Name: string;
  Tag?: string;
  Remark?: string;
  Type?: string;
  ResourceCount?: number;
  CreateTime?: number;
  Rule?: Array<{ ProtocolType: string; DstPort?: string; SrcIP: string; RuleAction: string; Priority: string; Remark?: string }>;
}

/** Every firewall of the project (DescribeFirewall without FWId). */
const LISTING: Listing = { action: 'DescribeFirewall', idsParam: 'FWId', listKey: 'DataSet', idField: 'FWId' };

/** A rule as the API takes it: `PROTOCOL|PORT|SOURCE|ACTION|PRIORITY[|REMARK]`. */
function wire(r: Rule): string {
  const fields = [
    r.protocol.toUpperCase(),
    r.port ?? '',
    r.cidrBlock ?? RULE_DEFAULTS.cidrBlock,
    (r.policy ?? RULE_DEFAULTS.policy).toUpperCase(),
    (r.priority ?? RULE_DEFAULTS.priority).toUpperCase(),
  ];
  return (r.description ? [...fields, r.description] : fields).join('|');
}

function toOutputs(f: FirewallInfo): SecurityGroupOutputs {
  const rules = (f.Rule ?? []).map((r): Rule => ({
    protocol: r.ProtocolType.toLowerCase() as Rule['protocol'],
    ...(r.DstPort ? { port: r.DstPort } : {}),
    cidrBlock: r.SrcIP,
    policy: r.RuleAction.toLowerCase() as Rule['policy'],
    priority: r.Priority.toLowerCase() as Rule['priority'],
    ...(r.Remark ? { description: r.Remark } : {}),
  }));
  return {
    securityGroupId: f.FWId,
    name: str(f.Name),
    rules,
    tag: str(f.Tag) || DEFAULT_TAG,
    remark: str(f.Remark),
    type: str(f.Type),
    resourceCount: Number(f.ResourceCount ?? 0),
    createTime: rfc3339(f.CreateTime),
  };
}

/** One firewall: DescribeFirewall takes a single FWId and answers an unknown one with not-found. */
async function describe(ctx: CloudCtx, id: string): Promise<FirewallInfo | undefined> {
  try {
    const body = await ctx.client.call<{ DataSet?: FirewallInfo[] }>('DescribeFirewall', { FWId: id });
    return (body.DataSet ?? []).find((f) => f.FWId === id);
  } catch (err) {
    if (isRemote(err, 'not-found')) return undefined;
    throw err;
  }
}

/** The bulk read: DescribeFirewall takes a single id, so the project's firewalls are listed once. */
async function listed(ctx: CloudCtx): Promise<FirewallInfo[]> {
  return describeAll<FirewallInfo>(ctx.client, LISTING);
}

/** The SecurityGroup resource type. */
export const securityGroup: ResourceType<SecurityGroupInputs, SecurityGroupOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/securityGroup:SecurityGroup',
  provider: 'cloud',
  description: 'A security group (firewall) with its inbound rules, applied to instances, load balancers and NAT gateways.',
  inputs: securityGroupInputs,
  outputs: securityGroupOutputs,
  diff: {
    computedInputs: ['name'],
    // Rule fields left out are their defaults; the API reports every field.
    asDeclared: (recorded, _outputs, desired) => {
      const out = defaultsAsDeclared(recorded, desired, { tag: DEFAULT_TAG, remark: '' });
      if (!Array.isArray(recorded.rules) || !Array.isArray(desired.rules)) return out;
      return { ...out, rules: recorded.rules.map((r, i) => (desired.rules[i] ? defaultsAsDeclared(r, desired.rules[i], RULE_DEFAULTS) : r)) };
    },
    remoteManaged: ['type', 'resourceCount', 'createTime'],
  },
  replace: {
    on: [],
    when: {
      inputs: ['remark'],
      rules(prior, desired): ReplaceRule[] {
        const cleared = (prior.remark ?? '') !== '' && (desired.remark ?? '') === '';
        return cleared ? [{ path: 'remark', reason: 'UpdateFirewallAttribute takes an empty remark as no change, so no Action clears one' }] : [];
      },
    },
  },
  provisioning: {
    // The API lists a new security group only once it is provisioned.
    appearsWithinMs: APPEARS_WITHIN_MS,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: prefixedId('firewall', 'security group'),

  create: (ctx, inputs) =>
    createAndWait(ctx, {
      what: 'security group',
      action: 'CreateFirewall',
      params: { Name: inputs.name ?? autoName(ctx.address, ctx.operationToken), Rule: inputs.rules.map(wire), Tag: inputs.tag, Remark: inputs.remark },
      idAt: 'FWId',
      within: APPEARS_WITHIN_MS,
      findOwned: (order) => securityGroup.findOwned!(ctx, inputs, order),
      read: (id) => securityGroup.read(ctx, id),
    }),

  async read(ctx, id) {
    const seen = await describe(ctx, id);
    return seen && toOutputs(seen);
  },

  async readMany(ctx, targets) {
    const all = await ctx.shared('cloud:DescribeFirewall', () => listed(ctx));
    const byId = new Map(all.map((f) => [f.FWId, f]));
    return readManyFrom(
      byId,
      targets.map((t) => t.id),
    );
  },

  async list(ctx) {
    return (await listed(ctx)).filter((f) => f.Type === 'user defined').map((f) => ({ id: f.FWId, outputs: toOutputs(f) }));
  },

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const name = inputs.name ?? autoName(ctx.address, ctx.operationToken);
    const found = ownedAmong(
      `security group named "${name}"`,
      await listed(ctx),
      (f) => f.Name === name,
      order,
      (f) => f.FWId,
    );
    return found && { id: found.FWId, outputs: toOutputs(found) };
  },

  async update(ctx, id, _prior, desired) {
    const live = await describe(ctx, id);
    if (!live) throw vanished('security group', id);
    const seen = toOutputs(live);
    const rules = desired.rules.map(wire);
    if (JSON.stringify(rules) !== JSON.stringify(seen.rules.map(wire))) await ctx.client.call('UpdateFirewall', { FWId: id, Rule: rules });
    // Only what differs is sent: an empty value is "no change" to this Action.
    const changed = (want: string | undefined, have: string) => (want !== undefined && want !== have ? want : undefined);
    const attrs = { Name: changed(desired.name, seen.name), Tag: changed(desired.tag ?? DEFAULT_TAG, seen.tag), Remark: changed(desired.remark, seen.remark) };
    if (Object.values(attrs).some((v) => v)) await ctx.client.call('UpdateFirewallAttribute', { FWId: id, ...attrs });
    const after = await describe(ctx, id);
    if (!after) throw vanished('security group', id);
    return toOutputs(after);
  },

  async delete(ctx, id) {
    await deleteListed(
      ctx,
      `security group ${id}`,
      async () => (await describe(ctx, id)) !== undefined,
      () => ctx.client.call('DeleteFirewall', { FWId: id }),
    );
  },
};

function readManyFrom(byId: Map<string, FirewallInfo>, ids: string[]): Map<string, SecurityGroupOutputs | undefined> {
  const out = new Map<string, SecurityGroupOutputs | undefined>();
  for (const id of ids) {
    const f = byId.get(id);
    if (f) out.set(id, toOutputs(f));
  }
  return out;
}
