/**
 * The write side of connections (REST v1): create (201; its limit of 20 a minute is the
 * sandbox's, in limits.ts), a partial PATCH that needs at least one persistent field, delete, and
 * `POST /connections/{id}/test`. Config and auth are stored as the API stores them (config.ts);
 * the destination-schema fields are fixed at create.
 */
import type { SandboxRequest, SandboxResponse, SandboxWorld } from '../types.js';
import { masked, merged, readonlyKeys } from './config.js';
import { fail, notFound, ok } from './http.js';
import type { Connection, ConnectorType, PipelineData } from './model.js';
import { route, type Route } from './route.js';
import { runSetupTests, setupStatus, type SetupTest } from './setup-tests.js';
import { bodyOf, created, deleted, newId, problem, timestamp } from './write-common.js';
import { connectionDetail } from './views.js';
import { forgetMemberships } from './write-memberships.js';

const FREQUENCIES = [1, 5, 15, 30, 60, 120, 180, 360, 480, 720, 1440];
const METHODS = ['Directly', 'SshTunnel', 'ProxyAgent', 'PrivateLink'];
const DELAYS = ['LOW', 'NORMAL', 'HIGH', 'CUSTOM', 'SYNC_FREQUENCY'];
/** Fields a PATCH may carry that change the connection (the test flags alone do not). */
const PERSISTENT = [
  'config',
  'auth',
  'paused',
  'pause_after_trial',
  'sync_frequency',
  'daily_sync_time',
  'schedule_type',
  'data_delay_sensitivity',
  'data_delay_threshold',
  'networking_method',
  'proxy_agent_id',
  'private_link_id',
  'hybrid_deployment_agent_id',
  'is_historical_sync',
  'schema_status',
];
/** Config keys that name the destination schema: create-only. */
const SCHEMA_KEYS = ['schema', 'schema_prefix', 'table', 'table_group_name'];

/** A connection as the API shows it: config secrets masked as its service's metadata says. */
export function shownConnection(c: Connection, data: PipelineData, tests?: SetupTest[]): unknown {
  const type = data.connectorTypes.find((t) => t.id === c.service);
  const view = connectionDetail(c) as Record<string, unknown>;
  const config = type ? masked(type.config, view.config as Record<string, unknown>) : view.config;
  return { ...view, config, ...(tests ? { setup_tests: tests } : {}) };
}

/** Problems with the schedule and networking fields of a create or PATCH. */
function settingProblems(v: Record<string, unknown>, data: PipelineData): string[] {
  const problems: string[] = [];
  if (v.sync_frequency !== undefined && v.sync_frequency !== null && !FREQUENCIES.includes(Number(v.sync_frequency)))
    problems.push(`Invalid sync_frequency '${String(v.sync_frequency)}': expected one of ${FREQUENCIES.join(', ')}.`);
  if (v.daily_sync_time !== undefined && !/^([01]\d|2[0-3]):00$/.test(String(v.daily_sync_time))) problems.push(`Invalid daily_sync_time '${String(v.daily_sync_time)}': expected HH:00.`);
  if (v.schedule_type !== undefined && v.schedule_type !== 'auto' && v.schedule_type !== 'manual') problems.push(`Invalid schedule_type '${String(v.schedule_type)}': expected auto or manual.`);
  if (v.data_delay_sensitivity !== undefined && v.data_delay_sensitivity !== null && !DELAYS.includes(String(v.data_delay_sensitivity)))
    problems.push(`Invalid data_delay_sensitivity '${String(v.data_delay_sensitivity)}'.`);
  if (v.networking_method !== undefined && !METHODS.includes(String(v.networking_method)))
    problems.push(`Invalid networking_method '${String(v.networking_method)}': expected one of ${METHODS.join(', ')}.`);
  if (v.networking_method === 'ProxyAgent' && !v.proxy_agent_id) problems.push("Field 'proxy_agent_id' is required when networking_method is ProxyAgent.");
  if (v.networking_method === 'PrivateLink' && !v.private_link_id) problems.push("Field 'private_link_id' is required when networking_method is PrivateLink.");
  if (v.proxy_agent_id && !data.proxyAgents.some((a) => a.id === v.proxy_agent_id)) problems.push(`Proxy agent '${String(v.proxy_agent_id)}' does not exist.`);
  if (v.private_link_id && !data.privateLinks.some((l) => l.id === v.private_link_id)) problems.push(`Private link '${String(v.private_link_id)}' does not exist.`);
  if (v.hybrid_deployment_agent_id && !data.hybridAgents.some((a) => a.id === v.hybrid_deployment_agent_id))
    problems.push(`Hybrid deployment agent '${String(v.hybrid_deployment_agent_id)}' does not exist.`);
  for (const key of ['config', 'auth']) if (v[key] !== undefined && (typeof v[key] !== 'object' || v[key] === null || Array.isArray(v[key]))) problems.push(`Field '${key}' must be an object.`);
  return problems;
}

