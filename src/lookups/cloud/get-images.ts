/** getImages: images for cloud hosts (base, marketplace and custom). */
import * as z from 'zod';
import { int, rfc3339, snake, str, upperCamel } from '../../providers/cloud/wire.js';
import { availabilityZoneArg, cloudLookup, filterItems, idsArg, listResultBase, nameRegexArg, outputFileArg, summary, writeOutputFile } from './kit.js';

const argsShape = {
  availabilityZone: availabilityZoneArg,
  imageId: z.string().min(1).optional().describe('Return only this image; cannot be combined with ids. Default: any.'),
  imageType: z.enum(['base', 'business', 'custom']).optional().describe('`base` (standard), `business` (marketplace) or `custom` (made by the account). Default: all types.'),
  mostRecent: z.boolean().optional().describe('When several images match, return only the newest. Default false.'),
  osType: z.enum(['linux', 'windows']).optional().describe('`linux` or `windows`. Default: both.'),
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const image = z.object({
  id: z.string().describe('Image id.'),
  name: z.string().describe('Image name.'),
  type: z.string().describe('`base`, `business` or `custom`.'),
  size: z.number().int().describe('Size, GB.'),
  availabilityZone: z.string().describe('Zone.'),
  osType: z.string().describe('`linux` or `windows`.'),
  osName: z.string().describe('Operating system name and version.'),
  features: z.array(z.string()).describe('Features, e.g. `NetEnhanced`, `CloudInit`.'),
  createTime: z.string().describe('RFC 3339.'),
  description: z.string().describe('Description.'),
  status: z.string().describe('Always `Available` (other images are left out).'),
});

const result = z.object({ ...argsShape, ...listResultBase, images: z.array(image).describe('The matching images.') });

interface UHostImage {
  ImageId: string;
  ImageName: string;
  ImageType: string;
  ImageSize: number;
  Zone: string;
  OsType: string;
  OsName: string;
  Features?: string[];
  CreateTime: number;
  ImageDescription?: string;
  State: string;
}

/** Lists available host images; `mostRecent` keeps the newest of several matches. */
export const getImages = cloudLookup({
  name: 'getImages',
  description: 'Available cloud host images, filtered by zone, type, OS, ids and name; optionally only the newest.',
  args: z.object(argsShape).superRefine(
    (v, ctx) => {
      const value = (v ?? {}) as Record<string, unknown>;
      if (typeof value.imageId === 'string' && Array.isArray(value.ids) && value.ids.length > 0) {
        ctx.addIssue({ code: 'custom', path: ['imageId'], message: 'imageId cannot be combined with ids' });
      }
    },
    { when: () => true },
  ),
  result,
  async invoke(ctx, args) {
    const all = await ctx.client.pageAll<UHostImage>(
      'DescribeImage',
      {
        Zone: args.availabilityZone,
        ImageType: args.imageType && upperCamel(args.imageType),
        OsType: args.osType && upperCamel(args.osType),
        ImageId: args.imageId,
      },
      'ImageSet',
    );
    let matches = filterItems(
      all.filter((i) => i.State === 'Available'),
      { ids: args.ids, idOf: (i) => i.ImageId, nameRegex: args.nameRegex, nameOf: (i) => i.ImageName },
    );
    if (args.mostRecent && matches.length > 1) {
      matches = [matches.reduce((newest, i) => (int(i.CreateTime) > int(newest.CreateTime) ? i : newest))];
    }
    const images = matches.map((i) => ({
      id: i.ImageId,
      name: str(i.ImageName),
      type: snake(i.ImageType),
      size: int(i.ImageSize),
      availabilityZone: str(i.Zone),
      osType: snake(i.OsType),
      osName: str(i.OsName),
      features: i.Features ?? [],
      createTime: rfc3339(i.CreateTime),
      description: str(i.ImageDescription),
      status: str(i.State),
    }));
    await writeOutputFile(ctx, args.outputFile, images);
    return { ...args, ...summary(images.map((i) => i.id)), images };
  },
});
