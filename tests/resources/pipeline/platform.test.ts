/**
 * Private links, agents, external logging and transformations against the sandbox, beyond the
 * lifecycle: a link is waited for until OK (FAIL is an error naming why; a wait past its time is a
 * WaitTimedOut naming the state), an agent's once-shown secrets are kept from the create and replaced by a regeneration
 * or a re-auth, a lost create's secrets are said to be lost, setup tests are warnings, and the
 * lookups answer with what the types made.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WaitTimedOut } from '../../../src/kernel/errors.js';
import { getHybridDeploymentAgent } from '../../../src/lookups/pipeline/get-hybrid-deployment-agent.js';
import { getPrivateLink } from '../../../src/lookups/pipeline/get-private-link.js';
import { getProxyAgent } from '../../../src/lookups/pipeline/get-proxy-agent.js';
import { externalLogging } from '../../../src/resources/pipeline/external-logging.js';
import { group } from '../../../src/resources/pipeline/group.js';
import { hybridDeploymentAgent } from '../../../src/resources/pipeline/hybrid-deployment-agent.js';
import { privateLink } from '../../../src/resources/pipeline/private-link.js';
import { proxyAgent } from '../../../src/resources/pipeline/proxy-agent.js';
import { transformation } from '../../../src/resources/pipeline/transformation.js';
import { transformationProject } from '../../../src/resources/pipeline/transformation-project.js';
import { clientFor, contextFor, pipelineCall, pipelineSandbox, type PipelineSandbox } from '../../support/pipeline-sandbox.js';
import { ctxFor } from './harness.js';
import { sendRequest, type Sender } from '../../../src/providers/http.js';

let sandbox: PipelineSandbox;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
});
afterAll(async () => sandbox.close());

/** How long the sandbox takes to settle asynchronous objects (a link's CREATING...). */
async function provisioning(ms: number): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ provisioningMs: ms }) });
}

/** The pipeline calls the sandbox has answered since the last reset, as `METHOD path`. */
async function calls(): Promise<string[]> {
  return (await sandbox.calls()).map((c) => `${c.method} ${c.path}`);
}

const source = (name: string, svc = 'com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f67890') => ({
  name,
  region: 'AWS_US_EAST_1',
  service: 'SOURCE_AWS' as const,
  config: { connection_service_name: svc },
});

describe('private links', () => {
  afterEach(() => provisioning(0));

  it('a create is waited for through CREATING until OK, reporting each state; the lookup sees it', async () => {
    await provisioning(600);
    const ctx = ctxFor(sandbox);
    const states: string[] = [];
    ctx.progress = (s) => void states.push(s);
    const made = await privateLink.create(ctx, source('waited_link'));
    expect(made.outputs).toMatchObject({ state: 'OK', host: expect.stringContaining('waited-link') });
    expect(ctx.recorded).toEqual([made.id]);
    expect(states[0]).toBe('CREATING');
    expect(states.at(-1)).toBe('OK');
    expect(await getPrivateLink.invoke(contextFor(clientFor(sandbox)), { id: made.id })).toMatchObject({ id: made.id, name: 'waited_link', state: 'OK' });
    await privateLink.delete(ctx, made.id, { inputs: source('waited_link'), outputs: made.outputs });
    expect(await privateLink.read(ctx, made.id)).toBeUndefined();
  });

  it('a link that ends FAIL is an error naming its state and why, after its id is recorded', async () => {
    const ctx = ctxFor(sandbox);
    const failing = privateLink.create(ctx, source('failing_link', 'vpce-svc-nope'));
    await expect(failing).rejects.toThrow(/is FAIL instead of created: The endpoint service 'vpce-svc-nope' was not found/);
    expect(ctx.recorded).toHaveLength(1);
  });

  it('a link still CREATING when the wait time runs out is a WaitTimedOut naming it and its state, after its id is recorded: it is on its way, not failed', async () => {
    await provisioning(60_000);
    const ctx = { ...ctxFor(sandbox), waitTimeMs: 700 };
    const slow = privateLink.create(ctx, source('slow_link'));
    await expect(slow).rejects.toThrow(WaitTimedOut);
    await expect(slow).rejects.toThrow(/timed out after 0\.\d s waiting for private link \w+ to be created \(last status: CREATING\)/);
    expect(ctx.recorded).toHaveLength(1);
  });

  it('a link a lost create left is found by its name as it is, without waiting: one CREATING is on its way (neither ready nor failed), one FAIL failed', async () => {
    await provisioning(60_000);
    const started = Date.now();
    const made = (await pipelineCall(sandbox.url, 'POST', '/private-links', source('lost_link'))).body as { data: { id: string } };
    const found = await privateLink.findOwned!(ctxFor(sandbox), source('lost_link'), { earliestMs: started - 60_000, recorded: () => false });
    expect(found).toMatchObject({ id: made.data.id, outputs: { state: 'CREATING' } });
    expect(Date.now() - started).toBeLessThan(5_000);
    const outputs = found!.outputs as Record<string, unknown>;
    expect([privateLink.provisioning!.ready!(outputs), privateLink.provisioning!.failed!(outputs)]).toEqual([false, undefined]);
    expect([privateLink.provisioning!.ready!({ ...outputs, state: 'UPDATING' }), privateLink.provisioning!.failed!({ ...outputs, state: 'UPDATING' })]).toEqual([false, undefined]);
    expect([privateLink.provisioning!.ready!({ ...outputs, state: 'OK' }), privateLink.provisioning!.failed!({ ...outputs, state: 'OK' })]).toEqual([true, undefined]);
    expect(privateLink.provisioning!.failed!({ ...outputs, state: 'FAIL', stateSummary: 'endpoint service not found' })).toBe('FAIL (endpoint service not found)');
  });

  it('a config key changed through the API (as the web UI changes it) reads as that key alone', async () => {
    const ctx = ctxFor(sandbox);
    const inputs = { ...source('drifting_link'), config: { connection_service_name: source('x').config.connection_service_name, aws_account_id: '111122223333' } };
    const made = await privateLink.create(ctx, inputs);
    expect((await pipelineCall(sandbox.url, 'PATCH', `/private-links/${made.id}`, { config: { aws_account_id: '444455556666' } })).status).toBe(200);
    const read = await privateLink.read(ctx, made.id, { inputs, outputs: made.outputs });
    expect(read?.config).toEqual({ ...inputs.config, aws_account_id: '444455556666' });
  });

  it('a config change is one PATCH, waited for through UPDATING', async () => {
    const ctx = ctxFor(sandbox);
    const inputs = source('patched_link');
    const made = await privateLink.create(ctx, inputs);
    await sandbox.clearCalls();
    const changed = { ...inputs, config: { connection_service_name: 'com.amazonaws.vpce.us-east-1.vpce-svc-0fedcba987654321' } };
    const updated = await privateLink.update(ctx, made.id, { inputs, outputs: made.outputs }, changed);
    expect(updated).toMatchObject({ state: 'OK', config: changed.config });
    expect((await calls()).filter((c) => !c.startsWith('GET'))).toEqual([`PATCH /v1/private-links/${made.id}`]);
  });
});

