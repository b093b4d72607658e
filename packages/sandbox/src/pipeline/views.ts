/**
 * How stored records are shown: list items leave out `config`, details mask secrets as the
 * literal `******`, agents report what uses them. The stored records are never handed out
 * directly, so a caller cannot mutate the world through a response.
 */
import type { Connection, Destination, HybridAgent, PipelineData, PrivateLink, ProxyAgent, TeamMembership, User, Webhook } from './model.js';

/** The mask the API prints in place of a secret value. */
export const MASK = '******';

/** Config keys whose values the API never returns in clear text. */
const SECRET_KEY = /(password|secret|token|private_key|connection_string|api_key)/;

/** A config object with every secret value masked. */
export function maskConfig(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).map(([key, value]) => [key, SECRET_KEY.test(key) && value !== null && value !== '' ? MASK : value]));
}

function omitConfig<T extends { config: unknown; auth?: unknown }>(record: T): Omit<T, 'config' | 'auth'> {
  const { config: _config, auth: _auth, ...rest } = record;
  return structuredClone(rest);
}

/** A connection as a list item (no config). */
export function connectionItem(connection: Connection): unknown {
  return omitConfig(connection);
}

/** A connection as `GET /connections/{id}` shows it, config masked. */
export function connectionDetail(connection: Connection): unknown {
  return { ...omitConfig(connection), config: maskConfig(connection.config) };
}

/** A destination as a list item (no config). */
export function destinationItem(destination: Destination): unknown {
  return omitConfig(destination);
}

/** A destination as `GET /destinations/{id}` shows it, config masked. */
export function destinationDetail(destination: Destination): unknown {
  return { ...omitConfig(destination), config: maskConfig(destination.config) };
}

/** A private link as a list item (no config). */
export function privateLinkItem(link: PrivateLink): unknown {
  return omitConfig(link);
}

/** A private link with its config (which holds no secrets). */
export function privateLinkDetail(link: PrivateLink): unknown {
  return structuredClone(link);
}

/** A proxy agent as a list item: with counts of what uses it. */
export function proxyItem(agent: ProxyAgent, data: PipelineData): unknown {
  return {
    ...structuredClone(agent),
    connector_count: data.connections.filter((c) => c.proxy_agent_id === agent.id).length,
    destination_count: data.destinations.filter((d) => d.proxy_agent_id === agent.id).length,
  };
}

/** A proxy agent in detail: with each connection or destination using it (schema null for destinations). */
export function proxyDetail(agent: ProxyAgent, data: PipelineData): unknown {
  const usage = [
    ...data.connections.filter((c) => c.proxy_agent_id === agent.id).map((c) => ({ id: c.id, schema: c.schema, service: c.service })),
    ...data.destinations.filter((d) => d.proxy_agent_id === agent.id).map((d) => ({ id: d.id, schema: null, service: d.service })),
  ];
  return { ...structuredClone(agent), usage };
}

/** A hybrid deployment agent with the connections it runs. */
export function hybridAgentView(agent: HybridAgent, data: PipelineData): unknown {
  const usage = data.connections.filter((c) => c.hybrid_deployment_agent_id === agent.id).map((c) => ({ connection_id: c.id, schema: c.schema, service: c.service }));
  return { ...structuredClone(agent), usage };
}

/** A user as a group member: `role` is the user's role in that group. */
export function groupUser(user: User, role: string): unknown {
  return { ...structuredClone(user), role };
}

/** A team membership: users are named by `user_id`, connections and groups by `id`. */
export function teamMembershipView(membership: TeamMembership): unknown {
  const target = membership.kind === 'users' ? { user_id: membership.target_id } : { id: membership.target_id };
  return { ...target, role: membership.role, created_at: membership.created_at };
}

/** A webhook with its signing secret masked. */
export function webhookView(webhook: Webhook): unknown {
  return { ...structuredClone(webhook), secret: MASK };
}
