import * as z from 'zod';
import { UserError, isRemote } from '../../kernel/errors.js';
import type { InterconnectSettings } from '../../providers/interconnect/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { oneOf, oneOfText, tagsSchema } from '../schema.js';
import { liveOfType, type ApiProduct } from '../../providers/interconnect/api/products.js';
import { PRODUCT_FACTS, productFacts, productFactsShape } from '../../providers/interconnect/api/views.js';
import {
  CONTRACT_TERMS,
  type Ctx,
  cancel,
  mapLimited,
  findByToken,
  modifyProduct,
  observedTags,
  order,
  orderedTags,
  productDisown,
  productOwner,
  readListed,
  sharedList,
  sharedProduct,
  tagList,
  tagsAfterUpdate,
  waitReady,
  DIVERSITY_ZONES,
} from './kit.js';
import { contractNotes, productProvisioning } from './product-hooks.js';
import { locationCheck } from './location-checks.js';
import { cancelsAtTermEnd, PRICEBOOK, pricebookQuote, termEnd } from './cost.js';

/** Port speeds in Mbps (400000 where the location offers it). */
export const PORT_SPEEDS = [1000, 10000, 100000, 400000] as const;

/** Inputs of a single physical port. */
export const portInputs = z
  .object({
    productName: z.string().min(1).describe('Identifiable name of the port.'),
    portSpeed: oneOf(PORT_SPEEDS, 'Port speed in Mbps: 1000, 10000, 100000, or 400000 where available.'),
    locationId: z
      .number()
      .int()
      .positive()
      .describe("Numeric location id (from getLocation); plan refuses one that does not exist, takes no orders or lacks the speed asked (getLocations lists each location's speeds)."),
    contractTermMonths: oneOf(CONTRACT_TERMS, 'Contract term in months: 1 (month to month), 12, 24, 36, 48 or 60.'),
    marketplaceVisibility: z.boolean().describe('true = public in the marketplace; false = private (others can still connect with a service key).'),
    costCentre: z.string().max(255).optional().describe('Customer reference on invoices. Attached VXCs are not touched.'),
    diversityZone: oneOfText(DIVERSITY_ZONES, 'Diversity zone; allocated when omitted.').optional(),
    promoCode: z.string().optional().describe('Promotion code, sent with the order only and never validated.'),
    resourceTags: tagsSchema.optional().describe('Tags on the product.'),
  })
  .strict();

/** Everything a port exposes: its inputs as the API reports them plus computed fields. */
export const portOutputs = portInputs.extend(productFactsShape);

type PortInputs = z.infer<typeof portInputs>;
type PortOutputs = z.infer<typeof portOutputs>;

/** The fields a port change can send in place, and their names in the modify call. */
const MODIFIABLE: Array<[keyof PortInputs, string]> = [
  ['productName', 'name'],
  ['marketplaceVisibility', 'marketplaceVisibility'],
  ['contractTermMonths', 'term'],
];