describe('proxy agents', () => {
  it('the create keeps the token the API shows once; a read keeps it; a raised regenerationCounter gets a new one', async () => {
    const ctx = ctxFor(sandbox);
    const inputs = { displayName: 'secret-keeper', groupRegion: 'AWS_US_EAST_1' };
    const made = await proxyAgent.create(ctx, inputs);
    expect(made.outputs.authToken).toMatch(/^[\w-]{20,}$/);
    expect(made.outputs.clientPrivateKey).toContain('PRIVATE KEY');
    const read = await proxyAgent.read(ctx, made.id, { inputs, outputs: made.outputs });
    expect(read?.authToken).toBe(made.outputs.authToken);
    const regenerated = await proxyAgent.update(ctx, made.id, { inputs, outputs: made.outputs }, { ...inputs, regenerationCounter: 1 });
    expect(regenerated.authToken).toMatch(/^[\w-]{20,}$/);
    expect(regenerated.authToken).not.toBe(made.outputs.authToken);
    expect(await getProxyAgent.invoke(contextFor(clientFor(sandbox)), { id: made.id })).toMatchObject({ id: made.id, displayName: 'secret-keeper' });
  });

  it('an agent found after a lost create has no token, and the warning says how to get one', async () => {
    const started = Date.now();
    const made = await proxyAgent.create(ctxFor(sandbox), { displayName: 'lost-answer', groupRegion: 'AWS_US_EAST_1' });
    const ctx = ctxFor(sandbox);
    const found = await proxyAgent.findOwned!(ctx, { displayName: 'lost-answer', groupRegion: 'AWS_US_EAST_1' }, { earliestMs: started - 60_000, recorded: () => false });
    expect(found?.id).toBe(made.id);
    expect(found?.outputs.authToken).toBeUndefined();
    expect(ctx.warnings).toEqual([expect.stringMatching(/shows them only once: raise regenerationCounter/)]);
  });
});

