/**
 * The write side of private links and proxy agents (REST v1). A private link is made, changed
 * and removed asynchronously: POST answers 201 in state `CREATING`, PATCH moves it to `UPDATING`
 * and DELETE to `DESTROYING` ("marked for deletion"); the sandbox's provisioning time later turns
 * it `OK` (or `FAIL`, with the reason in `state_summary`) or removes it. A proxy agent has no
 * PATCH; its auth token and private key are in the create (and regenerate-secrets) answer only.
 */
import { randomBytes } from 'node:crypto';
import type { SandboxRequest, SandboxResponse, SandboxWorld } from '../types.js';
import { fail, notFound, ok, page } from './http.js';
import type { PipelineData, PrivateLink, ProxyAgent } from './model.js';
import { route, type Route } from './route.js';
import { settleSync } from './write-syncs.js';
import { privateLinkDetail } from './views.js';
import { bodyOf, created, deleted, newId, problem, timestamp } from './write-common.js';
import { REGIONS } from './writes.js';

/** The services a private link is made for, and the config keys each needs. */
const LINK_SERVICES: Record<string, string[]> = {
  DATABRICKS_AWS: ['workspace_url'],
  SNOWFLAKE_AWS: ['account_url', 'vpce_id'],
  REDSHIFT_AWS: ['aws_account_id', 'cluster_identifier'],
  SOURCE_AWS: ['connection_service_name'],
  DATABRICKS_AZURE: ['workspace_url'],
  SNOWFLAKE_AZURE: ['account_url'],
  ONELAKE_AZURE: ['workspace_url'],
  POSTGRES_WAREHOUSE_AZURE: ['sub_resource_name'],
  SQL_DATA_WAREHOUSE_AZURE: ['sub_resource_name'],
  SOURCE_AZURE: ['pls_id'],
  SNOWFLAKE_GCP: ['account_url'],
  SOURCE_GCP: ['private_connection_service_id'],
  DATABRICKS_GCP: ['workspace_url'],
};

/** Proxy regions: the destination regions and a few more. */
const PROXY_REGIONS = [...REGIONS, 'AWS_EU_NORTH_1', 'AWS_AP_NORTHEAST_1', 'AZURE_WESTUS3', 'GCP_ASIA_SOUTH1'];

/** A new id that no object of the account, platform objects included, holds yet. */
export function newPlatformId(data: PipelineData): string {
  const taken = new Set([...data.privateLinks, ...data.proxyAgents, ...data.hybridAgents, ...data.transformationProjects, ...data.transformations, ...data.externalLogs].map((o) => o.id));
  for (;;) {
    const id = newId(data);
    if (!taken.has(id)) return id;
  }
}

