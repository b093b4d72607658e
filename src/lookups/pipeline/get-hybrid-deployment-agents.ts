/**
 * getHybridDeploymentAgents: every hybrid deployment agent of the account.
 */
import * as z from 'zod';
import { hybridAgentSchema, toHybridAgent, type WireHybridAgent } from './shapes/agents.js';
import { LIST_ID, listId, pipelineLookup } from './shapes/lookup.js';

/** Arguments of getHybridDeploymentAgents: none. */
export const getHybridDeploymentAgentsArgs = z.object({});

/** Result of getHybridDeploymentAgents. */
export const getHybridDeploymentAgentsResult = z
  .object({
    id: listId,
    items: z.array(hybridAgentSchema).describe('Every hybrid deployment agent, in the order the API lists them.'),
  })
  .describe('A list of hybrid deployment agents.');

/** Lists agents (GET /hybrid-deployment-agents, every page). */
export const getHybridDeploymentAgents = pipelineLookup({
  name: 'getHybridDeploymentAgents',
  description: 'Every hybrid deployment agent of the account.',
  args: getHybridDeploymentAgentsArgs,
  result: getHybridDeploymentAgentsResult,
  async call(client) {
    const items = await client.list<WireHybridAgent>('/hybrid-deployment-agents');
    return { id: LIST_ID, items: items.map(toHybridAgent) };
  },
});
