import * as z from 'zod';
import { isRemote } from '../../kernel/errors.js';
import type { InterconnectSettings } from '../../providers/interconnect/settings.js';
import type { ReplaceRule, ResourceType } from '../../engine/contracts/resource-type.js';
import type { Memo } from '../../providers/interconnect/api/orders.js';
import { oneOf, tagsSchema } from '../schema.js';
import { parseProductUid } from './port.js';
import { GONE, isLive, readProduct, type ApiProduct } from '../../providers/interconnect/api/products.js';
import { vxcComputed, vxcFacts, type ApiEnd } from '../../providers/interconnect/api/vxc-view.js';
import {
  CONTRACT_TERMS,
  type Ctx,
  cancel,
  findByToken,
  freshList,
  mapLimited,
  observedTags,
  order,
  orderedTags,
  productDisown,
  productOwner,
  readListed,
  readProductOfType,
  retryWithin,
  sameTags,
  sharedList,
  tagList,
  tagsAfterUpdate,
  timeLeft,
  waitReady,
  writeTags,
} from './kit.js';
import { type VxcEndInput, aEndSchema, bEndSchema, observedEnd, orderEnd, resolveBEnd } from './vxc-ends.js';
import { CSP_KINDS, type PartnerConfig, aEndPartnerConfig, bEndPartnerConfig, canonicalConfig, wirePartnerConfig } from './vxc-partner-config.js';
import { contractNotes, productProvisioning, vlanClaim } from './product-hooks.js';
import { vxcCrossCheck } from './cross-checks.js';
import { vxcAsDeclared } from './vxc-declared.js';
import { locationOf, PRICEBOOK, pricebookQuote, termEnd } from './cost.js';
import { knownBeforeApply } from '../quote.js';
import { reveal } from '../../kernel/values.js';

/** Inputs of a virtual cross connect. */
export const vxcInputs = z
  .object({
    productName: z.string().min(1).describe('Identifiable name of the VXC.'),
    rateLimit: z.number().int().positive().describe('Speed in Mbps, up to what both ends allow.'),
    contractTermMonths: oneOf(CONTRACT_TERMS, 'Contract term in months: 1 (month to month), 12, 24, 36, 48 or 60.'),
    aEnd: aEndSchema.describe('Where the VXC starts (one of your Ports, MCRs or MVEs).'),
    bEnd: bEndSchema
      .optional()
      .describe('Where the VXC goes: one of your products or a partner port. Its VLAN and inner VLAN at a cloud or transit partner end belong to the partner: a change there replaces the VXC.'),
    aEndPartnerConfig: aEndPartnerConfig.optional(),
    bEndPartnerConfig: bEndPartnerConfig.optional(),
    costCentre: z.string().max(255).optional().describe('Customer reference on invoices.'),
    promoCode: z.string().optional().describe('Promotion code, sent with the order only and never validated.'),
    resourceTags: tagsSchema.optional().describe('Tags on the product.'),
    serviceKey: z.string().optional().describe("Service key (secret) for another company's port; its port becomes the B-End."),
    shutdown: z.boolean().optional().describe('true shuts the VXC down (temporarily), false enables it. Default false.'),
  })
  .strict();

/** Everything a VXC exposes; partner configs are never returned by the API, so they come from the inputs. */
export const vxcOutputs = vxcInputs.extend(vxcComputed);

type VxcInputs = z.infer<typeof vxcInputs>;
type VxcOutputs = z.infer<typeof vxcOutputs>;

/** The warning a rotated partner port at the B-End gives (the provider's own words). */
export const ROTATED_WARNING = 'VXC B-End product UID is from a partner port, therefore it will not be changed';

const SIDES = [
  { end: 'aEnd', cfg: 'aEndPartnerConfig', current: 'aEndCurrent', uid: 'aEndProductUid', vlan: 'aEndVlan', inner: 'aEndInnerVlan', vnic: 'aVnicIndex', config: 'aEndConfig' },
  { end: 'bEnd', cfg: 'bEndPartnerConfig', current: 'bEndCurrent', uid: 'bEndProductUid', vlan: 'bEndVlan', inner: 'bEndInnerVlan', vnic: 'bVnicIndex', config: 'bEndConfig' },
] as const;

