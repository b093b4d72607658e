/**
 * NatGateway: a VPC's shared egress (and port forwarding) through EIPs.
 *
 * Name, tag and remark change in place (one UpdateNATGW call), and so do its subnets
 * (UpdateNATGWSubnet with the whole list), its EIPs (BindEIP / UnBindEIP, new ones bound before
 * old ones go, as a gateway keeps at least one), its security group (GrantFirewall), its
 * white-list members (AddWhiteListResource / DeleteWhiteListResource) and its white-list mode
 * (EnableWhiteList, after the members change). The members are an input of the gateway, as
 * Terraform's `white_list` is: the API keeps them on the gateway, read with its white-list mode
 * in one DescribeWhiteListResource, and they go with it. Only the VPC replaces it: no Action
 * moves one. Deleting it leaves its EIPs allocated and free. Import by the NAT gateway id (`natgw-…`).
 */
import * as z from 'zod';
import { isRemote } from '../../kernel/errors.js';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ReadTarget, ResourceType } from '../../engine/contracts/resource-type.js';
import { APPEARS_WITHIN_MS, autoName, DEFAULT_TAG, deleteListed, inDeclaredOrder, nameField, ownedAmong, PACE, prefixedId, remarkField, tagField, vanished, waitListed, type CloudCtx } from './kit.js';
import { createAndWait } from './create.js';
import { describeAll, describeIds } from '../../providers/cloud/api/listing.js';
import { NAT_GATEWAY_LISTING as LISTING, type NatGatewayInfo } from '../../providers/cloud/api/nat.js';

/** Inputs of a NAT gateway. */
export const natGatewayInputs = z.object({
  vpcId: z.string().min(1).describe('Id of the VPC (`uvnet-…`). Required.'),
  subnetIds: z.array(z.string().min(1)).min(1, 'a NAT gateway serves at least one subnet').describe('Subnets of the VPC whose hosts use the gateway. Required.'),
  eipIds: z.array(z.string().min(1)).min(1, 'a NAT gateway needs at least one EIP').describe('EIPs (`eip-…`, free ones) it sends traffic out through. Required.'),
  securityGroupId: z.string().min(1).describe('Security group (`firewall-…`). Required.'),
  name: nameField(),
  tag: tagField(),
  remark: remarkField('Emptying it replaces the gateway, as the API takes an empty remark as no change. Default empty.'),
  whiteListEnabled: z.boolean().optional().describe('Only the hosts of `whiteList` may use the gateway. Default false.'),
  whiteList: z
    .array(z.string().min(1))
    .optional()
    .describe('Hosts of the VPC (`uhost-…`) on the white list, which alone may use the gateway while `whiteListEnabled` is true. Hosts the list does not name are taken off it. Default empty.'),
});

/** Inputs of a NAT gateway. */
export type NatGatewayInputs = z.output<typeof natGatewayInputs>;

/** What is read back about a NAT gateway. */
export const natGatewayOutputs = z.object({
  natGatewayId: z.string().describe('NAT gateway id, e.g. `natgw-1a2b3c4d`.'),
  vpcId: z.string().describe('Id of its VPC.'),
  subnetIds: z.array(z.string()).describe('Subnets it serves.'),
  eipIds: z.array(z.string()).describe('EIPs bound to it.'),
  securityGroupId: z.string().describe('Its security group.'),
  name: z.string().describe('Name.'),
  tag: z.string().describe('Tag.'),
  remark: z.string().describe('Remark.'),
  whiteListEnabled: z.boolean().describe('Whether the white list is on.'),
  whiteList: z.array(z.string()).describe('Ids of the hosts on the white list.'),
  createTime: z.string().describe('When it was made (RFC 3339).'),
});

/** Observed NAT gateway. */
export type NatGatewayOutputs = z.output<typeof natGatewayOutputs>;

/** A gateway's white list: whether it is on, and the ids of its members. */
interface WhiteList {
  on: boolean;
  members: string[];
}

function toOutputs(n: NatGatewayInfo, whiteList: WhiteList | undefined): NatGatewayOutputs {
  return {
    natGatewayId: n.NATGWId,
    vpcId: str(n.VPCId),
    subnetIds: (n.SubnetSet ?? []).map((s) => s.SubnetworkId),
    eipIds: (n.IPSet ?? []).map((i) => i.EIPId),
    securityGroupId: str(n.FirewallId),
    name: str(n.NATGWName),
    tag: str(n.Tag) || DEFAULT_TAG,
    remark: str(n.Remark),
    whiteListEnabled: whiteList?.on ?? false,
    whiteList: whiteList?.members ?? [],
    createTime: rfc3339(n.CreateTime),
  };
}

interface WhiteListInfo {
  NATGWId: string;
  IfOpen?: number;
  ObjectIPInfo?: Array<{ ResourceId: string }>;
}

