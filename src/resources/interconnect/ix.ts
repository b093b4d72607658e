import * as z from 'zod';
import type { InterconnectSettings } from '../../providers/interconnect/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { tagsSchema } from '../schema.js';
import { parseProductUid } from './port.js';
import { isLive, type ApiProduct, type ProductList } from '../../providers/interconnect/api/products.js';
import { isoDate } from '../../providers/interconnect/api/views.js';
import { type Ctx, cancel, freshList, order, readListed, readProductOfType, sameSpelling, sharedList, timeLeft, waitReady } from './kit.js';
import { contractNotes, productProvisioning, vlanClaim } from './product-hooks.js';
import { ixCrossCheck } from './cross-checks.js';
import { defaultsAsDeclared } from '../as-declared.js';
import { locationOf, PRICEBOOK, pricebookQuote } from './cost.js';

const MAC = /^[0-9a-fA-F]{2}([:-][0-9a-fA-F]{2}){5}$/;

/** The fields of an IX connection, shared by its inputs and outputs. */
const ixFields = z
  .object({
    productName: z.string().min(1).describe('Identifiable name of the IX connection.'),
    requestedProductUid: z.string().min(1).describe('UID of the port the IX attaches to. A change moves the IX (aEndProductUid); the API accepts only a live port in the same metro as the exchange.'),
    networkServiceType: z
      .string()
      .min(1)
      .describe(
        'The exchange to join, by name as getIxPoints lists it, e.g. "Sydney IX"; it must be in the port\'s metro (plan refuses another). The IX update has no field for it, so another exchange replaces the IX; the same name in other letter case is only recorded.',
      ),
    rateLimit: z.number().int().positive().describe('Rate limit in Mbps, at most the port speed.'),
    vlan: z.number().int().min(2).max(4093).describe('VLAN id on the port, 2 to 4093, free on that port.'),
    macAddress: z.string().regex(MAC, 'must be a MAC address such as 00:11:22:33:44:55').describe('MAC address of your IX interface, e.g. 00:11:22:33:44:55.'),
    asn: z.number().int().min(1).max(4294967295).optional().describe('Your ASN for peering on the exchange. The API needs it to order; left out, an imported IX keeps the ASN it has.'),
    costCentre: z.string().max(255).optional().describe('Customer reference on invoices, at most 255 characters.'),
    publicGraph: z.boolean().optional().describe('true = usage statistics are publicly viewable. The API sets true when omitted.'),
    reverseDns: z.string().optional().describe('Custom hostname for the IX IP addresses (reverse DNS). Default: none.'),
    shutdown: z.boolean().optional().describe('true shuts the connection down temporarily; false (the default) re-enables it.'),
    attributeTags: tagsSchema
      .optional()
      .describe(
        'Attribute tags are set by the API: neither the IX order nor the IX update carries them, so only an empty map (or none) may be given; the tags the API sets are reported in the outputs.',
      ),
    promoCode: z.string().optional().describe('Promotion code, sent with the order only and never validated; a later change is only recorded.'),
  })
  .strict();

/** Inputs of an Internet Exchange connection on a port. */
export const ixInputs = ixFields.superRefine(
  (value, ctx) => {
    // Runs even when another field failed, so every problem of a manifest is reported at once.
    const tags = value && typeof value === 'object' ? (value as { attributeTags?: unknown }).attributeTags : undefined;
    if (tags && typeof tags === 'object' && Object.keys(tags).length > 0) {
      ctx.addIssue({ code: 'custom', path: ['attributeTags'], message: 'attribute tags are set by the API and cannot be ordered or changed; remove them' });
    }
  },
  { when: () => true },
);

/** Everything an IX exposes: its inputs as the API reports them plus what the API computes. */
export const ixOutputs = ixFields.extend({
  attributeTags: tagsSchema.optional().describe('Attribute tags the API has set on the IX.'),
  productUid: z.string().describe('Product UID of the IX, its id.'),
  productId: z.number().optional().describe('Numeric product id.'),
  provisioningStatus: z.string().describe('DEPLOYABLE, CONFIGURED, LIVE, DECOMMISSIONED...; CONFIGURED and LIVE are ready.'),
  locationId: z.number().optional().describe('Location id of the port the IX is on.'),
  term: z.number().optional().describe('Contract term in months.'),
  secondaryName: z.string().optional().describe('Secondary name the API keeps for the service.'),
  ixPeerMacro: z.string().optional().describe('IRR macro (as-set) used for peering, e.g. AS64496.'),
  usageAlgorithm: z.string().optional().describe('How usage is billed, e.g. POST_PAID_HOURLY_SPEED_IX.'),
  createDate: z.string().optional().describe('When the IX was ordered (RFC 3339, set by the API).'),
  deployDate: z.string().optional().describe('When the IX was deployed (RFC 3339, set by the API).'),
  resources: z.record(z.string(), z.unknown()).optional().describe('Nested IX resources: interface, bgp_connection[], ip_address[] (with reverse_dns), vpls_interface.'),
});

