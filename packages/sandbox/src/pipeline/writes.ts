/**
 * The write side of groups and destinations (REST v1): POST creates with 201, PATCH changes in
 * part with 200, DELETE answers a message only. A destination's id is its group's id, so a group
 * holds at most one; a group still holding connections cannot be deleted.
 */
import type { SandboxRequest, SandboxResponse } from '../types.js';
import { masked, merged } from './config.js';
import { connectionRoutes } from './write-connections.js';
import { syncRoutes } from './write-syncs.js';
import { forgetMemberships, membershipRoutes } from './write-memberships.js';
import { peopleRoutes } from './write-people.js';
import { schemaRoutes } from './write-schemas.js';
import { certificateRoutes } from './write-certificates.js';
import { webhookRoutes } from './write-webhooks.js';
import { fail, notFound, ok } from './http.js';
import type { Destination, Group, PipelineData } from './model.js';
import { route, type Route } from './route.js';
import { runSetupTests, setupStatus } from './setup-tests.js';
import { bodyOf, created, deleted, newId, problem, timestamp } from './write-common.js';
import { destinationDetail } from './views.js';
import { groupPublicKey } from './seed/network.js';

/** Destination services the API accepts, each with its secret config keys. */
const DESTINATION_SECRETS: Record<string, string[]> = {
  snowflake: ['password', 'private_key', 'passphrase'],
  big_query: ['secret_key'],
  databricks: ['personal_access_token', 'oauth2_secret'],
  redshift: ['password'],
  azure_sql_data_warehouse: ['password'],
  postgres_warehouse: ['password'],
  postgres_rds_warehouse: ['password'],
  mysql_warehouse: ['password'],
  managed_data_lake: ['secret_key'],
};

/** The regions a destination (and so its data) may be placed in. */
export const REGIONS = [
  'GCP_US_EAST4',
  'GCP_US_WEST1',
  'GCP_EUROPE_WEST3',
  'GCP_AUSTRALIA_SOUTHEAST1',
  'AWS_US_EAST_1',
  'AWS_US_WEST_2',
  'AWS_EU_CENTRAL_1',
  'AWS_EU_WEST_1',
  'AWS_AP_SOUTHEAST_2',
  'AZURE_EASTUS2',
  'AZURE_WESTEUROPE',
  'AZURE_AUSTRALIAEAST',
];

const OFFSETS = [...Array.from({ length: 11 }, (_, i) => String(i - 11)), '0', ...Array.from({ length: 12 }, (_, i) => `+${i + 1}`)];

/** A destination's config node: its secrets masked, everything else as stored. */
function destinationNode(service: string) {
  return { type: 'object' as const, properties: Object.fromEntries((DESTINATION_SECRETS[service] ?? []).map((k) => [k, { type: 'string' as const, format: 'password' as const }])) };
}

/**
 * A destination's config as the API reports it: numbers as text, whatever was sent (`"port":
 * "443"` for 443: go-fivetran's e2e tests against the real API, tests/e2e/destination_create_test.go,
 * and its typed DestinationConfigResponse, destinations/destination_config.go, whose fields are all
 * strings but `is_private_key_encrypted`), and `create_external_tables`, sent as a boolean, as
 * text too (the SDK's fixture, destinations/destination_create_test.go, "Inconsistent response").
 */
function reportedConfig(config: Record<string, unknown>): Record<string, unknown> {
  const text = (key: string, value: unknown) => typeof value === 'number' || (key === 'create_external_tables' && typeof value === 'boolean');
  return Object.fromEntries(Object.entries(config).map(([key, value]) => [key, text(key, value) ? String(value) : value]));
}

/** A destination as the API shows it: secrets of its service masked, and the setup tests when run. */
export function shownDestination(d: Destination, tests?: unknown[]): unknown {
  const view = destinationDetail(d) as Record<string, unknown>;
  return { ...view, config: reportedConfig(masked(destinationNode(d.service), d.config)), ...(tests ? { setup_tests: tests } : {}) };
}

