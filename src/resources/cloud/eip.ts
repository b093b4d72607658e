/**
 * Eip: an elastic (public) IP address.
 *
 * Name, tag and remark change in place (UpdateEIPAttribute), the bandwidth with
 * ModifyEIPBandwidth, the charge mode with SetEIPPayMode (which also sets the bandwidth), the
 * egress weight with ModifyEIPWeight. The line and the billing period are fixed at allocation: a
 * change allocates a new address. Binding is the EipAssociation type's. Import by the EIP id
 * (`eip-…`).
 */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339, snake, str } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ReplaceRule, ResourceType } from '../../engine/contracts/resource-type.js';
import { APPEARS_WITHIN_MS, autoName, DEFAULT_TAG, deleteListed, listingVerbs, nameField, ownedAmong, prefixedId, remarkField, tagField, vanished, waitListed, type CloudCtx } from './kit.js';
import { createAndWait } from './create.js';
import { describeAll, describeOne } from '../../providers/cloud/api/listing.js';
import { EIP_LISTING, type EipInfo } from '../../providers/cloud/api/eip.js';
import { cloudChange, cloudQuote, prepaid } from './cost.js';
import { eipPrice } from '../../providers/cloud/api/prices.js';

const LINES = { bgp: 'Bgp', international: 'International', bgp_pro: 'BGPPro' } as const;

/** Inputs of an EIP. */
export const eipInputs = z
  .object({
    name: nameField(),
    internetType: z.enum(['bgp', 'international', 'bgp_pro']).describe('Line: `bgp`, `international` or `bgp_pro`. Required.'),
    bandwidth: z.number().int().min(1).max(10000).describe('Bandwidth in Mbps: 1–10000, at most 300 when charged by traffic. Required.'),
    chargeMode: z.enum(['bandwidth', 'traffic']).optional().describe('Paid by `bandwidth` or by `traffic`. Default `bandwidth`.'),
    chargeType: z.enum(['month', 'year', 'dynamic']).optional().describe('Billing period: `month`, `year` or `dynamic` (hourly). Default `month`.'),
    weight: z.number().int().min(0).max(100).optional().describe("Egress weight 0–100 among the addresses of one resource. Default: the API's (50)."),
    tag: tagField(),
    remark: remarkField('Emptying it allocates a new address (the API cannot clear a remark). Default empty.'),
  })
  .superRefine((v, ctx) => {
    if (v.chargeMode === 'traffic' && typeof v.bandwidth === 'number' && v.bandwidth > 300) {
      ctx.addIssue({ code: 'custom', path: ['bandwidth'], message: `bandwidth ${v.bandwidth} is over 300 Mbps, the most an EIP charged by traffic can have` });
    }
  });

/** Inputs of an EIP. */
export type EipInputs = z.output<typeof eipInputs>;

/** What is read back about an EIP. */
export const eipOutputs = z.object({
  eipId: z.string().describe('EIP id, e.g. `eip-1a2b3c4d`.'),
  name: z.string().describe('Name.'),
  internetType: z.string().describe('Line (`bgp`, `international`, `bgp_pro`).'),
  bandwidth: z.number().describe('Bandwidth, Mbps.'),
  chargeMode: z.string().describe('`bandwidth`, `traffic`, or `share_bandwidth` in a shared bandwidth package.'),
  chargeType: z.string().describe('`month`, `year` or `dynamic`.'),
  weight: z.number().describe('Egress weight.'),
  tag: z.string().describe('Tag.'),
  remark: z.string().describe('Remark.'),
  publicIp: z.string().describe('The address.'),
  status: z.string().describe('`free`, `used` (bound) or `freeze`.'),
  resourceType: z.string().describe('Type of the resource it is bound to (`uhost`, `ulb`, ...), empty when free.'),
  resourceId: z.string().describe('Id of the resource it is bound to, empty when free.'),
  createTime: z.string().describe('When it was allocated (RFC 3339).'),
  expireTime: z.string().describe('When the billing period ends (RFC 3339), empty for dynamic.'),
});