const AGAIN = 'the VXC is deleted and ordered again';

/** The configs of a router end (an MCR's interfaces), the only ones the VXC update carries (aEndConfig/bEndConfig). */
const ROUTER_KINDS = ['vrouter', 'a-end'];

/**
 * Only a router config (vrouter, or the A-End's a-end) changes in place, a first one included:
 * the VXC update carries no other kind. Any other kind is fixed once ordered: a change, a switch
 * between kinds (CSP to vrouter included), a removal, and an addition to a VXC ordered without
 * one. A config the API reports (an imported VXC's) is the manifest's already (see vxcAsDeclared).
 */
export function partnerConfigReplace(path: string, prior: PartnerConfig | undefined, desired: PartnerConfig | undefined): ReplaceRule | undefined {
  if (canonicalConfig(prior) === canonicalConfig(desired)) return undefined;
  const before = prior?.partner;
  const after = desired?.partner;
  if ((before === undefined || ROUTER_KINDS.includes(before)) && (after === undefined || ROUTER_KINDS.includes(after))) return undefined;
  if (before === undefined) return { path, reason: `a ${after} partner config cannot be added after ordering (the VXC update carries only a router's); ${AGAIN}` };
  if (after === undefined) return { path, reason: `a ${before} partner config cannot be removed after ordering; ${AGAIN}` };
  if (after !== before) return { path, reason: `switching a partner config from ${before} to ${after} cannot be done in place; ${AGAIN}` };
  return { path, reason: `a ${before} partner config cannot change after ordering; ${AGAIN}` };
}

/** At a cloud or transit partner end the VLANs belong to the partner: a change cannot be sent ("Only B end owner can change B VLAN"). */
function partnerVlanReplace(kind: string | undefined, prior: VxcEndInput | undefined, desired: VxcEndInput | undefined): ReplaceRule[] {
  if (!kind || (!CSP_KINDS.includes(kind) && kind !== 'transit') || !prior) return [];
  // An inner VLAN of -1 is the documented "none", as is leaving it out.
  const value = (f: 'vlan' | 'innerVlan', v: number | undefined) => (f === 'innerVlan' && v === -1 ? undefined : v);
  return (['vlan', 'innerVlan'] as const)
    .filter((f) => desired?.[f] !== undefined && value(f, desired[f]) !== value(f, prior[f]))
    .map((f) => ({ path: `bEnd.${f}`, reason: `the ${f} at a ${kind} partner end is set when ordering; ${AGAIN}` }));
}

