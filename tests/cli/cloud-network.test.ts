/** examples/cloud/network.yaml through the CLI against the sandbox: apply, in-place renames (a subnet, the NAT gateway), the VPC cascade, drift, import, destroy. */
import { signedCloudCall } from '@plumb/sandbox/testing/cloud-api';
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir } from '../support/cli.js';
import { cloudExampleKit } from '../support/cloud-example.js';

const EXAMPLE = resolve(import.meta.dirname, '../../examples/cloud/network.yaml');

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

const { writes, state, run, edit, importPlansNoChange } = cloudExampleKit(() => sandbox);

/** A change made the way a person would: a signed call to the API, with the sandbox's documented key pair. */
async function callApi(params: Record<string, string>): Promise<Record<string, unknown>> {
  const body = await signedCloudCall(sandbox.url, params);
  expect(body.RetCode).toBe(0);
  return body;
}

describe('examples/cloud/network.yaml', () => {
  let dir: string;
  beforeAll(async () => {
    dir = workdir('plumb-cloud-network-');
    copyFileSync(EXAMPLE, join(dir, 'plumb.yaml'));
    const applied = await run(dir, 'apply', '--yes');
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete! Resources: 9 added');
  });

  it('plans no change after the apply', async () => {
    const plan = await run(dir, 'plan', '--detailed-exitcode');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });

  it('renaming a subnet is an update and one call', async () => {
    edit(dir, 'name: shop-web\n      tag: shop\n  data', 'name: shop-frontend\n      tag: shop\n  data');
    const plan = await run(dir, 'plan');
    expect(plan.stdout).toMatch(/^ {2}~ web \(cloud:index\/subnet:Subnet\)/m);
    expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
    await sandbox.clearCalls();
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    expect(await writes()).toEqual(['UpdateSubnetAttribute']);
  });

  it('renaming the NAT gateway is an update and one UpdateNATGW call', async () => {
    edit(dir, 'name: shop-nat\n', 'name: shop-egress\n');
    const plan = await run(dir, 'plan');
    expect(plan.stdout).toMatch(/^ {2}~ nat \(cloud:index\/natGateway:NatGateway\)/m);
    expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
    await sandbox.clearCalls();
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    expect(await writes()).toEqual(['UpdateNATGW']);
    expect((await run(dir, 'plan', '--detailed-exitcode')).code).toBe(0);
  });

  it('renaming the VPC plans its replacement and everything in it (both subnets, the NAT gateway and its rule), each with its reason, and calls nothing that writes', async () => {
    edit(dir, 'name: shop-vpc', 'name: shop-vpc-2');
    await sandbox.clearCalls();
    const text = await run(dir, 'plan');
    const plan = await run(dir, 'plan', '--json');
    edit(dir, 'name: shop-vpc-2', 'name: shop-vpc');
    expect(text.stdout).toContain('# web must be replaced (create first, then delete): vpcId: network is replaced, so network.vpcId changes');
    expect(text.stdout).toContain('Plan: 0 to add, 0 to change, 5 to replace, 0 to destroy.');
    expect(plan.code).toBe(0);
    const changes = (JSON.parse(plan.stdout) as { changes: Array<{ address: string; action: string; replacePaths?: Array<{ path: string; reason: string }> }> }).changes;
    const replaced = changes.filter((c) => c.action === 'replace').map((c) => [c.address, c.replacePaths]);
    expect(replaced).toEqual([
      ['data', [{ path: 'vpcId', reason: 'network is replaced, so network.vpcId changes: a subnet cannot move to another VPC (no API Action)' }]],
      ['nat', [{ path: 'vpcId', reason: 'network is replaced, so network.vpcId changes: a NAT gateway cannot move to another VPC (no API Action)' }]],
      ['natSsh', [{ path: 'natGatewayId', reason: 'nat is replaced, so nat.natGatewayId changes: a forwarding policy belongs to one NAT gateway; UpdateNATGWPolicy cannot move it' }]],
      ['network', [{ path: 'name', reason: 'the API has no Action that renames a VPC' }]],
      ['web', [{ path: 'vpcId', reason: 'network is replaced, so network.vpcId changes: a subnet cannot move to another VPC (no API Action)' }]],
    ]);
    expect(changes.filter((c) => c.action !== 'replace').every((c) => c.action === 'noop')).toBe(true);
    expect(await writes()).toEqual([]);
  });

  it('drift shows a remark changed through the API', async () => {
    const sg = state(dir).resources.webFirewall.id;
    await callApi({ Action: 'UpdateFirewallAttribute', FWId: sg, Remark: 'changed by hand' });
    const drift = await run(dir, 'drift');
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('webFirewall');
    expect(drift.stdout).toContain('changed by hand');
    // Applying puts the manifest's remark back in place.
    await sandbox.clearCalls();
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    expect(await writes()).toEqual(['UpdateFirewallAttribute']);
  });

  it('imports every object into a fresh stack, which then plans no change', async () => {
    await importPlansNoChange(dir, ['network', 'web', 'data', 'webFirewall', 'publicIp', 'publicIpOnWeb', 'natIp', 'nat', 'natSsh']);
  });

  it('destroys in dependency order: the binding before the EIP, the rule before the NAT gateway, which goes before its subnets, security group and EIP; the subnets before the VPC', async () => {
    await sandbox.clearCalls();
    const destroyed = await run(dir, 'destroy', '--yes');
    expect(destroyed.code).toBe(0);
    const sent = await writes();
    expect([...sent].sort()).toEqual(['DeleteFirewall', 'DeleteNATGW', 'DeleteNATGWPolicy', 'DeleteSubnet', 'DeleteSubnet', 'DeleteVPC', 'ReleaseEIP', 'ReleaseEIP', 'UnBindEIP']);
    const order = (await sandbox.calls('cloud')).map((c) => String(c.query.Action));
    expect(order.indexOf('UnBindEIP')).toBeLessThan(order.indexOf('ReleaseEIP'));
    expect(order.indexOf('DeleteNATGWPolicy')).toBeLessThan(order.indexOf('DeleteNATGW'));
    for (const after of ['DeleteSubnet', 'DeleteFirewall']) expect(order.indexOf('DeleteNATGW')).toBeLessThan(order.indexOf(after));
    expect(order.indexOf('DeleteNATGW')).toBeLessThan(order.lastIndexOf('ReleaseEIP'));
    expect(order.lastIndexOf('DeleteSubnet')).toBeLessThan(order.indexOf('DeleteVPC'));
  });
});
