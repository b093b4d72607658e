/**
 * The sandbox's write API for groups, destinations and connections, over raw HTTP as the vendor
 * documents it: envelopes and status codes, the errors a client meets, what the API does to a
 * config (drops empties, types numbers, keeps lists as sets, fills defaults, masks secrets by the
 * service's metadata) and the 20-a-minute connection creation limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineRequest, pipelineSandbox, type PipelineSandbox } from '../support/pipeline.js';

let sandbox: PipelineSandbox;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
});
afterAll(async () => sandbox.close());

/** One call with a JSON body (or none), as a client sends it. */
const call = (method: string, path: string, body?: unknown) => pipelineRequest(sandbox.url, method, path, body);

async function newGroup(name: string): Promise<string> {
  const made = await call('POST', '/groups', { name });
  expect(made.status).toBe(201);
  return made.body.data.id as string;
}

describe('groups and destinations', () => {
  it('a group is created (201, envelope), renamed, refused twice by name, and deleted with a message only', async () => {
    const made = await call('POST', '/groups', { name: 'writes_group' });
    expect(made).toMatchObject({ status: 201, body: { code: 'Success', data: { name: 'writes_group' } } });
    expect(made.body.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect((await call('POST', '/groups', { name: 'writes_group' })).body).toMatchObject({ code: 'Conflict' });
    expect((await call('PATCH', `/groups/${made.body.data.id}`, { name: 'writes_group_2' })).body.data.name).toBe('writes_group_2');
    const gone = await call('DELETE', `/groups/${made.body.data.id}`);
    expect(gone).toMatchObject({ status: 200, body: { code: 'Success' } });
    expect(gone.body.data).toBeUndefined();
    expect((await call('DELETE', `/groups/${made.body.data.id}`)).body.code).toBe('NotFound_Group');
  });

  it('a destination takes its group id, one per group; a missing group is 404, a missing body 400', async () => {
    const groupId = await newGroup('writes_dest');
    const body = { group_id: groupId, service: 'snowflake', time_zone_offset: '0', config: { host: 'h', password: 'pw', role: '' } };
    const made = await call('POST', '/destinations', body);
    expect(made).toMatchObject({ status: 201, body: { data: { id: groupId, region: 'GCP_US_EAST4', config: { host: 'h', password: '******' } } } });
    expect(made.body.data.config).not.toHaveProperty('role');
    expect((await call('POST', '/destinations', body)).status).toBe(409);
    expect((await call('POST', '/destinations', { ...body, group_id: 'no_group' })).status).toBe(404);
    expect((await call('POST', '/destinations')).body).toMatchObject({ code: 'InvalidInput', message: 'Request body is required.' });
  });
});

describe('connections', () => {
  it("a create stores the config as the API does and masks what the service's metadata calls secret", async () => {
    const groupId = await newGroup('writes_conn');
    const made = await call('POST', '/connections', {
      group_id: groupId,
      service: 'anaplan',
      config: { schema: 'plan_data', username: 'u', certificate: 'CERT-TEXT', workspace_ids: ['b', 'a', 'b'], empty: '' },
    });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ schema: 'plan_data', paused: false, config: { certificate: '******', workspace_ids: ['a', 'b'], auth_mode: 'Basic' } });
    expect(made.body.data.config).not.toHaveProperty('empty');
    const pg = await call('POST', '/connections', { group_id: groupId, service: 'postgres', paused: true, config: { schema_prefix: 'pg', host: 'db', port: '5432', tunnel_host: 'bastion' } });
    expect(pg.body.data).toMatchObject({ paused: true, status: { sync_state: 'paused' }, config: { port: 5432, connection_type: 'SshTunnel', update_method: 'WAL' } });
  });

  it('refuses what the API refuses: no schema, a duplicate one, a PATCH of test flags only, a test without a body, a schema change', async () => {
    const groupId = await newGroup('writes_refusals');
    expect((await call('POST', '/connections', { group_id: groupId, service: 'postgres', config: {} })).body).toMatchObject({ code: 'InvalidInput', message: "Field 'schema_prefix' is required." });
    const made = await call('POST', '/connections', { group_id: groupId, service: 'stripe', config: { schema: 'stripe', secret_key: 'sk' } });
    expect((await call('POST', '/connections', { group_id: groupId, service: 'stripe', config: { schema: 'stripe' } })).status).toBe(409);
    const id = made.body.data.id as string;
    expect((await call('PATCH', `/connections/${id}`, { run_setup_tests: true })).status).toBe(400);
    expect((await call('PATCH', `/connections/${id}`, { config: { schema: 'other' } })).status).toBe(400);
    expect((await call('POST', `/connections/${id}/test`)).status).toBe(400);
    const tested = await call('POST', `/connections/${id}/test`, {});
    expect(tested.body.data.setup_tests).toEqual([{ title: 'Validating credentials', status: 'PASSED', message: '' }]);
    expect((await call('PATCH', `/connections/${id}`, { paused: true })).body.data).toMatchObject({ paused: true, config: { secret_key: '******' } });
  });

  it('allows 20 creations in a window; the 21st is 429 with an integer Retry-After and the limit in its words', async () => {
    const groupId = await newGroup('writes_limit');
    // The default limits again, with what earlier tests created forgotten.
    await sandbox.limits('off');
    const answers = [];
    for (let i = 0; i < 21; i++) answers.push(await call('POST', '/connections', { group_id: groupId, service: 'stripe', config: { schema: `stripe_${i}` } }));
    expect(answers.slice(0, 20).every((a) => a.status === 201)).toBe(true);
    expect(answers[20]).toMatchObject({ status: 429, body: { code: 'TooManyRequests', message: 'No more than 20 connections can be created per minute' } });
    expect(answers[20].headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
