/**
 * getHybridDeploymentAgent: one hybrid deployment agent by id.
 */
import * as z from 'zod';
import { hybridAgentSchema, toHybridAgent, type WireHybridAgent } from './shapes/agents.js';
import { idArg, orNotFound, pipelineLookup, seg } from './shapes/lookup.js';

/** Arguments of getHybridDeploymentAgent. */
export const getHybridDeploymentAgentArgs = z.object({
  id: idArg('Id of the hybrid deployment agent.'),
});

/** Result of getHybridDeploymentAgent. */
export const getHybridDeploymentAgentResult = hybridAgentSchema;

/** Looks up one agent (GET /hybrid-deployment-agents/{id}). */
export const getHybridDeploymentAgent = pipelineLookup({
  name: 'getHybridDeploymentAgent',
  description: 'One hybrid deployment agent: name, group and registration time.',
  args: getHybridDeploymentAgentArgs,
  result: getHybridDeploymentAgentResult,
  async call(client, args) {
    const wire = await orNotFound('getHybridDeploymentAgent', 'hybrid deployment agent', args.id, () => client.get<WireHybridAgent>(`/hybrid-deployment-agents/${seg(args.id)}`));
    return toHybridAgent(wire);
  },
});
