/**
 * NatGatewayRule: a port-forwarding policy of a NAT gateway, from a port of one of its EIPs to a
 * host in one of its subnets.
 *
 * Everything but the gateway changes in place: UpdateNATGWPolicy takes the whole rule, once. A
 * rule lives in its gateway (DescribeNATGWPolicy lists one gateway's), so its id is
 * `<nat_gateway_id>:<policy_id>`, which is also the import format.
 */
import * as z from 'zod';
import { isRemote, UserError } from '../../kernel/errors.js';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { str } from '../../providers/cloud/wire.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { deleteListed, nameField, noId, vanished, type CloudCtx } from './kit.js';

const PORT = /^(\d{1,5})(?:-(\d{1,5}))?$/;
const portOk = (p: string) => {
  const m = PORT.exec(p);
  return !!m && Number(m[1]) >= 1 && Number(m[1]) <= 65535 && (m[2] === undefined || (Number(m[2]) > Number(m[1]) && Number(m[2]) <= 65535));
};
const span = (p: string) => (p.includes('-') ? Number(p.split('-')[1]) - Number(p.split('-')[0]) : 0);
const portField = (what: string) => z.string().refine(portOk, `${what} must be a port N or a range A-B within 1-65535`).describe(`${what}: a port or a range \`A-B\` within 1-65535. Required.`);

/** Inputs of a NAT gateway rule. */
export const natGatewayRuleInputs = z
  .object({
    natGatewayId: z.string().min(1).describe('Id of the NAT gateway (`natgw-…`). Required.'),
    protocol: z.enum(['tcp', 'udp']).describe('`tcp` or `udp`. Required.'),
    srcEipId: z.string().min(1).describe("The gateway's EIP (`eip-…`) the traffic arrives at. Required."),
    srcPort: portField('Port on the EIP'),
    dstIp: z.ipv4({ message: 'dstIp must be an IPv4 address such as 10.0.1.10' }).describe("Private address of the host, in one of the gateway's subnets. Required."),
    dstPort: portField('Port on the host'),
    name: nameField().describe('Name of the policy. Default empty.'),
  })
  .refine((r) => !(r.srcPort.includes('-') || r.dstPort.includes('-')) || span(r.srcPort) === span(r.dstPort), {
    path: ['dstPort'],
    message: 'a port range must be as wide as srcPort',
  });

/** Inputs of a NAT gateway rule. */
export type NatGatewayRuleInputs = z.output<typeof natGatewayRuleInputs>;

/** What is read back about a NAT gateway rule. */
export const natGatewayRuleOutputs = z.object({
  ruleId: z.string().describe('Policy id.'),
  natGatewayId: z.string().describe('Id of its NAT gateway.'),
  protocol: z.string().describe('`tcp` or `udp`.'),
  srcEipId: z.string().describe('EIP the traffic arrives at.'),
  srcIp: z.string().describe("That EIP's address."),
  srcPort: z.string().describe('Port or range on the EIP.'),
  dstIp: z.string().describe('Address of the host.'),
  dstPort: z.string().describe('Port or range on the host.'),
  name: z.string().describe('Name.'),
});

/** Observed NAT gateway rule. */
export type NatGatewayRuleOutputs = z.output<typeof natGatewayRuleOutputs>;

interface PolicyInfo extends Record<string, unknown> {
  PolicyId: string;
  NATGWId?: string;
  PolicyName?: string;
  Protocol?: string;
  SrcEIPId?: string;
  SrcEIP?: string;
  SrcPort?: string;
  DstIP?: string;
  DstPort?: string;
}

const FORMAT = '<nat_gateway_id>:<policy_id>';

/** Splits `<nat_gateway_id>:<policy_id>`. */
function parseId(id: string): { gw: string; policy: string } {
  const [gw, policy, extra] = id.trim().split(':');
  if (!gw?.startsWith('natgw-') || !policy || extra !== undefined) throw new UserError(`invalid NAT gateway rule id "${id}": expected ${FORMAT}, e.g. natgw-1a2b3c4d:natgwpolicy-5e6f7a8b`);
  return { gw, policy };
}

function toOutputs(gw: string, p: PolicyInfo): NatGatewayRuleOutputs {
  return {
    ruleId: p.PolicyId,
    natGatewayId: gw,
    protocol: str(p.Protocol).toLowerCase(),
    srcEipId: str(p.SrcEIPId),
    srcIp: str(p.SrcEIP),
    srcPort: str(p.SrcPort),
    dstIp: str(p.DstIP),
    dstPort: str(p.DstPort),
    name: str(p.PolicyName),
  };
}

/** A gateway's policies; none when the gateway is gone. */
async function policies(ctx: CloudCtx, gw: string): Promise<PolicyInfo[]> {
  try {
    return await ctx.client.pageAll<PolicyInfo>('DescribeNATGWPolicy', { NATGWId: gw }, 'DataSet', { pageSize: 10000 });
  } catch (err) {
    if (isRemote(err, 'not-found')) return [];
    throw err;
  }
}

