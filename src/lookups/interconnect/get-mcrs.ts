import * as z from 'zod';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import { isLive, isType, listAllProducts, readProduct, type ApiProduct } from '../../providers/interconnect/api/products.js';
import { mcrComputed, mcrObserved } from '../../providers/interconnect/api/views.js';
import type { LookupFunction } from '../../engine/contracts/lookup.js';

/** Arguments: one MCR by UID, or none for every active MCR. */
export const getMcrsArgs = z
  .object({
    productUid: z.string().min(1).optional().describe('UID of one MCR. Omitted: every active MCR of the account.'),
  })
  .strict();

/** One MCR as the API reports it. */
export const mcrItem = z.object({
  productName: z.string().describe('Name of the MCR.'),
  portSpeed: z.number().describe('Aggregate capacity in Mbps.'),
  locationId: z.number().describe('Numeric location id.'),
  contractTermMonths: z.number().describe('Contract term in months.'),
  asn: z.number().optional().describe('BGP ASN of the MCR.'),
  diversityZone: z.string().optional().describe('Diversity zone (red or blue).'),
  marketplaceVisibility: z.boolean().optional().describe('Whether it is listed in the marketplace.'),
  costCentre: z.string().optional().describe('Customer reference on invoices.'),
  ...mcrComputed,
});

/** The MCRs found. */
export const getMcrsResult = z.object({
  id: z.string().describe('The productUid asked for, or "all" when every active MCR was listed.'),
  productUid: z.string().optional().describe('Echo of the productUid argument.'),
  mcrs: z.array(mcrItem).describe('Matching MCRs that are not cancelled or decommissioned, in product id order.'),
});

type Args = z.infer<typeof getMcrsArgs>;
type Result = z.infer<typeof getMcrsResult>;

function active(p: ApiProduct): boolean {
  return isType(p, 'MCR2') && isLive(p);
}

/** Lists the account's active MCRs, or the one named by productUid (empty when it is not an active MCR). */
export const getMcrs: LookupFunction<Args, Result, InterconnectClient> = {
  token: 'interconnect:index/getMcrs:getMcrs',
  provider: 'interconnect',
  description: 'Lists active MCRs (cloud routers), or one MCR by productUid.',
  args: getMcrsArgs,
  result: getMcrsResult,
  async invoke(ctx, args) {
    const one = args.productUid && (await readProduct(ctx.client, args.productUid));
    const found = args.productUid ? (one ? [one] : []) : (await listAllProducts(ctx.client)).top;
    return { id: args.productUid ?? 'all', productUid: args.productUid, mcrs: found.filter(active).map(mcrObserved) };
  },
};
