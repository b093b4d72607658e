/**
 * Private links, proxy agents and hybrid deployment agents: each has a single and a list
 * lookup returning the same fields, so the shapes and mappings live here once.
 */
import * as z from 'zod';
import { orNull, timestamp } from './wire.js';

/** A private link as the API sends it (config only in details). */
export interface WirePrivateLink {
  id: string;
  name: string;
  region: string;
  service: string;
  cloud_provider: string;
  state: string;
  state_summary?: string | null;
  host?: string | null;
  created_at: string;
  created_by: string;
  config?: Record<string, unknown>;
}

/** The fields of a private link result, config aside. */
export const privateLinkFields = {
  id: z.string().describe('Unique id of the private link.'),
  name: z.string().describe('Name: letters, digits and underscores, starting with a letter or underscore, at most 23 characters.'),
  region: z.string().describe('Region of the link, e.g. AWS_US_EAST_1.'),
  service: z.string().describe('What the link reaches, e.g. SOURCE_AWS, SNOWFLAKE_AWS, DATABRICKS_AZURE.'),
  cloudProvider: z.string().describe('AWS, GCP or AZURE.'),
  state: z.string().describe('CREATING, UPDATING, DESTROYING, OK or FAIL.'),
  stateSummary: z.string().nullable().describe('Human explanation of the state.'),
  host: z.string().nullable().describe('DNS name of the endpoint; null until the link is provisioned.'),
  createdAt: timestamp('When the link was created'),
  createdBy: z.string().describe('Id of the user who created the link.'),
};

/** A private link result object without its config map (list items). */
export const privateLinkSummarySchema = z.object(privateLinkFields).describe('A private link.');

/** A private link's fields in result form. */
export function toPrivateLinkSummary(wire: WirePrivateLink): z.input<typeof privateLinkSummarySchema> {
  return {
    id: wire.id,
    name: wire.name,
    region: wire.region,
    service: wire.service,
    cloudProvider: wire.cloud_provider,
    state: wire.state,
    stateSummary: orNull(wire.state_summary),
    host: orNull(wire.host),
    createdAt: wire.created_at,
    createdBy: wire.created_by,
  };
}

/** A proxy agent as the API sends it. */
export interface WireProxyAgent {
  id: string;
  // The OpenAPI document requires none of these.
  display_name?: string | null;
  region?: string | null;
  created_by?: string | null;
  registered_at?: string | null;
}

/** The fields of a proxy agent result; `registredAt` keeps the upstream provider's spelling. */
export const proxyAgentFields = {
  id: z.string().describe('Unique id of the proxy agent.'),
  displayName: z.string().nullable().describe('Name of the agent, unique in the account; null when the API leaves it out.'),
  groupRegion: z.string().nullable().describe('Region the agent serves (the API field region); null when the API leaves it out.'),
  createdBy: z.string().nullable().describe('Id of the user who created the agent; null when the API leaves it out.'),
  registredAt: z.string().nullable().describe('When the agent registered (the API field registered_at; spelled so in the upstream provider); null if it never did.'),
};

/** A proxy agent result object. */
export const proxyAgentSchema = z.object(proxyAgentFields).describe('A proxy agent.');

/** A proxy agent in result form. */
export function toProxyAgent(wire: WireProxyAgent): z.input<typeof proxyAgentSchema> {
  return {
    id: wire.id,
    displayName: orNull(wire.display_name),
    groupRegion: orNull(wire.region),
    createdBy: orNull(wire.created_by),
    registredAt: orNull(wire.registered_at),
  };
}

/** A hybrid deployment agent as the API sends it. */
export interface WireHybridAgent {
  id: string;
  display_name: string;
  group_id: string;
  registered_at?: string | null;
}

/** The fields of a hybrid deployment agent result. */
export const hybridAgentFields = {
  id: z.string().describe('Unique id of the hybrid deployment agent.'),
  displayName: z.string().describe('Name of the agent.'),
  groupId: z.string().describe('Id of the group the agent belongs to.'),
  registeredAt: z.string().nullable().describe('When the agent registered; null if it never did.'),
};

/** A hybrid deployment agent result object. */
export const hybridAgentSchema = z.object(hybridAgentFields).describe('A hybrid deployment agent.');

/** A hybrid deployment agent in result form. */
export function toHybridAgent(wire: WireHybridAgent): z.input<typeof hybridAgentSchema> {
  return { id: wire.id, displayName: wire.display_name, groupId: wire.group_id, registeredAt: orNull(wire.registered_at) };
}
