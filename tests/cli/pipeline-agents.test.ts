/**
 * New credentials for agents made without a counter, through the CLI: writing
 * `authenticationCounter: 1` (hybrid agent) or `regenerationCounter: 1` (proxy agent) into the
 * manifest plans an update, and apply has the API issue new credentials, as the API's calls and
 * the agent it reports show; the counters were taken as the agents' own and nothing was called.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { pipelineCall } from '../support/pipeline-sandbox.js';
import { stateFile } from '../support/state-file.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const manifest = (counters: string) => `name: agent-credentials
resources:
  group:
    type: pipeline:index/group:Group
    properties: { name: agent_credentials }
  lab:
    type: pipeline:index/hybridDeploymentAgent:HybridDeploymentAgent
    properties: { groupId: "\${group.id}", displayName: lab-agent, envType: DOCKER${counters ? `, authenticationCounter: 1` : ''} }
  office:
    type: pipeline:index/proxyAgent:ProxyAgent
    properties: { displayName: office-proxy-c4, groupRegion: AWS_US_EAST_1${counters ? `, regenerationCounter: 1` : ''} }
`;

describe('agents made without a counter', () => {
  it('raising it re-authenticates the hybrid agent and regenerates the proxy agent', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest(''));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const made = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources;
    const agentId = made.lab.id as string;
    const before = (await pipelineCall(sandbox.url, 'GET', `/hybrid-deployment-agents/${agentId}`)).body.data;

    writeManifest(dir, 'plumb.yaml', manifest('raised'));
    const planned = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(planned.stdout).toMatch(/lab will be updated in place/);
    expect(planned.stdout).toMatch(/office will be updated in place/);
    expect(planned.code).toBe(2);

    await sandbox.clearCalls();
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const writes = (await sandbox.calls('pipeline')).filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`);
    expect(writes.sort()).toEqual([`PATCH /v1/hybrid-deployment-agents/${agentId}/re-auth`, `POST /v1/proxy/${made.office.id}/regenerate-secrets`]);
    const after = (await pipelineCall(sandbox.url, 'GET', `/hybrid-deployment-agents/${agentId}`)).body.data;
    expect(after.updated_at > before.updated_at).toBe(true);
    // The new credentials are the ones kept (sealed) in state.
    const kept = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources;
    expect(kept.lab.outputs.token).not.toEqual(made.lab.outputs.token);
    expect(kept.office.outputs.authToken).not.toEqual(made.office.outputs.authToken);

    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    expect((await plumb(['destroy', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    expect((await pipelineCall(sandbox.url, 'GET', `/hybrid-deployment-agents/${agentId}`)).status).toBe(404);
  });
});
