/**
 * Replacements that keep what the API lets one object hold at a time (an EIP's binding, a
 * subnet's range): the plan picks an order the API accepts, or refuses before any call saying
 * what to do. Judged against the sandbox's world, not plumb's state.
 */
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedCloudCall } from '@plumb/sandbox/testing/cloud-api';
import { testSandbox, workdir } from '../support/cli.js';
import { cloudExampleKit } from '../support/cloud-example.js';

const EXAMPLES = resolve(import.meta.dirname, '../../examples/cloud');

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

const { writes, state, run, edit } = cloudExampleKit(() => sandbox);

/** An example applied in a fresh folder. */
async function applied(example: string): Promise<string> {
  const dir = workdir('plumb-cloud-claims-');
  copyFileSync(join(EXAMPLES, example), join(dir, 'plumb.yaml'));
  const first = await run(dir, 'apply', '--yes');
  expect(first.stderr).toBe('');
  expect(first.code).toBe(0);
  return dir;
}

/** One listing Action's DataSet, all of it. */
async function listed(params: Record<string, string | number>): Promise<Array<Record<string, any>>> {
  const body = await signedCloudCall(sandbox.url, { Limit: 1000, ...params });
  expect(body.RetCode).toBe(0);
  return body.DataSet;
}

async function converged(dir: string): Promise<void> {
  const plan = await run(dir, 'plan', '--detailed-exitcode');
  expect(plan.stdout).toContain('No changes.');
  expect(plan.code).toBe(0);
}

