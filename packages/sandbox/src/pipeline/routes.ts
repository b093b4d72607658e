/**
 * The endpoints of the simulated pipeline API, below `/v1`. Each route picks records from the
 * stored account, filters them as the documented query parameters say, and shows them through
 * views.ts. Unknown paths answer 404 and known paths with another method 405, in the API's
 * error shape.
 */
import type { SandboxRequest, SandboxResponse, SandboxWorld } from '../types.js';
import { fail, notFound, ok, page } from './http.js';
import type { PipelineData, TeamMembership } from './model.js';
import { route, type Params, type Route } from './route.js';
import * as view from './views.js';
import { shownConnection } from './write-connections.js';
import { shownDestination, writeRoutes } from './writes.js';
import { agentRoutes } from './write-agents.js';
import { loggingRoutes } from './write-logging.js';
import { networkRoutes } from './write-network.js';
import { transformationRoutes } from './write-transformations.js';
import { groupPublicKey } from './seed/network.js';
import { ACCOUNT_ID, USER } from './seed/ids.js';

/** The record with this id, or the entity's documented 404. */
function one<T extends { id: string }>(items: T[], id: string, code: string, entity: string, show: (item: T) => unknown): SandboxResponse {
  const item = items.find((i) => i.id === id);
  return item ? ok(show(item)) : notFound(code, entity, id);
}

/** A page of a parent's sub-collection; a missing parent is the parent's 404, not an empty list. */
function under<T extends { id: string }>(parents: T[], id: string, code: string, entity: string, items: (parent: T) => unknown[], req: SandboxRequest): SandboxResponse {
  const parent = parents.find((p) => p.id === id);
  return parent ? page(req.query, items(parent)) : notFound(code, entity, id);
}

/** Exact-match filters from the query string; absent parameters do not filter. */
function matches<T extends object>(req: SandboxRequest, record: T, filters: Record<string, keyof T>): boolean {
  return Object.entries(filters).every(([param, field]) => {
    const wanted = req.query.get(param);
    return wanted === null || wanted === '' || String(record[field as keyof T]) === wanted;
  });
}

function teamMembers(data: PipelineData, teamId: string, kind: TeamMembership['kind']): unknown[] {
  return data.teamMemberships.filter((m) => m.team_id === teamId && m.kind === kind).map(view.teamMembershipView);
}

