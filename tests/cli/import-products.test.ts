import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { stateFile } from '../support/state-file.js';
import { InterconnectApi } from '../support/interconnect-api.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const config = 'config:\n  cloud:region: cn-bj2\n  cloud:projectId: org-sandbox\n';
const resources = (ids: { shield: string }) => `
  port:
    type: interconnect:Port
    properties: { productName: imp-port, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false }
  router:
    type: interconnect:Mcr
    properties: { productName: imp-mcr, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }
  routes:
    type: interconnect:McrPrefixFilterList
    properties:
      mcrId: \${router.productUid}
      description: imported-routes
      addressFamily: IPv4
      entries:
        - { action: permit, prefix: 10.0.0.0/8, le: 24 }
  toAws:
    type: interconnect:Vxc
    properties:
      productName: imp-aws
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 120 }
      bEnd: { requestedProductUid: "\${aws.productUid}" }
      bEndPartnerConfig: { partner: aws, type: private, ownerAccount: "123456789012", asn: 64512, name: imported-vif }
  site:
    type: cloud:AntiDdosAllowedDomain
    properties: { instanceId: "${ids.shield}", domain: example.net, comment: imported }
`;
const manifest = (body: string, ids: { shield: string }) => `name: adopt
${config}variables:
  aws:
    fn::invoke:
      function: interconnect:getPartner
      arguments: { connectType: AWS, locationId: 2 }
resources:
${body}${resources(ids)}`;

describe('importing every kind of product', () => {
  it('a port, an MCR, a VXC with a partner config, a prefix filter list and an allowed domain: after import and apply, plan exits 0', async () => {
    const env = sandbox.env;
    const original = workdir();
    const shieldYaml = `  shield:
    type: cloud:AntiDdosInstance
    properties: { name: imp-shield, area: EastChina, dataCenter: Yangzhou, bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 40 }
`;
    writeManifest(original, 'plumb.yaml', manifest(shieldYaml, { shield: '${shield.antiDdosInstanceId}' }));
    const created = await plumb(['apply', '--yes'], { cwd: original, env });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const state = JSON.parse(readFileSync(stateFile(original), 'utf8')).resources;
    const shield = state.shield.id as string;

    const adopter = workdir();
    writeManifest(adopter, 'plumb.yaml', `name: adopt\n${config}`);
    const imports: Array<[string, string, string]> = [
      ['port', 'interconnect:Port', state.port.id],
      ['router', 'interconnect:Mcr', state.router.id],
      ['routes', 'interconnect:McrPrefixFilterList', state.routes.id],
      ['toAws', 'interconnect:Vxc', state.toAws.id],
      ['site', 'cloud:AntiDdosAllowedDomain', state.site.id],
    ];
    expect(state.routes.id).toMatch(/^[0-9a-f-]+:\d+$/);
    expect(state.site.id).toBe(`${shield}/example.net`);
    for (const [address, type, id] of imports) {
      const imported = await plumb(['import', address, type, id], { cwd: adopter, env });
      expect(imported.stderr, `${address}: ${imported.stderr}`).toBe('');
      expect(imported.code).toBe(0);
    }
    writeManifest(adopter, 'plumb.yaml', manifest('', { shield }));
    await sandbox.clearCalls();
    const applied = await plumb(['apply', '--yes'], { cwd: adopter, env });
    expect(applied.code).toBe(0);
    // The VXC's partner config comes from the manifest: recorded, never sent.
    const writes = (await sandbox.calls()).filter((c) => c.method !== 'GET' && !c.path.includes('oauth2') && !(c.provider === 'cloud'));
    expect(writes).toEqual([]);
    const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: adopter, env });
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    expect((await plumb(['drift'], { cwd: adopter, env })).code).toBe(0);
  });

  it('malformed import ids name the format', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', `name: adopt\n${config}`);
    const cases: Array<[string, string, RegExp]> = [
      ['interconnect:McrPrefixFilterList', 'abc:0', /<mcr_uid>:<prefix_list_id>/],
      ['interconnect:McrPrefixFilterList', 'abc:1.5', /<mcr_uid>:<prefix_list_id>/],
      ['interconnect:McrIpsecAddon', 'no-colon', /<mcr_uid>:<add_on_uid>/],
      ['cloud:AntiDdosAllowedDomain', 'no-slash', /<instance_id>\/<domain>/],
    ];
    for (const [type, id, format] of cases) {
      const result = await plumb(['import', 'x', type, id], { cwd: dir, env: sandbox.env });
      expect(result.code, `${type} ${id}`).toBe(1);
      expect(result.stderr).toMatch(format);
    }
  });
});

