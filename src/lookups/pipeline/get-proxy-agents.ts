/**
 * getProxyAgents: every proxy agent of the account.
 */
import * as z from 'zod';
import { proxyAgentSchema, toProxyAgent, type WireProxyAgent } from './shapes/agents.js';
import { LIST_ID, listId, pipelineLookup } from './shapes/lookup.js';

/** Arguments of getProxyAgents: none. */
export const getProxyAgentsArgs = z.object({});

/** Result of getProxyAgents. */
export const getProxyAgentsResult = z
  .object({
    id: listId,
    items: z.array(proxyAgentSchema).describe('Every proxy agent, in the order the API lists them.'),
  })
  .describe('A list of proxy agents.');

/** Lists proxy agents (GET /proxy, every page). */
export const getProxyAgents = pipelineLookup({
  name: 'getProxyAgents',
  description: 'Every proxy agent of the account.',
  args: getProxyAgentsArgs,
  result: getProxyAgentsResult,
  async call(client) {
    const items = await client.list<WireProxyAgent>('/proxy');
    return { id: LIST_ID, items: items.map(toProxyAgent) };
  },
});
