import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';
import { stateFile } from '../support/state-file.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
let api: InterconnectApi;
beforeAll(async () => {
  sandbox = await testSandbox();
  api = new InterconnectApi(sandbox.url);
});
afterAll(async () => sandbox.close());

/** Calls that change something remotely (the token exchange and the price question are not). */
async function writes(): Promise<Array<{ method: string; path: string }>> {
  return (await sandbox.calls('interconnect')).filter((c) => c.method !== 'GET' && !c.path.includes('oauth2') && !c.path.endsWith('/pricebook/product'));
}

const stateOf = (dir: string) => JSON.parse(readFileSync(stateFile(dir), 'utf8'));

async function settings(provisioningMs: number): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/settings`, { method: 'POST', body: JSON.stringify({ provisioningMs }), headers: { 'content-type': 'application/json' } });
}

const cloud = {
  aws: `
      bEnd: { requestedProductUid: "\${aws.productUid}" }
      bEndPartnerConfig: { partner: aws, type: private, ownerAccount: "123456789012", asn: 64512 }`,
  azure: `
      bEnd: { requestedProductUid: "\${azure.productUid}" }
      bEndPartnerConfig: { partner: azure, serviceKey: 3e2480b2-1111-4c1a-9a3e-7d3c5f1b2a90 }`,
};

const manifest = (o: { cloud?: keyof typeof cloud; peerAsn?: number; mcrSpeed?: number } = {}) => `name: routing
variables:
  aws:
    fn::invoke:
      function: interconnect:getPartner
      arguments: { connectType: AWS, locationId: 2, diversityZone: blue }
  azure:
    fn::invoke:
      function: interconnect:getPartner
      arguments: { connectType: AZURE, locationId: 2, diversityZone: red }
resources:
  port:
    type: interconnect:Port
    properties: { productName: r-port, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
  router:
    type: interconnect:Mcr
    properties: { productName: r-mcr, portSpeed: ${o.mcrSpeed ?? 1000}, locationId: 2, contractTermMonths: 1 }
  toCloud:
    type: interconnect:Vxc
    properties:
      productName: r-cloud
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 100 }${cloud[o.cloud ?? 'aws']}
  toRouter:
    type: interconnect:Vxc
    properties:
      productName: r-router
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 200 }
      bEnd: { requestedProductUid: "\${router.productUid}" }
      bEndPartnerConfig:
        partner: vrouter
        interfaces:
          - ipAddresses: [10.9.0.1/30]
            bgpConnections: [{ peerAsn: ${o.peerAsn ?? 65001}, localIpAddress: 10.9.0.1, peerIpAddress: 10.9.0.2 }]
