/** getAntiDdosIps: the protected (high-defence) IPs of one anti-DDoS instance. */
import * as z from 'zod';
import { str } from '../../providers/cloud/wire.js';
import { cloudLookup, listResultBase, outputFileArg, summary, writeOutputFile } from './kit.js';

const argsShape = {
  instanceId: z.string().min(1).describe('Id of the anti-DDoS instance. Required.'),
  outputFile: outputFileArg,
};

const ip = z.object({
  instanceId: z.string().describe('The instance the IP protects for.'),
  ip: z.string().describe('The high-defence IP.'),
  domain: z.string().describe('CNAME pointing at the IP.'),
  comment: z.string().describe('Remark.'),
  status: z.string().describe('`Pending` or `Success`.'),
  proxyIps: z.array(z.string()).describe('Origin IPs traffic is forwarded to.'),
});

const result = z.object({ ...argsShape, ...listResultBase, ips: z.array(ip).describe('The protected IPs.') });

interface GameIpInfo {
  DefenceIP: string;
  Cname?: string;
  Remark?: string;
  Status?: string;
  SrcIP?: string[];
}

/** Lists the protected IPs of an anti-DDoS instance; the result id is the instance id. */
export const getAntiDdosIps = cloudLookup({
  name: 'getAntiDdosIps',
  description: 'Protected (high-defence) IPs of an anti-DDoS instance.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await ctx.client.pageAll<GameIpInfo>('DescribeHighProtectGameIPInfo', { ResourceId: args.instanceId }, 'GameIPInfo');
    const ips = all.map((g) => ({
      instanceId: args.instanceId,
      ip: str(g.DefenceIP),
      domain: str(g.Cname),
      comment: str(g.Remark),
      status: str(g.Status),
      proxyIps: g.SrcIP ?? [],
    }));
    await writeOutputFile(ctx, args.outputFile, ips);
    return { ...args, ...summary(ips.map((i) => i.ip)), id: args.instanceId, ips };
  },
});