/** A manifest of every resource type, forty objects, with inputs left to the API and defaults written out. */
const everyType = `name: every-type
config:
  cloud:region: cn-bj2
  cloud:projectId: org-sandbox
variables:
  aws:
    fn::invoke:
      function: interconnect:getPartner
      arguments: { connectType: AWS, locationId: 2, diversityZone: blue }
  awsHosted:
    fn::invoke:
      function: interconnect:getPartner
      arguments: { connectType: AWSHC, locationId: 2, diversityZone: red }
  transit:
    fn::invoke:
      function: interconnect:getPartner
      arguments: { connectType: TRANSIT, locationId: 2, diversityZone: red }
resources:
  port:
    type: interconnect:Port
    properties: { productName: ev-port, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false }
  port2:
    type: interconnect:Port
    properties: { productName: ev-port2, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: true, costCentre: cc-1, diversityZone: red, resourceTags: { team: net } }
  port3:
    type: interconnect:Port
    properties: { productName: ev-port3, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
  port4:
    type: interconnect:Port
    properties: { productName: ev-port4, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false, diversityZone: blue }
  lag:
    type: interconnect:LagPort
    properties: { productName: ev-lag, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false, lagCount: 2, costCentre: core }
  router:
    type: interconnect:Mcr
    properties: { productName: ev-mcr, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }
  router2:
    type: interconnect:Mcr
    properties: { productName: ev-mcr2, portSpeed: 2500, locationId: 2, contractTermMonths: 12, asn: 64555, costCentre: cc2, diversityZone: blue }
  router3:
    type: interconnect:Mcr
    properties: { productName: ev-mcr3, portSpeed: 1000, locationId: 2, contractTermMonths: 1, resourceTags: { role: spare } }
  routes:
    type: interconnect:McrPrefixFilterList
    properties:
      mcrId: \${router.productUid}
      description: ev-routes
      addressFamily: IPv4
      entries:
        - { action: permit, prefix: 10.0.0.0/8, ge: 16, le: 24 }
        - { action: deny, prefix: 0.0.0.0/0 }
  routes6:
    type: interconnect:McrPrefixFilterList
    properties: { mcrId: "\${router.productUid}", description: ev-routes6, addressFamily: IPv6, entries: [{ action: permit, prefix: "2001:db8::/32", le: 48 }] }
  routes3:
    type: interconnect:McrPrefixFilterList
    properties: { mcrId: "\${router2.productUid}", description: r2-routes, addressFamily: IPv4, entries: [{ action: permit, prefix: 192.168.0.0/16 }] }
  routes4:
    type: interconnect:McrPrefixFilterList
    properties: { mcrId: "\${router2.productUid}", description: r2-routes6, addressFamily: IPv6, entries: [{ action: deny, prefix: "2001:db8:1::/48" }] }
  routes5:
    type: interconnect:McrPrefixFilterList
    properties: { mcrId: "\${router3.productUid}", description: r3-routes, addressFamily: IPv4, entries: [{ action: permit, prefix: 172.16.0.0/12, le: 24 }] }
  ipsec:
    type: interconnect:McrIpsecAddon
    properties: { mcrId: "\${router.productUid}", tunnelCount: 10 }
  ipsec2:
    type: interconnect:McrIpsecAddon
    properties: { mcrId: "\${router2.productUid}", tunnelCount: 20 }
  edge:
    type: interconnect:Mve
    properties:
      productName: ev-mve
      locationId: 2
      contractTermMonths: 1
      vendorConfig: { vendor: Cisco, imageId: 83, adminSshPublicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIexample admin@example", manageLocally: true }
      vnics: [{ description: Data Plane }]
  toAws:
    type: interconnect:Vxc
    properties:
      productName: ev-aws
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 120 }
      bEnd: { requestedProductUid: "\${aws.productUid}" }
      bEndPartnerConfig: { partner: aws, type: private, ownerAccount: "123456789012", asn: 64512, name: ev-vif }
  toAwsHosted:
    type: interconnect:Vxc
    properties:
      productName: ev-aws-hc
      rateLimit: 50
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}" }
      bEnd: { requestedProductUid: "\${awsHosted.productUid}" }
      bEndPartnerConfig: { partner: aws, connectType: AWSHC, ownerAccount: "123456789012", name: ev-hc }
  toRouter:
    type: interconnect:Vxc
    properties:
      productName: ev-to-mcr
      rateLimit: 200
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 200 }
      bEnd: { requestedProductUid: "\${router.productUid}" }
      bEndPartnerConfig:
        partner: vrouter
        interfaces:
          - ipAddresses: [10.200.0.1/30]
            bgpConnections: [{ peerAsn: 65020, localIpAddress: 10.200.0.1, peerIpAddress: 10.200.0.2, importWhitelist: ev-routes }]
    options: { dependsOn: ["\${routes}"] }
  portToPort:
    type: interconnect:Vxc
    properties:
      productName: ev-p2p
      rateLimit: 50
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port2.productUid}" }
      bEnd: { requestedProductUid: "\${port3.productUid}", vlan: 301 }
      costCentre: vxc-cc
      shutdown: false
  untagged:
    type: interconnect:Vxc
    properties:
      productName: ev-untagged
      rateLimit: 50
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port4.productUid}", vlan: -1 }
      bEnd: { requestedProductUid: "\${port2.productUid}", vlan: 0 }
  toTransit:
    type: interconnect:Vxc
    properties:
      productName: ev-transit
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${router2.productUid}" }
      bEnd: { requestedProductUid: "\${transit.productUid}" }
      bEndPartnerConfig: { partner: transit }
  lagVxc:
    type: interconnect:Vxc
    properties:
      productName: ev-lag-vxc
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${lag.productUid}", vlan: 55, innerVlan: 10 }
      bEnd: { requestedProductUid: "\${router2.productUid}", vlan: 56 }
      resourceTags: { x: y }
  toAzure:
    type: interconnect:Vxc
    properties:
      productName: ev-azure
      rateLimit: 200
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port3.productUid}", vlan: 0 }
      bEndPartnerConfig:
        partner: azure
        serviceKey: 1b2c3d4e-1111-4c2f-9f0a-6c8f2b1e7a11
        peers: [{ type: private, peerAsn: 64512, primarySubnet: 192.168.100.0/30, secondarySubnet: 192.168.100.4/30, vlan: 300 }]
  toGoogle:
    type: interconnect:Vxc
    properties:
      productName: ev-google
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${router.productUid}" }
      bEndPartnerConfig: { partner: google, pairingKey: 7e51371e-72a3-40b5-b844-2e3efefaee59/australia-southeast1/1 }
  toOracle:
    type: interconnect:Vxc
    properties:
      productName: ev-oracle
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${router3.productUid}" }
      bEndPartnerConfig: { partner: oracle, virtualCircuitId: ocid1.virtualcircuit.oc1.ap-sydney-1.aaaa1111 }
  edgeVxc:
    type: interconnect:Vxc
    properties:
      productName: ev-mve-vxc
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${edge.productUid}", innerVlan: -1 }
      bEnd: { requestedProductUid: "\${port3.productUid}", vlan: 0 }
      shutdown: false
  exchange:
    type: interconnect:Ix
    properties: { productName: ev-ix, requestedProductUid: "\${port.productUid}", networkServiceType: Sydney IX, asn: 64496, macAddress: "00:11:22:33:44:55", rateLimit: 1000, vlan: 2001 }
  exchange2:
    type: interconnect:Ix
    properties: { productName: ev-ix2, requestedProductUid: "\${port2.productUid}", networkServiceType: Sydney IX, asn: 64497, macAddress: "00:11:22:33:44:66", rateLimit: 500, vlan: 2002, publicGraph: false, reverseDns: peer.example.net, shutdown: false, costCentre: ixcc }
  key:
    type: interconnect:ServiceKey
    properties: { productUid: "\${port.productUid}", active: true, singleUse: true, vlan: 100, maxSpeed: 1000, description: partner A }
  key2:
    type: interconnect:ServiceKey
    properties: { productUid: "\${port2.productUid}", active: true, singleUse: false, maxSpeed: 500, preApproved: true, validFor: { startTime: "2030-01-01T00:00:00Z", endTime: "2030-12-31T00:00:00Z" } }
  key3:
    type: interconnect:ServiceKey
    properties: { productUid: "\${port4.productUid}", active: true, singleUse: false, maxSpeed: 100 }
  shield:
    type: cloud:AntiDdosInstance
    properties: { name: ev-shield, area: EastChina, dataCenter: Yangzhou, bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 40 }
  shield2:
    type: cloud:AntiDdosInstance
    properties: { name: ev-shield2, area: NorthChina, dataCenter: Shijiazhuang, bandwidth: 100, baseDefenceValue: 30, maxDefenceValue: 60, chargeType: year, duration: 2 }
  site:
    type: cloud:AntiDdosAllowedDomain
    properties: { instanceId: "\${shield.antiDdosInstanceId}", domain: example.net, comment: main }
  site2:
    type: cloud:AntiDdosAllowedDomain
    properties: { instanceId: "\${shield.antiDdosInstanceId}", domain: example.org }
  site3:
    type: cloud:AntiDdosAllowedDomain
    properties: { instanceId: "\${shield2.antiDdosInstanceId}", domain: example.com, comment: shop }
  site4:
    type: cloud:AntiDdosAllowedDomain
    properties: { instanceId: "\${shield2.antiDdosInstanceId}", domain: example.io }
  site5:
    type: cloud:AntiDdosAllowedDomain
    properties: { instanceId: "\${shield2.antiDdosInstanceId}", domain: example-shop.com.cn, comment: online shop }
  site6:
    type: cloud:AntiDdosAllowedDomain
    properties: { instanceId: "\${shield.antiDdosInstanceId}", domain: example.co.uk }
`;

