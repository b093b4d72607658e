/**
 * The sandbox's replies against what the vendor's Go SDK declares (sdk-shapes.ts): the calls the
 * SDK makes are made, in an order that gives each something to act on, and every reply is held
 * to its call's declared status and to the JSON type of each field the SDK decodes. A field of
 * another type is a reply the SDK cannot decode (a destination's port served as a number, where
 * the SDK reads a string). The fields of `data` the SDK declares are all there, but those a reply
 * may leave out, named with the reason. Every call of the table is made, but those the sandbox does not serve,
 * named with the reason; a call added to the table is made or named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineSandbox, TEST_KEY, TEST_SECRET, TUNNELLED_WAREHOUSE, type PipelineSandbox } from '../support/pipeline.js';
import { SDK_CALLS, type SdkCall, type SdkShape } from './sdk-shapes.js';

/** Calls of the SDK the sandbox does not serve, and why. */
const UNSERVED: Record<string, string> = {
  'POST /connectors/{}/connect-card': 'connect cards are a web form for people, which plumb does not manage',
  'GET /connector-sdk/packages': 'Connector SDK packages are uploaded code, which plumb does not manage',
  'GET /connector-sdk/packages/{}': 'as above',
  'DELETE /connector-sdk/packages/{}': 'as above',
  'POST /transformations/{}/upgrade': 'quickstart package upgrades are not simulated',
};

/** Fields of `data` (or of each listed item) a reply may leave out, and why; every other is there. */
const MAY_OMIT: Record<string, string> = {
  system_key_id: "named only when the key is a system key; the sandbox's is its administrator's",
  daily_sync_time: 'given only for a sync once a day (sync_frequency 1440)',
  schedule: 'the newer schedule object, given only where one was set',
  token: "a field of the SDK's proxy type without a JSON name (matched by its Go name), which no reply uses",
  registredat: 'as above',
  salt: 'as above',
};

let sandbox: PipelineSandbox;
/** Every reply of the scenario: the call as made and what came back. */
const replies: Array<{ method: string; path: string; status: number; body: unknown }> = [];

const auth = `Basic ${Buffer.from(`${TEST_KEY}:${TEST_SECRET}`).toString('base64')}`;