/** A virtual cross connect between two of your products, or to a partner (cloud) port. */
export const vxc: ResourceType<VxcInputs, VxcOutputs, Ctx['client'], InterconnectSettings> = {
  token: 'interconnect:index/vxc:Vxc',
  provider: 'interconnect',
  description: 'A virtual cross connect (VXC) from a Port, MCR or MVE to another product or a partner port. Replaced by deleting first, since the new order needs the same VLAN.',
  inputs: vxcInputs,
  outputs: vxcOutputs,
  secrets: {
    paths: [
      'serviceKey',
      ...['aEndPartnerConfig', 'bEndPartnerConfig'].flatMap((end) => [
        `${end}.authKey`,
        // An ExpressRoute service key or a Partner Interconnect pairing key lets whoever holds it
        // connect to that circuit: the clouds ask for them to be kept private.
        `${end}.serviceKey`,
        `${end}.pairingKey`,
        `${end}.peers[*].sharedKey`,
        `${end}.interfaces[*].bgpConnections[*].password`,
        `${end}.interfaces[*].ipSecTunnelOptions.preSharedKey`,
      ]),
    ],
  },
  diff: {
    computedInputs: ['costCentre'],
    recordOnly: ['promoCode'],
    asDeclared: (recorded, outputs, desired) => vxcAsDeclared(recorded, outputs, desired),
    remoteManaged: Object.keys(vxcComputed),
  },
  replace: {
    on: [{ path: 'serviceKey', reason: 'the service key chooses the B-End when ordering' }],
    deleteFirst: true,
    holds: [vlanClaim('aEnd.requestedProductUid', 'aEnd.vlan'), vlanClaim('bEnd.requestedProductUid', 'bEnd.vlan')],
    when: {
      inputs: ['aEndPartnerConfig', 'bEndPartnerConfig', 'bEnd'],
      rules(prior, desired) {
        const out: ReplaceRule[] = [];
        for (const side of SIDES) {
          const decision = partnerConfigReplace(side.cfg, prior[side.cfg], desired[side.cfg]);
          if (decision) out.push(decision);
        }
        if (!out.length && prior.bEndPartnerConfig?.partner === desired.bEndPartnerConfig?.partner) {
          out.push(...partnerVlanReplace(prior.bEndPartnerConfig?.partner, prior.bEnd, desired.bEnd));
        }
        return out;
      },
    },
  },
  notes: {
    // Only Ports and LAG Ports honour cancelAtEndOfTerm.
    delete: (recorded) => contractNotes(recorded.outputs, false),
  },
  provisioning: productProvisioning,
  cost: {
    source: PRICEBOOK,
    termEnds: termEnd,
    // Billed by time at speed: the monthly rate is what a month at this speed costs.
    async quote(inputs, ctx) {
      const aLocationId = await locationOf(ctx, inputs.aEnd.requestedProductUid, 'A-End');
      // A service key or a cloud partner's key names the B-End's port: the same lookup the order makes.
      knownBeforeApply({ serviceKey: inputs.serviceKey, bEndPartnerConfig: inputs.bEndPartnerConfig });
      const keyed = inputs.serviceKey !== undefined || (inputs.bEnd?.requestedProductUid === undefined && inputs.bEndPartnerConfig !== undefined);
      const bUid = keyed
        ? await resolveBEnd({ client: ctx.client, warn: () => {} }, inputs.bEnd?.requestedProductUid, reveal(inputs.serviceKey), reveal(inputs.bEndPartnerConfig), inputs.rateLimit)
        : inputs.bEnd?.requestedProductUid;
      const bLocationId = await locationOf(ctx, bUid, 'B-End');
      const q = await pricebookQuote(ctx, { productType: 'VXC', aLocationId, bLocationId, speed: inputs.rateLimit, term: inputs.contractTermMonths });
      return { ...q, basis: 'at constant speed' };
    },
  },
  crossCheck: vxcCrossCheck,
  importId: { format: '<product_uid>', parse: parseProductUid },
  owner: productOwner,
  disown: productDisown,

  async create(ctx, inputs) {
    const aUid = inputs.aEnd.requestedProductUid;
    const bUid = await resolveBEnd(ctx, inputs.bEnd?.requestedProductUid, inputs.serviceKey, inputs.bEndPartnerConfig, inputs.rateLimit);
    const aCfg = inputs.aEndPartnerConfig && (await wirePartnerConfig(ctx, inputs.aEndPartnerConfig, aUid));
    const bCfg = inputs.bEndPartnerConfig && (await wirePartnerConfig(ctx, inputs.bEndPartnerConfig, bUid));
    const item = {
      productUid: aUid,
      associatedVxcs: [
        {
          productName: inputs.productName,
          rateLimit: inputs.rateLimit,
          term: inputs.contractTermMonths,
          shutdown: inputs.shutdown ?? false,
          ...(inputs.costCentre ? { costCentre: inputs.costCentre } : {}),
          ...(inputs.serviceKey ? { serviceKey: inputs.serviceKey } : {}),
          ...(inputs.promoCode ? { promoCode: inputs.promoCode } : {}),
          aEnd: orderEnd(inputs.aEnd, aUid, aCfg),
          bEnd: orderEnd(inputs.bEnd, bUid, bCfg),
          resourceTags: tagList(ctx, inputs.resourceTags),
        },
      ],
    };
    const mine = async (memo: Memo) => (await findByToken(ctx, (await freshList(ctx, memo)).vxcs, inputs.productName, memo))?.productUid;
    // A VXC just cancelled on the same VLAN (a delete-first replacement) holds it for a while;
    // the order and the VXC's provisioning are waited for within the create's one wait time.
    const ends = [item.associatedVxcs[0].aEnd, item.associatedVxcs[0].bEnd];
    const left = timeLeft(ctx.waitTimeMs);
    const [uid] = await retryWithin(
      ctx,
      'waiting for the VLAN to be released',
      () => order(ctx, item, mine),
      async (err) => vlanTaken(err) && !(await vlanInUse(ctx, ends)),
    );
    ctx.recordId(uid);
    const product = await waitReady(ctx, uid, 'VXC', left());
    return { id: uid, outputs: await observe(ctx, product, inputs, false, orderedTags(inputs.resourceTags)) };
  },

  async read(ctx, id, prior) {
    const product = await readProductOfType(ctx, id, 'VXC', 'a VXC');
    return product && observe(ctx, product, prior?.inputs, !prior, await observedTags(ctx, id, prior));
  },

  readMany: (ctx, targets) => readListed(ctx, targets, 'VXC', async (p, t) => observe({ ...ctx, warn: t.warn }, p, t.prior?.inputs, !t.prior, await observedTags(ctx, p.productUid, t.prior))),

  async update(ctx, id, prior, desired) {
    // Compared as the plan compared them: what the API chose, or the manifest gives for what it
    // never reports (an imported VXC's partner config), is not sent again.
    const before = vxcAsDeclared(prior.inputs, prior.outputs, desired);
    const body: Record<string, unknown> = {};
    if (desired.productName !== before.productName) body.name = desired.productName;
    if (desired.rateLimit !== before.rateLimit) body.rateLimit = desired.rateLimit;
    if (desired.contractTermMonths !== before.contractTermMonths) body.term = desired.contractTermMonths;
    // Sent whenever it changes; leaving it out of the modify call would silently keep the old state.
    if ((desired.shutdown ?? false) !== (before.shutdown ?? false)) body.shutdown = desired.shutdown ?? false;
    if ((desired.costCentre ?? '') !== (before.costCentre ?? '')) body.costCentre = desired.costCentre ?? '';
    for (const side of SIDES) {
      const was = before[side.end];
      const want = desired[side.end];
      const current = (prior.outputs[side.current] as { productUid?: string } | undefined)?.productUid;
      // Asking for the UID the end is already on (pinning a rotated partner port) needs no move.
      if (want?.requestedProductUid && want.requestedProductUid !== was?.requestedProductUid && want.requestedProductUid !== current) body[side.uid] = want.requestedProductUid;
      if (want?.vlan !== undefined && want.vlan !== was?.vlan) body[side.vlan] = want.vlan;
      if ((want?.innerVlan ?? -1) !== (was?.innerVlan ?? -1)) body[side.inner] = want?.innerVlan ?? -1;
      if (want?.vnicIndex !== undefined && want.vnicIndex !== was?.vnicIndex) body[side.vnic] = want.vnicIndex;
      const cfgBefore = before[side.cfg];
      const cfgAfter = desired[side.cfg];
      // Only a router config changes in place (replace.when replaces for any other). It is sent
      // when it changes, a first one included (on a VXC made without one, or imported, whose
      // config the API does not report), and again when its end moves to another MCR, whose
      // prefix lists have other ids.
      const changed = canonicalConfig(cfgBefore) !== canonicalConfig(cfgAfter);
      if (cfgAfter && ROUTER_KINDS.includes(cfgAfter.partner) && (changed || body[side.uid] !== undefined)) {
        body[side.config] = await wirePartnerConfig(ctx, cfgAfter, want?.requestedProductUid ?? current);
      } else if (!cfgAfter && cfgBefore && ROUTER_KINDS.includes(cfgBefore.partner)) {
        body[side.config] = { interfaces: [] };
      }
    }
    const modify = Object.keys(body).length > 0;
    if (modify) await ctx.client.put(`/v3/product/vxc/${encodeURIComponent(id)}`, { costCentre: desired.costCentre ?? prior.outputs.costCentre ?? '', ...body });
    const retag = !sameTags(desired.resourceTags, before.resourceTags);
    if (retag) await writeTags(ctx, id, desired.resourceTags);
    const product = modify ? await waitReady(ctx, id, 'VXC') : await readProduct(ctx.client, id);
    if (!product) throw new Error(`VXC ${id} disappeared during the update`);
    return observe(ctx, product, desired, false, tagsAfterUpdate(prior, desired));
  },

  async delete(ctx, id) {
    await cancel(ctx, id, 'CANCEL_NOW', false);
  },

  async list(ctx) {
    const vxcs = (await sharedList(ctx)).vxcs.filter(isLive);
    return mapLimited(vxcs, async (p) => ({ id: p.productUid, outputs: await observe(ctx, p, undefined, true, await observedTags(ctx, p.productUid, undefined)) }));
  },

  async findOwned(ctx, inputs) {
    const found = await findByToken(ctx, (await sharedList(ctx)).vxcs, inputs?.productName, ctx);
    return found && { id: found.productUid, outputs: await observe(ctx, found, undefined, true, await observedTags(ctx, found.productUid, undefined)) };
  },
};

