/** The cloud sandbox's UHost and UDisk write Actions, called as the API documentation describes them (signed form posts, `.N` lists). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudApi } from '../../src/cloud/index.js';
import { startSandbox, type Sandbox } from '../../src/server.js';
import { cloudActions } from '../support/cloud-api.js';

let sb: Sandbox;
let slow: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ provisioningMs: 0, apis: [cloudApi] });
  slow = await startSandbox({ provisioningMs: 300, apis: [cloudApi] });
});
afterAll(async () => {
  await sb.close();
  await slow.close();
});

/** Signed form POSTs to the sandbox (`sb` unless another is given). */
const { call, ok } = cloudActions(() => sb);

const ZONE = 'cn-bj2-02';

const settle = (target: Sandbox) => new Promise((r) => setTimeout(r, target === slow ? 350 : 0));

/** A VPC, a subnet and an image id in the zone, on the given sandbox (each provisioned before it is used). */
async function network(target: Sandbox, range: number): Promise<Record<string, string>> {
  const { VPCId } = await ok({ Action: 'CreateVPC', Name: `net-${range}`, 'Network.0': `10.${range}.0.0/16` }, target);
  await settle(target);
  const { SubnetId } = await ok({ Action: 'CreateSubnet', VPCId, Subnet: `10.${range}.1.0`, Netmask: 24 }, target);
  await settle(target);
  const { ImageSet } = await ok({ Action: 'DescribeImage', Zone: ZONE, ImageType: 'Base' }, target);
  return { VPCId, SubnetId, ImageId: ImageSet[0].ImageId };
}

const host = (net: Record<string, string>, more: Record<string, string | number> = {}) => ({
  Action: 'CreateUHostInstance',
  Zone: ZONE,
  ...net,
  LoginMode: 'Password',
  Password: Buffer.from('Sandbox-pass-1').toString('base64'),
  CPU: 2,
  Memory: 4096,
  'Disks.0.IsBoot': 'True',
  'Disks.0.Type': 'CLOUD_SSD',
  'Disks.0.Size': 40,
  'Disks.1.IsBoot': 'False',
  'Disks.1.Type': 'CLOUD_SSD',
  'Disks.1.Size': 100,
  Name: 'sb-host',
  ...more,
});

const describeHost = async (id: string, target = sb) => (await ok({ Action: 'DescribeUHostInstance', 'UHostIds.0': id }, target)).UHostSet[0];

describe('UHost instances', () => {
  it('creates from Disks.N, Initializing until provisioned, then Running with its disks and private address in the subnet', async () => {
    const net = await network(slow, 60);
    const { UHostIds, IPs } = await ok(host(net), slow);
    expect(UHostIds[0]).toMatch(/^uhost-[0-9a-f]{8}$/);
    expect(IPs[0]).toMatch(/^10\.60\.1\./);
    expect((await describeHost(UHostIds[0], slow)).State).toBe('Initializing');
    await new Promise((r) => setTimeout(r, 350));
    const seen = await describeHost(UHostIds[0], slow);
    expect(seen).toMatchObject({ State: 'Running', CPU: 2, Memory: 4096, Name: 'sb-host', Remark: '', Tag: 'Default' });
    expect(seen.DiskSet.map((d: any) => [d.IsBoot, d.DiskType, d.Size])).toEqual([
      ['True', 'CLOUD_SSD', 40],
      ['False', 'CLOUD_SSD', 100],
    ]);
    expect(seen).not.toHaveProperty('Password');
  });

  it('refuses two boot disks, a cloud-normal boot disk and a password that is not base64', async () => {
    const net = await network(sb, 61);
    expect((await call(host(net, { 'Disks.1.IsBoot': 'True' }))).RetCode).toBe(230);
    expect((await call(host(net, { 'Disks.0.Type': 'CLOUD_NORMAL' }))).RetCode).toBe(230);
    expect((await call(host(net, { Password: 'not base64!' }))).RetCode).toBe(230);
    expect((await call(host(net, { Memory: 1000 }))).RetCode).toBe(8045);
  });

  it('resizes, resets the password and terminates only a stopped instance (8010, 8856)', async () => {
    const net = await network(sb, 62);
    const {
      UHostIds: [id],
    } = await ok(host(net));
    expect((await call({ Action: 'ResizeUHostInstance', UHostId: id, CPU: 4 })).RetCode).toBe(8010);
    expect((await call({ Action: 'ResetUHostInstancePassword', UHostId: id, Password: Buffer.from('Other-pass-2').toString('base64') })).RetCode).toBe(8010);
    expect((await call({ Action: 'TerminateUHostInstance', UHostId: id })).RetCode).toBe(8856);
    await ok({ Action: 'StopUHostInstance', UHostId: id });
    await ok({ Action: 'ResizeUHostInstance', UHostId: id, CPU: 4, Memory: 8192 });
    expect(await describeHost(id)).toMatchObject({ State: 'Stopped', CPU: 4, Memory: 8192 });
    await ok({ Action: 'TerminateUHostInstance', UHostId: id, ReleaseUDisk: 'true' });
    expect((await ok({ Action: 'DescribeUHostInstance', 'UHostIds.0': id })).TotalCount).toBe(0);
    expect((await call({ Action: 'StartUHostInstance', UHostId: id })).RetCode).toBe(8039);
  });

  it('a remark, name and tag change in place while it runs', async () => {
    const net = await network(sb, 63);
    const {
      UHostIds: [id],
    } = await ok(host(net));
    await ok({ Action: 'ModifyUHostInstanceRemark', UHostId: id, Remark: 'front' });
    await ok({ Action: 'ModifyUHostInstanceName', UHostId: id, Name: 'front-1' });
    await ok({ Action: 'ModifyUHostInstanceTag', UHostId: id, Tag: 'web' });
    expect(await describeHost(id)).toMatchObject({ State: 'Running', Remark: 'front', Name: 'front-1', Tag: 'web' });
  });
});

