/**
 * Certificates and fingerprints through the CLI, judged by what the sandbox's API lists: after the
 * first apply of each of the four types, plan is no change, a change approves and revokes what it
 * said, and destroy leaves nothing of the stack. State keeps each set a list whose hashes read in
 * clear and whose certificates are sealed (sealed whole, the list jammed every later command with
 * `recorded.map is not a function`).
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

const cert = (label: string) => Buffer.from(`certificate of ${label} 51c7`).toString('base64');

const manifest = (connectionCerts: string[]) => `name: trust-sets
resources:
  group:
    type: pipeline:index/group:Group
    properties: { name: trust_sets_cli }
  warehouse:
    type: pipeline:index/destination:Destination
    properties:
      groupId: \${group.id}
      service: postgres_warehouse
      timeZoneOffset: '0'
      config: { host: wh.example.com, port: 5432, database: wh, user: loader, password: wh-pass-51c7 }
  orders:
    type: pipeline:index/connection:Connection
    properties:
      service: postgres
      groupId: \${warehouse.id}
      destinationSchema: { prefix: pg_trust_cli }
      config: { host: db.example.com, port: 5432, database: orders, user: fivetran, password: pg-pass-51c7 }
  warehouseCerts:
    type: pipeline:index/destinationCertificates:DestinationCertificates
    properties:
      destinationId: \${warehouse.id}
      certificates: [{ hash: wh-leaf, encodedCert: ${cert('wh-leaf')} }]
  warehouseKeys:
    type: pipeline:index/destinationFingerprints:DestinationFingerprints
    properties:
      destinationId: \${warehouse.id}
      fingerprints: [{ hash: "SHA256:wh/key+1", publicKey: ssh-ed25519 AAAA-wh }]
  ordersCerts:
    type: pipeline:index/connectionCertificates:ConnectionCertificates
    properties:
      connectionId: \${orders.id}
      certificates: [${connectionCerts.map((h) => `{ hash: ${h}, encodedCert: ${cert(h)} }`).join(', ')}]
  ordersKeys:
    type: pipeline:index/connectionFingerprints:ConnectionFingerprints
    properties:
      connectionId: \${orders.id}
      fingerprints: [{ hash: "SHA256:pg/key+1", publicKey: ssh-ed25519 AAAA-pg }]
`;

/** The hashes the API lists at this path. */
async function listed(path: string): Promise<string[]> {
  const answer = await pipelineCall(sandbox.url, 'GET', path);
  expect(answer.status).toBe(200);
  return (answer.body.data.items as Array<{ hash: string }>).map((item) => item.hash).sort();
}

describe('certificates and fingerprints through the CLI', () => {
  it('apply, plan no change, change, destroy: each step as the API lists it', async () => {
    const dir = workdir();
    const env = { ...sandbox.env, PLUMB_SANDBOX_PROVISIONING_MS: '0' };
    writeManifest(dir, 'plumb.yaml', manifest(['pg-leaf']));
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);

    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    const groupId = state.resources.group.id as string;
    const connectionId = state.resources.orders.id as string;
    expect(await listed(`/destinations/${groupId}/certificates`)).toEqual(['wh-leaf']);
    expect(await listed(`/destinations/${groupId}/fingerprints`)).toEqual(['SHA256:wh/key+1']);
    expect(await listed(`/connections/${connectionId}/certificates`)).toEqual(['pg-leaf']);
    expect(await listed(`/connections/${connectionId}/fingerprints`)).toEqual(['SHA256:pg/key+1']);

    const again = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env });
    expect(again.stderr).toBe('');
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);

    // Each set is a list: hashes in clear, certificates sealed, in inputs and outputs alike.
    for (const address of ['warehouseCerts', 'ordersCerts']) {
      for (const values of [state.resources[address].inputs, state.resources[address].outputs]) {
        expect(values.certificates.map((item: { hash: string }) => item.hash)).toHaveLength(1);
        expect(values.certificates[0].encodedCert).toHaveProperty('$secret');
      }
    }
    expect(readFileSync(stateFile(dir), 'utf8')).not.toContain(cert('pg-leaf'));

    writeManifest(dir, 'plumb.yaml', manifest(['pg-root', 'pg-inter']));
    const changed = await plumb(['apply', '--yes'], { cwd: dir, env });
    expect(changed.stderr).toBe('');
    expect(changed.stdout).toContain('1 changed');
    expect(await listed(`/connections/${connectionId}/certificates`)).toEqual(['pg-inter', 'pg-root']);
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env })).code).toBe(0);

    const destroyed = await plumb(['destroy', '--yes'], { cwd: dir, env });
    expect(destroyed.stderr).toBe('');
    expect(destroyed.code).toBe(0);
    expect((await pipelineCall(sandbox.url, 'GET', `/groups/${groupId}`)).status).toBe(404);
    expect((await pipelineCall(sandbox.url, 'GET', `/connections/${connectionId}`)).status).toBe(404);
  });
});