describe('replacements keeping what one object holds at a time', () => {
  it('examples/cloud/vpn.yaml: a VPN gateway renamed keeping its EIP is replaced delete-first, its connection with it, and the world has one gateway on the EIP', async () => {
    const dir = await applied('vpn.yaml');
    const eip = state(dir).resources.vpnIp.id;
    const vpcId = state(dir).resources.network.id;
    edit(dir, 'name: office-vpn\n', 'name: office-vpn-2\n');
    const plan = JSON.parse((await run(dir, 'plan', '--json')).stdout) as { changes: Array<{ address: string; action: string; replaceOrder?: string }> };
    expect(plan.changes.filter((c) => c.action === 'replace').map((c) => [c.address, c.replaceOrder])).toEqual([
      ['gateway', 'delete-first'],
      ['officeLink', 'delete-first'],
    ]);
    const again = await run(dir, 'apply', '--yes');
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    await converged(dir);
    const gateways = await listed({ Action: 'DescribeVPNGateway', VPCId: vpcId });
    expect(gateways.map((g) => [g.VPNGatewayName, g.EIPId])).toEqual([['office-vpn-2', eip]]);
    const tunnels = await listed({ Action: 'DescribeVPNTunnel' });
    expect(tunnels.filter((t) => t.VPCId === vpcId).map((t) => t.VPNGatewayId)).toEqual([gateways[0].VPNGatewayId]);
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
  });

  it('examples/cloud/network.yaml: renaming the VPC applies and converges, leaving one VPC with its two subnets and the NAT gateway on them', async () => {
    const dir = await applied('network.yaml');
    const old = state(dir).resources.network.id;
    edit(dir, 'name: shop-vpc', 'name: shop-vpc-2');
    const again = await run(dir, 'apply', '--yes');
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    await converged(dir);
    const vpcs = (await listed({ Action: 'DescribeVPC' })).filter((v) => v.Name === 'shop-vpc' || v.Name === 'shop-vpc-2');
    expect(vpcs.map((v) => v.Name)).toEqual(['shop-vpc-2']);
    expect(vpcs[0].VPCId).not.toBe(old);
    const subnets = await listed({ Action: 'DescribeSubnet', VPCId: vpcs[0].VPCId });
    expect(subnets.map((s) => `${s.SubnetName} ${s.Subnet}/${s.Netmask}`).sort()).toEqual(['shop-data 10.20.2.0/24', 'shop-web 10.20.1.0/24']);
    expect(await listed({ Action: 'DescribeSubnet', VPCId: old })).toEqual([]);
    const nat = (await listed({ Action: 'DescribeNATGW' })).filter((n) => n.NATGWName === 'shop-nat');
    expect(nat.map((n) => [n.VPCId, n.SubnetSet.map((s: { SubnetworkId: string }) => s.SubnetworkId).sort()])).toEqual([[vpcs[0].VPCId, subnets.map((s) => s.SubnetId).sort()]]);
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
  });

  it('examples/cloud/network.yaml: a subnet the NAT gateway serves, replaced keeping its range, is refused before any call with the runs that work, and they do', async () => {
    const dir = await applied('network.yaml');
    const old = state(dir).resources.data.id;
    edit(dir, 'remark: databases only', 'remark: databases and caches');
    await sandbox.clearCalls();
    const refused = await run(dir, 'plan');
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toMatch(
      /plumb\.yaml:\d+:\d+: error: data cannot be replaced \(remark \(.*\)\) in either order while nat uses it \(nat\.subnetIds\): created first, the new object would need the address range in a VPC \(uvnet-\w+ 10\.20\.2\.0\/24\) the old one holds; deleted first, the API refuses to delete a subnet a NAT gateway serves \(4411\)/,
    );
    expect(refused.stdout + refused.stderr).toContain('apply in two runs: first take data out of nat.subnetIds, leaving data as it is; then replace data and put it back');
    expect(await writes()).toEqual([]);

    // The first run, as the refusal says: the gateway leaves the subnet, which stays as it is.
    edit(dir, 'remark: databases and caches', 'remark: databases only');
    edit(dir, '        - ${web.subnetId}\n        - ${data.subnetId}\n', '        - ${web.subnetId}\n');
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    edit(dir, 'remark: databases only', 'remark: databases and caches');
    edit(dir, '        - ${web.subnetId}\n', '        - ${web.subnetId}\n        - ${data.subnetId}\n');
    const second = await run(dir, 'apply', '--yes');
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    await converged(dir);
    const vpcId = state(dir).resources.network.id;
    const ranges = (await listed({ Action: 'DescribeSubnet', VPCId: vpcId })).filter((s) => s.Subnet === '10.20.2.0');
    expect(ranges.map((s) => s.Remark)).toEqual(['databases and caches']);
    expect(ranges[0].SubnetId).not.toBe(old);
    const nat = (await listed({ Action: 'DescribeNATGW' })).find((n) => n.VPCId === vpcId)!;
    expect(nat.SubnetSet.map((s: { SubnetworkId: string }) => s.SubnetworkId).sort()).toEqual([state(dir).resources.web.id, ranges[0].SubnetId].sort());
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
  });
  it('examples/cloud/network.yaml: the NAT gateway replaced keeping its EIP is replaced delete-first, its rule with it, and the world has one gateway on the EIP', async () => {
    const dir = await applied('network.yaml');
    const eip = state(dir).resources.natIp.id;
    const old = state(dir).resources.nat.id;
    const plan = JSON.parse((await run(dir, 'plan', '--json', '--replace', 'nat')).stdout) as { changes: Array<{ address: string; action: string; replaceOrder?: string }> };
    expect(plan.changes.filter((c) => c.action === 'replace').map((c) => [c.address, c.replaceOrder])).toEqual([
      ['nat', 'delete-first'],
      ['natSsh', 'delete-first'],
    ]);
    const again = await run(dir, 'apply', '--yes', '--replace', 'nat');
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    await converged(dir);
    const vpcId = state(dir).resources.network.id;
    const nat = (await listed({ Action: 'DescribeNATGW' })).filter((n) => n.VPCId === vpcId);
    expect(nat.map((n) => [n.NATGWName, n.IPSet.map((i: { EIPId: string }) => i.EIPId)])).toEqual([['shop-nat', [eip]]]);
    expect(nat[0].NATGWId).not.toBe(old);
    const rules = await listed({ Action: 'DescribeNATGWPolicy', NATGWId: nat[0].NATGWId });
    expect(rules.map((r) => [r.PolicyName, r.SrcEIPId, r.SrcPort])).toEqual([['ssh-to-web', eip, '2222']]);
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
  });

  it('examples/cloud/network.yaml: a subnet nothing uses, replaced keeping its range, is replaced delete-first and the world has the one new subnet on that range', async () => {
    const dir = workdir('plumb-cloud-claims-');
    copyFileSync(join(EXAMPLES, 'network.yaml'), join(dir, 'plumb.yaml'));
    edit(dir, '        - ${web.subnetId}\n        - ${data.subnetId}\n', '        - ${web.subnetId}\n');
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    const old = state(dir).resources.data.id;
    edit(dir, 'remark: databases only', 'remark: databases and caches');
    const plan = JSON.parse((await run(dir, 'plan', '--json')).stdout) as { changes: Array<{ address: string; action: string; replaceOrder?: string }> };
    expect(plan.changes.filter((c) => c.action !== 'noop').map((c) => [c.address, c.action, c.replaceOrder])).toEqual([['data', 'replace', 'delete-first']]);
    const again = await run(dir, 'apply', '--yes');
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    await converged(dir);
    const ranges = (await listed({ Action: 'DescribeSubnet', VPCId: state(dir).resources.network.id })).filter((s) => s.Subnet === '10.20.2.0');
    expect(ranges.map((s) => [s.SubnetName, s.Remark])).toEqual([['shop-data', 'databases and caches']]);
    expect(ranges[0].SubnetId).not.toBe(old);
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
  });

  it("examples/cloud/vpn.yaml: a subnet a connection uses, replaced keeping its range, is deleted first, and the plan's note does not advise creating first", async () => {
    const dir = await applied('vpn.yaml');
    edit(dir, 'name: office-app\n', 'name: office-app\n      remark: app tier\n');
    const plan = JSON.parse((await run(dir, 'plan', '--json')).stdout) as { changes: Array<{ address: string; action: string; replaceOrder?: string; notes: string[] }> };
    const app = plan.changes.find((c) => c.address === 'app')!;
    expect(app).toMatchObject({ action: 'replace', replaceOrder: 'delete-first' });
    expect(app.notes).toContainEqual(expect.stringContaining('while officeLink still uses it: the remote API may refuse the delete (a product in use); it cannot be replaced create-first'));
    expect(app.notes.join('\n')).not.toContain('replacing it create-first avoids that');
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    await converged(dir);
    const tunnel = (await listed({ Action: 'DescribeVPNTunnel', 'VPNTunnelIds.0': state(dir).resources.officeLink.id }))[0];
    expect(tunnel.IPSecData.IPSecLocalSubnetIds).toEqual([state(dir).resources.app.id]);
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
  });
});