const ROUTES: Route[] = [
  route('GET', '/v1/groups', (req, _, d) => page(req.query, structuredClone(d.groups))),
  route('GET', '/v1/groups/:id', (_, p, d) => one(d.groups, p.id, 'NotFound_Group', 'Group', structuredClone)),
  // A group a world kept without its key (made by an older sandbox) has the one it would have had.
  route('GET', '/v1/groups/:id/public-key', (_, p, d) => one(d.groups, p.id, 'NotFound_Group', 'Group', (g) => ({ public_key: d.groupKeys[g.id] ?? groupPublicKey(g.id) }))),
  route('GET', '/v1/groups/:id/service-account', (_, p, d) =>
    one(d.groups, p.id, 'NotFound_Group', 'Group', (g) => ({ service_account: `g-${g.id.replace(/_/g, '-')}@fivetran-production.iam.gserviceaccount.com` })),
  ),
  route('GET', '/v1/groups/:id/users', (req, p, d) =>
    under(
      d.groups,
      p.id,
      'NotFound_Group',
      'Group',
      (g) => d.groupMembers.filter((m) => m.group_id === g.id).flatMap((m) => d.users.filter((u) => u.id === m.user_id && matches(req, u, { active: 'active' })).map((u) => view.groupUser(u, m.role))),
      req,
    ),
  ),
  route('GET', '/v1/groups/:id/connections', (req, p, d) =>
    under(d.groups, p.id, 'NotFound_Group', 'Group', (g) => d.connections.filter((c) => c.group_id === g.id && matches(req, c, { schema: 'schema' })).map((c) => shownConnection(c, d)), req),
  ),

  route('GET', '/v1/destinations', (req, _, d) => page(req.query, d.destinations.map(view.destinationItem))),
  route('GET', '/v1/destinations/:id', (_, p, d) => one(d.destinations, p.id, 'NotFound_Destination', 'Destination', (x) => shownDestination(x))),
  route('GET', '/v1/destinations/:id/certificates', (req, p, d) => under(d.destinations, p.id, 'NotFound_Destination', 'Destination', (x) => withIds(d.certificates[`destinations/${x.id}`]), req)),
  route('GET', '/v1/destinations/:id/fingerprints', (req, p, d) => under(d.destinations, p.id, 'NotFound_Destination', 'Destination', (x) => withIds(d.fingerprints[`destinations/${x.id}`]), req)),

  route('GET', '/v1/connections', (req, _, d) => page(req.query, d.connections.filter((c) => matches(req, c, { group_id: 'group_id', schema: 'schema' })).map(view.connectionItem))),
  route('GET', '/v1/connections/:id', (_, p, d) => one(d.connections, p.id, 'NotFound_Connection', 'Connection', (c) => shownConnection(c, d))),
  route('GET', '/v1/connections/:id/certificates', (req, p, d) => under(d.connections, p.id, 'NotFound_Connection', 'Connection', (x) => withIds(d.certificates[`connections/${x.id}`]), req)),
  route('GET', '/v1/connections/:id/fingerprints', (req, p, d) => under(d.connections, p.id, 'NotFound_Connection', 'Connection', (x) => withIds(d.fingerprints[`connections/${x.id}`]), req)),

  route('GET', '/v1/metadata/connector-types', (req, _, d) => page(req.query, structuredClone(d.connectorTypes))),
  route('GET', '/v1/metadata/connector-types/:id', (_, p, d) => one(d.connectorTypes, p.id, 'NotFound_Service', 'Service', structuredClone)),

  route('GET', '/v1/users', (req, _, d) => page(req.query, structuredClone(d.users.filter((u) => matches(req, u, { active: 'active' }))))),
  route('GET', '/v1/users/:id', (_, p, d) => one(d.users, p.id, 'NotFound_User', 'User', structuredClone)),

  route('GET', '/v1/teams', (req, _, d) => page(req.query, structuredClone(d.teams))),
  route('GET', '/v1/teams/:id', (_, p, d) => one(d.teams, p.id, 'NotFound_Team', 'Team', structuredClone)),
  route('GET', '/v1/teams/:id/connections', (req, p, d) => under(d.teams, p.id, 'NotFound_Team', 'Team', (t) => teamMembers(d, t.id, 'connections'), req)),
  route('GET', '/v1/teams/:id/groups', (req, p, d) => under(d.teams, p.id, 'NotFound_Team', 'Team', (t) => teamMembers(d, t.id, 'groups'), req)),
  route('GET', '/v1/teams/:id/users', (req, p, d) => under(d.teams, p.id, 'NotFound_Team', 'Team', (t) => teamMembers(d, t.id, 'users'), req)),

  route('GET', '/v1/roles', (req, _, d) => page(req.query, structuredClone(d.roles))),

  // The sandbox's key is a user's key, its administrator's: no system_key_id (the OpenAPI
  // document's AccountInfoResponse; go-fivetran account/account_info.go).
  route('GET', '/v1/account/info', () => ok({ account_id: ACCOUNT_ID, account_name: 'Acme Data', user_id: USER.maria })),

  route('GET', '/v1/private-links', (req, _, d) => page(req.query, d.privateLinks.map(view.privateLinkItem))),
  route('GET', '/v1/private-links/:id', (_, p, d) => one(d.privateLinks, p.id, 'NotFound_PrivateLink', 'PrivateLink', view.privateLinkDetail)),

  route('GET', '/v1/proxy', (req, _, d) =>
    page(
      req.query,
      d.proxyAgents.map((a) => view.proxyItem(a, d)),
    ),
  ),
  route('GET', '/v1/proxy/:id', (_, p, d) => one(d.proxyAgents, p.id, 'NotFound', 'ProxyAgent', (a) => view.proxyDetail(a, d))),

  route('GET', '/v1/hybrid-deployment-agents', (req, _, d) =>
    page(
      req.query,
      d.hybridAgents.map((a) => view.hybridAgentView(a, d)),
    ),
  ),
  route('GET', '/v1/hybrid-deployment-agents/:id', (_, p, d) => one(d.hybridAgents, p.id, 'NotFound_RemoteExecutionAgent', 'RemoteExecutionAgent', (a) => view.hybridAgentView(a, d))),

  route('GET', '/v1/transformations/package-metadata', (req, _, d) => page(req.query, structuredClone(d.packages))),
  route('GET', '/v1/transformations/package-metadata/:id', (_, p, d) => one(d.packages, p.id, 'NotFound_TransformationPackageMetadata', 'TransformationPackageMetadata', structuredClone)),

  route('GET', '/v1/webhooks', (req, _, d) => page(req.query, d.webhooks.map(view.webhookView))),
  route('GET', '/v1/webhooks/:id', (_, p, d) => one(d.webhooks, p.id, 'NotFound_Webhook', 'Webhook', view.webhookView)),

  ...writeRoutes,
  ...networkRoutes,
  ...agentRoutes,
  ...loggingRoutes,
  ...transformationRoutes,
];

/** Certificates and fingerprints carry an `id`: the base64url of their hash, usable as a path segment. */
function withIds(items: Array<{ hash: string }> | undefined): unknown[] {
  return (items ?? []).map((item) => ({ id: Buffer.from(item.hash).toString('base64url'), ...structuredClone(item) }));
}

/** Answers one authenticated request from the route table. */
export function dispatch(req: SandboxRequest, data: PipelineData, world: SandboxWorld): SandboxResponse {
  let pathKnown = false;
  for (const candidate of ROUTES) {
    const match = candidate.regex.exec(req.path);
    if (!match) continue;
    pathKnown = true;
    if (candidate.method !== req.method) continue;
    const params: Params = {};
    try {
      candidate.keys.forEach((key, i) => (params[key] = decodeURIComponent(match[i + 1])));
    } catch {
      return fail(400, 'InvalidInput', `Malformed path ${req.path}.`);
    }
    return candidate.handler(req, params, data, world);
  }
  return pathKnown ? fail(405, 'MethodNotAllowed', `Method ${req.method} is not allowed on ${req.path}.`) : fail(404, 'NotFound', `No endpoint ${req.method} ${req.path}.`);
}
