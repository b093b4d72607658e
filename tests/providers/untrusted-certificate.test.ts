/**
 * A server whose TLS certificate this machine does not trust: no retry can get past that, so
 * every provider's call fails at once, naming the host and how to trust its authority.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isRemote } from '../../src/kernel/errors.js';
import { cloudProvider } from '../../src/providers/cloud/index.js';
import { interconnectProvider } from '../../src/providers/interconnect/index.js';
import { pipelineProvider } from '../../src/providers/pipeline/index.js';
import { plumb, workdir, writeManifest } from '../support/cli.js';
import { makeCertificates } from '../support/tls.js';

let server: Server;
let url: string;
let host: string;
/** TCP connections made to the server: one per send, since no handshake completes. */
let connections = 0;

beforeAll(async () => {
  // Signed by an authority made for this run, which nothing trusts.
  const certs = makeCertificates();
  server = createServer({ cert: certs.cert, key: certs.key }, (_req, res) => res.end('{}'));
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  url = `https://${host}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  connections = 0;
});

const runtime = () => ({ sandboxUrl: async () => url, log: pino({ level: 'silent' }), env: {} });

/** The failure of a call, which must be the final, classified one. */
async function failure(call: () => Promise<unknown>): Promise<Error> {
  const err = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isRemote(err, 'unauthorized'), String(err)).toBe(true);
  return err as Error;
}

const TRUST_HINT =
  /signed by an authority this machine does not trust \((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\); if 127\.0\.0\.1:\d+ is yours, set NODE_EXTRA_CA_CERTS to the file \(PEM\) of the authority that signed it/;

describe('an untrusted server certificate', () => {
  it('fails an interconnect call at once, at its token exchange', async () => {
    const client = await interconnectProvider.connect(interconnectProvider.settings.parse({}), runtime());
    const err = await failure(() => client.get('/v2/locations'));
    expect(err.message).toContain(`the TLS certificate of ${host}`);
    expect(err.message).toMatch(TRUST_HINT);
    expect(connections).toBe(1);
  });

  it('fails a cloud call at once', async () => {
    const client = await cloudProvider.connect(cloudProvider.settings.parse({ region: 'cn-bj2', projectId: 'org-sandbox' }), runtime());
    const err = await failure(() => client.call('DescribeNapServiceInfo', { NapType: 1 }));
    expect(err.message).toMatch(TRUST_HINT);
    expect(connections).toBe(1);
  });

  it('fails a pipeline call at once', async () => {
    const client = await pipelineProvider.connect(pipelineProvider.settings.parse({}), runtime());
    const err = await failure(() => client.get('/groups/decent_dropsy'));
    expect(err.message).toMatch(TRUST_HINT);
    expect(connections).toBe(1);
  });

  it('ends a plan with that message and no stack trace', async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      ['name: tls', 'variables:', '  syd:', '    fn::invoke:', '      function: interconnect:index/getLocation:getLocation', '      arguments: { id: 2 }', 'outputs:', '  at: ${syd.name}'].join('\n'),
    );
    const result = await plumb(['plan'], { cwd: dir, env: { PLUMB_SANDBOX_URL: url, NODE_EXTRA_CA_CERTS: undefined } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(TRUST_HINT);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(connections).toBe(1);
  });
});