async function read(ctx: CloudCtx, id: string): Promise<NatGatewayRuleOutputs | undefined> {
  const { gw, policy } = parseId(id);
  const found = (await policies(ctx, gw)).find((p) => p.PolicyId === policy);
  return found && toOutputs(gw, found);
}

/** The rule these inputs declare among a gateway's: a port of an EIP forwards to one place only. */
const sameEntry = (p: PolicyInfo, inputs: NatGatewayRuleInputs) => str(p.Protocol).toLowerCase() === inputs.protocol && p.SrcEIPId === inputs.srcEipId && p.SrcPort === inputs.srcPort;

const wire = (inputs: NatGatewayRuleInputs) => ({
  NATGWId: inputs.natGatewayId,
  Protocol: inputs.protocol.toUpperCase(),
  SrcEIPId: inputs.srcEipId,
  SrcPort: inputs.srcPort,
  DstIP: inputs.dstIp,
  DstPort: inputs.dstPort,
  PolicyName: inputs.name,
});

/** The NatGatewayRule resource type. */
export const natGatewayRule: ResourceType<NatGatewayRuleInputs, NatGatewayRuleOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/natGatewayRule:NatGatewayRule',
  provider: 'cloud',
  description: "A NAT gateway's port forwarding: a port of one of its EIPs to a port of a host in its subnets.",
  inputs: natGatewayRuleInputs,
  outputs: natGatewayRuleOutputs,
  diff: {
    asDeclared: (recorded, _outputs, desired) => (desired.name === undefined && recorded.name === '' ? { ...recorded, name: undefined } : recorded),
    remoteManaged: ['ruleId', 'srcIp'],
  },
  replace: {
    on: [{ path: 'natGatewayId', reason: 'a forwarding policy belongs to one NAT gateway; UpdateNATGWPolicy cannot move it' }],
    // An EIP's port is forwarded by one policy per protocol: a rule moved keeping it is deleted first.
    holds: [{ what: 'forwarded port of an EIP', paths: ['srcEipId', 'protocol', 'srcPort'] }],
  },
  provisioning: {
    // A forwarding policy is listed as soon as CreateNATGWPolicy answers.
    appearsWithinMs: 0,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: {
    format: FORMAT,
    parse(id) {
      const { gw, policy } = parseId(id);
      return `${gw}:${policy}`;
    },
  },

  async create(ctx, inputs) {
    const find = async () => (await policies(ctx, inputs.natGatewayId)).find((p) => sameEntry(p, inputs));
    // A port of an EIP forwards to one place: a policy for it after a lost answer is this one.
    const body = await ctx.client.call<{ PolicyId?: string }>('CreateNATGWPolicy', wire(inputs), {
      recover: async () => {
        const made = await find();
        return made && { RetCode: 0, PolicyId: made.PolicyId };
      },
    });
    if (!body.PolicyId) throw noId('CreateNATGWPolicy', 'PolicyId');
    const id = `${inputs.natGatewayId}:${body.PolicyId}`;
    ctx.recordId(id);
    const seen = await read(ctx, id);
    if (!seen) throw vanished('NAT gateway rule', id);
    return { id, outputs: seen };
  },

  read: (ctx, id) => read(ctx, id),

  // One DescribeNATGWPolicy per gateway, whatever the number of its rules asked for.
  async readMany(ctx, targets) {
    const ids = targets.map((t) => parseId(t.id));
    const out = new Map<string, NatGatewayRuleOutputs | undefined>();
    for (const gw of new Set(ids.map((i) => i.gw))) {
      for (const p of await policies(ctx, gw)) out.set(`${gw}:${p.PolicyId}`, toOutputs(gw, p));
    }
    return new Map(targets.filter((t) => out.has(t.id)).map((t) => [t.id, out.get(t.id)]));
  },

  // The policy for this port of this EIP, not recorded at another address.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = (await policies(ctx, inputs.natGatewayId)).find((p) => sameEntry(p, inputs) && !order.recorded(`${inputs.natGatewayId}:${p.PolicyId}`));
    return found && { id: `${inputs.natGatewayId}:${found.PolicyId}`, outputs: toOutputs(inputs.natGatewayId, found) };
  },

  async update(ctx, id, _prior, desired) {
    const { policy } = parseId(id);
    await ctx.client.call('UpdateNATGWPolicy', { ...wire(desired), PolicyId: policy });
    const after = await read(ctx, id);
    if (!after) throw vanished('NAT gateway rule', id);
    return after;
  },

  async delete(ctx, id) {
    const { gw, policy } = parseId(id);
    await deleteListed(
      ctx,
      `NAT gateway rule ${id}`,
      async () => (await read(ctx, id)) !== undefined,
      () => ctx.client.call('DeleteNATGWPolicy', { NATGWId: gw, PolicyId: policy }),
    );
  },
};
