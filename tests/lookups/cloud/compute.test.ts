import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBaremetalImages } from '../../../src/lookups/cloud/get-baremetal-images.js';
import { getDisks } from '../../../src/lookups/cloud/get-disks.js';
import { getImages } from '../../../src/lookups/cloud/get-images.js';
import { getInstances, hostInstanceType } from '../../../src/lookups/cloud/get-instances.js';
import { getZones } from '../../../src/lookups/cloud/get-zones.js';
import { startHarness, type Harness } from '../../support/cloud-harness.js';
import { names, run, runPaged, runToFile } from '../../support/cloud-lookup-kit.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('getImages', () => {
  it('lists only available images, of every type by default', async () => {
    const r = await run(h, getImages, { availabilityZone: 'cn-bj2-02' });
    expect(r.totalCount).toBe(11);
    expect(new Set(r.images.map((i: { type: string }) => i.type))).toEqual(new Set(['base', 'business', 'custom']));
    expect(r.images.every((i: { status: string }) => i.status === 'Available')).toBe(true);
    expect(r.images.find((i: { name: string }) => i.name.startsWith('Ubuntu 22.04'))).toMatchObject({
      osType: 'linux',
      size: 20,
      availabilityZone: 'cn-bj2-02',
      features: ['NetEnhanced', 'HotPlug', 'CloudInit'],
    });
  });

  it('filters by type and OS, and keeps the newest with mostRecent', async () => {
    const custom = await run(h, getImages, { availabilityZone: 'cn-bj2-02', imageType: 'custom' });
    expect(names(custom.images)).toEqual(['web-golden-2024-05', 'web-golden-2024-09']);
    const newest = await run(h, getImages, { availabilityZone: 'cn-bj2-02', imageType: 'custom', mostRecent: true });
    expect(names(newest.images)).toEqual(['web-golden-2024-09']);
    expect(newest.images[0].createTime).toBe('2024-09-03T08:00:00Z');
    const windows = await run(h, getImages, { availabilityZone: 'cn-bj2-02', osType: 'windows' });
    expect(windows.images.every((i: { osType: string }) => i.osType === 'windows')).toBe(true);
    expect(windows.totalCount).toBe(2);
  });

  it('filters by ids, imageId and nameRegex', async () => {
    const all = await run(h, getImages, { availabilityZone: 'cn-bj2-03' });
    const two = all.ids.slice(0, 2);
    expect((await run(h, getImages, { ids: two })).ids).toEqual(two);
    expect((await run(h, getImages, { imageId: all.ids[3] })).ids).toEqual([all.ids[3]]);
    expect(names((await run(h, getImages, { availabilityZone: 'cn-bj2-03', nameRegex: '^Windows' })).images)).toHaveLength(2);
  });

  it('refuses imageId together with ids, at imageId', () => {
    const r = getImages.args.safeParse({ imageId: 'a', ids: ['b'] });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].path).toEqual(['imageId']);
  });

  it('pages and writes outputFile', async () => {
    const { result, calls } = await runPaged(h, getImages, { availabilityZone: 'cn-bj2-02' }, 'DescribeImage');
    expect(result.totalCount).toBe(11);
    expect(calls).toBe(6);
    const { file, result: written } = await runToFile(h, getImages, { availabilityZone: 'cn-bj2-02', imageType: 'business' }, 'images');
    expect(file).toEqual(written.images);
  });
});

describe('getBaremetalImages', () => {
  it('lists the images of a zone through every page', async () => {
    const { result, calls } = await runPaged(h, getBaremetalImages, { availabilityZone: 'cn-bj2-02' }, 'DescribePHostImage');
    expect(result.totalCount).toBe(8);
    // Four full pages: TotalCount says there is nothing after the fourth.
    expect(calls).toBe(4);
    expect(result.images[0]).toMatchObject({ name: 'CentOS 7.6 64位', type: 'base', osType: 'cent_os', osName: 'CentOS 7.6', availabilityZone: 'cn-bj2-02', status: 'Available', size: 40 });
  });

  it('filters by type, OS, machine type, imageId, ids and nameRegex', async () => {
    expect(names((await run(h, getBaremetalImages, { availabilityZone: 'cn-bj2-02', imageType: 'custom' })).images)).toEqual(['db-node-golden', 'gpu-train-base']);
    expect((await run(h, getBaremetalImages, { availabilityZone: 'cn-bj2-02', osType: 'Ubuntu' })).totalCount).toBe(3);
    expect(names((await run(h, getBaremetalImages, { availabilityZone: 'cn-bj2-02', instanceType: 'G2' })).images)).toEqual(['CentOS 7.9 64位', 'Ubuntu 20.04 64位', 'gpu-train-base']);
    const all = await run(h, getBaremetalImages, { availabilityZone: 'cn-bj2-03' });
    expect((await run(h, getBaremetalImages, { imageId: all.ids[2] })).ids).toEqual([all.ids[2]]);
    expect((await run(h, getBaremetalImages, { ids: all.ids.slice(0, 3) })).totalCount).toBe(3);
    expect((await run(h, getBaremetalImages, { availabilityZone: 'cn-bj2-03', nameRegex: 'Windows' })).totalCount).toBe(2);
  });

  it('writes outputFile', async () => {
    const { result, file } = await runToFile(h, getBaremetalImages, { availabilityZone: 'cn-bj2-03', imageType: 'custom' }, 'bm');
    expect(file).toEqual(result.images);
    expect(result.totalCount).toBe(2);
  });
});

