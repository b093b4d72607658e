/**
 * Calls the vendor's Go SDK (go-fivetran) makes, as it makes them, each judged by what the
 * sandbox reads back afterwards: a destination's port comes back as text (the SDK's typed
 * destination create, details, update and setup-test calls decode it into a string); a group takes
 * a user by email and lets one go; a team loses its account role; log services are listed; a sync
 * is started (`/sync`, and the SDK's `/force`), a connection or some of its tables re-synced; a
 * schema config is given before the source is read; the key's account is named; and a group made
 * through the API has the SSH key its tunnels are reached with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineCall, pipelineSandbox, TUNNELLED_WAREHOUSE, type PipelineSandbox } from '../support/pipeline.js';

let sandbox: PipelineSandbox;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
});
afterAll(async () => sandbox.close());

/** One call as the SDK sends it: JSON content type on every POST and PATCH, with a body or without. */
const call = (method: string, path: string, body?: unknown) => pipelineCall(sandbox.url, method, path, body, { asSdk: true });

async function newGroup(name: string): Promise<string> {
  const made = await call('POST', '/groups', { name });
  expect(made.status).toBe(201);
  return made.body.data.id as string;
}

async function newConnection(groupId: string, prefix: string): Promise<string> {
  const made = await call('POST', '/connections', { group_id: groupId, service: 'postgres', config: { schema_prefix: prefix, host: 'db.example.com', port: 5432 }, run_setup_tests: false });
  expect(made.status).toBe(201);
  return made.body.data.id as string;
}

describe("a destination's config", () => {
  it('reports port and tunnel_port as text on create, details, update and setup tests, however they were sent', async () => {
    const groupId = await newGroup('sdk_ports');
    const config = TUNNELLED_WAREHOUSE;
    const made = await call('POST', '/destinations', { group_id: groupId, service: 'postgres_warehouse', time_zone_offset: '0', run_setup_tests: false, config });
    expect(made.status).toBe(201);
    expect(made.body.data.config).toMatchObject({ port: '443', tunnel_port: '22', host: 'wh.example.com', password: '******' });
    expect((await call('GET', `/destinations/${groupId}`)).body.data.config).toMatchObject({ port: '443', tunnel_port: '22' });
    expect((await call('PATCH', `/destinations/${groupId}`, { config: { port: 444 } })).body.data.config).toMatchObject({ port: '444', tunnel_port: '22' });
    expect((await call('POST', `/destinations/${groupId}/test`, {})).body.data.config).toMatchObject({ port: '444' });
  });
});

describe("a group's users", () => {
  it('takes an existing user by email with a group role (200, a message only), lists them, and lets them go by id', async () => {
    const groupId = await newGroup('sdk_group_users');
    const added = await call('POST', `/groups/${groupId}/users`, { email: 'sofia.rossi@acme-data.io', role: 'Destination Analyst' });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ code: 'Success', message: expect.any(String) });
    const members = (await call('GET', `/groups/${groupId}/users`)).body.data.items;
    expect(members).toEqual([expect.objectContaining({ id: 'bold_raven', email: 'sofia.rossi@acme-data.io', role: 'Destination Analyst' })]);
    expect((await call('POST', `/groups/${groupId}/users`, { email: 'sofia.rossi@acme-data.io', role: 'Destination Analyst' })).status).toBe(409);
    expect((await call('POST', `/groups/${groupId}/users`, { email: 'nobody@acme-data.io', role: 'Destination Analyst' })).body.code).toBe('NotFound_User');
    expect((await call('POST', `/groups/${groupId}/users`, { email: 'sofia.rossi@acme-data.io', role: 'Account Reviewer' })).status).toBe(400);

    const removed = await call('DELETE', `/groups/${groupId}/users/bold_raven`);
    expect(removed).toEqual({ status: 200, body: { code: 'Success', message: expect.any(String) } });
    expect((await call('GET', `/groups/${groupId}/users`)).body.data.items).toEqual([]);
    expect((await call('DELETE', `/groups/${groupId}/users/bold_raven`)).status).toBe(404);
    expect((await call('DELETE', '/groups/no_such_group/users/bold_raven')).body.code).toBe('NotFound_Group');
  });
});

describe('a team', () => {
  it('loses its account role (200, a message only) and reads with none', async () => {
    const made = await call('POST', '/teams', { name: 'SDK role team', description: '', role: 'Account Reviewer' });
    const id = made.body.data.id as string;
    expect(await call('DELETE', `/teams/${id}/role`)).toEqual({ status: 200, body: { code: 'Success', message: expect.any(String) } });
    expect((await call('GET', `/teams/${id}`)).body.data).toMatchObject({ id, name: 'SDK role team', role: null });
    expect((await call('DELETE', '/teams/no_such_team/role')).body.code).toBe('NotFound_Team');
  });
});

describe('log services', () => {
  it('are listed with their id, service and enabled', async () => {
    const groupId = await newGroup('sdk_logs');
    expect((await call('POST', '/external-logging', { group_id: groupId, service: 'datadog_log', enabled: false, config: { api_key: 'dd-key' } })).status).toBe(201);
    const listed = await call('GET', '/external-logging?limit=1000');
    expect(listed.status).toBe(200);
    expect(listed.body.data.items).toContainEqual({ id: groupId, service: 'datadog_log', enabled: false });
  });
});

