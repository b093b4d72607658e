/**
 * The sandbox's write API for private links, proxy and hybrid agents, external logging and
 * transformations, over raw HTTP as the vendor documents it: a link's asynchronous states, the
 * proxy's secrets in the create answer only, re-auth by PATCH and by the Go SDK's POST, masked
 * log secrets and setup tests, projects fixed where the PATCH takes nothing, run and cancel, and
 * what is still in use refused with 409.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pipelineCall, pipelineSandbox, type PipelineSandbox } from '../support/pipeline.js';

let sandbox: PipelineSandbox;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
});
afterAll(async () => sandbox.close());

const call = (method: string, path: string, body?: unknown) => pipelineCall(sandbox.url, method, path, body);

async function provisioning(ms: number): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ provisioningMs: ms }) });
}

const newGroup = async (name: string) => (await call('POST', '/groups', { name })).body.data.id as string;

describe('private links', () => {
  afterEach(() => provisioning(0));

  it('CREATING until the provisioning time passes, then OK with a host; DELETE marks it DESTROYING, then it is gone', async () => {
    await provisioning(300);
    const body = { name: 'async_link', region: 'AWS_US_EAST_1', service: 'SOURCE_AWS', config: { connection_service_name: 'com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f67890' } };
    const made = await call('POST', '/private-links', body);
    expect(made).toMatchObject({ status: 201, body: { code: 'Success', data: { name: 'async_link', state: 'CREATING', host: null, cloud_provider: 'AWS' } } });
    const id = made.body.data.id as string;
    expect((await call('POST', '/private-links', body)).status).toBe(409);
    await new Promise((r) => setTimeout(r, 350));
    expect((await call('GET', `/private-links/${id}`)).body.data).toMatchObject({ state: 'OK', host: expect.stringMatching(/^async-link\./) });
    expect((await call('PATCH', `/private-links/${id}`, { name: 'renamed', config: {} })).body).toMatchObject({ code: 'InvalidInput' });
    const gone = await call('DELETE', `/private-links/${id}`);
    expect(gone.body.message).toMatch(/marked for deletion/);
    expect((await call('GET', `/private-links/${id}`)).body.data.state).toBe('DESTROYING');
    await new Promise((r) => setTimeout(r, 350));
    expect((await call('GET', `/private-links/${id}`)).body).toMatchObject({ code: 'NotFound_PrivateLink' });
  });

  it("a create missing the service's config keys is 400 naming them", async () => {
    const made = await call('POST', '/private-links', { name: 'no_vpce', region: 'AWS_US_EAST_1', service: 'SNOWFLAKE_AWS', config: { account_url: 'x.snowflakecomputing.com' } });
    expect(made).toMatchObject({ status: 400, body: { code: 'InvalidInput', message: expect.stringContaining("'vpce_id'") } });
  });
});

describe('proxy agents', () => {
  it('the create answers the token and key once; reads never show them; regenerate-secrets gives new ones; a used agent is not deleted', async () => {
    const made = await call('POST', '/proxy', { display_name: 'raw-proxy', group_region: 'AWS_US_EAST_1' });
    expect(made).toMatchObject({ status: 201, body: { data: { agent_id: expect.any(String), auth_token: expect.any(String), client_private_key: expect.stringContaining('PRIVATE KEY') } } });
    const id = made.body.data.agent_id as string;
    expect(JSON.stringify((await call('GET', `/proxy/${id}`)).body)).not.toContain(made.body.data.auth_token);
    expect((await call('POST', '/proxy', { display_name: 'raw-proxy', group_region: 'AWS_US_EAST_1' })).status).toBe(409);
    expect((await call('POST', '/proxy', { display_name: 'elsewhere', group_region: 'MARS_1' })).body).toMatchObject({ code: 'InvalidInput', message: 'Group region not supported.' });
    const again = await call('POST', `/proxy/${id}/regenerate-secrets`);
    expect(again.body.data.auth_token).not.toBe(made.body.data.auth_token);

    const groupId = await newGroup('proxied');
    const conn = await call('POST', '/connections', { group_id: groupId, service: 'stripe', config: { schema: 'stripe_proxied' }, networking_method: 'ProxyAgent', proxy_agent_id: id });
    expect(conn.status).toBe(201);
    expect((await call('GET', `/proxy/${id}/connections`)).body.data.items).toEqual([{ connection_id: conn.body.data.id }]);
    expect((await call('DELETE', `/proxy/${id}`)).body).toMatchObject({ code: 'Conflict', message: 'Proxy agent have attached connections.' });
  });
});

describe('hybrid deployment agents', () => {
  it('the create answers files and a token; re-auth answers new ones by PATCH and by POST; terms must be accepted', async () => {
    const groupId = await newGroup('hybrid_raw');
    expect((await call('POST', '/hybrid-deployment-agents', { group_id: groupId, display_name: 'a', env_type: 'DOCKER' })).body.message).toMatch(/accept_terms/);
    const made = await call('POST', '/hybrid-deployment-agents', { group_id: groupId, display_name: 'a', env_type: 'DOCKER', accept_terms: true });
    expect(made).toMatchObject({ status: 201, body: { data: { online: false, files: { auth_json: expect.any(String) }, token: expect.any(String) } } });
    const id = made.body.data.id as string;
    expect((await call('GET', `/hybrid-deployment-agents/${id}`)).body.data.token).toBeUndefined();
    const patched = await call('PATCH', `/hybrid-deployment-agents/${id}/re-auth`, { auth_type: 'MANUAL' });
    const posted = await call('POST', `/hybrid-deployment-agents/${id}/re-auth`, { auth_type: 'AUTO' });
    expect(new Set([made.body.data.token, patched.body.data.token, posted.body.data.token]).size).toBe(3);
    expect((await call('DELETE', `/hybrid-deployment-agents/${id}`)).status).toBe(200);
    expect((await call('GET', `/hybrid-deployment-agents/${id}`)).body.code).toBe('NotFound_RemoteExecutionAgent');
  });
});

describe('external logging', () => {
  it("the group's id is the log service's; secrets read back masked; setup tests report the test event; a second one is 409", async () => {
    const groupId = await newGroup('logged');
    const made = await call('POST', '/external-logging', { group_id: groupId, service: 'datadog_log', enabled: true, config: { api_key: 'dd-raw', region: 'EU' } });
    expect(made).toMatchObject({ status: 201, body: { data: { id: groupId, config: { api_key: '******', region: 'EU' } } } });
    expect((await call('POST', '/external-logging', { group_id: groupId, service: 'cloudwatch', config: {} })).status).toBe(400);
    expect((await call('POST', '/external-logging', { group_id: groupId, service: 'datadog_log', config: { api_key: 'x' } })).status).toBe(409);
    expect((await call('POST', `/external-logging/${groupId}/test`)).body.data.setup_tests).toEqual([{ title: 'Sending a test log event', status: 'PASSED', message: '' }]);
    expect((await call('PATCH', `/external-logging/${groupId}`, { enabled: false })).body.data.enabled).toBe(false);
    expect((await call('DELETE', `/external-logging/${groupId}`)).status).toBe(200);
    expect((await call('GET', `/external-logging/${groupId}`)).body.code).toBe('NotFound_LogService');
  });
});

describe('transformations', () => {
  it('a project is NOT_READY then READY, its git remote fixed; a transformation runs and cancels; a project in use is not deleted', async () => {
    const groupId = await newGroup('dbt_raw');
    const config = { dbt_version: '1.7.3', default_schema: 'analytics', git_remote_url: 'git@github.com:acme/dbt.git' };
    const project = await call('POST', '/transformation-projects', { group_id: groupId, type: 'DBT_CORE', run_tests: true, project_config: config });
    expect(project).toMatchObject({ status: 201, body: { data: { status: 'NOT_READY', project_config: { public_key: expect.stringMatching(/^ssh-ed25519 /) } } } });
    const projectId = project.body.data.id as string;
    expect((await call('GET', `/transformation-projects/${projectId}`)).body.data.status).toBe('READY');
    expect((await call('POST', `/transformation-projects/${projectId}/test`)).body.data.setup_tests).toEqual([{ title: 'Cloning the git repository', status: 'PASSED', message: '' }]);
    expect((await call('PATCH', `/transformation-projects/${projectId}`, { project_config: { git_remote_url: 'git@x:y.git' } })).body.code).toBe('InvalidInput');
    const body = {
      type: 'DBT_CORE',
      paused: false,
      schedule: { schedule_type: 'INTERVAL', interval: 60 },
      transformation_config: { project_id: projectId, name: 'daily', steps: [{ name: 'run', command: 'dbt run' }] },
    };
    expect((await call('POST', '/transformations', { ...body, transformation_config: { ...body.transformation_config, steps: [{ name: 'x', command: 'rm -rf' }] } })).status).toBe(400);
    const made = await call('POST', '/transformations', body);
    expect(made).toMatchObject({ status: 201, body: { data: { status: 'NEW', paused: false } } });
    const id = made.body.data.id as string;
    expect((await call('POST', `/transformations/${id}/cancel`)).status).toBe(409);
    expect((await call('POST', `/transformations/${id}/run`, { full_refresh: false })).status).toBe(200);
    expect((await call('GET', `/transformations?project_id=${projectId}`)).body.data.items).toEqual([expect.objectContaining({ id, status: 'RUNNING' })]);
    expect((await call('POST', `/transformations/${id}/cancel`)).status).toBe(200);
    expect((await call('DELETE', `/transformation-projects/${projectId}`)).status).toBe(409);
    expect((await call('DELETE', `/transformations/${id}`)).status).toBe(200);
    expect((await call('DELETE', `/transformation-projects/${projectId}`)).status).toBe(200);
  });
});