describe('hybrid deployment agents', () => {
  it('a change of authType re-authenticates in place: one re-auth call, a new token and auth file', async () => {
    const ctx = ctxFor(sandbox);
    const groupId = (await group.create(ctx, { name: 'hybrid_reauth' })).id;
    const inputs = { groupId, displayName: 'reauth-agent', envType: 'DOCKER' as const };
    const made = await hybridDeploymentAgent.create(ctx, inputs);
    expect(JSON.parse(made.outputs.authJson!)).toMatchObject({ agent_id: made.id, token: made.outputs.token });
    await sandbox.clearCalls();
    const updated = await hybridDeploymentAgent.update(ctx, made.id, { inputs, outputs: made.outputs }, { ...inputs, authType: 'MANUAL' });
    expect(await calls()).toEqual([`PATCH /v1/hybrid-deployment-agents/${made.id}/re-auth`]);
    expect(updated.token).not.toBe(made.outputs.token);
    expect(updated.authType).toBe('MANUAL');
    expect(await getHybridDeploymentAgent.invoke(contextFor(clientFor(sandbox)), { id: made.id })).toMatchObject({ id: made.id, displayName: 'reauth-agent', groupId });
  });
});

describe('external logging', () => {
  it('failed setup tests are warnings naming the test; the masked api_key is no change', async () => {
    const ctx = ctxFor(sandbox);
    const groupId = (await group.create(ctx, { name: 'logs_tested' })).id;
    const inputs = { groupId, service: 'datadog_log' as const, config: { api_key: 'dd-key', hostname: 'intake.invalid' }, runSetupTests: true };
    const made = await externalLogging.create(ctx, inputs);
    expect(ctx.warnings).toEqual([`external logging ${groupId}: setup test "Sending a test log event" FAILED: Could not resolve host intake.invalid`]);
    expect((await externalLogging.read(ctx, made.id, { inputs, outputs: made.outputs }))?.config).toEqual(inputs.config);
  });

  it('a create sends only the fields the API documents; the setup tests asked for run through their own call', async () => {
    const bodies: Array<{ call: string; body: unknown }> = [];
    const send: Sender = async (url, init) => {
      bodies.push({ call: `${init.method} ${url.pathname}`, body: init.body === undefined ? undefined : JSON.parse(init.body) });
      return sendRequest(url, init);
    };
    const ctx = ctxFor(sandbox, { send });
    const groupId = (await group.create(ctx, { name: 'logs_create_body' })).id;
    await externalLogging.create(ctx, { groupId, service: 'splunkLog', config: { host: 'logs.invalid', token: 'tk' }, runSetupTests: true });
    const created = bodies.filter((b) => b.call.endsWith('/v1/external-logging'));
    expect(created).toEqual([{ call: expect.stringMatching(/^POST /), body: { group_id: groupId, service: 'splunkLog', enabled: true, config: { host: 'logs.invalid', token: 'tk' } } }]);
    expect((await calls()).filter((c) => c.startsWith(`POST /v1/external-logging/${groupId}/test`))).toHaveLength(1);
    expect(ctx.warnings).toEqual([`external logging ${groupId}: setup test "Sending a test log event" FAILED: Could not resolve host logs.invalid`]);
  });

  it('discovery lists the log services and reads each of them, not every group of the account', async () => {
    const ctx = ctxFor(sandbox);
    const groupId = (await group.create(ctx, { name: 'logs_listed' })).id;
    await externalLogging.create(ctx, { groupId, service: 'cloudwatch', config: { log_group_name: 'fivetran', role_arn: 'arn:aws:iam::1:role/logs', region: 'us-east-1' } });
    await sandbox.clearCalls();
    const listed = await externalLogging.list!(ctx);
    expect(listed.filter((l) => l.id === groupId).map((l) => l.outputs)).toEqual([expect.objectContaining({ groupId, service: 'cloudwatch', enabled: true })]);
    const made = await calls();
    expect(made.filter((c) => c.startsWith('GET /v1/groups'))).toEqual([]);
    expect(made.filter((c) => c.startsWith('GET /v1/external-logging/'))).toHaveLength(listed.length);
  });
});

describe('transformations', () => {
  it('a project answers its public key; pausing a transformation is one PATCH of paused alone', async () => {
    const ctx = ctxFor(sandbox);
    const groupId = (await group.create(ctx, { name: 'dbt_paused' })).id;
    const project = await transformationProject.create(ctx, { groupId, dbtVersion: '1.7.3', defaultSchema: 'analytics', gitRemoteUrl: 'git@github.com:acme/dbt.git' });
    expect(project.outputs.publicKey).toMatch(new RegExp(`^ssh-ed25519 \\S+ fivetran-${project.id}$`));
    const inputs = { projectId: project.id, name: 'daily', steps: [{ name: 'run', command: 'dbt run' }], schedule: { scheduleType: 'INTERVAL' as const, interval: 60 } };
    const made = await transformation.create(ctx, inputs);
    await sandbox.clearCalls();
    const paused = await transformation.update(ctx, made.id, { inputs, outputs: made.outputs }, { ...inputs, paused: true });
    expect(paused.paused).toBe(true);
    expect(await calls()).toEqual([`PATCH /v1/transformations/${made.id}`]);
  });
});
