import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { stateFile } from '../support/state-file.js';

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
