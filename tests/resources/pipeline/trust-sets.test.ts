/**
 * Certificates and fingerprints against the sandbox: an import reads the whole approved set and
 * plans no change for a manifest declaring it in another order; an item approved elsewhere reads
 * as a change and an update revokes it, approving nothing already approved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connection } from '../../../src/resources/pipeline/connection.js';
import { connectionCertificates } from '../../../src/resources/pipeline/connection-certificates.js';
import { destinationFingerprints } from '../../../src/resources/pipeline/destination-fingerprints.js';
import { group } from '../../../src/resources/pipeline/group.js';
import { pipelineCall, pipelineSandbox, type PipelineSandbox } from '../../support/pipeline-sandbox.js';
import { ctxFor } from './harness.js';

let sandbox: PipelineSandbox;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
});
afterAll(async () => sandbox.close());

const cert = (label: string) => Buffer.from(`certificate of ${label}`).toString('base64');

describe('certificates', () => {
  it('an import reads every approved certificate with its details; a manifest declaring them in any order is no change', async () => {
    const ctx = ctxFor(sandbox);
    const imported = await connectionCertificates.read(ctx, connectionCertificates.importId!.parse('ample_kitten'));
    const items = imported!.certificates as Array<{ hash: string; encodedCert?: string }>;
    expect(items).toHaveLength(3);
    expect(items.every((item) => item.encodedCert === undefined)).toBe(true);
    expect(imported!.approved).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'CN=Acme Internal Root CA', type: 'TLS', validatedBy: expect.any(String) })]));
    const desired = { connectionId: 'ample_kitten', certificates: [...items].reverse().map((item) => ({ hash: item.hash, encodedCert: cert(item.hash) })) };
    const recorded = { connectionId: imported!.connectionId, certificates: imported!.certificates };
    expect(connectionCertificates.diff!.asDeclared!(recorded, imported!, desired)).toEqual(desired);
  });

  it('one approved elsewhere reads as a change; the update revokes it and sends nothing for the rest', async () => {
    const ctx = ctxFor(sandbox);
    const groupId = (await group.create(ctx, { name: 'trust_tests' })).id;
    const id = (await connection.create(ctx, { service: 'postgres', groupId, destinationSchema: { prefix: 'pg_trust' } })).id;
    const inputs = { connectionId: id, certificates: [{ hash: 'leaf', encodedCert: cert('leaf') }] };
    const made = await connectionCertificates.create(ctx, inputs);
    expect((await pipelineCall(sandbox.url, 'POST', `/connections/${id}/certificates`, { hash: 'web-ui', encoded_cert: cert('web-ui') })).status).toBe(201);
    const read = await connectionCertificates.read(ctx, id, { inputs, outputs: made.outputs });
    expect(read!.certificates).toEqual([{ hash: 'leaf', encodedCert: cert('leaf') }, { hash: 'web-ui' }]);

    await sandbox.clearCalls();
    const updated = await connectionCertificates.update(ctx, id, { inputs, outputs: read! }, inputs);
    expect((await sandbox.calls()).filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`)).toEqual([`DELETE /v1/connections/${id}/certificates/web-ui`]);
    expect(updated.certificates).toEqual(inputs.certificates);

    await connectionCertificates.delete(ctx, id, { inputs, outputs: updated });
    expect((await pipelineCall(sandbox.url, 'GET', `/connections/${id}/certificates`)).body.data.items).toEqual([]);
  });
});

describe('fingerprints', () => {
  it('a public key changed in the manifest is approved again; a revoke of one already gone succeeds', async () => {
    const ctx = ctxFor(sandbox);
    const groupId = (await group.create(ctx, { name: 'fp_tests' })).id;
    const made = await pipelineCall(sandbox.url, 'POST', '/destinations', { group_id: groupId, service: 'postgres_warehouse', time_zone_offset: '0', run_setup_tests: false });
    expect(made.status).toBe(201);
    const inputs = { destinationId: groupId, fingerprints: [{ hash: 'SHA256:abc/def+1', publicKey: 'ssh-ed25519 AAAA one' }] };
    const created = await destinationFingerprints.create(ctx, inputs);
    expect(created.outputs.fingerprints).toEqual(inputs.fingerprints);
    const changed = { destinationId: groupId, fingerprints: [{ hash: 'SHA256:abc/def+1', publicKey: 'ssh-ed25519 AAAA two' }] };
    const updated = await destinationFingerprints.update(ctx, groupId, { inputs, outputs: created.outputs }, changed);
    expect(updated.fingerprints).toEqual(changed.fingerprints);
    await pipelineCall(sandbox.url, 'DELETE', `/destinations/${groupId}/fingerprints/${encodeURIComponent('SHA256:abc/def+1')}`);
    await expect(destinationFingerprints.delete(ctx, groupId, { inputs: changed, outputs: updated })).resolves.toBeUndefined();
  });

  it("an approve without its hash or key is the API's 400 naming both", async () => {
    const answer = await pipelineCall(sandbox.url, 'POST', '/destinations/decent_dropsy/fingerprints', {});
    expect(answer).toMatchObject({ status: 400, body: { code: 'InvalidInput', message: "Field 'hash' is required. Field 'public_key' is required." } });
    const gone = await pipelineCall(sandbox.url, 'POST', '/connections/no_such_connection/certificates', { hash: 'h', encoded_cert: cert('x') });
    expect(gone).toMatchObject({ status: 404, body: { code: 'NotFound_Connection' } });
  });
});
