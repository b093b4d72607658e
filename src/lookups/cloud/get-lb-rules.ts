/** getLbRules: the forwarding rules (path and domain policies) of one listener. */
import * as z from 'zod';
import { cloudLookup, filterItems, idsArg, listResultBase, outputFileArg, summary, writeOutputFile } from './kit.js';
import { readListener } from './lb-listener.js';

const argsShape = {
  loadBalancerId: z.string().min(1).describe('Load balancer id. Required.'),
  listenerId: z.string().min(1).describe('Listener (VServer) id. Required.'),
  ids: idsArg,
  outputFile: outputFileArg,
};

const rule = z.object({
  id: z.string().describe('Rule id.'),
  path: z.string().describe('Path matched (path rules; empty otherwise).'),
  domain: z.string().describe('Domain matched (domain rules; empty otherwise).'),
});

const result = z.object({ ...argsShape, ...listResultBase, lbRules: z.array(rule).describe('The matching rules.') });

/** Lists path and domain rules; the default policy and other kinds are left out, from ids too. */
export const getLbRules = cloudLookup({
  name: 'getLbRules',
  description: 'Path and domain forwarding rules of a load balancer listener, filtered by ids.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const listener = await readListener(ctx, args.loadBalancerId, args.listenerId);
    const kept = (listener.PolicySet ?? []).filter((p) => p.Type === 'Path' || p.Type === 'Domain');
    const lbRules = filterItems(kept, { ids: args.ids, idOf: (p) => p.PolicyId }).map((p) => ({
      id: p.PolicyId,
      path: p.Type === 'Path' ? p.Match : '',
      domain: p.Type === 'Domain' ? p.Match : '',
    }));
    await writeOutputFile(ctx, args.outputFile, lbRules);
    return { ...args, ...summary(lbRules.map((r) => r.id)), lbRules };
  },
});