/** Applies the schedule and networking fields of a body to a connection. */
function applySettings(c: Connection, v: Record<string, unknown>): void {
  if (typeof v.paused === 'boolean') c.paused = v.paused;
  if (typeof v.pause_after_trial === 'boolean') c.pause_after_trial = v.pause_after_trial;
  if (v.sync_frequency !== undefined && v.sync_frequency !== null) c.sync_frequency = Number(v.sync_frequency);
  if (v.schedule_type !== undefined) c.schedule_type = v.schedule_type as Connection['schedule_type'];
  if (v.data_delay_sensitivity) c.data_delay_sensitivity = v.data_delay_sensitivity as Connection['data_delay_sensitivity'];
  if (typeof v.data_delay_threshold === 'number') c.data_delay_threshold = v.data_delay_threshold;
  if (v.networking_method !== undefined) c.networking_method = v.networking_method as Connection['networking_method'];
  for (const key of ['proxy_agent_id', 'private_link_id', 'hybrid_deployment_agent_id'] as const) if (key in v) c[key] = (v[key] as string | null) || null;
  if (c.networking_method !== 'ProxyAgent') c.proxy_agent_id = null;
  if (c.networking_method !== 'PrivateLink') c.private_link_id = null;
  // The API keeps a start hour only for daily syncs.
  if (v.daily_sync_time !== undefined) c.daily_sync_time = String(v.daily_sync_time);
  if (c.sync_frequency !== 1440) delete c.daily_sync_time;
  c.status.sync_state = c.paused ? 'paused' : 'scheduled';
}

/** Runs the setup tests when asked, recording what they leave in the status. */
function tested(c: Connection, v: Record<string, unknown>, run: boolean): SetupTest[] | undefined {
  if (!run) return undefined;
  const tests = runSetupTests(c.config, v);
  c.status.setup_state = setupStatus(tests);
  return tests;
}

/** The destination schema a create names, or the 400 for a missing one, from the service's metadata. */
function schemaOf(type: ConnectorType, config: Record<string, unknown>): string | SandboxResponse {
  const key = type.config.required?.[0] ?? 'schema';
  const name = config[key];
  if (typeof name !== 'string' || name === '') return problem(`Field '${key}' is required.`);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) return problem(`Invalid ${key} '${name}': lower-case letters, digits and underscores.`);
  const table = config.table;
  return key === 'schema' && typeof table === 'string' && table !== '' ? `${name}.${table}` : name;
}

