import * as z from 'zod';
import { UserError } from '../../kernel/errors.js';
import type { InterconnectSettings } from '../../providers/interconnect/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { oneOf, oneOfText, tagsSchema } from '../schema.js';
import { cancelPort, parseProductUid } from './port.js';
import { listAllProducts, liveOfType, type ApiProduct, type ProductList } from '../../providers/interconnect/api/products.js';
import { PRODUCT_FACTS, productFacts, productFactsShape } from '../../providers/interconnect/api/views.js';
import {
  CONTRACT_TERMS,
  type Ctx,
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
  timeLeft,
  waitReady,
  DIVERSITY_ZONES,
} from './kit.js';
import { contractNotes, productProvisioning } from './product-hooks.js';
import { locationCheck } from './location-checks.js';
import { cancelsAtTermEnd, PRICEBOOK, pricebookQuote, termEnd, timesQuote } from './cost.js';

/** LAG member speeds in Mbps (400000 where the location offers it); 1 Gbps ports cannot be aggregated. */
export const LAG_SPEEDS = [10000, 100000, 400000] as const;

/** Inputs of a LAG port: one service made of 1 to 8 member ports of the same speed. */
export const lagPortInputs = z
  .object({
    productName: z.string().min(1).describe('Identifiable name of the LAG.'),
    portSpeed: oneOf(LAG_SPEEDS, 'Speed of each member port in Mbps: 10000, 100000, or 400000 where available.'),
    locationId: z
      .number()
      .int()
      .positive()
      .describe("Numeric location id (from getLocation); plan refuses one that does not exist, takes no orders or lacks the speed asked (getLocations lists each location's speeds)."),
    contractTermMonths: oneOf(CONTRACT_TERMS, 'Contract term in months: 1 (month to month), 12, 24, 36, 48 or 60.'),
    marketplaceVisibility: z.boolean().describe('true = public in the marketplace; false = private (others can still connect with a service key).'),
    lagCount: z.number().int().min(1).max(8).describe('Number of member ports, 1 to 8.'),
    costCentre: z.string().max(255).optional().describe('Customer reference on invoices, at most 255 characters. Attached VXCs are not touched.'),
    diversityZone: oneOfText(DIVERSITY_ZONES, 'Diversity zone; allocated by the API when omitted.').optional(),
    promoCode: z.string().optional().describe('Promotion code, sent with the order only and never validated; a later change is only recorded.'),
    resourceTags: tagsSchema.optional().describe('Tags on the LAG (its primary member). Default: none.'),
  })
  .strict();

/** Everything a LAG exposes: its inputs as the API reports them, the member UIDs and the computed fields of a port. */
export const lagPortOutputs = lagPortInputs.extend({
  ...productFactsShape,
  productUid: z.string().describe("UID of the primary member port, the LAG's id."),
  lagPortUids: z.array(z.string()).describe('UIDs of every member port, the primary first.'),
  aggregationId: z.number().optional().describe('Numeric id the member ports share.'),
});

type LagPortInputs = z.infer<typeof lagPortInputs>;
type LagPortOutputs = z.infer<typeof lagPortOutputs>;

/** The fields a LAG change can send in place, and their names in the modify call. */
const MODIFIABLE: Array<[keyof LagPortInputs, string]> = [
  ['productName', 'name'],
  ['marketplaceVisibility', 'marketplaceVisibility'],
  ['contractTermMonths', 'term'],
];

