/** examples/cloud/vpn.yaml through the CLI against the sandbox: the key kept secret, a new key in place, a new name replacing, import, destroy in order. */
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedCloudCall } from '@plumb/sandbox/testing/cloud-api';
import { plumb, testSandbox, workdir } from '../support/cli.js';
import { allText, cloudExampleKit } from '../support/cloud-example.js';

const EXAMPLE = resolve(import.meta.dirname, '../../examples/cloud/vpn.yaml');
const KEY = 'Sandbox-only-psk-1';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

const { writes, state, run, edit, importPlansNoChange } = cloudExampleKit(() => sandbox);

describe('examples/cloud/vpn.yaml', () => {
  let dir: string;
  beforeAll(async () => {
    dir = workdir('plumb-cloud-vpn-');
    copyFileSync(EXAMPLE, join(dir, 'plumb.yaml'));
    const first = await run(dir, 'plan');
    expect(first.stdout).toContain('preSharedKey');
    expect(first.stdout).toContain('[secret]');
    expect(first.stdout).not.toContain(KEY);
    const applied = await run(dir, 'apply', '--yes');
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete! Resources: 6 added');
    expect(applied.stdout).not.toContain(KEY);
  });

  it('plans no change after the apply, and state holds the key only sealed', async () => {
    const plan = await run(dir, 'plan', '--detailed-exitcode');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    expect(allText(join(dir, '.plumb'))).not.toContain(KEY);
  });

  it('a new key is an update and one UpdateVPNTunnelAttribute call, never shown', async () => {
    edit(dir, `default: ${KEY}`, 'default: Sandbox-only-psk-2');
    const plan = await run(dir, 'plan');
    expect(plan.stdout).toMatch(/^ {2}~ officeLink \(cloud:index\/vpnConnection:VpnConnection\)/m);
    expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
    expect(plan.stdout).not.toContain('Sandbox-only-psk');
    await sandbox.clearCalls();
    const applied = await run(dir, 'apply', '--yes');
    expect(applied.code).toBe(0);
    expect(applied.stdout).not.toContain('Sandbox-only-psk');
    expect(await writes()).toEqual(['UpdateVPNTunnelAttribute']);
    expect((await run(dir, 'plan', '--detailed-exitcode')).code).toBe(0);
  });

  it("renaming the connection is a replacement naming the field and the API's rule, before any call that writes", async () => {
    edit(dir, 'name: office-link', 'name: office-link-2');
    await sandbox.clearCalls();
    const plan = await run(dir, 'plan', '--json');
    edit(dir, 'name: office-link-2', 'name: office-link');
    const changes = (JSON.parse(plan.stdout) as { changes: Array<{ address: string; action: string; replacePaths?: unknown }> }).changes;
    expect(changes.filter((c) => c.action !== 'noop')).toEqual([
      expect.objectContaining({
        address: 'officeLink',
        action: 'replace',
        replacePaths: [{ path: 'name', reason: 'UpdateVPNTunnelAttribute takes no name, tag or remark, and no other Action changes them' }],
      }),
    ]);
    expect(await writes()).toEqual([]);
  });

  it('imports every object into a fresh stack, which then plans no change', async () => {
    await importPlansNoChange(dir, ['network', 'app', 'vpnIp', 'gateway', 'headOffice', 'officeLink']);
    expect(allText(join(dir, '.plumb'))).not.toContain('Sandbox-only-psk');
  });

  it("drift shows a key changed through the API as a secret, and applying puts the manifest's back in one call", async () => {
    const tunnel = state(dir).resources.officeLink.id;
    expect((await signedCloudCall(sandbox.url, { Action: 'UpdateVPNTunnelAttribute', VPNTunnelId: tunnel, IKEPreSharedKey: 'changed-by-hand' })).RetCode).toBe(0);
    const drift = await run(dir, 'drift');
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('officeLink');
    expect(drift.stdout).toContain('preSharedKey');
    expect(drift.stdout).not.toContain('changed-by-hand');
    await sandbox.clearCalls();
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    expect(await writes()).toEqual(['UpdateVPNTunnelAttribute']);
  });

  it('destroys in dependency order: the connection before both gateways, the gateway before its EIP', async () => {
    await sandbox.clearCalls();
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
    const order = await writes();
    expect([...order].sort()).toEqual(['DeleteRemoteVPNGateway', 'DeleteSubnet', 'DeleteVPC', 'DeleteVPNGateway', 'DeleteVPNTunnel', 'ReleaseEIP']);
    for (const after of ['DeleteVPNGateway', 'DeleteRemoteVPNGateway', 'DeleteSubnet']) expect(order.indexOf('DeleteVPNTunnel')).toBeLessThan(order.indexOf(after));
    expect(order.indexOf('DeleteVPNGateway')).toBeLessThan(order.indexOf('ReleaseEIP'));
    expect(order.indexOf('DeleteVPNGateway')).toBeLessThan(order.indexOf('DeleteVPC'));
  });
});
