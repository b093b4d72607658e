/** examples/cloud/compute.yaml through the CLI against the sandbox: apply, an in-place resize that stops the instance, in-place listener and rule changes, import, destroy in order. */
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir } from '../support/cli.js';
import { allText, cloudExampleKit } from '../support/cloud-example.js';
import { signedCloudCall } from '@plumb/sandbox/testing/cloud-api';

const EXAMPLE = resolve(import.meta.dirname, '../../examples/cloud/compute.yaml');
const PASSWORD = 'Sandbox-only-1';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

const { writes, state, run, edit, importPlansNoChange } = cloudExampleKit(() => sandbox);

describe('examples/cloud/compute.yaml', () => {
  let dir: string;
  beforeAll(async () => {
    dir = workdir('plumb-cloud-compute-');
    copyFileSync(EXAMPLE, join(dir, 'plumb.yaml'));
    const first = await run(dir, 'plan');
    expect(first.stdout).toContain('password');
    expect(first.stdout).toContain('[secret]');
    expect(first.stdout).not.toContain(PASSWORD);
    const applied = await run(dir, 'apply', '--yes');
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete! Resources: 18 added');
  });

  it('plans no change after the apply, and state holds the password only sealed', async () => {
    const plan = await run(dir, 'plan', '--detailed-exitcode');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    const stored = allText(join(dir, '.plumb'));
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain(Buffer.from(PASSWORD).toString('base64'));
  });

  it("the disk attached to dbHost is listed in its DiskSet as the SDK documents, and is none of dbHost's data disks: plan and drift find no change", async () => {
    const hostId = state(dir).resources.dbHost.id;
    const diskId = state(dir).resources.dbVolume.id;
    const seen = (await signedCloudCall(sandbox.url, { Action: 'DescribeUHostInstance', 'UHostIds.0': hostId })).UHostSet[0];
    expect(seen.DiskSet.filter((d: { Type: string }) => d.Type === 'Udisk')).toEqual([expect.objectContaining({ DiskId: diskId, Name: 'app-db-volume', IsBoot: 'False', Size: 200 })]);
    const plan = await run(dir, 'plan', '--detailed-exitcode');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    expect((await run(dir, 'drift')).code).toBe(0);
  });

  it("growing dbHost's own data disk resizes that disk, not the one attached to it", async () => {
    edit(dir, 'dataDisks:\n        - { type: cloud_ssd, size: 100 }', 'dataDisks:\n        - { type: cloud_ssd, size: 120 }');
    await sandbox.clearCalls();
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    expect(await writes()).toEqual(['ResizeAttachedDisk']);
    const hostId = state(dir).resources.dbHost.id;
    const seen = (await signedCloudCall(sandbox.url, { Action: 'DescribeUHostInstance', 'UHostIds.0': hostId })).UHostSet[0];
    expect(seen.DiskSet.filter((d: { IsBoot: string }) => d.IsBoot === 'False').map((d: { DiskId: string; Size: number }) => [d.DiskId, d.Size])).toEqual([
      [(state(dir).resources.dbHost as unknown as { outputs: { dataDiskIds: string[] } }).outputs.dataDiskIds[0], 120],
      [state(dir).resources.dbVolume.id, 200],
    ]);
    expect((await run(dir, 'plan', '--detailed-exitcode')).code).toBe(0);
  });

  it('resizing an instance is an update that says it stops and starts it, and applies as Stop, Resize, Start', async () => {
    edit(dir, 'cpu: 1\n      memory: 2048', 'cpu: 2\n      memory: 4096');
    const plan = await run(dir, 'plan');
    expect(plan.stdout).toMatch(/^ {2}~ webHost \(cloud:index\/instance:Instance\)/m);
    expect(plan.stdout).toContain('! a running instance is stopped, resized to 2 CPU / 4096 MB (ResizeUHostInstance), and started again: the API makes these changes only to a stopped instance');
    expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
    await sandbox.clearCalls();
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    expect(await writes()).toEqual(['StopUHostInstance', 'ResizeUHostInstance', 'StartUHostInstance']);
    expect((await run(dir, 'plan', '--detailed-exitcode')).code).toBe(0);
  });

  it("a listener's method and a rule's backends change in place: the plan says update, and each is one call", async () => {
    edit(dir, 'method: roundrobin', 'method: leastconn');
    edit(dir, 'backendIds: [ "${webBehindLb.backendId}" ]', 'backendIds: [ "${webBehindLb.backendId}", "${dbBehindLb.backendId}" ]');
    const plan = await run(dir, 'plan');
    expect(plan.stdout).toMatch(/^ {2}~ shopHttp \(cloud:index\/lbListener:LbListener\)/m);
    expect(plan.stdout).toMatch(/^ {2}~ staticToWeb \(cloud:index\/lbRule:LbRule\)/m);
    expect(plan.stdout).toContain('Plan: 0 to add, 2 to change, 0 to replace, 0 to destroy.');
    await sandbox.clearCalls();
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    expect([...(await writes())].sort()).toEqual(['UpdatePolicy', 'UpdateVServerAttribute']);
    expect((await run(dir, 'plan', '--detailed-exitcode')).code).toBe(0);
  });

  it("drift shows a listener's method changed through the API, read with the balancers' one listing; apply puts it back in one call", async () => {
    const [lbId, vserverId] = state(dir).resources.shopHttp.id.split('/');
    expect((await signedCloudCall(sandbox.url, { Action: 'UpdateVServerAttribute', ULBId: lbId, VServerId: vserverId, Method: 'Source' })).RetCode).toBe(0);
    await sandbox.clearCalls();
    const drift = await run(dir, 'drift');
    expect(drift.code).toBe(2);
    expect(drift.stdout).toMatch(/shopHttp[\s\S]*method[\s\S]*source/);
    // Balancers, listeners, backends and rules all come from DescribeULB's listing, not a call each.
    const reads = (await sandbox.calls('cloud')).map((c) => String(c.query.Action)).filter((a) => a === 'DescribeULB' || a === 'DescribeVServer');
    expect(reads).toEqual(['DescribeULB']);
    await sandbox.clearCalls();
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    expect(await writes()).toEqual(['UpdateVServerAttribute']);
  });

  it("a new image replaces both instances, naming the field and the API's rule, and the attachment with them (the NAT rule follows in place), before any call that writes", async () => {
    edit(dir, 'nameRegex: ^Ubuntu 22\\.04', 'nameRegex: ^Debian');
    await sandbox.clearCalls();
    const plan = await run(dir, 'plan');
    edit(dir, 'nameRegex: ^Debian', 'nameRegex: ^Ubuntu 22\\.04');
    expect(plan.stdout).toContain('imageId: only ReinstallUHostInstance changes the image, and it erases the boot disk');
    expect(plan.stdout).toContain(
      '# dbVolumeOnDbHost must be replaced (delete first, then create): instanceId: dbHost is replaced, so dbHost.instanceId changes: an attached disk cannot move: DetachUDisk, then AttachUDisk',
    );
    // The backends are of the old hosts, so they are replaced too; the rule takes the new ones in place.
    expect(plan.stdout).toContain('# webBehindLb must be replaced (create first, then delete): resourceId: webHost is replaced, so webHost.instanceId changes');
    expect(plan.stdout).toContain('# staticToWeb will be updated in place');
    // The NAT rule forwards to the web host's address, which it follows in place.
    expect(plan.stdout).toContain('# sshToWeb will be updated in place');
    expect(plan.stdout).toContain('Plan: 0 to add, 2 to change, 5 to replace, 0 to destroy.');
    expect(await writes()).toEqual([]);
  });

  it('imports every object into a fresh stack, which then plans no change', async () => {
    await importPlansNoChange(dir);
  });

  it('destroys in dependency order: the disk detached before it is deleted and its host stopped, hosts before their subnets and security group, the balancer emptied first', async () => {
    await sandbox.clearCalls();
    const destroyed = await run(dir, 'destroy', '--yes');
    expect(destroyed.code).toBe(0);
    const sent = await writes();
    expect([...sent].sort()).toEqual([
      'DeleteFirewall',
      'DeleteNATGW',
      'DeleteNATGWPolicy',
      'DeletePolicy',
      'DeleteSubnet',
      'DeleteSubnet',
      'DeleteUDisk',
      'DeleteULB',
      'DeleteVPC',
      'DeleteVServer',
      'DetachUDisk',
      'ReleaseBackend',
      'ReleaseBackend',
      'ReleaseEIP',
      'ReleaseEIP',
      'StopUHostInstance',
      'StopUHostInstance',
      'TerminateUHostInstance',
      'TerminateUHostInstance',
      'UnBindEIP',
    ]);
    // A rule before the backends it forwards to, backends before their hosts, the balancer before its subnet.
    expect(sent.indexOf('DeletePolicy')).toBeLessThan(sent.indexOf('ReleaseBackend'));
    expect(sent.lastIndexOf('ReleaseBackend')).toBeLessThan(sent.indexOf('DeleteVServer'));
    expect(sent.lastIndexOf('ReleaseBackend')).toBeLessThan(sent.indexOf('TerminateUHostInstance'));
    expect(sent.indexOf('DeleteVServer')).toBeLessThan(sent.indexOf('DeleteULB'));
    expect(sent.indexOf('UnBindEIP')).toBeLessThan(sent.indexOf('DeleteULB'));
    expect(sent.indexOf('UnBindEIP')).toBeLessThan(sent.indexOf('ReleaseEIP'));
    // The other subnet (the data host's) may go before the balancer: nothing of it is in there.
    expect(destroyed.stdout.indexOf('shopLb: Destruction complete')).toBeGreaterThan(-1);
    expect(destroyed.stdout.indexOf('shopLb: Destruction complete')).toBeLessThan(destroyed.stdout.indexOf('web: Destroying...'));
    expect(sent.indexOf('DetachUDisk')).toBeLessThan(sent.indexOf('DeleteUDisk'));
    expect(sent.indexOf('DetachUDisk')).toBeLessThan(sent.indexOf('StopUHostInstance'));
    // Each subnet goes after the host in it: the first after one host, the second after both.
    expect(sent.indexOf('TerminateUHostInstance')).toBeLessThan(sent.indexOf('DeleteSubnet'));
    expect(sent.lastIndexOf('TerminateUHostInstance')).toBeLessThan(sent.lastIndexOf('DeleteSubnet'));
    expect(sent.lastIndexOf('TerminateUHostInstance')).toBeLessThan(sent.indexOf('DeleteFirewall'));
    expect(sent.lastIndexOf('DeleteSubnet')).toBeLessThan(sent.indexOf('DeleteVPC'));
    // The NAT gateway's rule before the gateway, the gateway before its subnets and its EIP.
    expect(sent.indexOf('DeleteNATGWPolicy')).toBeLessThan(sent.indexOf('DeleteNATGW'));
    expect(sent.indexOf('DeleteNATGW')).toBeLessThan(sent.indexOf('DeleteSubnet'));
    expect(sent.indexOf('DeleteNATGW')).toBeLessThan(sent.lastIndexOf('ReleaseEIP'));
  });
});