/** The white lists of these gateways, by gateway id (DescribeWhiteListResource, 100 ids a call). */
async function whiteLists(ctx: CloudCtx, ids: string[]): Promise<Map<string, WhiteList>> {
  const lists = new Map<string, WhiteList>();
  for (let i = 0; i < ids.length; i += 100) {
    const body = await ctx.client.call<{ DataSet?: WhiteListInfo[] }>('DescribeWhiteListResource', { NATGWIds: ids.slice(i, i + 100), Limit: 100 });
    for (const w of body.DataSet ?? []) lists.set(w.NATGWId, { on: Number(w.IfOpen) === 1, members: (w.ObjectIPInfo ?? []).map((o) => o.ResourceId) });
  }
  return lists;
}

/** Gateways as outputs, white lists included. */
async function observed(ctx: CloudCtx, records: NatGatewayInfo[]): Promise<NatGatewayOutputs[]> {
  if (!records.length) return [];
  const lists = await whiteLists(
    ctx,
    records.map((n) => n.NATGWId),
  );
  return records.map((n) => toOutputs(n, lists.get(n.NATGWId)));
}

/** The listed gateways of these ids; none when the API answers that one of them does not exist. */
async function describeSome(ctx: CloudCtx, ids: string[]): Promise<NatGatewayInfo[]> {
  try {
    return await describeIds<NatGatewayInfo>(ctx.client, LISTING, ids);
  } catch (err) {
    if (isRemote(err, 'not-found')) return [];
    throw err;
  }
}

async function read(ctx: CloudCtx, id: string): Promise<NatGatewayOutputs | undefined> {
  return (await observed(ctx, await describeSome(ctx, [id])))[0];
}

const all = (ctx: CloudCtx) => describeAll<NatGatewayInfo>(ctx.client, LISTING);
const isFor = (n: NatGatewayInfo, name: string, inputs: NatGatewayInputs) => n.NATGWName === name && n.VPCId === inputs.vpcId;

/** Binds the EIPs it lacks, then unbinds those it should not have, waiting for each to settle. */
async function moveEips(ctx: CloudCtx, id: string, had: string[], want: string[]): Promise<void> {
  const added = want.filter((e) => !had.includes(e));
  const removed = had.filter((e) => !want.includes(e));
  for (const eip of added) await ctx.client.call('BindEIP', { EIPId: eip, ResourceType: 'natgw', ResourceId: id });
  for (const eip of removed) await ctx.client.call('UnBindEIP', { EIPId: eip, ResourceType: 'natgw', ResourceId: id });
  if (!added.length && !removed.length) return;
  await ctx.wait(
    `the EIPs of NAT gateway ${id}`,
    async () => {
      const seen = (await describeSome(ctx, [id]))[0];
      if (!seen) throw vanished('NAT gateway', id);
      const now = (seen.IPSet ?? []).map((i) => i.EIPId);
      return now.length === want.length && want.every((e) => now.includes(e)) ? { done: true, value: undefined } : { done: false, status: 'Binding' };
    },
    PACE,
  );
}

/** Puts on the white list the hosts it lacks and takes off those it should not have. */
async function moveWhiteList(ctx: CloudCtx, id: string, had: string[], want: string[]): Promise<void> {
  const added = want.filter((h) => !had.includes(h));
  const removed = had.filter((h) => !want.includes(h));
  // An Add is not sent twice blindly: after a lost answer, the hosts already on the list mean it went through.
  const recover = async () => {
    const now = (await read(ctx, id))?.whiteList ?? [];
    return added.every((h) => now.includes(h)) ? { RetCode: 0 } : undefined;
  };
  if (added.length) await ctx.client.call('AddWhiteListResource', { NATGWId: id, ResourceIds: added }, { recover });
  if (removed.length) await ctx.client.call('DeleteWhiteListResource', { NATGWId: id, ResourceIds: removed });
}

