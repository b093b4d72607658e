/**
 * getProxyAgent: one proxy agent by id.
 */
import * as z from 'zod';
import { proxyAgentSchema, toProxyAgent, type WireProxyAgent } from './shapes/agents.js';
import { idArg, orNotFound, pipelineLookup, seg } from './shapes/lookup.js';

/** Arguments of getProxyAgent. */
export const getProxyAgentArgs = z.object({
  id: idArg('Id of the proxy agent.'),
});

/** Result of getProxyAgent. */
export const getProxyAgentResult = proxyAgentSchema;

/** Looks up one proxy agent (GET /proxy/{id}). */
export const getProxyAgent = pipelineLookup({
  name: 'getProxyAgent',
  description: 'One proxy agent: name, region, creator and registration time.',
  args: getProxyAgentArgs,
  result: getProxyAgentResult,
  async call(client, args) {
    const wire = await orNotFound('getProxyAgent', 'proxy agent', args.id, () => client.get<WireProxyAgent>(`/proxy/${seg(args.id)}`));
    return toProxyAgent(wire);
  },
});