describe('syncs asked for', () => {
  it("a sync now, forced or not, and through the SDK's /force, runs and ends with succeeded_at set", async () => {
    const connectionId = await newConnection(await newGroup('sdk_sync'), 'pg_sdk_sync');
    expect((await call('GET', `/connections/${connectionId}`)).body.data.succeeded_at).toBeNull();
    expect(await call('POST', `/connections/${connectionId}/sync`, { force: false })).toEqual({ status: 200, body: { code: 'Success', message: expect.any(String) } });
    const synced = (await call('GET', `/connections/${connectionId}`)).body.data;
    expect(synced.succeeded_at).toEqual(expect.stringMatching(/Z$/));
    expect(synced.status).toMatchObject({ sync_state: 'scheduled', is_historical_sync: false });
    expect((await call('POST', `/connections/${connectionId}/force`)).status).toBe(200);
    expect((await call('POST', `/connections/${connectionId}/sync`)).status).toBe(200);
    expect((await call('POST', `/connections/${connectionId}/sync`, { force: 'yes' })).status).toBe(400);
    expect((await call('POST', '/connections/no_such_connection/sync', {})).body.code).toBe('NotFound_Connection');
  });

  it('a historical re-sync of everything or of tables the schema config has; an empty scope, or a table it lacks, is refused', async () => {
    const connectionId = await newConnection(await newGroup('sdk_resync'), 'pg_sdk_resync');
    expect((await call('POST', `/connections/${connectionId}/resync`, {})).status).toBe(200);
    expect((await call('GET', `/connections/${connectionId}`)).body.data.succeeded_at).toEqual(expect.stringMatching(/Z$/));
    expect((await call('POST', `/connections/${connectionId}/resync`, { scope: {} })).status).toBe(400);
    expect((await call('POST', `/connections/${connectionId}/resync`, { scope: { public: [] } })).status).toBe(400);
    expect((await call('POST', `/connections/${connectionId}/schemas/tables/resync`, { public: ['orders'] })).body.code).toBe('NotFound_SchemaConfig');

    expect((await call('POST', `/connections/${connectionId}/schemas/reload`, {})).status).toBe(200);
    const tables = Object.keys((await call('GET', `/connections/${connectionId}/schemas`)).body.data.schemas.public.tables);
    expect((await call('POST', `/connections/${connectionId}/schemas/tables/resync`, { public: tables.slice(0, 2) })).status).toBe(200);
    expect((await call('POST', `/connections/${connectionId}/schemas/public/tables/${tables[0]}/resync`)).status).toBe(200);
    expect((await call('POST', `/connections/${connectionId}/resync`, { scope: { public: [tables[0]] } })).status).toBe(200);
    expect((await call('POST', `/connections/${connectionId}/schemas/public/tables/no_such_table/resync`)).body.code).toBe('NotFound_Table');
  });
});

describe('a schema config given before the source is read', () => {
  it('is answered as given, read back, applied by the capture where the source allows, and refused once one exists', async () => {
    const connectionId = await newConnection(await newGroup('sdk_precreate'), 'pg_sdk_precreate');
    const given = {
      schema_change_handling: 'ALLOW_COLUMNS',
      schemas: { public: { enabled: true, tables: { customers: { enabled: false }, orders: { columns: { id: { enabled: false }, total: { hashed: true } } } } } },
    };
    const made = await call('POST', `/connections/${connectionId}/schemas`, given);
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({
      schema_change_handling: 'ALLOW_COLUMNS',
      schemas: { public: { enabled: true, tables: { customers: { enabled: false }, orders: { columns: { id: { enabled: false }, total: { hashed: true } } } } } },
    });
    expect((await call('GET', `/connections/${connectionId}/schemas`)).body.data).toEqual(made.body.data);
    expect((await call('POST', `/connections/${connectionId}/schemas`, given)).status).toBe(409);

    const captured = (await call('POST', `/connections/${connectionId}/schemas/reload`, {})).body.data;
    expect(captured.schemas.public.tables.customers.enabled).toBe(false);
    // The primary key cannot be excluded: that setting is ignored; the rest stands.
    expect(captured.schemas.public.tables.orders.columns.id).toMatchObject({ enabled: true, is_primary_key: true });
    expect(captured.schemas.public.tables.orders.columns.total).toMatchObject({ hashed: true });
    expect((await call('POST', '/connections/no_such_connection/schemas', given)).body.code).toBe('NotFound_Connection');
  });
});

describe('the account and groups', () => {
  it("account info names the key's account and user", async () => {
    expect(await call('GET', '/account/info')).toEqual({ status: 200, body: { code: 'Success', data: { account_id: 'lofty_summit', account_name: 'Acme Data', user_id: 'wise_owl' } } });
  });

  it('a group made through the API has its SSH public key, gone with it', async () => {
    const groupId = await newGroup('sdk_keys');
    const key = await call('GET', `/groups/${groupId}/public-key`);
    expect(key.body.data.public_key).toMatch(/^ssh-rsa AAAA\S+ fivetran user key$/);
    expect((await call('DELETE', `/groups/${groupId}`)).status).toBe(200);
    expect((await call('GET', `/groups/${groupId}/public-key`)).status).toBe(404);
  });
});
