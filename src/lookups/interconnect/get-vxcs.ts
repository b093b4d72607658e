import * as z from 'zod';
import { isRemote } from '../../errors.js';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import { type ApiProduct, GONE, OWNER_TAGS, listVxcs } from '../../resources/interconnect/product.js';
import { vxcComputed, vxcObserved } from '../../resources/interconnect/vxc.js';
import type { LookupFunction } from '../function.js';

/** Arguments: which VXCs, and whether to fetch their tags. */
export const getVxcsArgs = z
  .object({
    productUid: z
      .string()
      .min(1)
      .optional()
      .describe('UID of one VXC, or of a Port, MCR or MVE to list the VXCs attached to it. Omitted: every active VXC of the account.'),
    includeResourceTags: z.boolean().optional().describe('Also read each VXC\'s resource tags: one extra API call per VXC. Default false.'),
  })
  .strict();

/** One VXC as the API reports it. */
export const vxcItem = z.object({
  productName: z.string().describe('Name of the VXC.'),
  rateLimit: z.number().describe('Speed in Mbps.'),
  contractTermMonths: z.number().describe('Contract term in months.'),
  costCentre: z.string().optional().describe('Customer reference on invoices.'),
  shutdown: z.boolean().optional().describe('True while the VXC is shut down.'),
  ...vxcComputed(),
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

function live(p: ApiProduct): boolean {
  return !GONE.includes(p.provisioningStatus) && p.provisioningStatus !== 'CANCELLED';
}

async function selected(client: InterconnectClient, productUid: string | undefined): Promise<ApiProduct[]> {
  if (!productUid) return listVxcs({ client });
  try {
    const { data } = await client.get<ApiProduct>(`/v2/product/${encodeURIComponent(productUid)}`);
    if (!data) return [];
    const vxcs = String(data.productType).toUpperCase() === 'VXC' ? [data] : ((data.associatedVxcs ?? []) as ApiProduct[]);
    return vxcs.filter(live);
  } catch (err) {
    if (isRemote(err, 'not-found')) return [];
    throw err;
  }
}

/** Lists active VXCs; with includeResourceTags each VXC costs one more call, for its tags. */
export const getVxcs: LookupFunction<Args, Result, InterconnectClient> = {
  token: 'interconnect:index/getVxcs:getVxcs',
  provider: 'interconnect',
  description: 'Lists active VXCs: all of them, one by productUid, or those attached to a product.',
  args: getVxcsArgs,
  result: getVxcsResult,
  async invoke(ctx, args) {
    const owned = new Set<string>(Object.values(OWNER_TAGS));
    const vxcs = [];
    for (const p of await selected(ctx.client, args.productUid)) {
      const { aEnd: _a, bEnd: _b, ...item } = vxcObserved(p);
      if (args.includeResourceTags) {
        const { data } = await ctx.client.get<{ resourceTags?: Array<{ key: string; value: string }> }>(`/v2/product/${encodeURIComponent(p.productUid)}/tags`);
        // plumb's ownership tags are bookkeeping, not the user's tags.
        vxcs.push({ ...item, resourceTags: Object.fromEntries((data?.resourceTags ?? []).filter((t) => !owned.has(t.key)).map((t) => [t.key, t.value])) });
      } else vxcs.push(item);
    }
    return { id: args.productUid ?? 'all', productUid: args.productUid, includeResourceTags: args.includeResourceTags, vxcs };
  },
};