function createGroup(req: SandboxRequest, data: PipelineData, now: number): SandboxResponse {
  const body = bodyOf(req);
  if ('status' in body) return body;
  const name = body.value.name;
  if (typeof name !== 'string' || !/^[a-z_][a-z0-9_]{0,99}$/i.test(name)) return problem("Field 'name' is required: letters, digits and underscores, starting with a letter or underscore.");
  if (data.groups.some((g) => g.name.toLowerCase() === name.toLowerCase())) return fail(409, 'Conflict', `Group with name '${name}' already exists.`);
  const group: Group = { id: newId(data), name, created_at: timestamp(now) };
  data.groups.push(group);
  // Every group has the SSH key the vendor reaches tunnels of its connections with.
  data.groupKeys[group.id] = groupPublicKey(group.id);
  return created(structuredClone(group), 'Group has been created');
}

function updateGroup(req: SandboxRequest, id: string, data: PipelineData): SandboxResponse {
  const group = data.groups.find((g) => g.id === id);
  if (!group) return notFound('NotFound_Group', 'Group', id);
  const body = bodyOf(req);
  if ('status' in body) return body;
  const name = body.value.name;
  if (typeof name !== 'string' || !/^[a-z_][a-z0-9_]{0,99}$/i.test(name)) return problem("Field 'name' is required: letters, digits and underscores, starting with a letter or underscore.");
  if (data.groups.some((g) => g.id !== id && g.name.toLowerCase() === name.toLowerCase())) return fail(409, 'Conflict', `Group with name '${name}' already exists.`);
  group.name = name;
  return ok(structuredClone(group), 'Group has been updated');
}

function deleteGroup(id: string, data: PipelineData): SandboxResponse {
  const at = data.groups.findIndex((g) => g.id === id);
  if (at < 0) return notFound('NotFound_Group', 'Group', id);
  if (data.connections.some((c) => c.group_id === id)) return fail(409, 'Conflict', `Group '${id}' still has connections; delete them first.`);
  data.groups.splice(at, 1);
  delete data.groupKeys[id];
  data.destinations = data.destinations.filter((d) => d.id !== id);
  forgetMemberships(data, 'groups', id);
  return deleted(`Group with id '${id}' has been deleted`);
}

/** The fields of a destination create or update that are checked the same way. */
function destinationProblems(v: Record<string, unknown>, creating: boolean): string[] {
  const problems: string[] = [];
  if (creating && typeof v.group_id !== 'string') problems.push("Field 'group_id' is required.");
  if (creating && typeof v.service !== 'string') problems.push("Field 'service' is required.");
  if (creating && v.time_zone_offset === undefined) problems.push("Field 'time_zone_offset' is required.");
  if (v.time_zone_offset !== undefined && !OFFSETS.includes(String(v.time_zone_offset))) problems.push(`Invalid time_zone_offset '${String(v.time_zone_offset)}': expected one of -11..+12.`);
  if (v.region !== undefined && !REGIONS.includes(String(v.region))) problems.push(`Invalid region '${String(v.region)}'.`);
  if (v.config !== undefined && (typeof v.config !== 'object' || v.config === null || Array.isArray(v.config))) problems.push("Field 'config' must be an object.");
  return problems;
}

function createDestination(req: SandboxRequest, data: PipelineData): SandboxResponse {
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const problems = destinationProblems(v, true);
  if (problems.length) return problem(problems.join(' '));
  if (!(String(v.service) in DESTINATION_SECRETS)) return problem(`Unsupported service '${String(v.service)}'.`);
  if (!data.groups.some((g) => g.id === v.group_id)) return notFound('NotFound', 'Group', String(v.group_id));
  if (data.destinations.some((d) => d.id === v.group_id)) return fail(409, 'Conflict', `Group '${String(v.group_id)}' already has a destination.`);
  const destination: Destination = {
    id: String(v.group_id),
    group_id: String(v.group_id),
    service: String(v.service),
    region: String(v.region ?? 'GCP_US_EAST4'),
    time_zone_offset: String(v.time_zone_offset),
    setup_status: 'incomplete',
    daylight_saving_time_enabled: v.daylight_saving_time_enabled === true,
    networking_method: (v.networking_method as Destination['networking_method']) ?? 'Directly',
    private_link_id: (v.private_link_id as string) ?? null,
    proxy_agent_id: (v.proxy_agent_id as string) ?? null,
    hybrid_deployment_agent_id: (v.hybrid_deployment_agent_id as string) ?? null,
    config: merged(destinationNode(String(v.service)), {}, (v.config as Record<string, unknown>) ?? {}, false),
  };
  data.destinations.push(destination);
  const tests = v.run_setup_tests === false ? undefined : runSetupTests(destination.config, v);
  if (tests) destination.setup_status = setupStatus(tests);
  return created(shownDestination(destination, tests ?? []), 'Destination has been created');
}

