/**
 * Hybrid deployment agent: runs a group's syncs inside the customer's environment
 * (`/v1/hybrid-deployment-agents`). The create answers with the agent's installation files
 * (config, auth, docker-compose; decoded from base64) and its token, which no read returns: plumb
 * seals the token and both JSON files in state as outputs. The API changes an agent only by a
 * re-auth (new auth files and token, with the auth type given): a change of `authType`, or a
 * raised `authenticationCounter`, re-authenticates in place, and is how lost credentials (an
 * import, a create whose answer was lost) are replaced. Group, name and environment are fixed at
 * create. Names are unique in a group, so a lost create is found by its group and name. Imported
 * by its id.
 */
import * as z from 'zod';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { apiIdFormat, byId, deleteIfPresent, findMade, onlyCandidate, unlessGone, type Ctx } from './kit.js';

/** Inputs of a hybrid deployment agent. */
export const hybridDeploymentAgentInputs = z.object({
  groupId: z.string().min(1).describe('Id of the group whose syncs it runs. Required.'),
  displayName: z.string().min(1).describe('Name, unique in its group. Required.'),
  envType: z.enum(['DOCKER', 'PODMAN', 'KUBERNETES', 'SNOWPARK']).describe('Where it runs. Required.'),
  authType: z.enum(['AUTO', 'MANUAL']).optional().describe('`AUTO`: the auth file carries the token; `MANUAL`: you paste it. Default `AUTO`. A change re-authenticates the agent in place.'),
  authenticationCounter: z.number().int().min(0).optional().describe('Raise it to re-authenticate the agent: new auth file and token (the old ones stop working). Default 0. Not stored by the API.'),
});

/** Inputs of a hybrid deployment agent. */
export type HybridDeploymentAgentInputs = z.output<typeof hybridDeploymentAgentInputs>;

/** What the API reports about an agent, with the files and token its create or re-auth answered. */
export const hybridDeploymentAgentOutputs = hybridDeploymentAgentInputs.extend({
  id: z.string().describe('Agent id.'),
  online: z.boolean().describe('Whether the agent is running and reachable.'),
  enabled: z.boolean().describe('Whether the agent is enabled.'),
  version: z.string().describe('Version the running agent reports (empty until it runs).'),
  registeredAt: z.string().describe('When it was registered (RFC 3339).'),
  createdBy: z.string().describe('Id of the user whose key made it.'),
  token: z.string().optional().describe('Token of the agent. Secret; shown by the API only on create and re-auth.'),
  authJson: z.string().optional().describe('The auth file (JSON). Secret; shown by the API only on create and re-auth.'),
  configJson: z.string().optional().describe('The config file (JSON). Secret; shown by the API only on create and re-auth.'),
  dockerComposeYaml: z.string().optional().describe('The docker-compose file that runs the agent.'),
});

/** Observed hybrid deployment agent. */
export type HybridDeploymentAgentOutputs = z.output<typeof hybridDeploymentAgentOutputs>;

interface WireAgent {
  id: string;
  display_name: string;
  group_id: string;
  deployment_type: HybridDeploymentAgentInputs['envType'];
  online: boolean;
  enabled: boolean;
  version: string;
  registered_at: string;
  created_by: string;
  files?: { config_json: string; auth_json: string; docker_compose_yaml: string };
  token?: string;
}

type Credentials = Pick<HybridDeploymentAgentOutputs, 'token' | 'authJson' | 'configJson' | 'dockerComposeYaml'>;
const CREDENTIALS = ['token', 'authJson', 'configJson', 'dockerComposeYaml'] as const;

const path = (id: string) => `/hybrid-deployment-agents/${encodeURIComponent(id)}`;
const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

/** The credentials an answer carries (create, re-auth), decoded; undefined when it has none. */
function credentialsOf(w: WireAgent): Credentials | undefined {
  if (!w.files || !w.token) return undefined;
  return { token: w.token, authJson: decode(w.files.auth_json), configJson: decode(w.files.config_json), dockerComposeYaml: decode(w.files.docker_compose_yaml) };
}

function toOutputs(w: WireAgent, inputs: Partial<HybridDeploymentAgentInputs> | undefined, kept: Credentials | undefined): HybridDeploymentAgentOutputs {
  const credentials = credentialsOf(w) ?? kept ?? {};
  return {
    id: w.id,
    groupId: w.group_id,
    displayName: w.display_name,
    envType: w.deployment_type,
    ...(inputs?.authType !== undefined ? { authType: inputs.authType } : {}),
    ...(inputs?.authenticationCounter !== undefined ? { authenticationCounter: inputs.authenticationCounter } : {}),
    online: w.online,
    enabled: w.enabled,
    version: w.version,
    registeredAt: w.registered_at,
    createdBy: w.created_by,
    ...Object.fromEntries(CREDENTIALS.filter((k) => credentials[k] !== undefined).map((k) => [k, credentials[k]])),
  };
}