function createConnection(req: SandboxRequest, data: PipelineData, world: SandboxWorld): SandboxResponse {
  const now = world.now();
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  if (typeof v.group_id !== 'string') return problem("Field 'group_id' is required.");
  if (typeof v.service !== 'string') return problem("Field 'service' is required.");
  const type = data.connectorTypes.find((t) => t.id === v.service);
  if (!type) return problem(`Unsupported service '${v.service}'.`);
  if (!data.groups.some((g) => g.id === v.group_id)) return notFound('NotFound_Group', 'Group', v.group_id);
  const problems = settingProblems(v, data);
  const given = (v.config ?? {}) as Record<string, unknown>;
  const readonly = readonlyKeys(type.config, given);
  if (readonly.length) problems.push(`Fields ${readonly.map((k) => `'${k}'`).join(', ')} are read-only.`);
  if (problems.length) return problem(problems.join(' '));
  const schema = schemaOf(type, given);
  if (typeof schema !== 'string') return schema;
  if (data.connections.some((c) => c.group_id === v.group_id && c.schema === schema)) return fail(409, 'Conflict', `A connection with schema '${schema}' already exists in group '${v.group_id}'.`);
  const c: Connection = {
    id: newId(data),
    group_id: v.group_id,
    service: v.service,
    service_version: 1,
    schema,
    connected_by: 'wise_owl',
    created_at: timestamp(now),
    succeeded_at: null,
    failed_at: null,
    paused: false,
    pause_after_trial: false,
    sync_frequency: 360,
    schedule_type: 'auto',
    data_delay_sensitivity: 'NORMAL',
    data_delay_threshold: 0,
    networking_method: 'Directly',
    proxy_agent_id: null,
    private_link_id: null,
    hybrid_deployment_agent_id: null,
    status: { setup_state: 'incomplete', sync_state: 'scheduled', update_state: 'on_schedule', is_historical_sync: false, rescheduled_for: null, tasks: [], warnings: [] },
    config: merged(type.config, {}, given, true),
    auth: merged(type.auth, {}, (v.auth ?? {}) as Record<string, unknown>, false),
  };
  applySettings(c, v);
  data.connections.push(c);
  const tests = tested(c, v, v.run_setup_tests !== false);
  return created(shownConnection(c, data, tests ?? []), 'Connection has been created');
}

function updateConnection(req: SandboxRequest, id: string, data: PipelineData): SandboxResponse {
  const c = data.connections.find((x) => x.id === id);
  if (!c) return notFound('NotFound_Connection', 'Connection', id);
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  if (!PERSISTENT.some((key) => key in v)) return problem('At least one persistent parameter is required; to run setup tests alone use POST /v1/connections/{connectionId}/test.');
  const type = data.connectorTypes.find((t) => t.id === c.service)!;
  const problems = settingProblems(v, data);
  for (const key of ['service', 'group_id']) if (key in v && v[key] !== (c as unknown as Record<string, unknown>)[key]) problems.push(`Field '${key}' cannot be changed.`);
  const config = (v.config ?? {}) as Record<string, unknown>;
  for (const key of SCHEMA_KEYS) if (key in config && config[key] !== c.config[key]) problems.push(`Field '${key}' can only be set when the connection is created.`);
  const readonly = readonlyKeys(type.config, config);
  if (readonly.length) problems.push(`Fields ${readonly.map((k) => `'${k}'`).join(', ')} are read-only.`);
  if (problems.length) return problem(problems.join(' '));
  applySettings(c, v);
  if (v.config) c.config = merged(type.config, c.config, config, false);
  if (v.auth) c.auth = merged(type.auth, c.auth ?? {}, v.auth as Record<string, unknown>, false);
  const tests = tested(c, v, v.run_setup_tests === true);
  return ok(shownConnection(c, data, tests ?? []), 'Connection has been updated');
}

function deleteConnection(id: string, data: PipelineData): SandboxResponse {
  const at = data.connections.findIndex((c) => c.id === id);
  if (at < 0) return notFound('NotFound_Connection', 'Connection', id);
  data.connections.splice(at, 1);
  delete data.pending[`connections/${id}`];
  forgetMemberships(data, 'connections', id);
  return deleted(`Connection with id '${id}' has been deleted`);
}

function testConnection(req: SandboxRequest, id: string, data: PipelineData): SandboxResponse {
  const c = data.connections.find((x) => x.id === id);
  if (!c) return notFound('NotFound_Connection', 'Connection', id);
  const body = bodyOf(req);
  if ('status' in body) return body;
  return ok(shownConnection(c, data, tested(c, body.value, true)), 'Setup tests have been completed');
}

/** The connection write routes. */
export const connectionRoutes: Route[] = [
  route('POST', '/v1/connections', (req, _, d, w) => createConnection(req, d, w)),
  route('PATCH', '/v1/connections/:id', (req, p, d) => updateConnection(req, p.id, d)),
  route('DELETE', '/v1/connections/:id', (_, p, d) => deleteConnection(p.id, d)),
  route('POST', '/v1/connections/:id/test', (req, p, d) => testConnection(req, p.id, d)),
];
