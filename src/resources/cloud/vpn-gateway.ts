/**
 * VpnGateway: a VPC's IPSec VPN endpoint on an EIP.
 *
 * The grade changes in place (UpdateVPNGateway, the only thing that Action changes), and so does
 * the EIP (UnBindEIP, then BindEIP; refused while connections run on it, as the plan says). The
 * API has no Action for the name, tag, remark, VPC or billing, so those replace it, deleting the
 * old gateway first when the new one keeps its EIP (an EIP binds to one resource). Deleting it
 * leaves its EIP allocated and free; a gateway that still has tunnels is refused by the API.
 * Import by the VPN gateway id (`vpngw-…`).
 */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { APPEARS_WITHIN_MS, autoName, DEFAULT_TAG, deleteListed, listingVerbs, nameField, ownedAmong, PACE, prefixedId, remarkField, tagField, vanished, type CloudCtx } from './kit.js';
import { createAndWait } from './create.js';
import { describeAll, describeOne } from '../../providers/cloud/api/listing.js';
import { VPN_GATEWAY_LISTING as LISTING, type VpnGatewayInfo } from '../../providers/cloud/api/vpn.js';
import { cloudChange, cloudQuote, prepaid } from './cost.js';
import { vpnGatewayPrice } from '../../providers/cloud/api/prices.js';

const GRADES = { standard: 'Standard', enhanced: 'Enhanced' } as const;
const CHARGES = { year: 'Year', month: 'Month', dynamic: 'Dynamic' } as const;
const NO_ACTION = 'UpdateVPNGateway changes only the grade, and no other Action changes a VPN gateway';

/** Inputs of a VPN gateway. */
export const vpnGatewayInputs = z.object({
  vpcId: z.string().min(1).describe('Id of the VPC (`uvnet-…`). Required.'),
  eipId: z.string().min(1).describe('EIP (`eip-…`, a free one) the tunnels end on. Required.'),
  grade: z.enum(['standard', 'enhanced']).describe('`standard` or `enhanced`. Required.'),
  name: nameField(),
  tag: tagField(),
  remark: remarkField('Default empty.'),
  chargeType: z.enum(['year', 'month', 'dynamic']).optional().describe('`year`, `month` or `dynamic` (hourly). Default `month`.'),
  duration: z.number().int().min(1).max(9).optional().describe('Months or years paid in advance, sent with the order only (a later change is recorded, not sent). Default 1.'),
});

/** Inputs of a VPN gateway. */
export type VpnGatewayInputs = z.output<typeof vpnGatewayInputs>;

/** What is read back about a VPN gateway. */
export const vpnGatewayOutputs = z.object({
  vpnGatewayId: z.string().describe('VPN gateway id, e.g. `vpngw-1a2b3c4d`.'),
  vpcId: z.string().describe('Id of its VPC.'),
  eipId: z.string().describe('Its EIP.'),
  publicIp: z.string().describe("The EIP's address: the customer gateway's peer."),
  grade: z.string().describe('`standard` or `enhanced`.'),
  name: z.string().describe('Name.'),
  tag: z.string().describe('Tag.'),
  remark: z.string().describe('Remark.'),
  chargeType: z.string().describe('`year`, `month` or `dynamic`.'),
  createTime: z.string().describe('When it was made (RFC 3339).'),
  expireTime: z.string().describe('When the paid period ends (RFC 3339).'),
});

/** Observed VPN gateway. */
export type VpnGatewayOutputs = z.output<typeof vpnGatewayOutputs>;

function toOutputs(g: VpnGatewayInfo): VpnGatewayOutputs {
  return {
    vpnGatewayId: g.VPNGatewayId,
    vpcId: str(g.VPCId),
    eipId: str(g.EIPId),
    publicIp: str(g.EIP),
    grade: str(g.Grade).toLowerCase(),
    name: str(g.VPNGatewayName),
    tag: str(g.Tag) || DEFAULT_TAG,
    remark: str(g.Remark),
    chargeType: str(g.ChargeType).toLowerCase(),
    createTime: rfc3339(g.CreateTime),
    expireTime: rfc3339(g.ExpireTime),
  };
}

const describe = (ctx: CloudCtx, id: string) => describeOne<VpnGatewayInfo>(ctx.client, LISTING, id);
const isFor = (g: VpnGatewayInfo, name: string, inputs: VpnGatewayInputs) => g.VPNGatewayName === name && g.VPCId === inputs.vpcId;

/** Moves the gateway to another EIP: the old one is unbound (and settled) before the new one binds. */
async function moveEip(ctx: CloudCtx, id: string, from: string, to: string): Promise<void> {
  const settled = (want: string) =>
    ctx.wait(
      `VPN gateway ${id} to be on ${want || 'no EIP'}`,
      async () => {
        const seen = await describe(ctx, id);
        if (!seen) throw vanished('VPN gateway', id);
        return str(seen.EIPId) === want ? { done: true, value: undefined } : { done: false, status: want ? 'Binding' : 'Unbinding' };
      },
      PACE,
    );
  if (from) {
    await ctx.client.call('UnBindEIP', { EIPId: from, ResourceType: 'vpngw', ResourceId: id });
    await settled('');
  }
  await ctx.client.call('BindEIP', { EIPId: to, ResourceType: 'vpngw', ResourceId: id });
  await settled(to);
}

