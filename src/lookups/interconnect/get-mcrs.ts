import * as z from 'zod';
import { isRemote } from '../../errors.js';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import { mcrComputed, mcrObserved } from '../../resources/interconnect/mcr.js';
import { type ApiProduct, GONE } from '../../resources/interconnect/product.js';
import type { LookupFunction } from '../function.js';

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
  ...mcrComputed(),
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
  return String(p.productType).toUpperCase() === 'MCR2' && !GONE.includes(p.provisioningStatus) && p.provisioningStatus !== 'CANCELLED';
}

/** Lists the account's active MCRs, or the one named by productUid (empty when it is not an active MCR). */
export const getMcrs: LookupFunction<Args, Result, InterconnectClient> = {
  token: 'interconnect:index/getMcrs:getMcrs',
  provider: 'interconnect',
  description: 'Lists active MCRs (cloud routers), or one MCR by productUid.',
  args: getMcrsArgs,
  result: getMcrsResult,
  async invoke(ctx, args) {
    let found: ApiProduct[];
    if (args.productUid) {
      try {
        const { data } = await ctx.client.get<ApiProduct>(`/v2/product/${encodeURIComponent(args.productUid)}`);
        found = data ? [data] : [];
      } catch (err) {
        if (!isRemote(err, 'not-found')) throw err;
        found = [];
      }
    } else {
      const { data } = await ctx.client.get<ApiProduct[]>('/v2/products');
      found = data ?? [];
    }
    return { id: args.productUid ?? 'all', productUid: args.productUid, mcrs: found.filter(active).map(mcrObserved) };
  },
};