describe('UDisks', () => {
  it('a new disk is Initializating (sic) until provisioned, then Available; attaching passes through Attaching', async () => {
    const net = await network(slow, 64);
    const {
      UHostIds: [hostId],
    } = await ok(host(net), slow);
    await settle(slow);
    const {
      UDiskId: [id],
    } = await ok({ Action: 'CreateUDisk', Zone: ZONE, Name: 'sb-disk', Size: 50 }, slow);
    const status = async () => (await ok({ Action: 'DescribeUDisk', UDiskId: id }, slow)).DataSet[0].Status;
    expect(await status()).toBe('Initializating');
    await new Promise((r) => setTimeout(r, 350));
    expect(await status()).toBe('Available');
    await ok({ Action: 'AttachUDisk', UDiskId: id, HostId: hostId }, slow);
    expect(await status()).toBe('Attaching');
    expect((await call({ Action: 'AttachUDisk', UDiskId: id, HostId: hostId }, slow)).RetCode).toBe(17056);
    await new Promise((r) => setTimeout(r, 350));
    const seen = (await ok({ Action: 'DescribeUDisk', UDiskId: id }, slow)).DataSet[0];
    expect(seen).toMatchObject({ Status: 'InUse', UHostId: hostId, DeviceName: '/dev/vdc', ChargeType: 'Dynamic', DiskType: 'DataDisk' });
  });

  it('an attached disk is neither deleted nor resized alone (17026); detached, it is', async () => {
    const net = await network(sb, 65);
    const {
      UHostIds: [hostId],
    } = await ok(host(net));
    const {
      UDiskId: [id],
    } = await ok({ Action: 'CreateUDisk', Zone: ZONE, Name: 'sb-disk-2', Size: 50 });
    await ok({ Action: 'AttachUDisk', UDiskId: id, HostId: hostId });
    expect((await call({ Action: 'DeleteUDisk', Zone: ZONE, UDiskId: id })).RetCode).toBe(17026);
    expect((await call({ Action: 'ResizeUDisk', Zone: ZONE, UDiskId: id, Size: 60 })).RetCode).toBe(17026);
    await ok({ Action: 'ResizeAttachedDisk', Zone: ZONE, UHostId: hostId, DiskId: id, DiskSpace: 60 });
    await ok({ Action: 'DetachUDisk', UDiskId: id, HostId: hostId });
    await ok({ Action: 'ResizeUDisk', Zone: ZONE, UDiskId: id, Size: 70 });
    expect((await call({ Action: 'ResizeUDisk', Zone: ZONE, UDiskId: id, Size: 10 })).RetCode).toBe(230);
    await ok({ Action: 'RenameUDisk', Zone: ZONE, UDiskId: id, UDiskName: 'renamed' });
    expect((await ok({ Action: 'DescribeUDisk', UDiskId: id })).DataSet[0]).toMatchObject({ Size: 70, Name: 'renamed', Status: 'Available', UHostId: '' });
    await ok({ Action: 'DeleteUDisk', Zone: ZONE, UDiskId: id });
    expect((await call({ Action: 'DeleteUDisk', Zone: ZONE, UDiskId: id })).RetCode).toBe(17041);
  });
  it("an attached disk is listed in its host's DiskSet as UHostDiskSet documents a UDisk (Type Udisk, its Name), after the host's own disks, until it is detached", async () => {
    const net = await network(sb, 66);
    const {
      UHostIds: [hostId],
    } = await ok(host(net));
    const {
      UDiskId: [id],
    } = await ok({ Action: 'CreateUDisk', Zone: ZONE, Name: 'sb-disk-3', Size: 50, DiskType: 'SSDDataDisk' });
    await ok({ Action: 'AttachUDisk', UDiskId: id, HostId: hostId });
    const seen = await describeHost(hostId);
    expect(seen.DiskSet.map((d: any) => [d.IsBoot, d.Type, d.DiskType, d.Size])).toEqual([
      ['True', 'Boot', 'CLOUD_SSD', 40],
      ['False', 'Data', 'CLOUD_SSD', 100],
      ['False', 'Udisk', 'CLOUD_SSD', 50],
    ]);
    expect(seen.DiskSet[2]).toMatchObject({ DiskId: id, Name: 'sb-disk-3', Drive: 'vdc' });
    await ok({ Action: 'DetachUDisk', UDiskId: id, HostId: hostId });
    expect((await describeHost(hostId)).DiskSet.map((d: any) => d.Type)).toEqual(['Boot', 'Data']);
  });
});
