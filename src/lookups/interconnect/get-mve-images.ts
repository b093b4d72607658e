import * as z from 'zod';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import type { LookupFunction } from '../../engine/contracts/lookup.js';

/** Arguments: every filter is optional and they combine (AND); text filters ignore case. */
export const getMveImagesArgs = z
  .object({
    idFilter: z.coerce.number().int().optional().describe('Only the image with this id. Default: any id.'),
    productCodeFilter: z.string().optional().describe('Only images with this product code, e.g. c8000v (case ignored). Default: any.'),
    productFilter: z.string().optional().describe('Only images of this product, e.g. "FortiGate-VM" (case ignored). Default: any.'),
    vendorFilter: z.string().optional().describe('Only images of this vendor, e.g. Cisco, Fortinet, "Palo Alto Networks" (case ignored). Default: any.'),
    versionFilter: z.string().optional().describe('Only images of this version, e.g. 17.12.02. Default: any.'),
    releaseImageFilter: z
      .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
      .optional()
      .describe('true = only release images; false = only pre-release (early access) images. Default: both.'),
  })
  .strict();

/** One bootable MVE image. */
const imageSchema = z.object({
  id: z.number().describe('Image id, used as vendorConfig.imageId of an MVE.'),
  version: z.string().describe('Image version.'),
  product: z.string().describe('Vendor product name, e.g. Catalyst 8000V.'),
  vendor: z.string().describe('Vendor name, e.g. Cisco.'),
  vendorDescription: z.string().optional().describe('Vendor notes about the image, when there are any.'),
  releaseImage: z.boolean().describe('true for a release image; false for a pre-release (early access) one.'),
  productCode: z.string().describe('Product code, e.g. c8000v.'),
  availableSizes: z.array(z.string()).describe('Size labels the image runs in, e.g. "MVE 2/8" (vCPU/GB RAM).'),
});

/** The images that pass the filters, plus the filters echoed back. */
export const getMveImagesResult = z.object({
  id: z.string().describe('Provider-assigned id of this result.'),
  mveImages: z.array(imageSchema).describe("Matching images, in the API's order."),
  idFilter: z.number().optional().describe('The idFilter given.'),
  productCodeFilter: z.string().optional().describe('The productCodeFilter given.'),
  productFilter: z.string().optional().describe('The productFilter given.'),
  vendorFilter: z.string().optional().describe('The vendorFilter given.'),
  versionFilter: z.string().optional().describe('The versionFilter given.'),
  releaseImageFilter: z.boolean().optional().describe('The releaseImageFilter given.'),
});

type Args = z.output<typeof getMveImagesArgs>;
type Result = z.infer<typeof getMveImagesResult>;
type Image = z.infer<typeof imageSchema>;
type ApiImages = { mveImages?: Array<{ product: string; vendor: string; images?: Array<Record<string, any>> }> };

/** Lists MVE images (`GET /v4/product/mve/images`), flattened to one entry per image, filtered here. */
export const getMveImages: LookupFunction<Args, Result, InterconnectClient> = {
  token: 'interconnect:index/getMveImages:getMveImages',
  provider: 'interconnect',
  description: 'Lists the images an MVE can run, filtered by id, product code, product, vendor, version and release status.',
  args: getMveImagesArgs,
  result: getMveImagesResult,
  async invoke(ctx, args) {
    const { data } = await ctx.client.get<ApiImages>('/v4/product/mve/images');
    const images: Image[] = (data?.mveImages ?? []).flatMap((p) =>
      (p.images ?? []).map((i) => ({
        id: i.id,
        version: String(i.version),
        product: p.product,
        vendor: p.vendor,
        vendorDescription: i.vendorDescription || undefined,
        releaseImage: Boolean(i.releaseImage),
        productCode: String(i.productCode ?? ''),
        availableSizes: (i.availableSizes ?? []) as string[],
      })),
    );
    const same = (a: string, b: string | undefined) => b === undefined || a.toLowerCase() === b.trim().toLowerCase();
    const mveImages = images.filter(
      (i) =>
        (args.idFilter === undefined || i.id === args.idFilter) &&
        same(i.productCode, args.productCodeFilter) &&
        same(i.product, args.productFilter) &&
        same(i.vendor, args.vendorFilter) &&
        same(i.version, args.versionFilter) &&
        (args.releaseImageFilter === undefined || i.releaseImage === args.releaseImageFilter),
    );
    return { id: 'mve-images', mveImages, ...args };
  },
};