/** A LAG port: several physical ports bundled into one service. */
export const lagPort: ResourceType<LagPortInputs, LagPortOutputs, Ctx['client'], InterconnectSettings> = {
  token: 'interconnect:index/lagPort:LagPort',
  provider: 'interconnect',
  description:
    'A LAG port: 1 to 8 member ports at one location acting as one service. Cancelled now, or at the end of its term when interconnect:cancelAtEndOfTerm is true, which the API has refused since 2026-05 (the delete then fails and cancels nothing).',
  inputs: lagPortInputs,
  outputs: lagPortOutputs,
  diff: {
    computedInputs: ['diversityZone', 'costCentre'],
    recordOnly: ['promoCode'],
    remoteManaged: [...PRODUCT_FACTS, 'lagPortUids', 'aggregationId'],
  },
  replace: {
    on: [
      { path: 'portSpeed', reason: 'the speed of physical ports is fixed once ordered' },
      { path: 'locationId', reason: 'a LAG cannot move to another location' },
      { path: 'diversityZone', reason: 'a LAG cannot move to another diversity zone' },
      { path: 'lagCount', reason: 'members cannot be added to or removed from an ordered LAG' },
    ],
  },
  notes: {
    delete: (recorded, settings) => contractNotes(recorded.outputs, settings.cancelAtEndOfTerm === true),
  },
  provisioning: productProvisioning,
  cost: {
    source: PRICEBOOK,
    termEnds: termEnd,
    cancelsAtTermEnd,
    // The pricebook takes no member count: each port of a LAG is priced as a port (docs: port pricing).
    async quote(inputs, ctx) {
      const one = await pricebookQuote(ctx, { productType: 'MEGAPORT', locationId: inputs.locationId, speed: inputs.portSpeed, term: inputs.contractTermMonths });
      return timesQuote(one, inputs.lagCount, `estimate: ${inputs.lagCount} × one port's price`);
    },
  },
  crossCheck: locationCheck('lag'),
  importId: { format: '<product_uid>', parse: parseProductUid },
  owner: productOwner,

  // Every member carries the order's tags (the API reports a LAG through any of them).
  async disown(ctx, id) {
    const product = await readProductOfType(ctx, id, 'MEGAPORT', 'a LAG port');
    if (!product) return 'gone';
    const { members } = lagGroup(await listAllProducts(ctx.client), product);
    const outcomes = await mapLimited(members, (m) => productDisown(ctx, m.productUid));
    return outcomes.includes('removed') ? 'removed' : 'unmarked';
  },

  async create(ctx, inputs) {
    const uids = await order(ctx, {
      productName: inputs.productName,
      term: inputs.contractTermMonths,
      productType: 'MEGAPORT',
      portSpeed: inputs.portSpeed,
      locationId: inputs.locationId,
      createDate: 0,
      virtual: false,
      market: '',
      marketplaceVisibility: inputs.marketplaceVisibility,
      config: inputs.diversityZone ? { diversityZone: inputs.diversityZone } : {},
      lagPortCount: inputs.lagCount,
      ...(inputs.costCentre ? { costCentre: inputs.costCentre } : {}),
      ...(inputs.promoCode ? { promoCode: inputs.promoCode } : {}),
      resourceTags: tagList(ctx, inputs.resourceTags),
    });
    ctx.recordId(uids[0]);
    // Every member is waited for within the create's one wait time.
    const left = timeLeft(ctx.waitTimeMs);
    let ready = await waitReady(ctx, uids[0], 'LAG port');
    const { primary } = lagGroup(await listAllProducts(ctx.client), ready);
    // A buy adopted after a lost reply may name any member; the primary is the id.
    if (primary.productUid !== uids[0]) {
      ctx.recordId(primary.productUid);
      ready = await waitReady(ctx, primary.productUid, 'LAG port', left());
    }
    const { members } = lagGroup(await listAllProducts(ctx.client), ready);
    for (const member of members) if (member.productUid !== primary.productUid) await waitReady(ctx, member.productUid, 'LAG member port', left());
    return { id: primary.productUid, outputs: toOutputs(ready, members, orderedTags(inputs.resourceTags), inputs) };
  },

  async read(ctx, id, prior) {
    const product = await readProductOfType(ctx, id, 'MEGAPORT', 'a LAG port');
    if (!product) return undefined;
    const { members } = lagGroup(await sharedList(ctx), product);
    return toOutputs(product, members, await observedTags(ctx, id, prior), prior?.inputs);
  },

  // A single port's UID is left to the read by id, which refuses it.
  readMany: (ctx, targets) =>
    readListed(
      ctx,
      targets,
      'MEGAPORT',
      async (p, t, list) => toOutputs(p, lagGroup(list, p).members, await observedTags(ctx, p.productUid, t.prior), t.prior?.inputs),
      (p) => Boolean(p.aggregationId),
    ),

  async update(ctx, id, prior, desired) {
    // Changes go to the primary member: the API reports the LAG through it.
    await modifyProduct(ctx, 'megaport', id, prior, desired, MODIFIABLE);
    const product = await waitReady(ctx, id, 'LAG port');
    const { members } = lagGroup(await listAllProducts(ctx.client), product);
    return toOutputs(product, members, tagsAfterUpdate(prior, desired), desired);
  },

  async delete(ctx, id) {
    // A cancel action on one member applies to the whole LAG.
    await cancelPort(ctx, id, 'LAG port');
  },

  async list(ctx) {
    const list = await sharedList(ctx);
    const primaries = liveOfType(list, 'MEGAPORT').filter((p) => p.aggregationId && p.lagPrimary);
    return mapLimited(primaries, async (p) => ({ id: p.productUid, outputs: toOutputs(p, lagGroup(list, p).members, await observedTags(ctx, p.productUid, undefined)) }));
  },

  async findOwned(ctx, inputs) {
    const list = await sharedList(ctx);
    const found = await findByToken(
      ctx,
      liveOfType(list, 'MEGAPORT').filter((p) => p.aggregationId),
      inputs?.productName,
      ctx,
    );
    if (!found) return undefined;
    const { primary, members } = lagGroup(list, found);
    return { id: primary.productUid, outputs: toOutputs(primary, members, await observedTags(ctx, primary.productUid, undefined)) };
  },
};

/** The LAG a member port belongs to, as a product list shows it: its primary and every live member, the primary first. */
function lagGroup(list: ProductList, member: ApiProduct): { primary: ApiProduct; members: ApiProduct[] } {
  if (!member.aggregationId) {
    throw new UserError(`${member.productUid} is a single port, not a LAG port`, 'manage it as interconnect:index/port:Port');
  }
  const members = liveOfType(list, 'MEGAPORT')
    .filter((p) => p.aggregationId === member.aggregationId)
    .sort((a, b) => Number(Boolean(b.lagPrimary)) - Number(Boolean(a.lagPrimary)) || (a.productId ?? 0) - (b.productId ?? 0));
  // A cancelled LAG is no longer listed as live, but the member read directly still describes it.
  if (!members.some((m) => m.productUid === member.productUid)) members.push(member);
  const primary = members.find((m) => m.lagPrimary) ?? members[0];
  return { primary, members };
}

function toOutputs(p: ApiProduct, members: ApiProduct[], tags: Record<string, string>, inputs?: Partial<LagPortInputs>): LagPortOutputs {
  return {
    productName: p.productName,
    portSpeed: p.portSpeed,
    locationId: p.locationId,
    contractTermMonths: p.contractTermMonths,
    marketplaceVisibility: Boolean(p.marketplaceVisibility),
    lagCount: members.length,
    costCentre: p.costCentre ?? '',
    // An empty zone read back keeps the recorded one rather than suggesting a move.
    diversityZone: p.diversityZone || inputs?.diversityZone,
    // The API never returns the promo code; keep what was ordered.
    promoCode: inputs?.promoCode,
    resourceTags: tags,
    ...productFacts(p),
    lagPortUids: members.map((m) => m.productUid),
    aggregationId: p.aggregationId || undefined,
  };
}
