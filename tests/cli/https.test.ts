/**
 * HTTPS end to end: `plumb sandbox start --tls-cert --tls-key` serves the simulated APIs over TLS
 * with a certificate made for this run, and every provider's client talks to it through the one
 * transport, trusting the run's authority through NODE_EXTRA_CA_CERTS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLUMB, plumb, workdir, writeManifest } from '../support/cli.js';
import { makeCertificates, type TestCertificates } from '../support/tls.js';

let certs: TestCertificates;
let server: ChildProcess;
let url: string;
let env: Record<string, string>;

/** Starts `plumb sandbox start` over TLS on a free port and resolves with its address. */
function startTlsSandbox(): Promise<string> {
  server = spawn(
    process.execPath,
    [PLUMB, 'sandbox', 'start', '--port', '0', '--data', workdir('plumb-tls-world-'), '--provisioning-ms', '0', '--tls-cert', certs.certFile, '--tls-key', certs.keyFile],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    server.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /sandbox listening on (\S+)/.exec(out);
      if (found) resolve(found[1]);
    });
    server.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    server.on('exit', (code) => reject(new Error(`sandbox exited (${code}): ${out}`)));
  });
}

/** An admin call to the TLS sandbox, trusting the run's authority. */
function admin(method: string, path: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/_sandbox/${path}`, { method, ca: certs.ca }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(body ? JSON.parse(body) : undefined));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The provider's calls the sandbox answered since the log was last cleared. */
async function answered(provider: string): Promise<number> {
  const calls = (await admin('GET', `calls?provider=${provider}`)) as Array<{ status: number }>;
  return calls.filter((c) => c.status >= 200 && c.status < 300).length;
}

beforeAll(async () => {
  certs = makeCertificates();
  url = await startTlsSandbox();
  env = { PLUMB_SANDBOX_URL: url, NODE_EXTRA_CA_CERTS: certs.caFile };
}, 60_000);
afterAll(() => {
  server?.kill('SIGTERM');
});

const manifests: Record<string, string> = {
  interconnect: [
    'name: tls-interconnect',
    'resources:',
    '  port:',
    '    type: interconnect:Port',
    '    properties: { productName: tls-port, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }',
  ].join('\n'),
  cloud: [
    'name: tls-cloud',
    'config:',
    '  cloud:region: cn-bj2',
    '  cloud:projectId: org-sandbox',
    'resources:',
    '  shield:',
    '    type: cloud:index/antiDdosInstance:AntiDdosInstance',
    '    properties: { name: tls-shield, area: EastChina, dataCenter: Yangzhou, bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 40 }',
  ].join('\n'),
  pipeline: [
    'name: tls-pipeline',
    'variables:',
    '  group:',
    '    fn::invoke:',
    '      function: pipeline:index/getGroup:getGroup',
    '      arguments: { id: decent_dropsy }',
    'outputs:',
    '  groupName: ${group.name}',
  ].join('\n'),
};

describe('the sandbox over HTTPS', () => {
  it.each(Object.keys(manifests))(
    '%s: apply, a plan with no changes, and destroy',
    async (provider) => {
      const dir = workdir();
      writeManifest(dir, 'plumb.yaml', manifests[provider]);
      await admin('DELETE', 'calls');
      const applied = await plumb(['apply', '--yes'], { cwd: dir, env });
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
      const planned = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env });
      expect(planned.stdout).toContain('No changes');
      expect(planned.code).toBe(0);
      const destroyed = await plumb(['destroy', '--yes'], { cwd: dir, env });
      expect(destroyed.code).toBe(0);
      expect(await answered(provider)).toBeGreaterThan(0);
    },
    60_000,
  );

  it('refuses the sandbox when its certificate authority is not trusted, saying why', async () => {
    const result = await plumb(['lookup', 'pipeline:index/getGroup:getGroup', '--arg', 'id=decent_dropsy'], { cwd: workdir(), env: { PLUMB_SANDBOX_URL: url, NODE_EXTRA_CA_CERTS: undefined } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/certificate/i);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});

describe('sandbox start TLS options', () => {
  it.each([
    ['a certificate without its key', (c: TestCertificates) => ['--tls-cert', c.certFile], /--tls-cert needs --tls-key too/],
    ['a key file that is not there', (c: TestCertificates) => ['--tls-cert', c.certFile, '--tls-key', `${c.dir}/missing.key`], /--tls-key .*missing\.key: cannot read it \(ENOENT\)/],
    ['a certificate that is not PEM', (c: TestCertificates) => ['--tls-cert', c.keyFile, '--tls-key', c.keyFile], /--tls-cert .*: not a PEM certificate/],
    ['a key of another certificate', (c: TestCertificates) => ['--tls-cert', c.certFile, '--tls-key', `${c.dir}/ca.key`], /--tls-cert .* with --tls-key .*ca\.key: .*key values mismatch/],
  ])('refuses %s', async (_name, args, message) => {
    const result = await plumb(['sandbox', 'start', '--port', '0', '--data', workdir(), ...args(certs)], { cwd: workdir() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });
});