describe('getInstances', () => {
  it('lists hosts of the region with shapes, addresses and disks', async () => {
    const r = await run(h, getInstances);
    expect(names(r.instances)).toEqual(['api-1', 'batch-1', 'cache-1', 'odd-1', 'web-1', 'web-2']);
    const web = r.instances.find((i: { name: string }) => i.name === 'web-1');
    expect(web).toMatchObject({ instanceType: 'n-basic-2', cpu: 2, memory: 4, tag: 'web', status: 'Running', autoRenew: true, availabilityZone: 'cn-bj2-02' });
    expect(web.privateIp).toMatch(/^10\./);
    expect(web.ipSet.map((i: { internetType: string }) => i.internetType)).toEqual(['Private', 'BGP']);
    expect(web.diskSet[0]).toMatchObject({ type: 'cloud_ssd', size: 40, isBoot: true });
    expect(r.instances.find((i: { name: string }) => i.name === 'odd-1').instanceType).toBe('n-customized-3-5');
  });

  it.each([
    [2, 2, 'n', 'n-highcpu-2'],
    [4, 16, 'O', 'o-standard-4'],
    [2, 16, 'OM', 'om-highmem-2'],
    [3, 5, 'N', 'n-customized-3-5'],
    [0, 0, 'N', ''],
  ])('names a %i-CPU %i GB %s host', (cpu, mem, machine, expected) => {
    expect(hostInstanceType(cpu, mem, machine)).toBe(expected);
  });

  it('filters by zone, tag, ids and nameRegex; pages; writes outputFile', async () => {
    expect(names((await run(h, getInstances, { availabilityZone: 'cn-bj2-03' })).instances)).toEqual(['api-1', 'batch-1']);
    expect(names((await run(h, getInstances, { tag: 'web' })).instances)).toEqual(['web-1', 'web-2']);
    const all = await run(h, getInstances);
    expect((await run(h, getInstances, { ids: [all.ids[4]] })).ids).toEqual([all.ids[4]]);
    expect(names((await run(h, getInstances, { nameRegex: '-1$' })).instances)).toEqual(['api-1', 'batch-1', 'cache-1', 'odd-1', 'web-1']);
    const { calls } = await runPaged(h, getInstances, {}, 'DescribeUHostInstance');
    expect(calls).toBe(3);
    const { result, file } = await runToFile(h, getInstances, { tag: 'cache' }, 'hosts');
    expect(file).toEqual(result.instances);
  });
});

describe('getDisks', () => {
  it('lists disks with argument-style types and filters by type, zone, ids and name', async () => {
    const r = await run(h, getDisks);
    expect(r.totalCount).toBe(7);
    expect(r.disks.find((d: { name: string }) => d.name === 'api-logs')).toMatchObject({ diskType: 'rssd_data_disk', diskSize: 500, status: 'InUse', availabilityZone: 'cn-bj2-03' });
    expect(names((await run(h, getDisks, { diskType: 'ssd_data_disk' })).disks)).toEqual(['scratch-2', 'web-data-2']);
    expect((await run(h, getDisks, { availabilityZone: 'cn-bj2-04' })).totalCount).toBe(2);
    expect((await run(h, getDisks, { ids: [r.ids[0], r.ids[6]] })).totalCount).toBe(2);
    expect(names((await run(h, getDisks, { nameRegex: '^scratch' })).disks)).toEqual(['scratch-1', 'scratch-2']);
  });

  it('pages and writes outputFile', async () => {
    const { calls } = await runPaged(h, getDisks, {}, 'DescribeUDisk');
    expect(calls).toBe(4);
    const { result, file } = await runToFile(h, getDisks, { diskType: 'system_disk' }, 'disks');
    expect(file).toEqual(result.disks);
    expect(result.totalCount).toBe(1);
  });
});

describe('getZones', () => {
  it('lists the zones of the provider region only, and writes outputFile', async () => {
    const { result, file } = await runToFile(h, getZones, {}, 'zones');
    expect(result.ids).toEqual(['cn-bj2-02', 'cn-bj2-03', 'cn-bj2-04', 'cn-bj2-05']);
    expect(file).toEqual(result.zones);
    const sh = await startHarness({ settings: { region: 'cn-sh2' } });
    try {
      expect((await run(sh, getZones)).ids).toEqual(['cn-sh2-01', 'cn-sh2-02', 'cn-sh2-03']);
    } finally {
      await sh.close();
    }
  });
});
