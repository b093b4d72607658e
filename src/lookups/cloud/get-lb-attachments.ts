/** getLbAttachments: the backends attached to one load balancer listener. */
import * as z from 'zod';
import { int, str } from '../../providers/cloud/wire.js';
import { cloudLookup, filterItems, idsArg, listResultBase, outputFileArg, summary, writeOutputFile } from './kit.js';
import { readListener } from './lb-listener.js';

const argsShape = {
  loadBalancerId: z.string().min(1).describe('Load balancer id. Required.'),
  listenerId: z.string().min(1).describe('Listener (VServer) id. Required.'),
  ids: idsArg,
  outputFile: outputFileArg,
};

const attachment = z.object({
  id: z.string().describe('Backend id.'),
  resourceId: z.string().describe('Id of the attached host.'),
  port: z.number().int().describe('Backend port.'),
  privateIp: z.string().describe('Private address of the backend.'),
  status: z.string().describe('`normalRunning`, `exceptionRunning` or `unknown`.'),
});

const result = z.object({ ...argsShape, ...listResultBase, lbAttachments: z.array(attachment).describe('The matching backends.') });

const STATUS: Record<number, string> = { 0: 'normalRunning', 1: 'exceptionRunning' };

/** Lists the backends of a listener (one call; the listener's backend set is complete). */
export const getLbAttachments = cloudLookup({
  name: 'getLbAttachments',
  description: 'Backends attached to a load balancer listener, filtered by ids.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const listener = await readListener(ctx, args.loadBalancerId, args.listenerId);
    const lbAttachments = filterItems(listener.BackendSet ?? [], { ids: args.ids, idOf: (b) => b.BackendId }).map((b) => ({
      id: b.BackendId,
      resourceId: str(b.ResourceId),
      port: int(b.Port),
      privateIp: str(b.PrivateIP),
      status: STATUS[b.Status] ?? 'unknown',
    }));
    await writeOutputFile(ctx, args.outputFile, lbAttachments);
    return { ...args, ...summary(lbAttachments.map((a) => a.id)), lbAttachments };
  },
});