/** Observed EIP. */
export type EipOutputs = z.output<typeof eipOutputs>;

/** The statuses of an allocated EIP: free, bound (`used`), or frozen for arrears; any other is an allocation on its way. */
const SETTLED = ['free', 'used', 'freeze'];

function lineOf(operator: string | undefined): string {
  const found = Object.entries(LINES).find(([, wire]) => wire.toLowerCase() === operator?.toLowerCase());
  return found ? found[0] : snake(operator);
}

function toOutputs(e: EipInfo): EipOutputs {
  const addr = e.EIPAddr?.[0];
  return {
    eipId: e.EIPId,
    name: str(e.Name),
    internetType: lineOf(addr?.OperatorName),
    bandwidth: Number(e.Bandwidth ?? 0),
    chargeMode: snake(e.PayMode),
    chargeType: str(e.ChargeType).toLowerCase(),
    weight: Number(e.Weight ?? 0),
    tag: str(e.Tag) || DEFAULT_TAG,
    remark: str(e.Remark),
    publicIp: str(addr?.IP),
    status: str(e.Status),
    resourceType: str(e.Resource?.ResourceType),
    resourceId: str(e.Resource?.ResourceID),
    createTime: rfc3339(e.CreateTime),
    expireTime: rfc3339(e.ExpireTime),
  };
}

const describe = (ctx: CloudCtx, id: string) => describeOne<EipInfo>(ctx.client, EIP_LISTING, id);
const upper = (v: string) => v.charAt(0).toUpperCase() + v.slice(1);

/** Whether a listed EIP is the one these inputs (and this name) ask for. */
function isFor(e: EipInfo, name: string, inputs: EipInputs): boolean {
  return e.Name === name && lineOf(e.EIPAddr?.[0]?.OperatorName) === inputs.internetType;
}