/** An opaque secret as the API hands them out. */
export function secretText(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Brings every asynchronous object to the state it has reached by `now`: links created, updated
 * or destroyed, projects checked. Called before each request is answered; true when anything moved.
 */
export function settlePending(data: PipelineData, now: number): boolean {
  data.externalLogs ??= [];
  data.transformationProjects ??= [];
  data.transformations ??= [];
  data.pending ??= {};
  let moved = false;
  for (const [key, change] of Object.entries(data.pending)) {
    if (change.at > now) continue;
    moved = true;
    delete data.pending[key];
    const [kind, id] = key.split('/');
    if (kind === 'private-links' && change.to === 'GONE') data.privateLinks = data.privateLinks.filter((l) => l.id !== id);
    else if (kind === 'private-links')
      settleLink(
        data.privateLinks.find((l) => l.id === id),
        change.to,
        change.summary,
      );
    else if (kind === 'connections')
      settleSync(
        data.connections.find((c) => c.id === id),
        change.at,
      );
    else if (kind === 'transformation-projects') {
      const project = data.transformationProjects.find((p) => p.id === id);
      if (project) [project.status, project.errors] = [change.to as 'READY' | 'ERROR', change.to === 'ERROR' ? [change.summary] : []];
    }
  }
  return moved;
}

function settleLink(link: PrivateLink | undefined, to: string, summary: string): void {
  if (!link) return;
  link.state = to as PrivateLink['state'];
  link.state_summary = summary;
  if (to === 'OK') link.host = `${link.name.replace(/_/g, '-')}.privatelink.${link.region.toLowerCase().replace(/_/g, '-')}.fivetran.internal`;
}

/** What the link reaches once made: FAIL when the AWS endpoint service named cannot exist. */
function linkOutcome(config: Record<string, string>): { to: string; summary: string } {
  const name = config.connection_service_name;
  if (name !== undefined && !/^com\.amazonaws\.vpce\.[a-z0-9-]+\.vpce-svc-[0-9a-f]{8,17}$/.test(name)) {
    return { to: 'FAIL', summary: `The endpoint service '${name}' was not found: expected com.amazonaws.vpce.<region>.vpce-svc-<id>` };
  }
  return { to: 'OK', summary: 'Private link is ready' };
}

function linkProblems(v: Record<string, unknown>, creating: boolean): string[] {
  const problems: string[] = [];
  if (creating && (typeof v.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,22}$/.test(v.name))) {
    problems.push("Field 'name' is required: letters, digits and underscores, starting with a letter or underscore, at most 23 characters.");
  }
  if (creating && !REGIONS.includes(String(v.region))) problems.push(`Field 'region' is required: one of ${REGIONS.join(', ')}.`);
  if (creating && !(String(v.service) in LINK_SERVICES)) problems.push(`Field 'service' is required: one of ${Object.keys(LINK_SERVICES).join(', ')}.`);
  const config = v.config;
  if (typeof config !== 'object' || config === null || Array.isArray(config)) problems.push("Field 'config' is required: an object.");
  else if (creating && String(v.service) in LINK_SERVICES) {
    const missing = LINK_SERVICES[String(v.service)].filter((key) => typeof (config as Record<string, unknown>)[key] !== 'string');
    if (missing.length) problems.push(`Field 'config' of ${String(v.service)} needs ${missing.map((k) => `'${k}'`).join(', ')}.`);
  }
  return problems;
}

function createLink(req: SandboxRequest, data: PipelineData, world: SandboxWorld): SandboxResponse {
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const problems = linkProblems(v, true);
  if (problems.length) return problem(problems.join(' '));
  if (data.privateLinks.some((l) => l.name === v.name)) return fail(409, 'Conflict', `Private link with name '${String(v.name)}' already exists.`);
  const service = String(v.service);
  const config = Object.fromEntries(Object.entries(v.config as Record<string, unknown>).map(([k, x]) => [k, String(x)]));
  const link: PrivateLink = {
    id: newPlatformId(data),
    name: String(v.name),
    region: String(v.region),
    service,
    cloud_provider: service.endsWith('_AZURE') ? 'AZURE' : service.endsWith('_GCP') ? 'GCP' : 'AWS',
    state: 'CREATING',
    state_summary: 'Private link is being created',
    host: null,
    account_id: data.privateLinks[0]?.account_id ?? 'account',
    created_at: timestamp(world.now()),
    created_by: data.users.find((u) => u.role === 'Account Administrator')?.id ?? '',
    config,
  };
  data.privateLinks.push(link);
  data.pending[`private-links/${link.id}`] = { at: world.now() + world.provisioningMs(), ...linkOutcome(config) };
  return created(privateLinkDetail(link), 'Private link has been created');
}

function updateLink(req: SandboxRequest, id: string, data: PipelineData, world: SandboxWorld): SandboxResponse {
  const link = data.privateLinks.find((l) => l.id === id);
  if (!link) return notFound('NotFound_PrivateLink', 'PrivateLink', id);
  const body = bodyOf(req);
  if ('status' in body) return body;
  const fixed = ['name', 'region', 'service'].filter((key) => key in body.value);
  if (fixed.length) return problem(`${fixed.map((k) => `Field '${k}'`).join(', ')} cannot be changed: only 'config' can.`);
  const problems = linkProblems(body.value, false);
  if (problems.length) return problem(problems.join(' '));
  if (link.state === 'DESTROYING') return fail(409, 'Conflict', `Private link '${id}' is being deleted.`);
  link.config = { ...link.config, ...Object.fromEntries(Object.entries(body.value.config as Record<string, unknown>).map(([k, x]) => [k, String(x)])) };
  link.state = 'UPDATING';
  link.state_summary = 'Applying the new configuration';
  data.pending[`private-links/${id}`] = { at: world.now() + world.provisioningMs(), ...linkOutcome(link.config) };
  return ok(privateLinkDetail(link), 'Private link has been updated');
}