`;

describe('MCR and VXC routing through the CLI', () => {
  let dir: string;
  const env = () => sandbox.env;

  beforeAll(async () => {
    dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest());
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: env() });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: env() })).code).toBe(0);
  });

  it('a vrouter BGP change plans ~ and is exactly one modify call', async () => {
    writeManifest(dir, 'plumb.yaml', manifest({ peerAsn: 65002 }));
    const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: env() });
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('toRouter will be updated in place');
    expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
    const uid = stateOf(dir).resources.toRouter.id;
    await sandbox.clearCalls();
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: env() })).code).toBe(0);
    expect((await writes()).map((c) => `${c.method} ${c.path}`)).toEqual([`PUT /v3/product/vxc/${uid}`]);
    expect(JSON.stringify(await api.call('GET', `/v2/product/${uid}`))).toContain('65002');
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: env() })).code).toBe(0);
  });

  it('an aws to azure partner config change plans -/+ with the reason and deletes before it creates', async () => {
    writeManifest(dir, 'plumb.yaml', manifest({ peerAsn: 65002, cloud: 'azure' }));
    const plan = await plumb(['plan'], { cwd: dir, env: env() });
    expect(plan.stdout).toMatch(/-\/\+ .*toCloud/);
    expect(plan.stdout).toContain(
      'toCloud must be replaced (delete first, then create): bEndPartnerConfig: switching a partner config from aws to azure cannot be done in place; the VXC is deleted and ordered again',
    );
    expect(plan.stdout).toContain('Plan: 0 to add, 0 to change, 1 to replace, 0 to destroy.');
    const old = stateOf(dir).resources.toCloud.id;
    await sandbox.clearCalls();
    // With a provisioning delay the cancelled VXC holds VLAN 100 for a while: the new order waits for it.
    await settings(300);
    try {
      const applied = await plumb(['apply', '--yes'], { cwd: dir, env: env() });
      expect(applied.code).toBe(0);
    } finally {
      await settings(0);
    }
    const orders = (await writes()).filter((c) => c.path.includes('/action/') || c.path === '/v4/networkdesign/buy');
    expect(orders.map((c) => c.path)).toEqual([`/v3/product/${old}/action/CANCEL_NOW`, '/v4/networkdesign/buy']);
    const fresh = stateOf(dir).resources.toCloud;
    expect(fresh.id).not.toBe(old);
    expect(fresh.outputs.aEndCurrent.vlan).toBe(100);
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: env() })).code).toBe(0);
  });

  it('a rotated partner port at the B-End is a plan warning, not a change', async () => {
    writeManifest(dir, 'plumb.yaml', manifest({ peerAsn: 65002 }));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: env() })).code).toBe(0);
    const uid = stateOf(dir).resources.toCloud.id;
    const rotated = await fetch(`${sandbox.url}/_sandbox/rotate-partner-port`, { method: 'POST', body: JSON.stringify({ productUid: uid }), headers: { 'content-type': 'application/json' } });
    expect(rotated.status).toBe(200);
    const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: env() });
    expect(plan.stdout).toContain('Warning: toCloud: VXC B-End product UID is from a partner port, therefore it will not be changed');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });

  it('an MCR portSpeed change is a replacement, and the VXC on it follows in place', async () => {
    writeManifest(dir, 'plumb.yaml', manifest({ peerAsn: 65002, mcrSpeed: 2500 }));
    const plan = await plumb(['plan'], { cwd: dir, env: env() });
    expect(plan.stdout).toContain("router must be replaced (create first, then delete): portSpeed: an MCR's speed is fixed for the life of the service");
    expect(plan.stdout).toContain('~ portSpeed = 1000 -> 2500  # forces replacement');
    const old = stateOf(dir).resources.router.id;
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: env() });
    expect(applied.code).toBe(0);
    const state = stateOf(dir);
    expect(state.resources.router.id).not.toBe(old);
    expect(state.resources.toRouter.outputs.bEndCurrent.productUid).toBe(state.resources.router.id);
    expect((await api.call('GET', `/v2/product/${old}`)).provisioningStatus).toBe('DECOMMISSIONED');
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: env() })).code).toBe(0);
  });

  afterAll(async () => {
    const destroyed = await plumb(['destroy', '--yes'], { cwd: dir, env: env() });
    expect(destroyed.code).toBe(0);
  });
});

describe('importing a VXC', () => {
  it('takes its partner config from the manifest, without any modify call', async () => {
    const dir = workdir();
    const env = sandbox.env;
    const base = `name: adopt
resources:
  port:
    type: interconnect:Port
    properties: { productName: adopt-port, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
  router:
    type: interconnect:Mcr
    properties: { productName: adopt-mcr, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }
`;
    writeManifest(dir, 'plumb.yaml', base);
    expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    const { port, router } = stateOf(dir).resources;
    const interfaces = [{ ipAddresses: ['10.8.0.1/30'], bgpConnections: [{ peerAsn: 65008, localIpAddress: '10.8.0.1', peerIpAddress: '10.8.0.2' }] }];
    const [bought] = await api.call('POST', '/v4/networkdesign/buy', {
      networkDesign: [
        {
          productUid: port.id,
          associatedVxcs: [
            { productName: 'made-elsewhere', rateLimit: 100, term: 1, shutdown: false, aEnd: { productUid: port.id, vlan: 800 }, bEnd: { productUid: router.id, partnerConfig: { interfaces } } },
          ],
        },
      ],
      discountCodes: [],
    });
    const uid = bought.vxcJTechnicalServiceUid as string;
    writeManifest(
      dir,
      'plumb.yaml',
      `${base}  adopted:
    type: interconnect:Vxc
    properties:
      productName: made-elsewhere
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 800 }
      bEnd: { requestedProductUid: "\${router.productUid}" }
      bEndPartnerConfig:
        partner: vrouter
        interfaces:
          - ipAddresses: [10.8.0.1/30]
            bgpConnections: [{ peerAsn: 65008, localIpAddress: 10.8.0.1, peerIpAddress: 10.8.0.2 }]
    options:
      import: ${uid}
`,
    );
    const plan = await plumb(['plan'], { cwd: dir, env });
    expect(plan.stdout).toContain('adopted will be imported');
    await sandbox.clearCalls();
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env });
    expect(applied.code).toBe(0);
    expect(await writes()).toEqual([]);
    const adopted = stateOf(dir).resources.adopted;
    expect(adopted.id).toBe(uid);
    expect(adopted.inputs.bEndPartnerConfig.partner).toBe('vrouter');
    const again = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
    expect((await plumb(['destroy', '--yes'], { cwd: dir, env })).code).toBe(0);
  });
});

describe('a bad prefix', () => {
  it('is a positioned error at the entry, before any remote call', async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `name: bad-prefix
