import * as z from 'zod';
import type { InterconnectSettings } from '../../providers/interconnect/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { oneOf, oneOfText, tagsSchema } from '../schema.js';
import { parseProductUid } from './port.js';
import { createPrefixList, listPrefixLists, readPrefixList, routerOrdered, updatePrefixList } from '../../providers/interconnect/api/prefix-lists.js';
import { liveOfType, type ApiProduct } from '../../providers/interconnect/api/products.js';
import { mcrComputed, mcrObserved } from '../../providers/interconnect/api/views.js';
import {
  CONTRACT_TERMS,
  type Ctx,
  cancel,
  findByToken,
  mapLimited,
  modifyProduct,
  observedTags,
  order,
  orderedTags,
  productDisown,
  productOwner,
  readListed,
  readProductOfType,
  sharedList,
  tagList,
  tagsAfterUpdate,
  waitReady,
  DIVERSITY_ZONES,
} from './kit.js';
import { type PrefixList, deletePrefixList, findByDescription, observedEntries, prefixListSchema, sameEntries } from './prefix-lists.js';
import { contractNotes, productProvisioning } from './product-hooks.js';
import { locationCheck } from './location-checks.js';
import { PRICEBOOK, pricebookQuote, termEnd } from './cost.js';

/** MCR speeds in Mbps. */
export const MCR_SPEEDS = [1000, 2500, 5000, 10000, 25000, 50000, 100000] as const;
/** The ASN the API gives an MCR ordered without one. */
export const DEFAULT_MCR_ASN = 133937;

/** Inputs of a cloud router (MCR). */
export const mcrInputs = z
  .object({
    productName: z.string().min(1).describe('Identifiable name of the MCR.'),
    portSpeed: oneOf(MCR_SPEEDS, 'Aggregate capacity in Mbps shared by all its connections: 1000, 2500, 5000, 10000, 25000, 50000 or 100000.'),
    locationId: z
      .number()
      .int()
      .positive()
      .describe("Numeric location id (from getLocation); plan refuses one that does not exist, takes no orders or lacks the speed asked (getLocations lists each location's speeds)."),
    contractTermMonths: oneOf(CONTRACT_TERMS, 'Contract term in months: 1 (month to month), 12, 24, 36, 48 or 60.'),
    asn: z.number().int().min(1).max(4294967295).optional().meta({
      description: 'BGP ASN of the MCR, used for peering on its VXCs; the API sets the default when it is omitted. BGP sessions re-negotiate. Some clouds need a public ASN; Azure rejects 65515.',
      default: DEFAULT_MCR_ASN,
    }),
    diversityZone: oneOfText(DIVERSITY_ZONES, 'Diversity zone; allocated when omitted.').optional(),
    marketplaceVisibility: z.boolean().optional().describe('true = listed in the marketplace. When omitted the API decides (true).'),
    costCentre: z.string().max(255).optional().describe('Customer reference on invoices. Attached VXCs are not touched.'),
    promoCode: z.string().optional().describe('Promotion code, sent with the order only and never validated.'),
    resourceTags: tagsSchema.optional().describe('Tags on the product.'),
    prefixFilterLists: z
      .array(prefixListSchema)
      .optional()
      .describe(
        'DEPRECATED: use interconnect:index/mcrPrefixFilterList:McrPrefixFilterList. Prefix filter lists kept with the MCR, matched by description; created, rewritten and deleted in place. Lists not named here are left alone.',
      ),
  })
  .strict();

/** Everything an MCR exposes: its inputs as the API reports them plus computed fields. */
export const mcrOutputs = mcrInputs.extend(mcrComputed);

type McrInputs = z.infer<typeof mcrInputs>;
type McrOutputs = z.infer<typeof mcrOutputs>;

/** The fields an MCR change can send in place, and their names in the modify call. */
const MODIFIABLE: Array<[keyof McrInputs, string]> = [
  ['productName', 'name'],
  ['marketplaceVisibility', 'marketplaceVisibility'],
  ['contractTermMonths', 'term'],
  ['asn', 'asn'],
];