/** Agents of this group and name made since `earliestMs` that state does not hold. */
async function namedSince(ctx: Ctx, inputs: HybridDeploymentAgentInputs, earliestMs: number, recorded: (id: string) => boolean): Promise<WireAgent[]> {
  const agents = await ctx.client.list<WireAgent>('/hybrid-deployment-agents', { groupId: inputs.groupId });
  return agents.filter((a) => a.group_id === inputs.groupId && a.display_name === inputs.displayName && Date.parse(a.registered_at) >= earliestMs && !recorded(a.id));
}

const LOST = 'its token and auth file were in the lost answer and the API shows them only once: raise authenticationCounter to re-authenticate it';

/** The HybridDeploymentAgent resource type. */
export const hybridDeploymentAgent: ResourceType<HybridDeploymentAgentInputs, HybridDeploymentAgentOutputs, PipelineClient, PipelineSettings> = {
  token: 'pipeline:index/hybridDeploymentAgent:HybridDeploymentAgent',
  provider: 'pipeline',
  description:
    "A hybrid deployment agent running a group's syncs in your environment. Its token and files are sealed outputs, shown by the API only on create and re-auth; authType or a raised authenticationCounter re-authenticates it in place. Import id: <agent_id> (e.g. lucky_otter).",
  inputs: hybridDeploymentAgentInputs,
  outputs: hybridDeploymentAgentOutputs,
  secrets: {
    paths: ['token', 'authJson', 'configJson'],
  },
  diff: {
    remoteManaged: ['online', 'enabled', 'version', 'registeredAt', 'createdBy', 'token', 'authJson', 'configJson', 'dockerComposeYaml'],
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { authType: 'AUTO', authenticationCounter: 0 }),
  },
  replace: {
    on: [
      { path: 'groupId', reason: 'the API cannot move an agent to another group: its only change is a re-auth' },
      { path: 'displayName', reason: 'the API cannot rename an agent: its only change is a re-auth' },
      { path: 'envType', reason: "the API's re-auth, the only change of an agent it offers, takes no environment type" },
    ],
    // Names are unique in a group: a new agent of the same name there needs the old one gone.
    holds: [{ what: 'agent name in a group', paths: ['groupId', 'displayName'] }],
  },
  cost: { unpriced: 'not billed on its own' },
  importId: apiIdFormat('agent', 'lucky_otter'),

  async create(ctx, inputs) {
    const started = Date.now();
    const sent = { group_id: inputs.groupId, display_name: inputs.displayName, env_type: inputs.envType, auth_type: inputs.authType ?? 'AUTO', accept_terms: true };
    // The agent findOwned finds has no token: findOwned warns how to get one.
    const recover = () =>
      findMade(
        ctx,
        started,
        (order) => hybridDeploymentAgent.findOwned!(ctx, inputs, order),
        (made) => ctx.client.get<WireAgent>(path(made.id)),
      );
    const made = await ctx.client.write<WireAgent>('POST', '/hybrid-deployment-agents', sent, { recover });
    ctx.recordId(made.id);
    return { id: made.id, outputs: toOutputs(made, inputs, undefined) };
  },

  async read(ctx, id, prior) {
    const found = await unlessGone(ctx.client.get<WireAgent>(path(id)));
    return found && toOutputs(found, prior?.inputs, prior?.outputs);
  },

  async readMany(ctx, targets) {
    const listed = byId(await ctx.client.list<WireAgent>('/hybrid-deployment-agents'));
    const out = new Map<string, HybridDeploymentAgentOutputs | undefined>();
    for (const { id, prior } of targets) {
      const found = listed.get(id);
      if (found) out.set(id, toOutputs(found, prior?.inputs, prior?.outputs));
    }
    return out;
  },

  async update(ctx, id, prior, desired) {
    const reauth = (desired.authType ?? 'AUTO') !== (prior.inputs.authType ?? 'AUTO') || (desired.authenticationCounter ?? 0) !== (prior.inputs.authenticationCounter ?? 0);
    // The OpenAPI spec's method; the Go SDK's POST is served too.
    const wire = reauth ? await ctx.client.write<WireAgent>('PATCH', `${path(id)}/re-auth`, { auth_type: desired.authType ?? 'AUTO' }) : await ctx.client.get<WireAgent>(path(id));
    return toOutputs(wire, desired, prior.outputs);
  },

  async delete(ctx, id) {
    await deleteIfPresent(ctx, path(id));
  },

  async list(ctx) {
    return (await ctx.client.list<WireAgent>('/hybrid-deployment-agents')).map((a) => ({ id: a.id, outputs: toOutputs(a, undefined, undefined) }));
  },

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = onlyCandidate(`hybrid deployment agent named "${inputs.displayName}"`, await namedSince(ctx, inputs, order.earliestMs, order.recorded));
    if (!found) return undefined;
    ctx.warn(`hybrid deployment agent ${found.id}: ${LOST}`);
    return { id: found.id, outputs: toOutputs(found, inputs, undefined) };
  },
};
