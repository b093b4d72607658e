import * as z from 'zod';
import { lazy } from '../../lazy.js';
import { type ApiProduct, either, isoDate } from './product.js';

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
export const productFactsShape = lazy(() => ({
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
}) satisfies Record<(typeof PRODUCT_FACTS)[number], z.ZodType>);

type ProductFactsShape = ReturnType<typeof productFactsShape>;

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

/** The observed value, but in the prior spelling when the two differ only in case (the API normalises case; that is no change). */
export function sameSpelling(observed: unknown, prior: unknown): unknown {
  if (typeof observed === 'string' && typeof prior === 'string' && observed.toLowerCase() === prior.toLowerCase()) return prior;
  return observed ?? undefined;
}