/** A single physical port. */
export const port: ResourceType<PortInputs, PortOutputs, Ctx['client'], InterconnectSettings> = {
  token: 'interconnect:index/port:Port',
  provider: 'interconnect',
  description:
    'A single physical port at a location. Cancelled now, or at the end of its term when interconnect:cancelAtEndOfTerm is true, which the API has refused since 2026-05 (the delete then fails and cancels nothing).',
  inputs: portInputs,
  outputs: portOutputs,
  diff: {
    computedInputs: ['diversityZone', 'costCentre'],
    recordOnly: ['promoCode'],
    remoteManaged: [...PRODUCT_FACTS],
  },
  replace: {
    on: [
      { path: 'portSpeed', reason: 'the speed of a physical port is fixed once ordered' },
      { path: 'locationId', reason: 'a port cannot move to another location' },
      { path: 'diversityZone', reason: 'a port cannot move to another diversity zone' },
    ],
  },
  notes: {
    delete: (recorded, settings) => contractNotes(recorded.outputs, settings.cancelAtEndOfTerm === true),
  },
  provisioning: productProvisioning,
  cost: {
    // The pricebook prices a cross-connect as a CROSS_CONNECT add-on, but the port order plumb
    // sends requests none (one is arranged with the data centre apart), so the quote has none.
    source: PRICEBOOK,
    termEnds: termEnd,
    cancelsAtTermEnd,
    quote: (inputs, ctx) => pricebookQuote(ctx, { productType: 'MEGAPORT', locationId: inputs.locationId, speed: inputs.portSpeed, term: inputs.contractTermMonths }),
  },
  crossCheck: locationCheck('port'),
  importId: { format: '<product_uid>', parse: parseProductUid },
  owner: productOwner,
  disown: productDisown,

  async create(ctx, inputs) {
    const [uid] = await order(ctx, {
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
      ...(inputs.costCentre ? { costCentre: inputs.costCentre } : {}),
      ...(inputs.promoCode ? { promoCode: inputs.promoCode } : {}),
      resourceTags: tagList(ctx, inputs.resourceTags),
    });
    ctx.recordId(uid);
    const product = await waitReady(ctx, uid, 'port');
    return { id: uid, outputs: toOutputs(product, orderedTags(inputs.resourceTags), inputs) };
  },

  async read(ctx, id, prior) {
    const product = await sharedProduct(ctx, id);
    if (!product) return undefined;
    return toOutputs(product, await observedTags(ctx, id, prior), prior?.inputs);
  },

  readMany: (ctx, targets) => readListed(ctx, targets, 'MEGAPORT', async (p, t) => toOutputs(p, await observedTags(ctx, p.productUid, t.prior), t.prior?.inputs)),

  async update(ctx, id, prior, desired) {
    await modifyProduct(ctx, 'megaport', id, prior, desired, MODIFIABLE);
    const product = await waitReady(ctx, id, 'port');
    return toOutputs(product, tagsAfterUpdate(prior, desired), desired);
  },

  async delete(ctx, id) {
    await cancelPort(ctx, id, 'port');
  },

  async list(ctx) {
    const ports = liveOfType(await sharedList(ctx), 'MEGAPORT').filter((p) => !p.aggregationId);
    return mapLimited(ports, async (p) => ({ id: p.productUid, outputs: toOutputs(p, await observedTags(ctx, p.productUid, undefined)) }));
  },

  async findOwned(ctx, inputs) {
    const found = await findByToken(ctx, liveOfType(await sharedList(ctx), 'MEGAPORT'), inputs?.productName, ctx);
    return found && { id: found.productUid, outputs: toOutputs(found, await observedTags(ctx, found.productUid, undefined)) };
  },
};

/**
 * Cancels a Port or LAG Port: now (with safeDelete), or at the end of its term when
 * interconnect:cancelAtEndOfTerm is true. The API has refused the latter since 2026-05; that
 * refusal fails the delete, saying how to go on, and the port is never cancelled now instead
 * (that would end it early, and the choice is the user's).
 */
export async function cancelPort(ctx: Ctx, id: string, what: 'port' | 'LAG port'): Promise<void> {
  if (ctx.settings.cancelAtEndOfTerm !== true) return cancel(ctx, id, 'CANCEL_NOW', true);
  try {
    await cancel(ctx, id, 'CANCEL', false);
  } catch (err) {
    if (!isRemote(err, 'invalid')) throw err;
    // The failure of a step is reported by its message alone, so the way on is part of it.
    throw new UserError(
      `the interconnect API refused to cancel ${what} ${id} at the end of its term (interconnect:cancelAtEndOfTerm is true): ${err.message}. ` +
        'Nothing was cancelled and it stays in state. To go on, set interconnect:cancelAtEndOfTerm to false to cancel it now (early termination charges may apply), or cancel it in the portal and run this again',
    );
  }
}

/** A product UID import id: any non-empty UID-shaped string. */
export function parseProductUid(id: string): string {
  const trimmed = id.trim();
  if (!/^[0-9a-zA-Z][0-9a-zA-Z-]{3,}$/.test(trimmed)) {
    throw new UserError(`invalid import id "${id}": expected <product_uid>, e.g. 0b0e4a1c-3f6e-4a8b-9a6a-5a7d2c0e9f11`);
  }
  return trimmed;
}

function toOutputs(p: ApiProduct, tags: Record<string, string>, inputs?: Partial<PortInputs>): PortOutputs {
  return {
    productName: p.productName,
    portSpeed: p.portSpeed,
    locationId: p.locationId,
    contractTermMonths: p.contractTermMonths,
    marketplaceVisibility: Boolean(p.marketplaceVisibility),
    costCentre: p.costCentre ?? '',
    diversityZone: p.diversityZone || inputs?.diversityZone,
    // The API never returns the promo code; keep what was ordered.
    promoCode: inputs?.promoCode,
    resourceTags: tags,
    ...productFacts(p),
  };
}
