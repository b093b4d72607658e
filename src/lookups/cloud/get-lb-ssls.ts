/** getLbSsls: TLS certificates of the load balancer service. */
import * as z from 'zod';
import { listSsls, type SslInfo } from '../../providers/cloud/api/ssl.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { cloudLookup, filterItems, idsArg, listResultBase, nameRegexArg, outputFileArg, summary, writeOutputFile } from './kit.js';

const argsShape = {
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const ssl = z.object({
  id: z.string().describe('Certificate id.'),
  name: z.string().describe('Certificate name.'),
  createTime: z.string().describe('RFC 3339.'),
});

const result = z.object({ ...argsShape, ...listResultBase, lbSsls: z.array(ssl).describe('The matching certificates.') });

/** Lists load balancer certificates, filtered by ids and name. */
export const getLbSsls = cloudLookup({
  name: 'getLbSsls',
  description: 'TLS certificates uploaded for load balancers, filtered by ids and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await listSsls(ctx.client);
    const lbSsls = filterItems(all, { ids: args.ids, idOf: (s) => s.SSLId, nameRegex: args.nameRegex, nameOf: (s) => s.SSLName }).map((s) => ({
      id: s.SSLId,
      name: str(s.SSLName),
      createTime: rfc3339(s.CreateTime),
    }));
    await writeOutputFile(ctx, args.outputFile, lbSsls);
    return { ...args, ...summary(lbSsls.map((s) => s.id)), lbSsls };
  },
});