/** The VpnGateway resource type. */
export const vpnGateway: ResourceType<VpnGatewayInputs, VpnGatewayOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/vpnGateway:VpnGateway',
  provider: 'cloud',
  description: "A VPN gateway: a VPC's IPSec endpoint on an EIP, which VPN connections run from.",
  inputs: vpnGatewayInputs,
  outputs: vpnGatewayOutputs,
  diff: {
    computedInputs: ['name'],
    recordOnly: ['duration'],
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { tag: DEFAULT_TAG, remark: '', chargeType: 'month' }),
    remoteManaged: ['publicIp', 'createTime', 'expireTime'],
  },
  replace: {
    on: [
      { path: 'vpcId', reason: 'a VPN gateway cannot move to another VPC (no API Action)' },
      { path: 'name', reason: NO_ACTION },
      { path: 'tag', reason: NO_ACTION },
      { path: 'remark', reason: NO_ACTION },
      { path: 'chargeType', reason: NO_ACTION },
    ],
    // An EIP is bound to one resource at a time (CreateVPNGateway on a bound one is refused, 4154):
    // a new gateway on the old one's EIP needs the old one gone.
    holds: [{ what: 'binding of an EIP', paths: ['eipId'] }],
  },
  notes: {
    update: (prior, desired) =>
      prior.eipId !== desired.eipId ? [`its EIP is unbound, then ${desired.eipId} bound: the API refuses while connections run on the gateway (4238), so remove them first`] : [],
  },
  provisioning: {
    // The API lists a new gateway only once it is provisioned.
    appearsWithinMs: APPEARS_WITHIN_MS,
  },
  cost: {
    quote: (inputs, ctx) => cloudQuote(ctx, vpnGatewayPrice, inputs.chargeType, { Grade: GRADES[inputs.grade] }),
    source: 'GetVPNGatewayPrice',
    change: async (prior, desired, ctx) =>
      prepaid(prior.outputs.chargeType) && desired.grade !== prior.outputs.grade ? cloudChange(ctx, 'GetVPNGatewayUpgradePrice', { VPNGatewayId: prior.id, Grade: GRADES[desired.grade] }) : undefined,
  },
  importId: prefixedId('vpngw', 'VPN gateway'),

  create: (ctx, inputs) =>
    createAndWait(ctx, {
      what: 'VPN gateway',
      action: 'CreateVPNGateway',
      params: {
        VPCId: inputs.vpcId,
        VPNGatewayName: inputs.name ?? autoName(ctx.address, ctx.operationToken),
        Grade: GRADES[inputs.grade],
        EIPId: inputs.eipId,
        ChargeType: CHARGES[inputs.chargeType ?? 'month'],
        Quantity: inputs.chargeType === 'dynamic' ? undefined : (inputs.duration ?? 1),
        Tag: inputs.tag,
        Remark: inputs.remark,
      },
      idAt: 'VPNGatewayId',
      within: APPEARS_WITHIN_MS,
      findOwned: (order) => vpnGateway.findOwned!(ctx, inputs, order),
      read: (id) => vpnGateway.read(ctx, id),
    }),

  ...listingVerbs<VpnGatewayInfo, VpnGatewayOutputs>(LISTING, (record) => toOutputs(record)),

  // No ownership marks: the gateway of this name in this VPC made since the order was journaled.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const name = inputs.name ?? autoName(ctx.address, ctx.operationToken);
    const found = ownedAmong(
      `VPN gateway named "${name}"`,
      await describeAll<VpnGatewayInfo>(ctx.client, LISTING),
      (g) => isFor(g, name, inputs),
      order,
      (g) => g.VPNGatewayId,
    );
    return found && { id: found.VPNGatewayId, outputs: toOutputs(found) };
  },

  async update(ctx, id, _prior, desired) {
    const live = await describe(ctx, id);
    if (!live) throw vanished('VPN gateway', id);
    const seen = toOutputs(live);
    if (desired.grade !== seen.grade) await ctx.client.call('UpdateVPNGateway', { VPNGatewayId: id, Grade: GRADES[desired.grade] });
    if (desired.eipId !== seen.eipId) await moveEip(ctx, id, seen.eipId, desired.eipId);
    const after = await describe(ctx, id);
    if (!after) throw vanished('VPN gateway', id);
    return toOutputs(after);
  },

  async delete(ctx, id) {
    await deleteListed(
      ctx,
      `VPN gateway ${id}`,
      async () => (await describe(ctx, id)) !== undefined,
      () => ctx.client.call('DeleteVPNGateway', { VPNGatewayId: id, ReleaseEip: false }),
    );
  },
};