/** A cloud router (MCR). Deleted with CANCEL_NOW and safeDelete: the API refuses while VXCs are attached. */
export const mcr: ResourceType<McrInputs, McrOutputs, Ctx['client'], InterconnectSettings> = {
  token: 'interconnect:index/mcr:Mcr',
  provider: 'interconnect',
  description: 'A cloud router (MCR) at a location. Always cancelled at once (interconnect:cancelAtEndOfTerm does not apply), and only when no VXC is attached.',
  inputs: mcrInputs,
  outputs: mcrOutputs,
  diff: {
    computedInputs: ['asn', 'diversityZone', 'costCentre', 'marketplaceVisibility'],
    recordOnly: ['promoCode'],
    remoteManaged: Object.keys(mcrComputed),
  },
  replace: {
    on: [
      { path: 'portSpeed', reason: "an MCR's speed is fixed for the life of the service" },
      { path: 'locationId', reason: 'an MCR cannot move to another location' },
      { path: 'diversityZone', reason: 'an MCR cannot move to another diversity zone' },
    ],
  },
  notes: {
    desired: (inputs) =>
      inputs.prefixFilterLists === undefined
        ? []
        : ['prefixFilterLists is deprecated and will be removed; declare each list as an interconnect:index/mcrPrefixFilterList:McrPrefixFilterList resource instead'],
    // The API no longer accepts a scheduled cancellation for an MCR.
    delete: (recorded) => contractNotes(recorded.outputs, false),
  },
  provisioning: productProvisioning,
  cost: {
    source: PRICEBOOK,
    termEnds: termEnd,
    quote: (inputs, ctx) => pricebookQuote(ctx, { productType: 'MCR2', locationId: inputs.locationId, speed: inputs.portSpeed, term: inputs.contractTermMonths }),
  },
  crossCheck: locationCheck('mcr'),
  importId: { format: '<product_uid>', parse: parseProductUid },
  owner: productOwner,
  disown: productDisown,

  async create(ctx, inputs) {
    const config: Record<string, unknown> = {};
    if (inputs.asn) config.mcrAsn = inputs.asn;
    if (inputs.diversityZone) config.diversityZone = inputs.diversityZone;
    const [uid] = await order(ctx, {
      locationId: inputs.locationId,
      productName: inputs.productName,
      term: inputs.contractTermMonths,
      portSpeed: inputs.portSpeed,
      productType: 'MCR2',
      costCentre: inputs.costCentre ?? '',
      config,
      ...(inputs.marketplaceVisibility !== undefined ? { marketplaceVisibility: inputs.marketplaceVisibility } : {}),
      ...(inputs.promoCode ? { promoCode: inputs.promoCode } : {}),
      resourceTags: tagList(ctx, inputs.resourceTags),
    });
    ctx.recordId(uid);
    routerOrdered(ctx.client, uid);
    const product = await waitReady(ctx, uid, 'MCR');
    await syncInlineLists(ctx, uid, undefined, inputs.prefixFilterLists);
    return { id: uid, outputs: await observe(ctx, product, inputs, orderedTags(inputs.resourceTags)) };
  },

  async read(ctx, id, prior) {
    const product = await readProductOfType(ctx, id, 'MCR2', 'an MCR');
    return product && observe(ctx, product, prior?.inputs, await observedTags(ctx, id, prior));
  },

  readMany: (ctx, targets) => readListed(ctx, targets, 'MCR2', async (p, t) => observe(ctx, p, t.prior?.inputs, await observedTags(ctx, p.productUid, t.prior))),

  async update(ctx, id, prior, desired) {
    await modifyProduct(ctx, 'mcr2', id, prior, desired, MODIFIABLE);
    await syncInlineLists(ctx, id, prior.inputs.prefixFilterLists, desired.prefixFilterLists);
    const product = await waitReady(ctx, id, 'MCR');
    return observe(ctx, product, desired, tagsAfterUpdate(prior, desired));
  },

  async delete(ctx, id) {
    await cancel(ctx, id, 'CANCEL_NOW', true);
  },

  async list(ctx) {
    const mcrs = liveOfType(await sharedList(ctx), 'MCR2');
    return mapLimited(mcrs, async (p) => ({ id: p.productUid, outputs: { ...mcrObserved(p), resourceTags: await observedTags(ctx, p.productUid, undefined) } as McrOutputs }));
  },

  async findOwned(ctx, inputs) {
    const found = await findByToken(ctx, liveOfType(await sharedList(ctx), 'MCR2'), inputs?.productName, ctx);
    return found && { id: found.productUid, outputs: { ...mcrObserved(found), resourceTags: await observedTags(ctx, found.productUid, undefined) } as McrOutputs };
  },
};

