/**
 * The sandbox's schema config API over raw HTTP, as the vendor documents it: no config until a
 * reload captures the source, columns shown only once changed, all-or-nothing PATCHes at every
 * level, the API's refusals, and what a reload does to new tables under each handling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineCall, pipelineSandbox, type PipelineSandbox } from '../support/pipeline.js';

let sandbox: PipelineSandbox;
let groupId: string;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
  groupId = (await call('POST', '/groups', { name: 'schema_sandbox' })).body.data.id;
});
afterAll(async () => sandbox.close());

const call = (method: string, path: string, body?: unknown) => pipelineCall(sandbox.url, method, path, body);

async function newConnection(prefix: string): Promise<string> {
  const made = await call('POST', '/connections', { group_id: groupId, service: 'postgres', config: { schema_prefix: prefix, host: 'db.acme-data.io', port: 5432 } });
  expect(made.status).toBe(201);
  return made.body.data.id;
}

async function source(connectionId: string, schemas: unknown): Promise<void> {
  const res = await fetch(`${sandbox.url}/_sandbox/pipeline-source`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ connection_id: connectionId, schemas }),
  });
  expect(res.status).toBe(200);
}

describe('schema config', () => {
  it('does not exist until a reload captures the source; columns show only once changed', async () => {
    const id = await newConnection('sb_capture');
    expect(await call('GET', `/connections/${id}/schemas`)).toMatchObject({ status: 404, body: { code: 'NotFound_SchemaConfig' } });
    expect(await call('PATCH', `/connections/${id}/schemas`, { schemas: {} })).toMatchObject({ status: 404, body: { code: 'NotFound_SchemaConfig' } });
    const reloaded = await call('POST', `/connections/${id}/schemas/reload`, { exclude_mode: 'PRESERVE' });
    expect(reloaded.status).toBe(200);
    expect(reloaded.body.data).toMatchObject({ schema_change_handling: 'ALLOW_ALL', enable_new_by_default: true });
    expect(reloaded.body.data.schemas.public.tables.orders).toMatchObject({ enabled: true, sync_mode: 'SOFT_DELETE', supports_columns_config: true, columns: {} });
    const live = await call('GET', `/connections/${id}/schemas/public/tables/orders/columns`);
    expect(Object.keys(live.body.data.columns)).toEqual(['id', 'customer_id', 'status', 'total', 'currency', 'created_at', 'updated_at']);
    expect(live.body.data.columns.id).toMatchObject({ is_primary_key: true, enabled_patch_settings: { allowed: false } });

    const hashed = await call('PATCH', `/connections/${id}/schemas/public/tables/customers/columns/email`, { hashed: true });
    expect(hashed.status).toBe(200);
    expect(hashed.body.data.schemas.public.tables.customers.columns).toEqual({ email: expect.objectContaining({ enabled: true, hashed: true }) });
    const off = await call('PATCH', `/connections/${id}/schemas/public/tables/refunds`, { enabled: false });
    expect(off.body.data.schemas.public.tables.refunds.enabled).toBe(false);
    const schema = await call('PATCH', `/connections/${id}/schemas/sales`, { enabled: false });
    expect(schema.body.data.schemas.sales.enabled).toBe(false);
  });

  it('a PATCH with one wrong name or forbidden change changes nothing, and says every problem', async () => {
    const id = await newConnection('sb_atomic');
    await call('POST', `/connections/${id}/schemas/reload`, {});
    const refused = await call('PATCH', `/connections/${id}/schemas`, {
      schema_change_handling: 'BLOCK_ALL',
      schemas: { public: { tables: { orders: { enabled: false }, Customers: { enabled: false }, products: { columns: { id: { enabled: false } } } } } },
    });
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe('NotFound_Table');
    expect(refused.body.message).toMatch(/Table 'Customers' is not in schema 'public'.*Column 'id' of table 'products'.*cannot be excluded/);
    const now = await call('GET', `/connections/${id}/schemas`);
    expect(now.body.data.schema_change_handling).toBe('ALLOW_ALL');
    expect(now.body.data.schemas.public.tables.orders.enabled).toBe(true);
    expect(await call('PATCH', `/connections/${id}/schemas`, { schema_change_handling: 'SOME' })).toMatchObject({ status: 400, body: { code: 'InvalidInput' } });
    expect(await call('PATCH', `/connections/${id}/schemas/public/tables/orders`, { sync_mode: 'FAST' })).toMatchObject({ status: 400, body: { code: 'InvalidInput' } });
  });

  it('a reload keeps what was configured and treats new tables as the handling says', async () => {
    const id = await newConnection('sb_reload');
    await source(id, { app: { users: ['id', 'email'] } });
    await call('POST', `/connections/${id}/schemas/reload`, {});
    await call('PATCH', `/connections/${id}/schemas`, { schema_change_handling: 'BLOCK_ALL', schemas: { app: { tables: { users: { columns: { email: { hashed: true } } } } } } });
    await source(id, { app: { users: ['id', 'email', 'phone'], teams: ['id', 'name'] } });
    const reloaded = await call('POST', `/connections/${id}/schemas/reload`, {});
    expect(reloaded.body.data.schemas.app.tables.users.columns.email).toMatchObject({ hashed: true });
    expect(reloaded.body.data.schemas.app.tables.teams.enabled).toBe(false);
    const live = await call('GET', `/connections/${id}/schemas/app/tables/users/columns`);
    expect(live.body.data.columns.phone.enabled).toBe(false);
  });

  it("a deleted connection's config is gone with it", async () => {
    const id = await newConnection('sb_gone');
    await call('POST', `/connections/${id}/schemas/reload`, {});
    await call('DELETE', `/connections/${id}`);
    expect(await call('GET', `/connections/${id}/schemas`)).toMatchObject({ status: 404, body: { code: 'NotFound_Connection' } });
    expect(await call('POST', `/connections/${id}/schemas/reload`, {})).toMatchObject({ status: 404, body: { code: 'NotFound_Connection' } });
  });
});
