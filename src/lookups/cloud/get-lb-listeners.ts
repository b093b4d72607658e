/** getLbListeners: the listeners (VServers) of one load balancer. */
import * as z from 'zod';
import { int, snake, str } from '../../providers/cloud/wire.js';
import { cloudLookup, filterItems, idsArg, listResultBase, nameRegexArg, outputFileArg, summary, writeOutputFile } from './kit.js';
import type { VServer } from './lb-listener.js';

const argsShape = {
  loadBalancerId: z.string().min(1).describe('Load balancer id. Required.'),
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const listener = z.object({
  id: z.string().describe('Listener id.'),
  name: z.string().describe('Listener name.'),
  protocol: z.string().describe('`http`, `https`, `tcp` or `udp`.'),
  listenType: z.string().describe('`request_proxy` or `packets_transmit`.'),
  port: z.number().int().describe('Frontend port.'),
  idleTimeout: z.number().int().describe('Client idle timeout, seconds.'),
  method: z.string().describe('Balancing method, snake_case (`roundrobin`, `source`…).'),
  persistenceType: z.string().describe('Session persistence, snake_case (`none`, `server_insert`, `user_defined`).'),
  persistence: z.string().describe('Persistence cookie (user_defined only).'),
  healthCheckType: z.string().describe('`port` or `path`.'),
  domain: z.string().describe('Health check host (path checks only).'),
  path: z.string().describe('Health check path (path checks only).'),
  status: z.string().describe('`allNormal`, `partNormal` or `allException`.'),
});

const result = z.object({ ...argsShape, ...listResultBase, lbListeners: z.array(listener).describe('The matching listeners.') });

const STATUS: Record<number, string> = { 0: 'allNormal', 1: 'partNormal', 2: 'allException' };

/** Lists the listeners of a load balancer, filtered by ids and name. */
export const getLbListeners = cloudLookup({
  name: 'getLbListeners',
  description: 'Listeners of a load balancer, filtered by ids and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await ctx.client.pageAll<VServer>('DescribeVServer', { ULBId: args.loadBalancerId }, 'DataSet');
    const lbListeners = filterItems(all, { ids: args.ids, idOf: (v) => v.VServerId, nameRegex: args.nameRegex, nameOf: (v) => v.VServerName }).map((v) => {
      const byPath = v.MonitorType === 'Path';
      return {
        id: v.VServerId,
        name: str(v.VServerName),
        protocol: str(v.Protocol).toLowerCase(),
        listenType: snake(v.ListenType),
        port: int(v.FrontendPort),
        idleTimeout: int(v.ClientTimeout),
        method: snake(v.Method),
        persistenceType: snake(v.PersistenceType),
        persistence: str(v.PersistenceInfo),
        healthCheckType: snake(v.MonitorType),
        domain: byPath ? str(v.Domain) : '',
        path: byPath ? str(v.Path) : '',
        status: STATUS[v.Status] ?? 'unknown',
      };
    });
    await writeOutputFile(ctx, args.outputFile, lbListeners);
    return { ...args, ...summary(lbListeners.map((l) => l.id)), lbListeners };
  },
});