type IxInputs = z.infer<typeof ixInputs>;
type IxOutputs = z.infer<typeof ixOutputs>;

/** Inputs the IX update sends under another name (the rest use their own name). */
const WIRE: Partial<Record<keyof IxInputs, string>> = { productName: 'name', requestedProductUid: 'aEndProductUid' };
/** Every input `PUT /v2/product/ix/{uid}` can change. */
const MODIFIABLE: Array<keyof IxInputs> = ['productName', 'requestedProductUid', 'rateLimit', 'vlan', 'macAddress', 'asn', 'costCentre', 'publicGraph', 'reverseDns', 'shutdown'];

/** An Internet Exchange connection. */
export const ix: ResourceType<IxInputs, IxOutputs, Ctx['client'], InterconnectSettings> = {
  token: 'interconnect:index/ix:Ix',
  provider: 'interconnect',
  description: 'An Internet Exchange (IX) connection on a port. Every setting but the exchange itself changes in place; shutdown toggles a temporary shutdown.',
  inputs: ixInputs,
  outputs: ixOutputs,
  diff: {
    computedInputs: ['asn', 'costCentre', 'publicGraph', 'attributeTags'],
    recordOnly: ['promoCode'],
    // The API always reports shutdown; false is what leaving it out means.
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { shutdown: false }),
    remoteManaged: ['productUid', 'productId', 'provisioningStatus', 'locationId', 'term', 'secondaryName', 'ixPeerMacro', 'usageAlgorithm', 'createDate', 'deployDate', 'resources', 'attributeTags'],
  },
  replace: {
    on: [],
    // A VLAN is unique on its port: the new IX can have it only once the old one has let it go.
    holds: [vlanClaim('requestedProductUid', 'vlan')],
    when: {
      inputs: ['networkServiceType'],
      // The API names exchanges without regard to case: "sydney ix" is the IX the port is on, a
      // change recorded without a call; another exchange is a new IX connection.
      rules: (prior, desired) => {
        const [was, want] = [prior.networkServiceType, desired.networkServiceType];
        const same = typeof want === 'string' && typeof was === 'string' ? was.toLowerCase() === want.toLowerCase() : was === want;
        return same ? [] : [{ path: 'networkServiceType', reason: 'the IX update cannot change the exchange; joining another exchange is a new IX connection' }];
      },
    },
  },
  notes: {
    delete: (recorded) => contractNotes(recorded.outputs, false),
  },
  provisioning: productProvisioning,
  cost: {
    // No termEnds: an IX is billed by the hour at its rate limit, and the API reports no contract end for it.
    source: PRICEBOOK,
    async quote(inputs, ctx) {
      const portLocationId = await locationOf(ctx, inputs.requestedProductUid, 'port');
      return pricebookQuote(ctx, { productType: 'IX', portLocationId, ixType: inputs.networkServiceType, speed: inputs.rateLimit });
    },
  },
  crossCheck: ixCrossCheck,
  importId: { format: '<product_uid>', parse: parseProductUid },

  async create(ctx, inputs) {
    const item = {
      productUid: inputs.requestedProductUid,
      associatedIxs: [
        {
          productName: inputs.productName,
          networkServiceType: inputs.networkServiceType,
          asn: inputs.asn ?? 0,
          macAddress: inputs.macAddress,
          rateLimit: inputs.rateLimit,
          vlan: inputs.vlan,
          shutdown: inputs.shutdown ?? false,
          ...(inputs.promoCode ? { promoCode: inputs.promoCode } : {}),
        },
      ],
    };
    const [uid] = await order(ctx, item, async (memo) => orderedIx(await freshList(ctx, memo), inputs)?.productUid);
    ctx.recordId(uid);
    const left = timeLeft(ctx.waitTimeMs);
    let product = await waitReady(ctx, uid, 'IX');
    // The IX order has no costCentre, publicGraph or reverseDns (megaportgo's AssociatedIXOrder);
    // the IX update documents all three, so they are applied by one update once the IX is ready,
    // within the create's one wait time.
    const missed = unapplied(product, inputs);
    if (Object.keys(missed).length) {
      await ctx.client.put(`/v2/product/ix/${encodeURIComponent(uid)}`, missed);
      product = await waitReady(ctx, uid, 'IX', left());
    }
    return { id: uid, outputs: toOutputs(product, inputs) };
  },

  async read(ctx, id, prior) {
    const product = await readProductOfType(ctx, id, 'IX', 'an IX');
    return product && toOutputs(product, prior?.inputs);
  },

  readMany: (ctx, targets) => readListed(ctx, targets, 'IX', (p, t) => toOutputs(p, t.prior?.inputs)),

  async update(ctx, id, prior, desired) {
    const body: Record<string, unknown> = {};
    for (const field of MODIFIABLE) {
      const before = field === 'shutdown' ? (prior.inputs.shutdown ?? false) : prior.inputs[field];
      const after = field === 'shutdown' ? (desired.shutdown ?? false) : desired[field];
      // Computed fields left out (asn, costCentre, publicGraph) keep what the IX has.
      if (after !== undefined && after !== before) body[WIRE[field] ?? field] = after;
    }
    // Removing the reverse DNS name clears it; the API takes an empty name for that.
    if (desired.reverseDns === undefined && prior.inputs.reverseDns) body.reverseDns = '';
    if (Object.keys(body).length) await ctx.client.put(`/v2/product/ix/${encodeURIComponent(id)}`, body);
    if (JSON.stringify(desired.attributeTags ?? {}) !== JSON.stringify(prior.inputs.attributeTags ?? {})) {
      ctx.warn('attributeTags are set by the API and cannot be changed; the IX keeps the tags it has');
    }
    const product = await waitReady(ctx, id, 'IX');
    return toOutputs(product, desired);
  },

  async delete(ctx, id) {
    await cancel(ctx, id, 'CANCEL_NOW', false);
  },

  async list(ctx) {
    return (await sharedList(ctx)).ixs.filter(isLive).map((p) => ({ id: p.productUid, outputs: toOutputs(p) }));
  },

  async findOwned(ctx, inputs) {
    const found = inputs && orderedIx(await sharedList(ctx), inputs);
    return found && { id: found.productUid, outputs: toOutputs(found, inputs) };
  },
};