/** The MCR's outputs, its user tags as known (just ordered, just written, or read). */
async function observe(ctx: Ctx, p: ApiProduct, inputs: Partial<McrInputs> | undefined, tags: Record<string, string>): Promise<McrOutputs> {
  return {
    ...(mcrObserved(p) as Omit<McrOutputs, 'promoCode' | 'resourceTags' | 'prefixFilterLists'>),
    diversityZone: p.diversityZone || inputs?.diversityZone,
    // The API never returns the promo code; keep what was ordered.
    promoCode: inputs?.promoCode,
    resourceTags: tags,
    prefixFilterLists: inputs?.prefixFilterLists && (await readInlineLists(ctx, p.productUid, inputs.prefixFilterLists)),
  };
}

/**
 * The inline lists as they are now, in the order the inputs name them. Only lists the inputs
 * name are reported, so standalone McrPrefixFilterList resources on the same MCR never show as
 * drift here; a named list that is missing is left out (and created again on apply).
 */
async function readInlineLists(ctx: Ctx, mcrUid: string, named: PrefixList[]): Promise<PrefixList[]> {
  const summaries = await listPrefixLists(ctx.client, mcrUid);
  const others = summaries.filter((s) => !findByDescription(named, s.description));
  if (others.length) {
    ctx.warn(`the MCR also has prefix filter lists not declared inline (${others.map((s) => s.description).join(', ')}); mixing inline and standalone lists is discouraged`);
  }
  const out: PrefixList[] = [];
  for (const want of named) {
    const summary = findByDescription(summaries, want.description);
    const current = summary && (await readPrefixList(ctx.client, mcrUid, summary.id));
    if (current) out.push({ description: current.description, addressFamily: current.addressFamily, entries: observedEntries(current.entries, want.entries) });
  }
  return out;
}

/**
 * Makes the inline lists match `desired`: a named list is created or rewritten (only when it
 * differs), and a list named before but not now is deleted. Lists never named inline are untouched.
 */
async function syncInlineLists(ctx: Ctx, mcrUid: string, prior: PrefixList[] | undefined, desired: PrefixList[] | undefined): Promise<void> {
  if (!prior?.length && !desired?.length) return;
  const summaries = await listPrefixLists(ctx.client, mcrUid);
  for (const want of desired ?? []) {
    const summary = findByDescription(summaries, want.description);
    if (!summary) {
      await createPrefixList(ctx.client, mcrUid, want);
      continue;
    }
    const current = await readPrefixList(ctx.client, mcrUid, summary.id);
    const same = current && current.addressFamily === want.addressFamily && sameEntries(current.entries, want.entries);
    if (!same) await updatePrefixList(ctx.client, mcrUid, summary.id, want);
  }
  for (const old of prior ?? []) {
    if (findByDescription(desired ?? [], old.description)) continue;
    const summary = findByDescription(summaries, old.description);
    if (summary) await deletePrefixList(ctx, mcrUid, summary.id);
  }
}
