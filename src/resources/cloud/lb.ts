/**
 * Lb: a load balancer (CLB) in a subnet, reached from the internet or only from its VPC.
 *
 * Name, tag and remark change in place (one UpdateULBAttribute call, each field where it belongs:
 * the remark is never written into the tag); an empty remark is no change to that Action, so
 * clearing one replaces the balancer. The API cannot move a balancer to another VPC or
 * subnet, make an external one internal, or change how it forwards, so those replace it. Deleting
 * it unbinds its EIPs (they are kept). An external balancer takes a security group, as the API
 * allows for external ones only: given at create (CreateULB's FirewallId), swapped with
 * GrantFirewall (ResourceType ulb) and taken off with DisassociateFirewall; an internal one with
 * a security group is refused before any call. Import by the balancer id (`ulb-…`).
 */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339, snake, str, upperCamel } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { APPEARS_WITHIN_MS, autoName, DEFAULT_TAG, deleteListed, listedVerbs, nameField, ownedAmong, prefixedId, remarkField, tagField, vanished, type CloudCtx } from './kit.js';
import { createAndWait } from './create.js';
import { allLbs, describeLb, type LbInfo } from './ulb.js';
import { listLbs } from '../../providers/cloud/api/ulb.js';

const LISTEN_TYPES = ['request_proxy', 'packets_transmit'] as const;

/** Inputs of a load balancer. */
export const lbInputs = z
  .object({
    vpcId: z.string().min(1).describe('Id of the VPC (`uvnet-…`). Required.'),
    subnetId: z.string().min(1).describe('Id of the subnet of the VPC it is placed in (`subnet-…`). Required.'),
    internal: z.boolean().optional().describe('Reached only from the VPC (InnerMode) rather than from the internet (OuterMode). Default false.'),
    listenType: z
      .enum(LISTEN_TYPES)
      .optional()
      .describe(
        'How it forwards: `request_proxy` (HTTP, HTTPS, TCP, UDP listeners) or `packets_transmit` (TCP, UDP). Default `request_proxy` for an external balancer, `packets_transmit` for an internal one.',
      ),
    name: nameField(),
    tag: tagField(),
    remark: remarkField('Emptying it replaces the balancer (the API cannot clear a remark). Default empty.'),
    securityGroupId: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Security group (`firewall-…`) filtering what reaches an external balancer; the API takes none for an internal one. Default none. Set with GrantFirewall, removed with DisassociateFirewall.',
      ),
  })
  .superRefine((v, ctx) => {
    if (v.internal === true && v.securityGroupId !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['securityGroupId'], message: 'an internal balancer takes no security group: the API binds one to an external (internal: false) balancer only' });
    }
  });

/** Inputs of a load balancer. */
export type LbInputs = z.output<typeof lbInputs>;

/** What is read back about a load balancer. */
export const lbOutputs = z.object({
  lbId: z.string().describe('Balancer id, e.g. `ulb-1a2b3c4d`.'),
  vpcId: z.string().describe('Id of its VPC.'),
  subnetId: z.string().describe('Id of its subnet.'),
  internal: z.boolean().describe('Whether it is reached only from its VPC.'),
  listenType: z.enum(LISTEN_TYPES).describe('How it forwards.'),
  name: z.string().describe('Name.'),
  tag: z.string().describe('Tag.'),
  remark: z.string().describe('Remark.'),
  privateIp: z.string().describe('Its address in the subnet.'),
  ipAddresses: z.array(z.string()).describe('Public addresses of the EIPs bound to it.'),
  securityGroupId: z.string().describe('Its security group, empty for none.'),
  createTime: z.string().describe('When it was made (RFC 3339).'),
});

/** Observed load balancer. */
export type LbOutputs = z.output<typeof lbOutputs>;

function toOutputs(l: LbInfo): LbOutputs {
  const internal = l.ULBType === 'InnerMode';
  const listen = snake(l.ListenType);
  return {
    lbId: l.ULBId,
    vpcId: str(l.VPCId),
    subnetId: str(l.SubnetId),
    internal,
    listenType: listen === 'packets_transmit' ? 'packets_transmit' : 'request_proxy',
    name: str(l.Name ?? l.ULBName),
    tag: str(l.Tag) || DEFAULT_TAG,
    remark: str(l.Remark),
    privateIp: str(l.PrivateIP),
    ipAddresses: (l.IPSet ?? []).map((ip) => str(ip.EIP)).filter(Boolean),
    securityGroupId: str(l.FirewallSet?.[0]?.FirewallId),
    createTime: rfc3339(l.CreateTime),
  };
}

/** Whether a balancer is the one these inputs order, named `name`. */
function matches(l: LbInfo, inputs: LbInputs, name: string): boolean {
  return str(l.Name ?? l.ULBName) === name && l.VPCId === inputs.vpcId && l.SubnetId === inputs.subnetId;
}

