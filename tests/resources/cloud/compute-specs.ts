/** Lifecycle specs of the cloud compute types (instance, disk, disk attachment). */
import * as z from 'zod';
import { expect } from 'vitest';
import type { CloudClient } from '../../../src/providers/cloud/index.js';
import { disk } from '../../../src/resources/cloud/disk.js';
import { diskAttachment } from '../../../src/resources/cloud/disk-attachment.js';
import { instance } from '../../../src/resources/cloud/instance.js';
import { subnet } from '../../../src/resources/cloud/subnet.js';
import { vpc } from '../../../src/resources/cloud/vpc.js';
import { lifecycleSpec, type LifecycleWorld, type MakeContext } from '../../support/lifecycle.js';

/** The zone the suite's machines live in. */
export const ZONE = 'cn-bj2-02';

/** Where the suite's instances go, and the images they are made from. */
export interface Network {
  vpcId: string;
  subnetId: string;
  ubuntu: string;
  debian: string;
}

/** A VPC with a subnet, and two base images of the zone. */
export async function makeNetwork(ctx: MakeContext, name: string, range: number): Promise<Network> {
  const c = await ctx(name);
  const home = await vpc.create(c, { name, cidrBlocks: [`10.${range}.0.0/16`] });
  const sub = await subnet.create(c, { vpcId: home.id, cidrBlock: `10.${range}.1.0/24`, name });
  const images = await (c.client as CloudClient).pageAll<{ ImageId: string; ImageName: string }>('DescribeImage', { Zone: ZONE, ImageType: 'Base' }, 'ImageSet');
  const image = (prefix: string) => images.find((i) => i.ImageName.startsWith(prefix))!.ImageId;
  return { vpcId: home.id, subnetId: sub.id, ubuntu: image('Ubuntu 22.04'), debian: image('Debian') };
}

/** The instances the API lists in a subnet, by id. */
export async function hostsIn(world: LifecycleWorld, subnetId: string): Promise<string[]> {
  const client = (await world.ctx('census')).client as CloudClient;
  const hosts = await client.pageAll<{ UHostId: string; IPSet: Array<{ SubnetId?: string }> }>('DescribeUHostInstance', {}, 'UHostSet');
  return hosts.filter((h) => h.IPSet.some((ip) => ip.SubnetId === subnetId)).map((h) => h.UHostId);
}

/** An instance's inputs in the suite's network. */
export function machine(n: Network, more: Partial<Parameters<typeof instance.create>[1]> = {}) {
  return z.parse(instance.inputs, {
    availabilityZone: ZONE,
    imageId: n.ubuntu,
    cpu: 1,
    memory: 2048,
    bootDisk: { type: 'cloud_ssd', size: 40 },
    dataDisks: [{ type: 'cloud_ssd', size: 50 }],
    vpcId: n.vpcId,
    subnetId: n.subnetId,
    password: 'Suite-pass-1',
    name: 'suite-host',
    ...more,
  });
}

/** The lifecycle spec of Instance: resized, re-keyed, renamed and its disks grown in place; a new image replaces it. */
export const instanceSpec = lifecycleSpec({
  type: instance,
  setup: (ctx) => makeNetwork(ctx, 'host-home', 120),
  create: (n: Network) => machine(n),
  update: (n) =>
    machine(n, {
      cpu: 2,
      memory: 4096,
      password: 'Suite-pass-2',
      name: 'suite-host-2',
      remark: 'edited',
      tag: 'blue',
      bootDisk: { type: 'cloud_ssd', size: 50 },
      dataDisks: [{ type: 'cloud_ssd', size: 60 }],
    }),
  replace: (n) => machine(n, { imageId: n.debian }),
  another: (n) => machine(n, { name: 'suite-host-b' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({
      name: inputs.name,
      cpu: inputs.cpu,
      memory: inputs.memory,
      tag: inputs.tag ?? 'Default',
      remark: inputs.remark ?? '',
      imageId: inputs.imageId,
      bootDisk: inputs.bootDisk,
      dataDisks: inputs.dataDisks,
    });
    expect(outputs.state).toBe('Running');
  },
  badImportId: 'host-1',
  ghostId: () => 'uhost-00000000',
  createCall: 'Action=CreateUHostInstance',
  census: (world, n) => hostsIn(world, n.subnetId),
});

/** The disks the API lists, by id. */
async function disks(world: LifecycleWorld): Promise<Array<{ UDiskId: string; Name: string; Status: string; UHostId: string }>> {
  const client = (await world.ctx('census')).client as CloudClient;
  return client.pageAll('DescribeUDisk', {}, 'DataSet');
}

/** The lifecycle spec of Disk: renamed and grown in place; another type replaces it. */
export const diskSpec = lifecycleSpec({
  type: disk,
  create: () => ({ availabilityZone: ZONE, size: 20, name: 'suite-disk' }),
  update: () => ({ availabilityZone: ZONE, size: 40, name: 'suite-disk-grown' }),
  replace: () => ({ availabilityZone: ZONE, size: 20, name: 'suite-disk', diskType: 'ssd_data_disk' as const }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ availabilityZone: inputs.availabilityZone, size: inputs.size, name: inputs.name, diskType: inputs.diskType ?? 'data_disk', tag: inputs.tag ?? 'Default' });
  },
  badImportId: 'disk-1',
  ghostId: () => 'bsm-00000000',
  createCall: 'Action=CreateUDisk',
  census: async (world) => (await disks(world)).filter((d) => d.Name.startsWith('suite-disk')).map((d) => d.UDiskId),
});

/** Two instances and two disks of the suite's own to attach. */
interface Rack {
  hosts: [string, string];
  disks: [string, string];
}

/** The lifecycle spec of DiskAttachment: only the detach option changes in place. */
export const diskAttachmentSpec = lifecycleSpec({
  type: diskAttachment,
  async setup(ctx): Promise<Rack> {
    const n = await makeNetwork(ctx, 'rack-home', 121);
    const c = await ctx('rack');
    const host = async (name: string) => (await instance.create(c, machine(n, { name, dataDisks: [] }))).id;
    const volume = async (name: string) => (await disk.create(c, { availabilityZone: ZONE, size: 20, name })).id;
    return { hosts: [await host('rack-a'), await host('rack-b')], disks: [await volume('rack-disk-a'), await volume('rack-disk-b')] };
  },
  create: (r: Rack) => ({ diskId: r.disks[0], instanceId: r.hosts[0] }),
  update: (r) => ({ diskId: r.disks[0], instanceId: r.hosts[0], stopInstanceBeforeDetaching: true }),
  replace: (r) => ({ diskId: r.disks[0], instanceId: r.hosts[1] }),
  another: (r) => ({ diskId: r.disks[1], instanceId: r.hosts[0] }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ diskId: inputs.diskId, instanceId: inputs.instanceId });
    expect(outputs.deviceName).toMatch(/^\/dev\/vd/);
  },
  badImportId: 'bsm-1a2b3c4d',
  ghostId: (r) => `${r.disks[1]}:uhost-00000000`,
  createCall: 'Action=AttachUDisk',
  census: async (world) => (await disks(world)).filter((d) => d.Status === 'InUse' && d.Name.startsWith('rack-disk')).map((d) => `${d.UDiskId}:${d.UHostId}`),
});

/** Every compute type's spec. */
export const computeSpecs = [instanceSpec, diskSpec, diskAttachmentSpec];