/** One call as the SDK sends it, its reply kept; the body's `data` is returned. */
async function call(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${sandbox.url}/pipeline/v1${path}`, {
    method,
    headers: { authorization: auth, ...(method === 'POST' || method === 'PATCH' ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  replies.push({ method, path: path.split('?')[0], status: res.status, body: parsed });
  return parsed?.data;
}

/** Makes the calls of the table, each on something that exists by then. */
async function scenario(): Promise<void> {
  await call('GET', '/account/info');
  await call('GET', '/roles');

  // Groups, and a user added by email.
  await call('GET', '/groups');
  const groupId = (await call('POST', '/groups', { name: 'shapes' })).id as string;
  await call('PATCH', `/groups/${groupId}`, { name: 'shapes_renamed' });
  await call('GET', `/groups/${groupId}`);
  await call('GET', `/groups/${groupId}/public-key`);
  await call('GET', `/groups/${groupId}/service-account`);
  await call('POST', `/groups/${groupId}/users`, { email: 'sofia.rossi@acme-data.io', role: 'Destination Analyst' });
  await call('GET', `/groups/${groupId}/users`);
  await call('DELETE', `/groups/${groupId}/users/bold_raven`);
  await call('GET', '/groups/decent_dropsy/connections');

  // A destination, its port sent as a number.
  const config = TUNNELLED_WAREHOUSE;
  await call('POST', '/destinations', { group_id: groupId, service: 'postgres_warehouse', time_zone_offset: '0', run_setup_tests: true, config });
  await call('GET', '/destinations');
  await call('GET', `/destinations/${groupId}`);
  await call('PATCH', `/destinations/${groupId}`, { config: { port: 444 } });
  await call('POST', `/destinations/${groupId}/test`, {});
  for (const holder of [`destinations/${groupId}`, 'connections/stoic_newt']) {
    await call('POST', `/${holder}/certificates`, { hash: 'shapes-hash', encoded_cert: Buffer.from('certificate').toString('base64') });
    await call('GET', `/${holder}/certificates`);
    await call('GET', `/${holder}/certificates/shapes-hash`);
    await call('DELETE', `/${holder}/certificates/shapes-hash`);
    await call('POST', `/${holder}/fingerprints`, { hash: 'SHA256:shapes', public_key: 'ssh-ed25519 AAAAshapes' });
    await call('GET', `/${holder}/fingerprints`);
    await call('GET', `/${holder}/fingerprints/${encodeURIComponent('SHA256:shapes')}`);
    await call('DELETE', `/${holder}/fingerprints/${encodeURIComponent('SHA256:shapes')}`);
  }

  // A connection, its schema config, syncs.
  const made = await call('POST', '/connections', { group_id: groupId, service: 'postgres', config: { schema_prefix: 'pg_shapes', host: 'db.example.com', port: 5432 }, run_setup_tests: true });
  const connectionId = made.id as string;
  await call('GET', '/connections');
  await call('GET', `/connections/${connectionId}`);
  await call('PATCH', `/connections/${connectionId}`, { sync_frequency: 360 });
  await call('POST', `/connections/${connectionId}/test`, {});
  await call('POST', `/connections/${connectionId}/schemas`, { schema_change_handling: 'ALLOW_ALL', schemas: { public: { enabled: true } } });
  const schema = await call('POST', `/connections/${connectionId}/schemas/reload`, {});
  await call('GET', `/connections/${connectionId}/schemas`);
  await call('PATCH', `/connections/${connectionId}/schemas`, { schema_change_handling: 'ALLOW_COLUMNS' });
  const [schemaName, schemaConfig] = Object.entries(schema.schemas as Record<string, { tables: Record<string, unknown> }>)[0];
  const table = Object.keys(schemaConfig.tables)[0];
  await call('PATCH', `/connections/${connectionId}/schemas/${schemaName}`, { enabled: true });
  await call('PATCH', `/connections/${connectionId}/schemas/${schemaName}/tables/${table}`, { enabled: true });
  const columns = await call('GET', `/connections/${connectionId}/schemas/${schemaName}/tables/${table}/columns`);
  const column = Object.keys(columns.columns as Record<string, unknown>).at(-1) as string;
  await call('PATCH', `/connections/${connectionId}/schemas/${schemaName}/tables/${table}/columns/${column}`, { hashed: true });
  await call('POST', `/connections/${connectionId}/schemas/${schemaName}/tables/${table}/resync`);
  await call('POST', `/connections/${connectionId}/force`);

  // People: users, teams and their memberships.
  await call('GET', '/users');
  const userId = (await call('POST', '/users', { email: 'shapes@acme.test', given_name: 'Shape', family_name: 'Test', role: 'Account Reviewer' })).id as string;
  await call('GET', `/users/${userId}`);
  await call('PATCH', `/users/${userId}`, { given_name: 'Shaped' });
  await call('GET', '/teams');
  const teamId = (await call('POST', '/teams', { name: 'Shapes', description: 'shapes', role: 'Account Reviewer' })).id as string;
  await call('GET', `/teams/${teamId}`);
  await call('PATCH', `/teams/${teamId}`, { description: 'reshaped' });
  for (const [owner, idField, member] of [
    [`teams/${teamId}`, 'user_id', `users`],
    [`teams/${teamId}`, 'id', 'groups'],
    [`teams/${teamId}`, 'id', 'connections'],
    [`users/${userId}`, 'id', 'groups'],
    [`users/${userId}`, 'id', 'connections'],
  ] as const) {
    const target = member === 'users' ? userId : member === 'groups' ? groupId : connectionId;
    const [role, changed] =
      member === 'users' ? ['Team Member', 'Team Manager'] : member === 'groups' ? ['Destination Analyst', 'Destination Reviewer'] : ['Connector Collaborator', 'Connector Administrator'];
    await call('POST', `/${owner}/${member}`, { [idField]: target, role });
    await call('GET', `/${owner}/${member}`);
    await call('GET', `/${owner}/${member}/${target}`);
    await call('PATCH', `/${owner}/${member}/${target}`, { role: changed });
    await call('DELETE', `/${owner}/${member}/${target}`);
  }
  await call('DELETE', `/teams/${teamId}/role`);
  await call('DELETE', `/teams/${teamId}`);
  await call('DELETE', `/users/${userId}`);

  // Webhooks.
  const hook = await call('POST', '/webhooks/account', { url: 'https://hooks.example.com/a', events: ['sync_start'], active: true, secret: 'whsec' });
  await call('POST', `/webhooks/group/${groupId}`, { url: 'https://hooks.example.com/g', events: ['sync_end'], active: true, secret: 'whsec' });
  await call('GET', '/webhooks');
  await call('GET', `/webhooks/${hook.id}`);
  await call('PATCH', `/webhooks/${hook.id}`, { active: false });
  await call('POST', `/webhooks/${hook.id}/test`, { event: 'sync_start' });
  await call('DELETE', `/webhooks/${hook.id}`);

  // External logging.
  await call('POST', '/external-logging', { group_id: groupId, service: 'splunkLog', enabled: true, config: { host: 'logs.example.com', port: 8088, token: 'tk', enable_ssl: true } });
  await call('GET', '/external-logging');
  await call('GET', `/external-logging/${groupId}`);
  await call('PATCH', `/external-logging/${groupId}`, { enabled: false });
  await call('POST', `/external-logging/${groupId}/test`);
  await call('DELETE', `/external-logging/${groupId}`);

  // Private links, proxy and hybrid deployment agents.
  const link = await call('POST', '/private-links', {
    name: 'shapes_link',
    region: 'AWS_US_EAST_1',
    service: 'SOURCE_AWS',
    config: { connection_service_name: 'com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f67890' },
  });
  await call('GET', '/private-links');
  await call('GET', `/private-links/${link.id}`);
  await call('PATCH', `/private-links/${link.id}`, { config: { connection_service_name: 'com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f67891' } });
  await call('DELETE', `/private-links/${link.id}`);
  const proxy = await call('POST', '/proxy', { display_name: 'shapes-proxy', group_region: 'AWS_US_EAST_1' });
  await call('GET', '/proxy');
  await call('GET', `/proxy/${proxy.agent_id ?? proxy.id}`);
  await call('GET', `/proxy/${proxy.agent_id ?? proxy.id}/connections`);
  await call('POST', `/proxy/${proxy.agent_id ?? proxy.id}/regenerate-secrets`);
  await call('DELETE', `/proxy/${proxy.agent_id ?? proxy.id}`);
  const agent = await call('POST', '/hybrid-deployment-agents', { group_id: groupId, display_name: 'shapes-agent', env_type: 'DOCKER', accept_terms: true });
  await call('GET', '/hybrid-deployment-agents');
  await call('GET', `/hybrid-deployment-agents/${agent.id}`);
  await call('POST', `/hybrid-deployment-agents/${agent.id}/re-auth`, { auth_type: 'AUTO' });
  await call('POST', `/hybrid-deployment-agents/${agent.id}/reset-credentials`);
  await call('DELETE', `/hybrid-deployment-agents/${agent.id}`);

  // Transformations.
  const project = await call('POST', '/transformation-projects', {
    group_id: groupId,
    type: 'DBT_CORE',
    run_tests: false,
    project_config: { dbt_version: '1.7.3', default_schema: 'analytics', git_remote_url: 'git@github.com:acme/dbt.git' },
  });
  await call('GET', '/transformation-projects');
  await call('GET', `/transformation-projects/${project.id}`);
  await call('PATCH', `/transformation-projects/${project.id}`, { run_tests: true });
  await call('POST', `/transformation-projects/${project.id}/test`);
  const transformation = await call('POST', '/transformations', {
    type: 'DBT_CORE',
    paused: false,
    schedule: { schedule_type: 'INTERVAL', interval: 60 },
    transformation_config: { project_id: project.id, name: 'daily', steps: [{ name: 'run', command: 'dbt run' }] },
  });
  await call('GET', '/transformations');
  await call('GET', `/transformations/${transformation.id}`);
  await call('PATCH', `/transformations/${transformation.id}`, { paused: true });
  await call('POST', `/transformations/${transformation.id}/run`, { full_refresh: false });
  await call('POST', `/transformations/${transformation.id}/cancel`);
  await call('DELETE', `/transformations/${transformation.id}`);
  await call('DELETE', `/transformation-projects/${project.id}`);
  const packages = await call('GET', '/transformations/package-metadata');
  await call('GET', `/transformations/package-metadata/${packages.items[0].id}`);
  const types = await call('GET', '/metadata/connector-types');
  await call('GET', `/metadata/connector-types/${types.items[0].id}`);

  // Every seeded object, read one by one: each service's config as the API reports it.
  for (const collection of [
    'groups',
    'destinations',
    'connections',
    'users',
    'teams',
    'private-links',
    'proxy',
    'hybrid-deployment-agents',
    'webhooks',
    'external-logging',
    'transformation-projects',
    'transformations',
  ]) {
    const listed = (await call('GET', `/${collection}?limit=1000`)).items as Array<{ id: string }>;
    for (const item of listed) await call('GET', `/${collection}/${item.id}`);
  }

  // What is left goes.
  await call('DELETE', `/connections/${connectionId}`);
  await call('DELETE', `/destinations/${groupId}`);
  await call('DELETE', `/groups/${groupId}`);
}

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Where `value` is not what `shape` declares, as `path: what`; absent and null fields decode. */
function mismatches(value: unknown, shape: SdkShape, at: string): string[] {
  if (value === null || value === undefined || shape === 'any') return [];
  const isObject = typeof value === 'object' && !Array.isArray(value);
  if (Array.isArray(shape)) return Array.isArray(value) ? value.flatMap((item, i) => mismatches(item, shape[0], `${at}[${i}]`)) : [`${at}: ${JSON.stringify(value)} is not a list`];
  if (typeof shape === 'object') {
    if (!isObject) return [`${at}: ${JSON.stringify(value)} is not an object`];
    return Object.entries(shape).flatMap(([field, inner]) => mismatches((value as Record<string, unknown>)[field], inner, `${at}.${field}`));
  }
  const fits = shape === 'object' ? isObject : shape === 'time' ? typeof value === 'string' && TIME.test(value) : typeof value === shape;
  return fits ? [] : [`${at}: ${JSON.stringify(value)} is not ${shape === 'time' ? 'an RFC 3339 time' : `a ${shape}`}`];
}

/** The fields the SDK declares in `data` (or in each of `data.items`) that the reply lacks. */
function absent(body: unknown, shape: SdkShape): string[] {
  const declared = typeof shape === 'object' && !Array.isArray(shape) ? shape.data : undefined;
  if (typeof declared !== 'object' || Array.isArray(declared)) return [];
  const data = (body as { data?: Record<string, unknown> }).data ?? {};
  const listed = declared.items;
  const [fields, objects] =
    Array.isArray(listed) && typeof listed[0] === 'object' && !Array.isArray(listed[0]) ? [listed[0], (data.items as Array<Record<string, unknown>>) ?? []] : [declared, [data]];
  return objects.flatMap((object, i) =>
    Object.keys(fields)
      .filter((field) => !(field in object) && !(field in MAY_OMIT))
      .map((field) => (objects.length > 1 || object !== data ? `items[${i}].${field}` : field)),
  );
}

/** The table's call a reply answers: the one whose path matches with the fewest placeholders. */
function callOf(method: string, path: string): SdkCall | undefined {
  const matching = SDK_CALLS.filter((c) => {
    const [m, template] = c.call.split(' ');
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\}/g, '[^/]+')}$`);
    return m === method && pattern.test(path);
  });
  return matching.sort((a, b) => a.call.split('{}').length - b.call.split('{}').length)[0];
}

