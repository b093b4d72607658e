import { copyFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { stateFile } from '../support/state-file.js';
import { InterconnectApi } from '../support/interconnect-api.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

function state(dir: string): { resources: Record<string, { id: string; outputs: Record<string, any> }> } {
  return JSON.parse(readFileSync(stateFile(dir), 'utf8'));
}

const portYaml = (name: string) => `  port:
    type: interconnect:index/port:Port
    properties:
      productName: ${name}
      portSpeed: 10000
      locationId: 2
      contractTermMonths: 1
      marketplaceVisibility: false
`;

describe('service key manifest check', () => {
  it('a single-use key without vlan is a positioned error, exit 1, and no remote call', async () => {
    const dir = workdir();
    const yaml = `name: keys
resources:
${portYaml('key-port')}  key:
    type: interconnect:index/serviceKey:ServiceKey
    properties:
      productUid: \${port.productUid}
      active: true
      singleUse: true
      maxSpeed: 100
`;
    writeManifest(dir, 'm.yaml', yaml);
    // The error points at the key's properties, where vlan is missing.
    const line = yaml.split('\n').findIndex((l) => l.includes('productUid: ${port.productUid}')) + 1;
    await sandbox.clearCalls();
    for (const command of [
      ['validate', 'm.yaml'],
      ['plan', 'm.yaml'],
    ]) {
      const result = await plumb(command, { cwd: dir, env: sandbox.env });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`m\\.yaml:${line}:7: error: vlan is not valid: required when singleUse is true`));
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(await sandbox.calls()).toEqual([]);
  });
});