function updateDestination(req: SandboxRequest, id: string, data: PipelineData): SandboxResponse {
  const destination = data.destinations.find((d) => d.id === id);
  if (!destination) return notFound('NotFound_Destination', 'Destination', id);
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const problems = destinationProblems(v, false);
  if (problems.length) return problem(problems.join(' '));
  if (v.service !== undefined && v.service !== destination.service) return problem("Field 'service' cannot be changed.");
  if (v.region !== undefined) destination.region = String(v.region);
  if (v.time_zone_offset !== undefined) destination.time_zone_offset = String(v.time_zone_offset);
  if (typeof v.daylight_saving_time_enabled === 'boolean') destination.daylight_saving_time_enabled = v.daylight_saving_time_enabled;
  for (const key of ['networking_method', 'private_link_id', 'proxy_agent_id', 'hybrid_deployment_agent_id'] as const) {
    if (key in v) (destination as unknown as Record<string, unknown>)[key] = v[key] ?? (key === 'networking_method' ? 'Directly' : null);
  }
  if (v.config) destination.config = merged(destinationNode(destination.service), destination.config, v.config as Record<string, unknown>, false);
  const tests = v.run_setup_tests === true ? runSetupTests(destination.config, v) : undefined;
  if (tests) destination.setup_status = setupStatus(tests);
  return ok(shownDestination(destination, tests ?? []), 'Destination has been updated');
}

function deleteDestination(id: string, data: PipelineData): SandboxResponse {
  const at = data.destinations.findIndex((d) => d.id === id);
  if (at < 0) return notFound('NotFound_Destination', 'Destination', id);
  if (data.connections.some((c) => c.group_id === id)) return fail(409, 'Conflict', `Destination '${id}' still has connections; delete them first.`);
  data.destinations.splice(at, 1);
  return deleted(`Destination with id '${id}' has been deleted`);
}

function testDestination(req: SandboxRequest, id: string, data: PipelineData): SandboxResponse {
  const destination = data.destinations.find((d) => d.id === id);
  if (!destination) return notFound('NotFound_Destination', 'Destination', id);
  const body = bodyOf(req);
  if ('status' in body) return body;
  const tests = runSetupTests(destination.config, body.value);
  destination.setup_status = setupStatus(tests);
  return ok(shownDestination(destination, tests), 'Setup tests have been completed');
}

/** Every write route of the simulated API. */
export const writeRoutes: Route[] = [
  route('POST', '/v1/groups', (req, _, d, w) => createGroup(req, d, w.now())),
  route('PATCH', '/v1/groups/:id', (req, p, d) => updateGroup(req, p.id, d)),
  route('DELETE', '/v1/groups/:id', (_, p, d) => deleteGroup(p.id, d)),
  route('POST', '/v1/destinations', (req, _, d) => createDestination(req, d)),
  route('PATCH', '/v1/destinations/:id', (req, p, d) => updateDestination(req, p.id, d)),
  route('DELETE', '/v1/destinations/:id', (_, p, d) => deleteDestination(p.id, d)),
  route('POST', '/v1/destinations/:id/test', (req, p, d) => testDestination(req, p.id, d)),
  ...connectionRoutes,
  ...syncRoutes,
  ...peopleRoutes,
  ...membershipRoutes,
  ...webhookRoutes,
  ...schemaRoutes,
  ...certificateRoutes,
];