beforeAll(async () => {
  sandbox = await pipelineSandbox();
  await scenario();
});
afterAll(async () => sandbox.close());

describe("the sandbox's replies as the vendor's Go SDK decodes them", () => {
  it.each(SDK_CALLS.filter((c) => !(c.call in UNSERVED)).map((c) => [c.call, c] as const))('%s', (_, sdkCall) => {
    const answered = replies.filter((r) => callOf(r.method, r.path) === sdkCall);
    expect(answered.length, `the scenario makes ${sdkCall.call}`).toBeGreaterThan(0);
    for (const reply of answered) {
      expect({ call: `${reply.method} ${reply.path}`, status: reply.status }).toEqual({ call: `${reply.method} ${reply.path}`, status: sdkCall.status });
      expect(reply.body).toMatchObject({ code: expect.any(String) });
      if (typeof sdkCall.reply === 'object' && !Array.isArray(sdkCall.reply) && 'data' in sdkCall.reply) expect(reply.body).toMatchObject({ data: expect.anything() });
      expect(mismatches(reply.body, sdkCall.reply, 'reply'), `${reply.method} ${reply.path} (${sdkCall.sdk})`).toEqual([]);
      expect(absent(reply.body, sdkCall.reply), `fields of ${reply.method} ${reply.path} (${sdkCall.sdk})`).toEqual([]);
    }
  });

  it('names only calls of the table as unserved, and only fields the SDK declares as omitted', () => {
    expect(Object.keys(UNSERVED).filter((c) => !SDK_CALLS.some((s) => s.call === c))).toEqual([]);
    const declared = JSON.stringify(SDK_CALLS.map((c) => c.reply));
    expect(Object.keys(MAY_OMIT).filter((field) => !declared.includes(`"${field}":`))).toEqual([]);
  });
});
