import * as z from 'zod';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import { isLive, isType, listAllProducts, readProduct, type ApiProduct } from '../../providers/interconnect/api/products.js';
import { readTagList, userTags } from '../../providers/interconnect/api/tags.js';
import { vxcComputed, vxcFacts } from '../../providers/interconnect/api/vxc-view.js';
import type { LookupFunction } from '../../engine/contracts/lookup.js';

/** Arguments: which VXCs, and whether to fetch their tags. */
export const getVxcsArgs = z
  .object({
    productUid: z.string().min(1).optional().describe('UID of one VXC, or of a Port, MCR or MVE to list the VXCs attached to it. Omitted: every active VXC of the account.'),
    includeResourceTags: z.boolean().optional().describe("Also read each VXC's resource tags: one extra API call per VXC. Default false."),
  })
  .strict();

/** One VXC as the API reports it. */
export const vxcItem = z.object({
  productName: z.string().describe('Name of the VXC.'),
  rateLimit: z.number().describe('Speed in Mbps.'),
  contractTermMonths: z.number().describe('Contract term in months.'),
  costCentre: z.string().optional().describe('Customer reference on invoices.'),
  shutdown: z.boolean().optional().describe('True while the VXC is shut down.'),
  ...vxcComputed,
  resourceTags: z.record(z.string(), z.string()).optional().describe('Resource tags (only with includeResourceTags).'),
});

/** The VXCs found. */
export const getVxcsResult = z.object({
  id: z.string().describe('The productUid asked for, or "all" when every active VXC was listed.'),
  productUid: z.string().optional().describe('Echo of the productUid argument.'),
  includeResourceTags: z.boolean().optional().describe('Echo of the includeResourceTags argument.'),
  vxcs: z.array(vxcItem).describe('Matching VXCs that are not cancelled or decommissioned.'),
});

type Args = z.infer<typeof getVxcsArgs>;
type Result = z.infer<typeof getVxcsResult>;

async function selected(client: InterconnectClient, productUid: string | undefined): Promise<ApiProduct[]> {
  if (!productUid) return (await listAllProducts(client)).vxcs.filter(isLive);
  const product = await readProduct(client, productUid);
  if (!product) return [];
  const vxcs = isType(product, 'VXC') ? [product] : ((product.associatedVxcs ?? []) as ApiProduct[]);
  return vxcs.filter(isLive);
}

/** Lists active VXCs; with includeResourceTags each VXC costs one more call, for its tags. */
export const getVxcs: LookupFunction<Args, Result, InterconnectClient> = {
  token: 'interconnect:index/getVxcs:getVxcs',
  provider: 'interconnect',
  description: 'Lists active VXCs: all of them, one by productUid, or those attached to a product.',
  args: getVxcsArgs,
  result: getVxcsResult,
  async invoke(ctx, args) {
    const vxcs = [];
    for (const p of await selected(ctx.client, args.productUid)) {
      const item = vxcFacts(p);
      // plumb's ownership tags are bookkeeping, not the user's tags.
      vxcs.push(args.includeResourceTags ? { ...item, resourceTags: userTags(await readTagList(ctx.client, p.productUid)) } : item);
    }
    return { id: args.productUid ?? 'all', productUid: args.productUid, includeResourceTags: args.includeResourceTags, vxcs };
  },
};
