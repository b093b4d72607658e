/**
 * The write side of hybrid deployment agents (REST v1). A create answers 201 with the agent, its
 * installation files (config, auth and docker-compose, base64) and a token: the only answer that
 * carries them, until a re-auth (`PATCH .../re-auth`, which the Go SDK sends as POST) or a
 * credentials reset hands out new ones. There is no PATCH of the agent itself. An agent reads as
 * offline until the customer runs it.
 */
import type { SandboxRequest, SandboxResponse, SandboxWorld } from '../types.js';
import { fail, notFound, ok } from './http.js';
import type { HybridAgent, PipelineData } from './model.js';
import { route, type Route } from './route.js';
import { hybridAgentView } from './views.js';
import { bodyOf, created, deleted, problem, timestamp } from './write-common.js';
import { newPlatformId, secretText } from './write-network.js';

const ENV_TYPES = ['DOCKER', 'PODMAN', 'KUBERNETES', 'SNOWPARK'];
const AUTH_TYPES = ['AUTO', 'MANUAL'];

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** The agent with freshly made installation files and token, as create, re-auth and reset answer. */
function withFiles(agent: HybridAgent, data: PipelineData, authType: string): unknown {
  const token = secretText();
  const auth = authType === 'AUTO' ? { agent_id: agent.id, token } : { agent_id: agent.id, token: '<paste the token here>' };
  const files = {
    config_json: b64(JSON.stringify({ agent_id: agent.id, group_id: agent.group_id, env_type: agent.deployment_type })),
    auth_json: b64(JSON.stringify(auth)),
    docker_compose_yaml: b64(`services:\n  agent:\n    image: fivetran/hybrid-deployment-agent:latest\n    environment:\n      AGENT_ID: ${agent.id}\n`),
  };
  return { ...(hybridAgentView(agent, data) as object), files, token };
}

function createAgent(req: SandboxRequest, data: PipelineData, world: SandboxWorld): SandboxResponse {
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const problems: string[] = [];
  if (typeof v.display_name !== 'string' || v.display_name.trim() === '') problems.push("Field 'display_name' is required.");
  if (!ENV_TYPES.includes(String(v.env_type))) problems.push(`Field 'env_type' is required: one of ${ENV_TYPES.join(', ')}.`);
  if (v.accept_terms !== true) problems.push("Field 'accept_terms' must be true: the terms of use must be accepted.");
  if (v.auth_type !== undefined && !AUTH_TYPES.includes(String(v.auth_type))) problems.push(`Field 'auth_type' must be one of ${AUTH_TYPES.join(', ')}.`);
  if (typeof v.group_id !== 'string') problems.push("Field 'group_id' is required.");
  if (problems.length) return problem(problems.join(' '));
  if (!data.groups.some((g) => g.id === v.group_id)) return notFound('NotFound_Group', 'Group', String(v.group_id));
  if (data.hybridAgents.some((a) => a.group_id === v.group_id && a.display_name === v.display_name)) {
    return fail(409, 'Conflict', `Hybrid deployment agent '${String(v.display_name)}' already exists in group '${String(v.group_id)}'.`);
  }
  const now = timestamp(world.now());
  const agent: HybridAgent = {
    id: newPlatformId(data),
    display_name: String(v.display_name),
    group_id: String(v.group_id),
    registered_at: now,
    version: '',
    enabled: true,
    online: false,
    created_by: data.users.find((u) => u.role === 'Account Administrator')?.id ?? '',
    deployment_type: v.env_type as HybridAgent['deployment_type'],
    updated_at: now,
    last_used_at: null,
  };
  data.hybridAgents.push(agent);
  return created(withFiles(agent, data, String(v.auth_type ?? 'AUTO')), 'Hybrid deployment agent has been created');
}

function agentAction(id: string, data: PipelineData, act: (agent: HybridAgent) => SandboxResponse): SandboxResponse {
  const agent = data.hybridAgents.find((a) => a.id === id);
  return agent ? act(agent) : notFound('NotFound_RemoteExecutionAgent', 'RemoteExecutionAgent', id);
}

function reauth(req: SandboxRequest, agent: HybridAgent, data: PipelineData, world: SandboxWorld): SandboxResponse {
  const body = bodyOf(req);
  if ('status' in body) return body;
  const authType = body.value.auth_type ?? 'AUTO';
  if (!AUTH_TYPES.includes(String(authType))) return problem(`Field 'auth_type' must be one of ${AUTH_TYPES.join(', ')}.`);
  agent.updated_at = timestamp(world.now());
  // New credentials: the running agent is cut off until it is given them.
  agent.online = false;
  return ok(withFiles(agent, data, String(authType)), 'Agent has been re-authenticated');
}

function resetCredentials(agent: HybridAgent, data: PipelineData, world: SandboxWorld): SandboxResponse {
  agent.updated_at = timestamp(world.now());
  agent.online = false;
  return ok(withFiles(agent, data, 'AUTO'), 'Agent credentials have been reset');
}

function deleteAgent(agent: HybridAgent, data: PipelineData): SandboxResponse {
  const users = [...data.connections, ...data.destinations].filter((x) => x.hybrid_deployment_agent_id === agent.id).map((x) => x.id);
  if (users.length) return fail(409, 'Conflict', `Hybrid deployment agent '${agent.id}' is used by ${users.join(', ')}.`);
  data.hybridAgents = data.hybridAgents.filter((a) => a !== agent);
  return deleted(`Hybrid deployment agent with id '${agent.id}' has been deleted`);
}

/** The hybrid deployment agent write routes, the Go SDK's POST re-auth among them. */
export const agentRoutes: Route[] = [
  route('POST', '/v1/hybrid-deployment-agents', (req, _, d, w) => createAgent(req, d, w)),
  route('PATCH', '/v1/hybrid-deployment-agents/:id/re-auth', (req, p, d, w) => agentAction(p.id, d, (a) => reauth(req, a, d, w))),
  route('POST', '/v1/hybrid-deployment-agents/:id/re-auth', (req, p, d, w) => agentAction(p.id, d, (a) => reauth(req, a, d, w))),
  route('POST', '/v1/hybrid-deployment-agents/:id/reset-credentials', (_, p, d, w) => agentAction(p.id, d, (a) => resetCredentials(a, d, w))),
  route('DELETE', '/v1/hybrid-deployment-agents/:id', (_, p, d) => agentAction(p.id, d, (a) => deleteAgent(a, d))),
];
