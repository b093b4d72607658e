import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

/** A manifest with one mistake of every kind, each of which used to hide the ones after it. */
const manyMistakes = `name: mistakes
config:
  interconnect:cancelAtEndofTerm: true
variables:
  a: \${b}
  b: \${a}
resources:
  port:
    type: interconnect:Port
    properties:
      productName: p
      portSpeed: 2000
      locationId: 2
      contractTermMonths: 12
      marketplaceVisibility: false
    options:
      dependsOn: ["\${nothere}"]
      ignoreChanges: [portSped]
      protekt: true
  vxc:
    type: interconnect:Vcx
    properties: { productName: v }
  toAws:
    type: interconnect:Vxc
    properties:
      productName: v
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 100 }
      bEnd: { requestedProductUid: "\${vxc.productUid}" }
      bEndPartnerConfig: { partner: awz, ownerAccount: "123456789012" }
  toAws2:
    type: interconnect:Vxc
    properties:
      productName: v
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 101 }
      bEndPartnerConfig: { partner: aws, type: private, ownerAccount: "123456789012", typ: x }
`;

describe('mistakes are caught once, early, clearly', () => {
  it('one run reports every problem of a manifest, in the order of the file, without a remote call', async () => {
    const dir = workdir();
    writeManifest(dir, 'm.yaml', manyMistakes);
    await sandbox.clearCalls();
    for (const command of ['validate', 'plan']) {
      const result = await plumb([command, 'm.yaml'], { cwd: dir, env: sandbox.env });
      expect(result.code).toBe(1);
      const errors = result.stderr.split('\n').filter((line) => line.startsWith('m.yaml:'));
      expect(errors.map((line) => line.replace(/: error: .*/, ''))).toEqual([
        'm.yaml:3:3',
        'm.yaml:5:6',
        'm.yaml:12:18',
        'm.yaml:17:19',
        'm.yaml:18:23',
        'm.yaml:19:7',
        'm.yaml:21:11',
        'm.yaml:31:37',
        'm.yaml:39:87',
      ]);
      expect(result.stderr).toContain('config interconnect:cancelAtEndofTerm: unknown setting');
      expect(result.stderr).toContain('reference cycle: a -> b -> a');
      expect(result.stderr).toContain('dependsOn target "nothere" is not defined');
      expect(result.stderr).toMatch(/option ignoreChanges: "portSped": interconnect:index\/port:Port has no property "portSped"\n(?: +\d* \|.*\n)*\s+did you mean "portSpeed"\?/);
      expect(result.stderr).toContain('option "protekt" is not supported');
      expect(result.stderr).toMatch(/unknown resource type "interconnect:Vcx"\n(?: +\d* \|.*\n)*\s+did you mean "interconnect:index\/vxc:Vxc"\?/);
      expect(result.stderr).toMatch(/bEndPartnerConfig\.partner "awz" is not valid: must be one of aws, azure, google, oracle, ibm, transit, vrouter\n(?: +\d* \|.*\n)*\s+did you mean "aws"\?/);
      expect(result.stderr).toMatch(
        /unknown property "bEndPartnerConfig\.typ" for interconnect:index\/vxc:Vxc\n(?: +\d* \|.*\n)*\s+valid properties: partner, connectType, type, ownerAccount, .*; did you mean "type"\?/,
      );
      expect(result.stderr).toContain('9 errors; nothing was changed.');
      // A reference to the resource whose type is unknown is not reported a second time.
      expect(result.stderr).not.toContain('"vxc" is not defined');
      expect(result.stderr).not.toMatch(/Invalid|NaN|discriminator|received/);
    }
    expect(await sandbox.calls()).toEqual([]);
  });
});