resources:
  router:
    type: interconnect:Mcr
    properties: { productName: bp-mcr, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }
  routes:
    type: interconnect:McrPrefixFilterList
    properties:
      mcrId: \${router.productUid}
      description: routes
      addressFamily: IPv4
      entries:
        - { action: permit, prefix: 10.0.0.0/8 }
        - { action: permit, prefix: 10.0.0.1/8 }
`,
    );
    await sandbox.clearCalls();
    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/plumb\.yaml:14:37: error: entries\[1\]\.prefix "10\.0\.0\.1\/8" is not valid: 10\.0\.0\.1\/8 has host bits set; did you mean 10\.0\.0\.0\/8\?/);
    expect(await sandbox.calls('interconnect')).toEqual([]);
  });
});

describe('examples', () => {
  // A world of their own: the rotation above added a partner port that getPartner would also match.
  let fresh: Awaited<ReturnType<typeof testSandbox>>;
  beforeAll(async () => {
    fresh = await testSandbox();
  });
  afterAll(async () => fresh.close());

  for (const name of ['port-mcr-aws.yaml', 'mcr-routing.yaml']) {
    it(`examples/interconnect/${name} applies cleanly, then plans no changes`, async () => {
      const dir = workdir();
      writeManifest(dir, name, readFileSync(join(import.meta.dirname, '../../examples/interconnect', name), 'utf8'));
      const applied = await plumb(['apply', name, '--yes'], { cwd: dir, env: fresh.env });
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
      const plan = await plumb(['plan', name, '--detailed-exitcode'], { cwd: dir, env: fresh.env });
      expect(plan.stdout).not.toContain('Warning');
      expect(plan.code).toBe(0);
      expect((await plumb(['destroy', name, '--yes'], { cwd: dir, env: fresh.env })).code).toBe(0);
    });
  }
});

describe('a router config sent when it must be', () => {
  const manifest = (o: { config: boolean; mcrSpeed?: number }) => `name: vrouter-sent
resources:
  port:
    type: interconnect:Port
    properties: { productName: vs-port, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
  router:
    type: interconnect:Mcr
    properties: { productName: vs-mcr, portSpeed: ${o.mcrSpeed ?? 1000}, locationId: 2, contractTermMonths: 1 }
  fromPeer:
    type: interconnect:McrPrefixFilterList
    properties:
      mcrId: \${router.productUid}
      description: from-peer
      addressFamily: IPv4
      entries:
        - { action: permit, prefix: 10.0.0.0/8, le: 24 }
  toRouter:
    type: interconnect:Vxc
    properties:
      productName: vs-vxc
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 300 }
      bEnd: { requestedProductUid: "\${router.productUid}" }${
        o.config
          ? `
      bEndPartnerConfig:
        partner: vrouter
        interfaces:
          - ipAddresses: [10.7.0.1/30]
            bgpConnections: [{ peerAsn: 65007, localIpAddress: 10.7.0.1, peerIpAddress: 10.7.0.2, importWhitelist: from-peer }]`
          : ''
      }
    options:
      dependsOn: ["\${fromPeer}"]
`;
  /** The BGP connections the API reports on the VXC's router end, with the prefix list ids they use. */
  const bgp = async (vxc: string) => {
    const product = await api.call<{ resources?: { csp_connection?: unknown } }>('GET', `/v2/product/${vxc}`);
    const csp = product.resources?.csp_connection;
    const connections = (Array.isArray(csp) ? csp : [csp]) as Array<{ connectType?: string; interfaces?: Array<{ bgpConnections?: Array<Record<string, unknown>> }> }>;
    return connections.find((c) => c?.connectType === 'VROUTER')?.interfaces?.flatMap((i) => i.bgpConnections ?? []) ?? [];
  };
  const lists = async (mcr: string) => api.call<Array<{ id: number; description: string }>>('GET', `/v2/product/mcr2/${mcr}/prefixLists`);

  it('a first config on a VXC made without one is sent; after the router is replaced, it is sent again with the new router list ids', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest({ config: false }));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const vxc = stateOf(dir).resources.toRouter.id as string;
    expect(await bgp(vxc)).toEqual([]);

    writeManifest(dir, 'plumb.yaml', manifest({ config: true }));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const first = stateOf(dir).resources.router.id as string;
    const [firstList] = await lists(first);
    expect((await bgp(vxc)).map((c) => [c.peerAsn, c.importWhitelist])).toEqual([[65007, firstList.id]]);

    writeManifest(dir, 'plumb.yaml', manifest({ config: true, mcrSpeed: 2500 }));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const second = stateOf(dir).resources.router.id as string;
    expect(second).not.toBe(first);
    const [secondList] = await lists(second);
    expect((await bgp(vxc)).map((c) => [c.peerAsn, c.importWhitelist])).toEqual([[65007, secondList.id]]);
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    expect((await plumb(['destroy', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});