/**
 * A VLAN clash at validation (the client classifies it as a conflict). A VLAN freed by a VXC
 * cancelled moments ago reads as taken until the network releases it, so such a clash is retried
 * within waitTime, unless `vlanInUse` shows a live service really holds the VLAN.
 */
function vlanTaken(err: unknown): boolean {
  return isRemote(err, 'conflict');
}

/** Whether a live (not terminating) VXC on one of these ends uses the VLAN asked for: a real clash, not worth waiting on. */
async function vlanInUse(ctx: Ctx, ends: Array<Record<string, unknown>>): Promise<boolean> {
  for (const end of ends) {
    if (typeof end.vlan !== 'number' || typeof end.productUid !== 'string') continue;
    // Partner ports are not readable products; only own products can be checked.
    const product = await readProduct(ctx.client, end.productUid);
    const live = ((product?.associatedVxcs ?? []) as ApiProduct[]).filter((v) => !GONE.includes(v.provisioningStatus));
    if (live.some((v) => ([v.aEnd, v.bEnd] as Array<ApiEnd | undefined>).some((e) => e?.productUid === end.productUid && e?.vlan === end.vlan))) return true;
  }
  return false;
}

/** Whether a UID is a partner port's; the marketplace list is read once per pass of reads. */
async function isPartnerPort(ctx: Ctx, uid: string): Promise<boolean> {
  const ports = await ctx.shared('partner-ports', async () => (await ctx.client.get<Array<{ productUid: string }>>('/v2/dropdowns/partner/megaports')).data ?? []);
  return ports.some((p) => p.productUid === uid);
}