/** The balancers of a VPC, listed afresh (a search for what a create made polls this). */
const inVpc = (ctx: CloudCtx, vpcId: string) => listLbs(ctx.client, { VPCId: vpcId });

const verbs = listedVerbs<LbOutputs>(
  async (ctx) => (await allLbs(ctx)).map((l) => ({ id: l.ULBId, outputs: toOutputs(l) })),
  async (ctx, id) => {
    const seen = await describeLb(ctx, id);
    return seen && toOutputs(seen);
  },
);

/** The Lb resource type. */
export const lb: ResourceType<LbInputs, LbOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/lb:Lb',
  provider: 'cloud',
  description: 'A load balancer (CLB) in a subnet, external or internal; renamed, retagged and remarked in place, and an external one takes a security group. Import id: the balancer id (`ulb-…`).',
  inputs: lbInputs,
  outputs: lbOutputs,
  diff: {
    computedInputs: ['name', 'listenType'],
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { internal: false, tag: DEFAULT_TAG, remark: '', securityGroupId: '' }),
    remoteManaged: ['privateIp', 'ipAddresses', 'createTime'],
  },
  replace: {
    on: [
      { path: 'vpcId', reason: 'a balancer cannot move to another VPC (no API Action)' },
      { path: 'subnetId', reason: 'a balancer cannot move to another subnet (no API Action)' },
      { path: 'internal', reason: 'OuterMode and InnerMode are chosen by CreateULB; no Action changes them' },
      { path: 'listenType', reason: 'ListenType is chosen by CreateULB; UpdateULBAttribute does not take it' },
    ],
    when: {
      inputs: ['remark'],
      rules(prior, desired) {
        const cleared = (prior.remark ?? '') !== '' && (desired.remark ?? '') === '';
        return cleared ? [{ path: 'remark', reason: 'UpdateULBAttribute takes an empty remark as no change, so no Action clears one' }] : [];
      },
    },
  },
  provisioning: {
    // The API lists a new balancer only once it is provisioned.
    appearsWithinMs: APPEARS_WITHIN_MS,
  },
  cost: { unpriced: 'no price action: the API has none for classic load balancers' },
  importId: prefixedId('ulb', 'load balancer'),

  create: (ctx, inputs) =>
    createAndWait(ctx, {
      what: 'load balancer',
      action: 'CreateULB',
      params: {
        ULBName: inputs.name ?? autoName(ctx.address, ctx.operationToken),
        Tag: inputs.tag,
        Remark: inputs.remark,
        VPCId: inputs.vpcId,
        SubnetId: inputs.subnetId,
        ...(inputs.internal ? { InnerMode: 'Yes' } : { OuterMode: 'Yes' }),
        ListenType: inputs.listenType && upperCamel(inputs.listenType),
        FirewallId: inputs.securityGroupId,
      },
      idAt: 'ULBId',
      within: APPEARS_WITHIN_MS,
      findOwned: (order) => lb.findOwned!(ctx, inputs, order),
      read: (id) => lb.read(ctx, id),
    }),

  ...verbs,

  // A default name carries the order's token; a given one, with the subnet, identifies the balancer.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const name = inputs.name ?? autoName(ctx.address, ctx.operationToken);
    const found = ownedAmong(
      `load balancer ${name}`,
      await inVpc(ctx, inputs.vpcId),
      (l) => matches(l, inputs, name),
      order,
      (l) => l.ULBId,
    );
    return found && { id: found.ULBId, outputs: toOutputs(found) };
  },

  async update(ctx, id, _prior, desired) {
    const live = await describeLb(ctx, id);
    if (!live) throw vanished('load balancer', id);
    const seen = toOutputs(live);
    const changed = <T>(want: T | undefined, have: T) => (want !== undefined && want !== have ? want : undefined);
    const name = changed(desired.name, seen.name);
    const tag = changed(desired.tag ?? DEFAULT_TAG, seen.tag);
    const remark = changed(desired.remark ?? '', seen.remark);
    // Absent fields are left as they are; the Action takes all three at once.
    if (name !== undefined || tag !== undefined || remark !== undefined) await ctx.client.call('UpdateULBAttribute', { ULBId: id, Name: name, Tag: tag, Remark: remark });
    const group = desired.securityGroupId ?? '';
    if (group !== seen.securityGroupId) {
      if (group) await ctx.client.call('GrantFirewall', { FWId: group, ResourceType: 'ulb', ResourceId: id });
      else await ctx.client.call('DisassociateFirewall', { FWId: seen.securityGroupId, ResourceType: 'ULB', ResourceId: id });
    }
    const after = await describeLb(ctx, id);
    if (!after) throw vanished('load balancer', id);
    return toOutputs(after);
  },

  async delete(ctx, id) {
    await deleteListed(
      ctx,
      `load balancer ${id}`,
      async () => (await describeLb(ctx, id)) !== undefined,
      () => ctx.client.call('DeleteULB', { ULBId: id, ReleaseEip: false }),
    );
  },
};
