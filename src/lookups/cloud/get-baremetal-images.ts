/** getBaremetalImages: images for bare-metal (physical) hosts. */
import * as z from 'zod';
import { int, snake, str } from '../../providers/cloud/wire.js';
import { availabilityZoneArg, cloudLookup, filterItems, idsArg, listResultBase, nameRegexArg, outputFileArg, summary, writeOutputFile } from './kit.js';

const argsShape = {
  availabilityZone: availabilityZoneArg,
  imageId: z.string().min(1).optional().describe('Return only this image. Default: any.'),
  imageType: z.enum(['base', 'custom']).optional().describe('`base` (standard) or `custom` (made by the account). Default: both.'),
  instanceType: z.string().min(1).optional().describe('Machine type the image must support, e.g. `N2`. Default: any.'),
  osType: z.enum(['CentOS', 'Ubuntu', 'Windows']).optional().describe('Operating system family: `CentOS`, `Ubuntu` or `Windows`. Default: any.'),
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const image = z.object({
  id: z.string().describe('Image id.'),
  name: z.string().describe('Image name.'),
  type: z.string().describe('`base` or `custom`.'),
  size: z.number().int().describe('Size, GB.'),
  availabilityZone: z.string().describe('The zone asked for (empty when none was).'),
  osType: z.string().describe('Operating system family, snake_case (`cent_os`, `ubuntu`, `windows`).'),
  osName: z.string().describe('Operating system name and version.'),
  description: z.string().describe('Description.'),
  status: z.string().describe('Image state, e.g. `Available`.'),
});

const result = z.object({ ...argsShape, ...listResultBase, images: z.array(image).describe('The matching images.') });

interface PHostImage {
  ImageId: string;
  ImageName: string;
  ImageType: string;
  ImageSize: number;
  OsType: string;
  OsName: string;
  ImageDescription?: string;
  State: string;
  Support?: string[];
}

/** Lists bare-metal images through every page (upstream reads only the first page). */
export const getBaremetalImages = cloudLookup({
  name: 'getBaremetalImages',
  description: 'Bare-metal host images, filtered by zone, type, machine type, OS and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await ctx.client.pageAll<PHostImage>(
      'DescribePHostImage',
      { Zone: args.availabilityZone, ImageType: args.imageType === 'base' ? 'Base' : args.imageType === 'custom' ? 'Custom' : undefined },
      'ImageSet',
    );
    const wanted = all.filter(
      (i) =>
        (args.imageId === undefined || i.ImageId === args.imageId) &&
        (args.osType === undefined || i.OsType === args.osType) &&
        (args.instanceType === undefined || (i.Support ?? []).includes(args.instanceType)),
    );
    const images = filterItems(wanted, { ids: args.ids, idOf: (i) => i.ImageId, nameRegex: args.nameRegex, nameOf: (i) => i.ImageName }).map((i) => ({
      id: i.ImageId,
      name: str(i.ImageName),
      type: snake(i.ImageType),
      size: int(i.ImageSize),
      availabilityZone: args.availabilityZone ?? '',
      osType: snake(i.OsType),
      osName: str(i.OsName),
      description: str(i.ImageDescription),
      status: str(i.State),
    }));
    await writeOutputFile(ctx, args.outputFile, images);
    return { ...args, ...summary(images.map((i) => i.id)), images };
  },
});