/** A VXC as the API reports it, in output terms (see `observedEnd` for the ends). */
function vxcObserved(p: ApiProduct): Omit<VxcOutputs, 'aEnd'> & { aEnd?: VxcEndInput } {
  return { ...vxcFacts(p), aEnd: observedEnd(p.aEnd, undefined, true), bEnd: observedEnd(p.bEnd, undefined, true) };
}

/** The VXC's outputs, its user tags as known (just ordered, just written, or read). */
async function observe(ctx: Ctx, p: ApiProduct, inputs: Partial<VxcInputs> | undefined, imported: boolean, tags: Record<string, string>): Promise<VxcOutputs> {
  const bEnd = observedEnd(p.bEnd as ApiEnd, inputs?.bEnd, imported);
  const wanted = inputs?.bEnd?.requestedProductUid;
  // The provider may move a partner end to another port of the same partner; what was asked for stays the input.
  if (bEnd && wanted && p.bEnd?.productUid !== wanted && (await isPartnerPort(ctx, wanted))) {
    bEnd.requestedProductUid = wanted;
    ctx.warn(ROTATED_WARNING);
  }
  const shutdown = inputs?.shutdown !== undefined || p.shutdown ? Boolean(p.shutdown) : undefined;
  return {
    ...vxcObserved(p),
    // The A-End always names its product, so the observed end always carries requestedProductUid.
    aEnd: (observedEnd(p.aEnd as ApiEnd, inputs?.aEnd, imported) ?? inputs?.aEnd) as VxcOutputs['aEnd'],
    bEnd,
    shutdown,
    // Never returned by the API: kept as ordered.
    promoCode: inputs?.promoCode,
    serviceKey: inputs?.serviceKey,
    resourceTags: tags,
  };
}