/** The NatGateway resource type. */
export const natGateway: ResourceType<NatGatewayInputs, NatGatewayOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/natGateway:NatGateway',
  provider: 'cloud',
  description: "A NAT gateway: a VPC's subnets reach the internet through its EIPs, and it forwards ports to their hosts (natGatewayRule).",
  inputs: natGatewayInputs,
  outputs: natGatewayOutputs,
  diff: {
    computedInputs: ['name'],
    asDeclared: (recorded, _outputs, desired) => {
      const base = defaultsAsDeclared(recorded, desired, { tag: DEFAULT_TAG, remark: '', whiteListEnabled: false, whiteList: [] });
      return {
        ...base,
        subnetIds: inDeclaredOrder(recorded.subnetIds, desired.subnetIds)!,
        eipIds: inDeclaredOrder(recorded.eipIds, desired.eipIds)!,
        ...(base.whiteList && { whiteList: inDeclaredOrder(base.whiteList, desired.whiteList)! }),
      };
    },
    remoteManaged: ['createTime'],
  },
  replace: {
    on: [{ path: 'vpcId', reason: 'a NAT gateway cannot move to another VPC (no API Action)' }],
    // An EIP is bound to one resource at a time: a new gateway on the old one's EIPs needs it gone.
    holds: [{ what: 'binding of an EIP', paths: ['eipIds[]'] }],
    when: {
      inputs: ['remark'],
      rules(prior, desired) {
        const cleared = (prior.remark ?? '') !== '' && (desired.remark ?? '') === '';
        return cleared ? [{ path: 'remark', reason: 'UpdateNATGW takes an empty remark as no change, so no Action clears one' }] : [];
      },
    },
  },
  provisioning: {
    // The API lists a new gateway only once it is provisioned (its EIPs are held from the order on).
    appearsWithinMs: APPEARS_WITHIN_MS,
  },
  cost: { unpriced: 'no price action: the API has none for NAT gateways' },
  importId: prefixedId('natgw', 'NAT gateway'),

  create: (ctx, inputs) =>
    createAndWait(ctx, {
      what: 'NAT gateway',
      action: 'CreateNATGW',
      params: {
        NATGWName: inputs.name ?? autoName(ctx.address, ctx.operationToken),
        VPCId: inputs.vpcId,
        SubnetworkIds: inputs.subnetIds,
        EIPIds: inputs.eipIds,
        FirewallId: inputs.securityGroupId,
        Tag: inputs.tag,
        Remark: inputs.remark,
        IfOpen: inputs.whiteListEnabled ? 1 : 0,
      },
      idAt: 'NATGWId',
      within: APPEARS_WITHIN_MS,
      findOwned: (order) => natGateway.findOwned!(ctx, inputs, order),
      async settle(id) {
        const made = await waitListed(ctx, `NAT gateway ${id}`, () => read(ctx, id));
        if (!inputs.whiteList?.length) return made;
        await moveWhiteList(ctx, id, made.whiteList, inputs.whiteList);
        const after = await read(ctx, id);
        if (!after) throw vanished('NAT gateway', id);
        return after;
      },
    }),

  read: (ctx, id) => read(ctx, id),

  async readMany(ctx, targets: ReadTarget[]) {
    const records = await describeSome(
      ctx,
      targets.map((t) => t.id),
    );
    const outputs = await observed(ctx, records);
    return new Map(outputs.map((o) => [o.natGatewayId, o]));
  },

  async list(ctx) {
    return (await observed(ctx, await all(ctx))).map((o) => ({ id: o.natGatewayId, outputs: o }));
  },

  // A gateway carries no ownership marks: the one of this name in this VPC made since the order.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const name = inputs.name ?? autoName(ctx.address, ctx.operationToken);
    const found = ownedAmong(
      `NAT gateway named "${name}"`,
      await all(ctx),
      (n) => isFor(n, name, inputs),
      order,
      (n) => n.NATGWId,
    );
    return found && { id: found.NATGWId, outputs: (await observed(ctx, [found]))[0] };
  },

  async update(ctx, id, _prior, desired) {
    const seen = await read(ctx, id);
    if (!seen) throw vanished('NAT gateway', id);
    const changed = (want: string | undefined, was: string) => (want !== undefined && want !== was ? want : undefined);
    const attrs = { NATGWName: changed(desired.name, seen.name), Tag: changed(desired.tag ?? DEFAULT_TAG, seen.tag), Remark: changed(desired.remark, seen.remark) };
    // Name, tag and remark go in one call.
    if (Object.values(attrs).some((v) => v !== undefined)) await ctx.client.call('UpdateNATGW', { NATGWId: id, ...attrs });
    if ([...desired.subnetIds].sort().join() !== [...seen.subnetIds].sort().join()) await ctx.client.call('UpdateNATGWSubnet', { NATGWId: id, SubnetworkIds: desired.subnetIds });
    await moveEips(ctx, id, seen.eipIds, desired.eipIds);
    if (desired.securityGroupId !== seen.securityGroupId) await ctx.client.call('GrantFirewall', { FWId: desired.securityGroupId, ResourceType: 'unatgw', ResourceId: id });
    // The members change before the mode, so a list switched on already holds its hosts.
    await moveWhiteList(ctx, id, seen.whiteList, desired.whiteList ?? []);
    if ((desired.whiteListEnabled ?? false) !== seen.whiteListEnabled) await ctx.client.call('EnableWhiteList', { NATGWId: id, IfOpen: desired.whiteListEnabled ? 1 : 0 });
    const after = await read(ctx, id);
    if (!after) throw vanished('NAT gateway', id);
    return after;
  },

  async delete(ctx, id) {
    await deleteListed(
      ctx,
      `NAT gateway ${id}`,
      async () => (await describeSome(ctx, [id])).length > 0,
      () => ctx.client.call('DeleteNATGW', { NATGWId: id, ReleaseEip: false }),
    );
  },
};