describe('checks made before ordering, from the manifest and state', () => {
  const edge = `name: checked
resources:
  edge:
    type: interconnect:Port
    properties: { productName: edge, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
  router:
    type: interconnect:Mcr
    properties: { productName: router, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }
  routes:
    type: interconnect:McrPrefixFilterList
    properties: { mcrId: "\${router.productUid}", description: customer-routes, addressFamily: IPv4, entries: [{ action: permit, prefix: 10.0.0.0/8 }] }
`;
  const vxc = (name: string, vlan: number, extra = '') => `  ${name}:
    type: interconnect:Vxc
    properties:
      productName: ${name}
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${edge.productUid}", vlan: ${vlan} }
      bEnd: { requestedProductUid: "\${router.productUid}" }
${extra}`;
  const filter = (list: string) => `      bEndPartnerConfig:
        partner: vrouter
        interfaces:
          - bgpConnections:
              - { peerAsn: 65030, localIpAddress: 10.0.0.1, peerIpAddress: 10.0.0.2, importWhitelist: ${list} }
`;

  it('inputs missing from several resources are reported in the order of the file, by validate and plan alike', async () => {
    const dir = workdir();
    const ports = ['a', 'b', 'c'].map((name) => `  ${name}:\n    type: interconnect:Port\n    properties: { productName: ${name}, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }`);
    writeManifest(dir, 'plumb.yaml', ['name: order', 'resources:', ...ports].join('\n'));
    for (const command of ['validate', 'plan']) {
      const result = await plumb([command], { cwd: dir, env: sandbox.env });
      expect(result.code).toBe(1);
      const errors = result.stderr.split('\n').filter((line) => line.startsWith('plumb.yaml:'));
      expect(errors.map((line) => line.replace(/: error: .*/, ''))).toEqual(['plumb.yaml:5:17', 'plumb.yaml:8:17', 'plumb.yaml:11:17']);
    }
  });

  it('a VLAN a recorded VXC holds, and a BGP filter naming a list the MCR lacks, stop the plan and the apply before any order', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', `${edge}${vxc('first', 100)}`);
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    // The VXC renamed in the manifest: the new one would be ordered while the old one holds VLAN 100.
    writeManifest(dir, 'plumb.yaml', `${edge}${vxc('renamed', 100, filter('customer-route'))}`);
    await sandbox.clearCalls();
    for (const command of [['plan'], ['apply', '--yes']]) {
      const result = await plumb(command, { cwd: dir, env: sandbox.env });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /plumb\.yaml:18:\d+: error: VLAN 100 is already used on edge by first \(recorded; this manifest no longer declares it\)\n(?: +\d* \|.*\n)*\s+.*plumb state mv first renamed/,
      );
      expect(result.stderr).toMatch(/plumb\.yaml:\d+:\d+: error: MCR router has no prefix filter list "customer-route"\n(?: +\d* \|.*\n)*\s+did you mean "customer-routes"\?/);
    }
    expect((await sandbox.calls('interconnect')).filter((c) => c.method !== 'GET' && !c.path.includes('oauth'))).toEqual([]);
    // Destroying is not stopped by what a create would clash with.
    expect((await plumb(['destroy', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });

  it("an error from the API at apply names the resource's file and line", async () => {
    const dir = workdir();
    // A name longer than the API takes: no check of plumb's knows that rule, the API's validation does.
    writeManifest(
      dir,
      'plumb.yaml',
      `name: refused\nresources:\n  named:\n    type: interconnect:Port\n    properties: { productName: ${'n'.repeat(129)}, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }\n`,
    );
    const result = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/named \(create\): plumb\.yaml:3:3: POST \/v3\/networkdesign\/validate: 400 .*128 characters or fewer/);
  });

  it('a location that does not exist or takes no orders, and a speed it does not offer, stop the plan and the apply before any order, reading the locations once', async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `name: located
resources:
  nowhere:
    type: interconnect:Port
    properties: { productName: nowhere, portSpeed: 1000, locationId: 9999, contractTermMonths: 1, marketplaceVisibility: false }
  restricted:
    type: interconnect:Port
    properties: { productName: restricted, portSpeed: 1000, locationId: 6, contractTermMonths: 1, marketplaceVisibility: false }
  router:
    type: interconnect:Mcr
    properties:
      productName: router
      portSpeed: 25000
      locationId: 9
      contractTermMonths: 1
  fine:
    type: interconnect:Port
    properties: { productName: fine, portSpeed: 10000, locationId: 9, contractTermMonths: 1, marketplaceVisibility: false }
`,
    );
    expect((await plumb(['validate'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    await sandbox.clearCalls();
    for (const command of [['plan'], ['apply', '--yes']]) {
      const result = await plumb(command, { cwd: dir, env: sandbox.env });
      expect(result.code).toBe(1);
      const errors = result.stderr.split('\n').filter((line) => line.startsWith('plumb.yaml:'));
      expect(errors).toEqual([
        'plumb.yaml:5:70: error: no location has id 9999',
        'plumb.yaml:8:73: error: location 6 (Equinix SY4, Sydney) is Restricted: it takes no new port orders',
        'plumb.yaml:13:18: error: location 9 (NEXTDC M2, Melbourne) offers no 25000 Mbps MCR',
      ]);
      expect(result.stderr).toMatch(/its MCR speeds: 1000, 2500, 5000, 10000 Mbps; the closest locations that offer 25000 Mbps: 7 \(NEXTDC M1, Melbourne\), 1 km away/);
    }
    const calls = (await sandbox.calls('interconnect')).filter((c) => !c.path.includes('oauth'));
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
    expect(calls.filter((c) => c.path === '/v3/locations')).toHaveLength(2);
  });
});
