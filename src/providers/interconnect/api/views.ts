import * as z from 'zod';
import type { ApiProduct } from './products.js';

/**
 * Products as plumb describes them, from the wire: the computed facts every top-level product
 * reports, and an MCR as the API reports it. Resources and lookups describe products alike.
 */

/** An API timestamp (epoch ms, or already a string) as RFC 3339, or undefined. */
export function isoDate(value: unknown): string | undefined {
  if (value === null || value === undefined || value === 0) return undefined;
  if (typeof value === 'number') return new Date(value).toISOString();
  return String(value);
}

/** Reads a key the API spells in either casing (`vxcpermitted` / `vxcPermitted`). */
export function either(obj: Record<string, unknown>, ...keys: string[]): unknown {
  for (const k of keys) if (obj[k] !== undefined) return obj[k];
  return undefined;
}

/** Output paths of productFactsShape, all set by the remote API. */
export const PRODUCT_FACTS = [
  'productUid',
  'productId',
  'provisioningStatus',
  'companyUid',
  'createdBy',
  'market',
  'usageAlgorithm',
  'virtual',
  'locked',
  'cancelable',
  'vxcPermitted',
  'vxcAutoApproval',
  'createDate',
  'contractStartDate',
  'contractEndDate',
  'liveDate',
  'terminateDate',
  'lastUpdated',
  'resources',
] as const;

/**
 * The computed fields every top-level product (LAG port, MVE) reports, as output schema fields.
 * Dates are RFC 3339; the API sets all of them, so none is ever a change or drift.
 */
export const productFactsShape = {
  productUid: z.string().describe('Product UID, the id of the product.'),
  productId: z.number().optional().describe('Numeric product id.'),
  provisioningStatus: z.string().describe('DEPLOYABLE, CONFIGURED, LIVE, CANCELLED, DECOMMISSIONED...; CONFIGURED and LIVE are ready.'),
  companyUid: z.string().optional().describe('UID of the company that owns the product.'),
  createdBy: z.string().optional().describe('UID of the user who ordered the product.'),
  market: z.string().optional().describe('Billing market code, e.g. AU.'),
  usageAlgorithm: z.string().optional().describe('How usage is billed, e.g. POST_PAID_FIXED.'),
  virtual: z.boolean().optional().describe('True for virtual products.'),
  locked: z.boolean().optional().describe('True while the product is locked against changes and cancellation.'),
  cancelable: z.boolean().optional().describe('True while the product can still be cancelled.'),
  vxcPermitted: z.boolean().optional().describe('True when VXCs may be attached.'),
  vxcAutoApproval: z.boolean().optional().describe('True when VXCs from other companies are approved automatically.'),
  createDate: z.string().optional().describe('When the product was ordered (RFC 3339, set by the API).'),
  contractStartDate: z.string().optional().describe('Start of the contract (RFC 3339, set by the API).'),
  contractEndDate: z.string().optional().describe('End of the current contract term (RFC 3339, set by the API).'),
  liveDate: z.string().optional().describe('When the product first went live (RFC 3339, set by the API).'),
  terminateDate: z.string().optional().describe('When the product is or was terminated (RFC 3339, set by the API).'),
  lastUpdated: z.string().optional().describe('When the product last changed (RFC 3339, set by the API).'),
  resources: z.record(z.string(), z.unknown()).optional().describe('Nested product resources as the API reports them (interfaces, virtual machines).'),
} satisfies Record<(typeof PRODUCT_FACTS)[number], z.ZodType>;

type ProductFactsShape = typeof productFactsShape;

/** The computed fields of a product as `GET /v2/product/{uid}` reports them. */
export function productFacts(p: ApiProduct): { [K in keyof ProductFactsShape]: z.infer<ProductFactsShape[K]> } {
  return {
    productUid: p.productUid,
    productId: p.productId,
    provisioningStatus: p.provisioningStatus,
    companyUid: p.companyUid,
    createdBy: p.createdBy,
    market: p.market,
    usageAlgorithm: p.usageAlgorithm,
    virtual: p.virtual,
    locked: p.locked,
    cancelable: p.cancelable,
    vxcPermitted: either(p, 'vxcPermitted', 'vxcpermitted') as boolean | undefined,
    vxcAutoApproval: p.vxcAutoApproval,
    createDate: isoDate(p.createDate),
    contractStartDate: isoDate(p.contractStartDate),
    contractEndDate: isoDate(p.contractEndDate),
    liveDate: isoDate(p.liveDate),
    terminateDate: isoDate(p.terminateDate),
    lastUpdated: isoDate(p.lastUpdated),
    resources: p.resources ?? undefined,
  };
}

/** What the API reports about an MCR beyond its inputs; set by the API, never a change. */
export const mcrComputed = {
  ...productFactsShape,
  productType: z.string().optional().describe('MCR2.'),
  adminLocked: z.boolean().optional().describe("True while the provider's staff hold a lock on it."),
  buyoutPort: z.boolean().optional().describe('Whether the product is a buyout port (false for an MCR).'),
  lagPrimary: z.boolean().optional().describe('Always false for an MCR.'),
  aggregationId: z.number().optional().describe('LAG aggregation id (0 for an MCR).'),
  lagId: z.number().optional().describe('LAG id (0 for an MCR).'),
  attributeTags: z.record(z.string(), z.string()).optional().describe('Attribute tags set by the provider.'),
  companyName: z.string().optional().describe('Name of the company that owns it.'),
  secondaryName: z.string().optional().describe('Secondary name, if any.'),
};

/** An MCR as the API reports it: the inputs it echoes (not its tags) plus every computed field (dates as RFC 3339). */
export function mcrObserved(p: ApiProduct) {
  return {
    productName: p.productName as string,
    portSpeed: p.portSpeed as number,
    locationId: p.locationId as number,
    contractTermMonths: p.contractTermMonths as number,
    asn: (p.resources?.virtual_router?.mcrAsn ?? p.asn) as number | undefined,
    diversityZone: (p.diversityZone || undefined) as string | undefined,
    marketplaceVisibility: p.marketplaceVisibility as boolean | undefined,
    costCentre: (p.costCentre ?? '') as string,
    ...productFacts(p),
    productType: p.productType as string | undefined,
    adminLocked: p.adminLocked as boolean | undefined,
    buyoutPort: p.buyoutPort as boolean | undefined,
    lagPrimary: p.lagPrimary as boolean | undefined,
    aggregationId: (p.aggregationId ?? undefined) as number | undefined,
    lagId: (p.lagId ?? undefined) as number | undefined,
    attributeTags: (p.attributeTags ?? undefined) as Record<string, string> | undefined,
    companyName: p.companyName as string | undefined,
    secondaryName: (p.secondaryName ?? undefined) as string | undefined,
  };
}
