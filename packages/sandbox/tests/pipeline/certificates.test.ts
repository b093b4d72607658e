/**
 * The sandbox's certificate and fingerprint writes over raw HTTP: approve answers 201 (as the
 * official SDK expects), the details are found by hash, a revoke answers a message and a second
 * revoke a 404; the certificate sent is never shown again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineCall, pipelineSandbox, type PipelineSandbox } from '../support/pipeline.js';

let sandbox: PipelineSandbox;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
});
afterAll(async () => sandbox.close());

const call = (method: string, path: string, body?: unknown) => pipelineCall(sandbox.url, method, path, body);

describe.each([
  ['connections', 'stoic_newt'],
  ['destinations', 'decent_dropsy'],
])('certificates and fingerprints of %s', (holder, id) => {
  it('a certificate is approved (201), shown by hash without its text, listed, and revoked once', async () => {
    const encoded = Buffer.from(`certificate for ${holder}`).toString('base64');
    const approved = await call('POST', `/${holder}/${id}/certificates`, { hash: 'suite/hash+1', encoded_cert: encoded });
    expect(approved.status).toBe(201);
    expect(approved.body).toMatchObject({ code: 'Success', data: { hash: 'suite/hash+1', type: 'TLS', sha256: expect.stringMatching(/^[0-9A-F]{64}$/) } });
    expect(JSON.stringify(approved.body)).not.toContain(encoded);
    const path = `/${holder}/${id}/certificates/${encodeURIComponent('suite/hash+1')}`;
    expect((await call('GET', path)).body.data.hash).toBe('suite/hash+1');
    expect((await call('GET', `/${holder}/${id}/certificates`)).body.data.items.map((c: { hash: string }) => c.hash)).toContain('suite/hash+1');
    expect(await call('DELETE', path)).toMatchObject({ status: 200, body: { code: 'Success' } });
    expect((await call('DELETE', path)).status).toBe(404);
    expect(await call('POST', `/${holder}/${id}/certificates`, { hash: 'h', encoded_cert: '' })).toMatchObject({ status: 400, body: { message: "Field 'encoded_cert' is required." } });
  });

  it('a fingerprint is approved (201) again without a duplicate, and revoked', async () => {
    const body = { hash: 'SHA256:suite', public_key: 'ssh-ed25519 AAAAsuite' };
    expect((await call('POST', `/${holder}/${id}/fingerprints`, body)).status).toBe(201);
    expect((await call('POST', `/${holder}/${id}/fingerprints`, body)).status).toBe(201);
    const listed = (await call('GET', `/${holder}/${id}/fingerprints`)).body.data.items.filter((f: { hash: string }) => f.hash === body.hash);
    expect(listed).toEqual([expect.objectContaining({ public_key: body.public_key })]);
    expect((await call('DELETE', `/${holder}/${id}/fingerprints/${encodeURIComponent(body.hash)}`)).status).toBe(200);
  });
});