/**
 * The IX an order with these inputs made. An IX carries no tags, but a VLAN is unique on its
 * port: after a lost buy reply or an interrupted create, the IX there with this name and VLAN
 * is the one ordered.
 */
function orderedIx(list: ProductList, inputs: IxInputs): ApiProduct | undefined {
  return list.ixs.find((i) => isLive(i) && ixPort(i) === inputs.requestedProductUid && i.vlan === inputs.vlan && i.productName === inputs.productName);
}

/** The port an IX is on, as its GET reports it. */
function ixPort(p: ApiProduct): string | undefined {
  return p.aEnd?.productUid ?? undefined;
}

/** The reverse DNS name of the IX addresses (the API reports it per address). */
function reverseDnsOf(p: ApiProduct): string | undefined {
  const addresses = (p.resources?.ip_address ?? []) as Array<{ reverse_dns?: string | null }>;
  return addresses.find((a) => a.reverse_dns)?.reverse_dns ?? undefined;
}

/** The update body for inputs the created IX does not reflect yet. */
function unapplied(p: ApiProduct, inputs: IxInputs): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (inputs.costCentre && p.costCentre !== inputs.costCentre) body.costCentre = inputs.costCentre;
  if (inputs.publicGraph !== undefined && p.publicGraph !== inputs.publicGraph) body.publicGraph = inputs.publicGraph;
  if (inputs.reverseDns && reverseDnsOf(p) !== inputs.reverseDns) body.reverseDns = inputs.reverseDns;
  return body;
}

function toOutputs(p: ApiProduct, inputs?: Partial<IxInputs>): IxOutputs {
  return {
    productName: p.productName,
    requestedProductUid: ixPort(p) ?? inputs?.requestedProductUid ?? '',
    networkServiceType: sameSpelling(p.networkServiceType, inputs?.networkServiceType) as string,
    rateLimit: p.rateLimit,
    vlan: p.vlan,
    macAddress: sameSpelling(p.macAddress, inputs?.macAddress) as string,
    asn: p.asn ?? undefined,
    costCentre: p.costCentre ?? '',
    publicGraph: p.publicGraph ?? undefined,
    reverseDns: reverseDnsOf(p),
    shutdown: Boolean(p.shutdown),
    attributeTags: p.attributeTags ?? {},
    // The API never returns the promo code; keep what was ordered.
    promoCode: inputs?.promoCode,
    productUid: p.productUid,
    productId: p.productId,
    provisioningStatus: p.provisioningStatus,
    locationId: p.locationId ?? undefined,
    term: p.term ?? p.contractTermMonths,
    secondaryName: p.secondaryName ?? undefined,
    ixPeerMacro: p.ixPeerMacro ?? undefined,
    usageAlgorithm: p.usageAlgorithm,
    createDate: isoDate(p.createDate),
    deployDate: isoDate(p.deployDate),
    resources: p.resources ?? undefined,
  };
}
