/**
 * Connection against the sandbox: setup tests as warnings, paused and resumed in place, secrets
 * sealed by the service's metadata, and creations kept within the API's limit without a 429.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connection } from '../../../src/resources/pipeline/connection.js';
import { group } from '../../../src/resources/pipeline/group.js';
import { Secret } from '../../../src/kernel/values.js';
import { pipelineSandbox, type PipelineSandbox } from '../../support/pipeline-sandbox.js';
import { ctxFor } from './harness.js';

let sandbox: PipelineSandbox;
let groupId: string;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
  groupId = (await group.create(ctxFor(sandbox), { name: 'connection_tests' })).id;
});
afterAll(async () => sandbox.close());

const postgres = (prefix: string, host = 'db.acme-data.io') => ({
  service: 'postgres',
  groupId,
  destinationSchema: { prefix },
  config: { host, port: 5432, user: 'fivetran', password: 'pw-1', database: 'orders' },
});

describe('setup tests', () => {
  it('a failed test is a warning naming the test and its message; the connection is made', async () => {
    const ctx = ctxFor(sandbox);
    const made = await connection.create(ctx, { ...postgres('setup_fail', 'gone.invalid'), runSetupTests: true });
    expect(made.outputs.setupState).toBe('broken');
    expect(ctx.warnings).toEqual([`connection ${made.id}: setup test "Connecting to host" FAILED: Could not resolve host gone.invalid`]);
  });

  it('without runSetupTests no test runs; asking for them later with nothing else changed runs them alone', async () => {
    const ctx = ctxFor(sandbox);
    const inputs = postgres('setup_later', 'db.selfsigned.acme-data.io');
    const made = await connection.create(ctx, inputs);
    expect(ctx.warnings).toEqual([]);
    expect(made.outputs.setupState).toBe('incomplete');
    await sandbox.clearCalls();
    await connection.update(ctx, made.id, { inputs, outputs: made.outputs }, { ...inputs, runSetupTests: true, trustCertificates: true });
    const writes = (await sandbox.calls()).filter((c) => c.method !== 'GET');
    expect(writes.map((c) => `${c.method} ${c.path}`)).toEqual([`POST /v1/connections/${made.id}/test`]);
    expect(ctx.warnings).toEqual([]);
  });
});

describe('paused', () => {
  it('a connection created paused stays paused; resuming and pausing again are PATCHes of that field alone', async () => {
    const ctx = ctxFor(sandbox);
    const inputs = { ...postgres('paused_one'), paused: true };
    const made = await connection.create(ctx, inputs);
    expect((await connection.read(ctx, made.id, { inputs, outputs: made.outputs }))?.paused).toBe(true);
    await sandbox.clearCalls();
    const resumed = await connection.update(ctx, made.id, { inputs, outputs: made.outputs }, { ...inputs, paused: false });
    expect(resumed).toMatchObject({ id: made.id, paused: false, syncState: 'scheduled' });
    const writes = (await sandbox.calls()).filter((c) => c.method !== 'GET');
    expect(writes.map((c) => `${c.method} ${c.path}`)).toEqual([`PATCH /v1/connections/${made.id}`]);
  });
});

describe('secrets by service', () => {
  it('a secret plumb does not know by name is named as secret before any change and sealed in what is read', async () => {
    const ctx = ctxFor(sandbox);
    const inputs = { service: 'anaplan', groupId, destinationSchema: { name: 'anaplan' }, config: { username: 'svc', certificate: 'CERT' } };
    expect(await connection.secrets!.pathsFor!(inputs, ctx)).toContain('config.certificate');
    expect(await connection.secrets!.pathsFor!({ ...inputs, service: 'no_such_service' }, ctx)).toEqual([]);
    const made = await connection.create(ctx, inputs);
    expect(made.outputs.config?.certificate).toBeInstanceOf(Secret);
    expect(ctx.warnings).toEqual([]);
    const read = await connection.read(ctx, made.id, { inputs, outputs: made.outputs });
    expect(read?.config?.certificate).toEqual(new Secret('CERT'));
  });
});

describe('the creation limit', () => {
  it('25 creations keep within 20 a window: none is refused; without the limit the sandbox refuses the 21st', async () => {
    const windowMs = 1500;
    await sandbox.limits([{ provider: 'pipeline', name: 'connection creations', match: '^POST /v1/connections$', max: 20, windowMs }]);
    const { id: limitGroup } = await group.create(ctxFor(sandbox), { name: 'limit_tests' });
    const ctx = ctxFor(sandbox, { endpointLimits: { 'POST /connections': { limit: 20, windowMs } } });
    await sandbox.clearCalls();
    await Promise.all(Array.from({ length: 25 }, (_, i) => connection.create(ctx, { service: 'stripe', groupId: limitGroup, destinationSchema: { name: `limited_${i}` } })));
    const creates = (await sandbox.calls()).filter((c) => c.method === 'POST' && c.path === '/v1/connections');
    expect(creates.map((c) => c.status)).toEqual(Array(25).fill(201));

    // The sandbox's own limit again (20 a minute), counting from nothing.
    await sandbox.limits('off');
    const unlimited = ctxFor(sandbox, { endpointLimits: {}, maxRetries: 0 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 21 }, (_, i) => connection.create(unlimited, { service: 'stripe', groupId: limitGroup, destinationSchema: { name: `unlimited_${i}` } })),
    );
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason))).toEqual([expect.stringContaining('429 TooManyRequests')]);
  });
});