/** Calls that change something: any but GET on the REST APIs, and cloud Actions other than reads. */
function writes(calls: Array<{ method: string; path: string; query: Record<string, unknown> }>) {
  return calls.filter((c) => {
    if (c.path.includes('oauth2')) return false;
    const action = c.query.Action;
    if (typeof action === 'string') return !/^(Describe|Get)/.test(action);
    return c.method !== 'GET';
  });
}

describe('import, then plan the manifest that made the objects', () => {
  it('forty objects of every type, imported into a fresh stack with --file, plan no change and no call that writes', async () => {
    const dir = workdir();
    const env = sandbox.env;
    writeManifest(dir, 'plumb.yaml', everyType);
    const made = await plumb(['apply', '--yes'], { cwd: dir, env });
    expect(made.stderr).toBe('');
    expect(made.stdout).toContain('Resources: 40 added');
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources as Record<string, { type: string; id: string; inputs: Record<string, any> }>;
    const api = new InterconnectApi(sandbox.url);
    const keyOf = async (port: string) => (await api.call<Array<{ key: string }>>('GET', `/v2/service/key?productIdOrUid=${port}`))[0].key;
    const lines: string[] = [];
    for (const [address, r] of Object.entries(state)) {
      const id = r.type.endsWith('ServiceKey') ? await keyOf(r.inputs.productUid) : r.id;
      lines.push(`- { address: ${address}, type: "${r.type}", id: "${id}" }`);
    }
    writeManifest(dir, 'imports.yaml', `${lines.join('\n')}\n`);

    // The same objects in two stacks: plumb's ownership tags name the first, so it takes --force.
    const imported = await plumb(['import', '--file', 'imports.yaml', '--stack', 'adopted', '--force'], { cwd: dir, env });
    expect(imported.stdout).toContain('Imported 40 of 40.');
    expect(imported.stdout + imported.stderr).toContain('is managed by plumb project "every-type", stack "default"');
    await sandbox.clearCalls();
    const plan = await plumb(['plan', '--stack', 'adopted', '--detailed-exitcode'], { cwd: dir, env });
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    expect(writes(await sandbox.calls())).toEqual([]);
    const applied = await plumb(['apply', '--stack', 'adopted', '--yes'], { cwd: dir, env });
    expect(applied.code).toBe(0);
    expect(writes(await sandbox.calls())).toEqual([]);
  });
});