describe('LAG port', () => {
  it('destroyed with cancelAtEndOfTerm true, against the API before 2026-05, it is cancelled once, with CANCEL, on its primary port', async () => {
    const setting = (refuseEndOfTermCancel: boolean) =>
      fetch(`${sandbox.url}/_sandbox/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refuseEndOfTermCancel }) });
    await setting(false);
    onTestFinished(async () => {
      await setting(true);
    });
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `name: lag
config:
  interconnect:cancelAtEndOfTerm: true
resources:
  lag:
    type: interconnect:index/lagPort:LagPort
    properties: { productName: lag-1, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false, lagCount: 2 }
`,
    );
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const { id, outputs } = state(dir).resources.lag;
    expect(outputs.lagPortUids).toHaveLength(2);
    expect(outputs.lagPortUids[0]).toBe(id);

    await sandbox.clearCalls();
    const destroyed = await plumb(['destroy', '--yes'], { cwd: dir, env: sandbox.env });
    expect(destroyed.code).toBe(0);
    expect(destroyed.stdout).toContain('stays live until');
    const actions = (await sandbox.calls('interconnect')).filter((c) => c.path.includes('/action/'));
    expect(actions.map((c) => `${c.method} ${c.path}`)).toEqual([`POST /v3/product/${id}/action/CANCEL`]);
  });

  it("destroyed with cancelAtEndOfTerm true against today's API, the refusal fails the delete, naming the LAG port; no member is cancelled", async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `name: lag
config:
  interconnect:cancelAtEndOfTerm: true
resources:
  lag:
    type: interconnect:LagPort
    properties: { productName: lag-2, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false, lagCount: 2 }
`,
    );
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const { id, outputs } = state(dir).resources.lag;
    const refused = await plumb(['destroy', '--yes'], { cwd: dir, env: sandbox.env });
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain(`the interconnect API refused to cancel LAG port ${id} at the end of its term`);
    expect(state(dir).resources.lag.id).toBe(id);
    const api = new InterconnectApi(sandbox.url);
    const members = await Promise.all((outputs.lagPortUids as string[]).map(async (uid) => (await api.call('GET', `/v2/product/${uid}`)).provisioningStatus));
    expect(members).toEqual(['CONFIGURED', 'CONFIGURED']);
  });
});

describe('IX', () => {
  const manifest = (shutdown: boolean, exchange = 'Sydney IX') => `name: ix
resources:
${portYaml('ix-port')}  ix:
    type: interconnect:index/ix:Ix
    properties:
      productName: syd-ix
      requestedProductUid: \${port.productUid}
      networkServiceType: ${exchange}
      asn: 64496
      macAddress: "00:11:22:33:44:55"
      rateLimit: 500
      vlan: 2001
      shutdown: ${shutdown}
`;

  it("a shutdown toggle is one PUT /v2/product/ix/{uid} carrying shutdown; an exchange outside the port's metro is refused by plan", async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest(false));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const uid = state(dir).resources.ix.id;

    for (const shutdown of [true, false]) {
      writeManifest(dir, 'plumb.yaml', manifest(shutdown));
      const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
      expect(plan.code).toBe(2);
      expect(plan.stdout).toContain(`~ shutdown = ${!shutdown} -> ${shutdown}`);
      expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
      await sandbox.clearCalls();
      expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
      // The price question the preview asks (a POST that orders nothing) is no write.
      const writes = (await sandbox.calls('interconnect')).filter((c) => c.method !== 'GET' && !c.path.endsWith('/oauth2/token') && !c.path.endsWith('/pricebook/product'));
      expect(writes.map((c) => `${c.method} ${c.path}`)).toEqual([`PUT /v2/product/ix/${uid}`]);
      // The API reports the new state, so the PUT carried it.
      const ix = state(dir).resources.ix.outputs;
      expect(ix.shutdown).toBe(shutdown);
      expect(ix.resources.vpls_interface.shutdown).toBe(shutdown);
    }

    // Every other exchange is in another metro than the port: plan refuses it before any call.
    writeManifest(dir, 'plumb.yaml', manifest(false, 'Melbourne IX'));
    await sandbox.clearCalls();
    const refused = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("plumb.yaml:16:27: error: Melbourne IX is in Melbourne, not in Sydney, where the IX's port is");
    expect((await sandbox.calls('interconnect')).filter((c) => c.method !== 'GET' && !c.path.endsWith('/oauth2/token'))).toEqual([]);
    expect((await plumb(['destroy', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});

describe('plumb lookup getMveImages', () => {
  it('--arg vendorFilter=... --json prints the filtered images and echoes the filter', async () => {
    const dir = workdir();
    const result = await plumb(['lookup', 'interconnect:index/getMveImages:getMveImages', '--arg', 'vendorFilter=Fortinet', '--json'], { cwd: dir, env: sandbox.env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { vendorFilter: string; mveImages: Array<{ id: number; vendor: string; product: string }> };
    expect(out.vendorFilter).toBe('Fortinet');
    expect(out.mveImages.map((i) => i.id)).toEqual([72, 91, 101]);
    expect(new Set(out.mveImages.map((i) => i.vendor))).toEqual(new Set(['Fortinet']));
  });
});

describe('examples/interconnect', () => {
  const EXAMPLES = resolve(import.meta.dirname, '../../examples/interconnect');
  for (const name of ['lag.yaml', 'ix.yaml', 'service-key.yaml', 'mve.yaml']) {
    it(`${name} applies cleanly, then plans no change, then destroys`, async () => {
      // A copy in a fresh folder, so no state lands in the repository.
      const dir = workdir('plumb-interconnect-example-');
      copyFileSync(join(EXAMPLES, name), join(dir, 'plumb.yaml'));
      const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
      const again = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
      expect(again.stdout).toContain('No changes.');
      expect(again.code).toBe(0);
      expect((await plumb(['destroy', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    });
  }
});

describe('replacing what is unique where it lives', () => {
  it('an IX (its VLAN on its port), a prefix filter list (its description on its MCR) and an IPsec add-on (one per MCR) are deleted first, so --replace succeeds', async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `name: unique
resources:
${portYaml('unique-port')}  ix:
    type: interconnect:index/ix:Ix
    properties: { productName: unique-ix, requestedProductUid: "\${port.productUid}", networkServiceType: Sydney IX, asn: 64496, macAddress: "00:11:22:33:44:66", rateLimit: 500, vlan: 2011 }
  router:
    type: interconnect:Mcr
    properties: { productName: unique-mcr, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }
  routes:
    type: interconnect:McrPrefixFilterList
    properties:
      mcrId: \${router.productUid}
      description: unique-routes
      addressFamily: IPv4
      entries:
        - { action: permit, prefix: 10.0.0.0/8 }
  ipsec:
    type: interconnect:McrIpsecAddon
    properties: { mcrId: "\${router.productUid}", tunnelCount: 10 }
`,
    );
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const before = state(dir).resources;

    const replaced = await plumb(['apply', '--yes', '--replace', 'ix', '--replace', 'routes', '--replace', 'ipsec'], { cwd: dir, env: sandbox.env });
    expect(replaced.stdout).toContain('Resources: 0 added, 0 changed, 3 replaced, 0 destroyed.');
    expect(replaced.code).toBe(0);
    const after = state(dir).resources;
    for (const address of ['ix', 'routes', 'ipsec']) expect(after[address].id, address).not.toBe(before[address].id);
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    expect((await plumb(['destroy', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});