/** The Eip resource type. */
export const eip: ResourceType<EipInputs, EipOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/eip:Eip',
  provider: 'cloud',
  description: 'An elastic IP address, billed by bandwidth or traffic; bind it with an EipAssociation.',
  inputs: eipInputs,
  outputs: eipOutputs,
  diff: {
    computedInputs: ['name', 'weight'],
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { tag: DEFAULT_TAG, remark: '', chargeMode: 'bandwidth', chargeType: 'month' }),
    remoteManaged: ['publicIp', 'status', 'resourceType', 'resourceId', 'createTime', 'expireTime'],
  },
  replace: {
    on: [
      { path: 'internetType', reason: "an EIP's line is fixed when it is allocated" },
      { path: 'chargeType', reason: 'the billing period is fixed when the EIP is allocated (no Action changes it)' },
    ],
    when: {
      inputs: ['remark'],
      rules(prior, desired): ReplaceRule[] {
        const cleared = (prior.remark ?? '') !== '' && (desired.remark ?? '') === '';
        return cleared ? [{ path: 'remark', reason: 'UpdateEIPAttribute takes an empty remark as no change, so no Action clears one' }] : [];
      },
    },
  },
  provisioning: {
    // Upstream takes an EIP not listed after its allocation as still on its way (and waits for it to be free).
    appearsWithinMs: APPEARS_WITHIN_MS,
    ready: (outputs) => SETTLED.includes(String(outputs.status)),
  },
  cost: {
    // GetEIPPrice's OperatorName knows Bgp, International and ChinaMobile only (ucloud-sdk-go
    // unet/apis.go GetEIPPriceRequest; Hong Kong is listed as International): the premium BGP
    // line AllocateEIP offers there has no price call, which is said rather than asked and failed.
    quote: async (inputs, ctx) =>
      inputs.internetType === 'bgp_pro'
        ? { unpriced: 'no price action for the bgp_pro line: GetEIPPrice prices Bgp, International and ChinaMobile only' }
        : cloudQuote(
            ctx,
            eipPrice,
            inputs.chargeType,
            { OperatorName: LINES[inputs.internetType], Bandwidth: inputs.bandwidth, PayMode: upper(inputs.chargeMode ?? 'bandwidth') },
            inputs.chargeMode === 'traffic' ? 'the fixed part only: traffic is billed by use' : undefined,
          ),
    source: 'GetEIPPrice',
    // GetEIPUpgradePrice prices a new bandwidth on the same pay mode; a change of pay mode has no such price.
    change: async (prior, desired, ctx) =>
      prepaid(prior.outputs.chargeType) && desired.bandwidth !== prior.outputs.bandwidth && (desired.chargeMode ?? 'bandwidth') === prior.outputs.chargeMode
        ? cloudChange(ctx, 'GetEIPUpgradePrice', { EIPId: prior.id, Bandwidth: desired.bandwidth })
        : undefined,
  },
  importId: prefixedId('eip', 'EIP'),

  create: (ctx, inputs) =>
    createAndWait(ctx, {
      what: 'EIP',
      action: 'AllocateEIP',
      params: {
        OperatorName: LINES[inputs.internetType],
        Bandwidth: inputs.bandwidth,
        PayMode: upper(inputs.chargeMode ?? 'bandwidth'),
        ChargeType: upper(inputs.chargeType ?? 'month'),
        Name: inputs.name ?? autoName(ctx.address, ctx.operationToken),
        Tag: inputs.tag,
        Remark: inputs.remark,
      },
      idAt: 'EIPSet[0].EIPId',
      within: APPEARS_WITHIN_MS,
      findOwned: (order) => eip.findOwned!(ctx, inputs, order),
      async settle(id) {
        if (inputs.weight !== undefined && inputs.weight !== 50) await ctx.client.call('ModifyEIPWeight', { EIPId: id, Weight: inputs.weight });
        return waitListed(ctx, `EIP ${id}`, async () => {
          const seen = await eip.read(ctx, id);
          return seen && SETTLED.includes(seen.status) ? seen : undefined;
        });
      },
    }),

  ...listingVerbs<EipInfo, EipOutputs>(EIP_LISTING, (record) => toOutputs(record)),

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const name = inputs.name ?? autoName(ctx.address, ctx.operationToken);
    const found = ownedAmong(
      `EIP named "${name}"`,
      await describeAll<EipInfo>(ctx.client, EIP_LISTING),
      (e) => isFor(e, name, inputs),
      order,
      (e) => e.EIPId,
    );
    return found && { id: found.EIPId, outputs: toOutputs(found) };
  },

  async update(ctx, id, _prior, desired) {
    const live = await describe(ctx, id);
    if (!live) throw vanished('EIP', id);
    const seen = toOutputs(live);
    const mode = desired.chargeMode ?? 'bandwidth';
    // SetEIPPayMode sets the bandwidth with the mode, so a mode change needs no second call.
    if (mode !== seen.chargeMode) await ctx.client.call('SetEIPPayMode', { EIPId: id, PayMode: upper(mode), Bandwidth: desired.bandwidth });
    else if (desired.bandwidth !== seen.bandwidth) await ctx.client.call('ModifyEIPBandwidth', { EIPId: id, Bandwidth: desired.bandwidth });
    if (desired.weight !== undefined && desired.weight !== seen.weight) await ctx.client.call('ModifyEIPWeight', { EIPId: id, Weight: desired.weight });
    const changed = (want: string | undefined, have: string) => (want !== undefined && want !== have ? want : undefined);
    const attrs = { Name: changed(desired.name, seen.name), Tag: changed(desired.tag ?? DEFAULT_TAG, seen.tag), Remark: changed(desired.remark, seen.remark) };
    if (Object.values(attrs).some((v) => v)) await ctx.client.call('UpdateEIPAttribute', { EIPId: id, ...attrs });
    const after = await describe(ctx, id);
    if (!after) throw vanished('EIP', id);
    return toOutputs(after);
  },

  async delete(ctx, id) {
    await deleteListed(
      ctx,
      `EIP ${id}`,
      async () => (await describe(ctx, id)) !== undefined,
      () => ctx.client.call('ReleaseEIP', { EIPId: id }),
    );
  },
};
