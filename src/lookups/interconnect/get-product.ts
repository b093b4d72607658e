import * as z from 'zod';
import { RemoteError } from '../../kernel/errors.js';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import { readProduct } from '../../providers/interconnect/api/products.js';
import type { LookupFunction } from '../../engine/contracts/lookup.js';

/** Arguments: the product's UID. */
export const getProductArgs = z
  .object({
    productUid: z.string().min(1).describe('UID of a product of the account: a Port, LAG port, MCR, MVE, VXC or IX.'),
  })
  .strict();

/** What one product is, whatever its type. */
export const getProductResult = z.object({
  id: z.string().describe("The product's UID."),
  productUid: z.string().describe('UID of the product.'),
  productName: z.string().optional().describe('Name of the product.'),
  productType: z.string().describe('MEGAPORT (a Port or LAG port), MCR2, MVE, VXC or IX.'),
  provisioningStatus: z.string().describe('DEPLOYABLE, CONFIGURED, LIVE, CANCELLED...; CONFIGURED and LIVE are ready.'),
  locationId: z.number().optional().describe('Numeric location id (Ports, MCRs and MVEs).'),
  portSpeed: z.number().optional().describe('Speed in Mbps (Ports and MCRs).'),
  vnics: z
    .array(z.object({ description: z.string().optional().describe('What the vNIC is for.'), vlan: z.number().optional().describe('Its VLAN.') }))
    .optional()
    .describe("An MVE's network interfaces, by index (a VXC end's vnicIndex)."),
});

type Args = z.infer<typeof getProductArgs>;
type Result = z.infer<typeof getProductResult>;

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

/** Reads one product of the account by UID (`GET /v2/product/{uid}`); one that does not exist or is gone is an error. */
export const getProduct: LookupFunction<Args, Result, InterconnectClient> = {
  token: 'interconnect:index/getProduct:getProduct',
  provider: 'interconnect',
  description: "Reads one product of the account (Port, LAG port, MCR, MVE, VXC or IX) by UID: its type, status, location and speed, and an MVE's vNICs.",
  args: getProductArgs,
  result: getProductResult,
  async invoke(ctx, args) {
    const p = await readProduct(ctx.client, args.productUid);
    if (!p) throw new RemoteError('not-found', `getProduct: the account has no product ${args.productUid} (a partner port is found with getPartner)`);
    const vnics = Array.isArray(p.vnics) ? (p.vnics as Array<Record<string, unknown>>).map((v) => ({ description: text(v?.description), vlan: num(v?.vlan) })) : undefined;
    return {
      id: p.productUid,
      productUid: p.productUid,
      productName: text(p.productName),
      productType: String(p.productType ?? ''),
      provisioningStatus: p.provisioningStatus,
      locationId: num(p.locationId),
      portSpeed: num(p.portSpeed),
      ...(vnics ? { vnics } : {}),
    };
  },
};