function deleteLink(id: string, data: PipelineData, world: SandboxWorld): SandboxResponse {
  const link = data.privateLinks.find((l) => l.id === id);
  if (!link) return notFound('NotFound_PrivateLink', 'PrivateLink', id);
  const users = [...data.connections, ...data.destinations].filter((x) => x.private_link_id === id).map((x) => x.id);
  if (users.length) return fail(409, 'Conflict', `Private link '${id}' is used by ${users.join(', ')}.`);
  link.state = 'DESTROYING';
  link.state_summary = 'Private link is being deleted';
  data.pending[`private-links/${id}`] = { at: world.now() + world.provisioningMs(), to: 'GONE', summary: '' };
  return deleted(`Private link with id '${id}' is marked for deletion`);
}

/** The answer to a proxy agent's create or regenerate-secrets: the only time its secrets are shown. */
function proxySecrets(agent: ProxyAgent): unknown {
  const cert = `-----BEGIN CERTIFICATE-----\n${secretText(48)}\n-----END CERTIFICATE-----`;
  const key = `-----BEGIN PRIVATE KEY-----\n${secretText(48)}\n-----END PRIVATE KEY-----`;
  return { agent_id: agent.id, auth_token: secretText(), client_cert: cert, client_private_key: key };
}

function createProxy(req: SandboxRequest, data: PipelineData, world: SandboxWorld): SandboxResponse {
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  if (typeof v.display_name !== 'string' || v.display_name.trim() === '') return problem("Field 'display_name' is required.");
  if (!PROXY_REGIONS.includes(String(v.group_region))) return problem('Group region not supported.');
  if (data.proxyAgents.some((a) => a.display_name === v.display_name)) return fail(409, 'Conflict', 'Proxy agent with same name already exists.');
  const agent: ProxyAgent = {
    id: newPlatformId(data),
    account_id: data.privateLinks[0]?.account_id ?? 'account',
    display_name: v.display_name,
    region: String(v.group_region),
    created_by: data.users.find((u) => u.role === 'Account Administrator')?.id ?? '',
    registered_at: timestamp(world.now()),
    version: '',
    status: 'NOT_CONNECTED',
  };
  data.proxyAgents.push(agent);
  return created(proxySecrets(agent), 'Proxy agent has been created');
}

function proxyAction(id: string, data: PipelineData, act: (agent: ProxyAgent) => SandboxResponse): SandboxResponse {
  const agent = data.proxyAgents.find((a) => a.id === id);
  return agent ? act(agent) : notFound('NotFound', 'Proxy Agent', id);
}

function deleteProxy(agent: ProxyAgent, data: PipelineData): SandboxResponse {
  if ([...data.connections, ...data.destinations].some((x) => x.proxy_agent_id === agent.id)) return fail(409, 'Conflict', 'Proxy agent have attached connections.');
  data.proxyAgents = data.proxyAgents.filter((a) => a !== agent);
  return deleted(`Proxy agent with id '${agent.id}' has been deleted`);
}

/** The private link and proxy agent write routes. */
export const networkRoutes: Route[] = [
  route('POST', '/v1/private-links', (req, _, d, w) => createLink(req, d, w)),
  route('PATCH', '/v1/private-links/:id', (req, p, d, w) => updateLink(req, p.id, d, w)),
  route('DELETE', '/v1/private-links/:id', (_, p, d, w) => deleteLink(p.id, d, w)),
  route('POST', '/v1/proxy', (req, _, d, w) => createProxy(req, d, w)),
  route('DELETE', '/v1/proxy/:id', (_, p, d) => proxyAction(p.id, d, (a) => deleteProxy(a, d))),
  route('POST', '/v1/proxy/:id/regenerate-secrets', (_, p, d) => proxyAction(p.id, d, (a) => ok(proxySecrets(a), 'Secrets have been regenerated'))),
  route('GET', '/v1/proxy/:id/connections', (req, p, d) =>
    proxyAction(p.id, d, (a) =>
      page(
        req.query,
        d.connections.filter((c) => c.proxy_agent_id === a.id).map((c) => ({ connection_id: c.id })),
      ),
    ),
  ),
];
