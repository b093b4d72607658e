/** getUs3Buckets: object storage buckets. */
import * as z from 'zod';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { cloudLookup, filterItems, listResultBase, nameRegexArg, outputFileArg, summary, writeOutputFile } from './kit.js';

const argsShape = {
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const bucket = z.object({
  name: z.string().describe('Bucket name.'),
  tag: z.string().describe('Business group.'),
  type: z.string().describe('`public` or `private`.'),
  createTime: z.string().describe('RFC 3339.'),
  sourceDomainNames: z.array(z.string()).describe('Origin domain names of the bucket.'),
});

const result = z.object({ ...argsShape, ...listResultBase, us3Buckets: z.array(bucket).describe('The matching buckets.') });

interface Bucket {
  BucketName: string;
  Tag?: string;
  Type?: string;
  CreateTime: number;
  Domain?: { Src?: string[] };
}

/**
 * Lists buckets, filtered by name. The listing already carries every attribute, so there is no
 * second call per bucket (upstream makes one). Bucket listings have no TotalCount: paging stops
 * at a short page.
 */
export const getUs3Buckets = cloudLookup({
  name: 'getUs3Buckets',
  description: 'Object storage buckets of the region, filtered by name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await ctx.client.pageAll<Bucket>('DescribeBucket', {}, 'DataSet');
    const us3Buckets = filterItems(all, { nameRegex: args.nameRegex, nameOf: (b) => b.BucketName }).map((b) => ({
      name: str(b.BucketName),
      tag: str(b.Tag),
      type: str(b.Type),
      createTime: rfc3339(b.CreateTime),
      sourceDomainNames: b.Domain?.Src ?? [],
    }));
    await writeOutputFile(ctx, args.outputFile, us3Buckets);
    return { ...args, ...summary(us3Buckets.map((b) => b.name)), us3Buckets };
  },
});
