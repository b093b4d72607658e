import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAntiDdosInstances } from '../../../src/lookups/cloud/get-anti-ddos-instances.js';
import { getAntiDdosIps } from '../../../src/lookups/cloud/get-anti-ddos-ips.js';
import { startHarness, type Harness } from '../../support/cloud-harness.js';
import { names, run, runPaged, runToFile } from '../../support/cloud-lookup-kit.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('getAntiDdosInstances', () => {
  it('lists every instance with its attributes and a stable id', async () => {
    const r = await run(h, getAntiDdosInstances);
    expect(r.totalCount).toBe(3);
    expect(names(r.instances)).toEqual(['edge-shield', 'north-shield', 'old-shield']);
    const edge = r.instances.find((i: { name: string }) => i.name === 'edge-shield');
    expect(edge).toMatchObject({
      area: 'EastChina',
      dataCenter: 'Yangzhou',
      bandwidth: 100,
      baseDefenceValue: 30,
      maxDefenceValue: 100,
      chargeType: 'year',
      status: 'Started',
      createTime: '2024-03-01T00:00:00Z',
    });
    expect(r.ids).toEqual(r.instances.map((i: { id: string }) => i.id));
    expect(r.id).toMatch(/^\d+$/);
    expect((await run(h, getAntiDdosInstances)).id).toBe(r.id);
  });

  it('filters by nameRegex (unanchored) and by ids', async () => {
    expect(names((await run(h, getAntiDdosInstances, { nameRegex: 'shield$' })).instances)).toHaveLength(3);
    expect(names((await run(h, getAntiDdosInstances, { nameRegex: '^(edge|old)' })).instances)).toEqual(['edge-shield', 'old-shield']);
    const all = await run(h, getAntiDdosInstances);
    const byId = await run(h, getAntiDdosInstances, { ids: [all.ids[1]] });
    expect(byId.ids).toEqual([all.ids[1]]);
    expect((await run(h, getAntiDdosInstances, { ids: [] })).totalCount).toBe(3);
    expect((await run(h, getAntiDdosInstances, { ids: [all.ids[0]], nameRegex: 'nomatch' })).totalCount).toBe(0);
  });

  it('rejects an invalid nameRegex before any call', () => {
    expect(getAntiDdosInstances.args.safeParse({ nameRegex: '(' }).success).toBe(false);
  });

  it('pages through every page', async () => {
    const { result, calls } = await runPaged(h, getAntiDdosInstances, {}, 'DescribeNapServiceInfo');
    expect(result.totalCount).toBe(3);
    expect(calls).toBe(2);
  });

  it('writes outputFile with the result list', async () => {
    const { result, file } = await runToFile(h, getAntiDdosInstances, { nameRegex: 'north' }, 'instances');
    expect(file).toEqual(result.instances);
    expect(result.outputFile).toBe('out/instances.json');
  });
});

describe('getAntiDdosIps', () => {
  it('lists the protected IPs of an instance; the result id is the instance id', async () => {
    const edge = (await run(h, getAntiDdosInstances, { nameRegex: '^edge' })).ids[0];
    const r = await run(h, getAntiDdosIps, { instanceId: edge });
    expect(r.id).toBe(edge);
    expect(r.totalCount).toBe(3);
    expect(r.ips[1]).toMatchObject({ instanceId: edge, status: 'Success', comment: 'api frontends', proxyIps: ['106.75.10.12', '106.75.10.13'] });
    expect(r.ips[1].domain).toMatch(/\.ddos\.sandbox-cdn\.com$/);
    const { calls } = await runPaged(h, getAntiDdosIps, { instanceId: edge }, 'DescribeHighProtectGameIPInfo');
    expect(calls).toBe(2);
    const { file } = await runToFile(h, getAntiDdosIps, { instanceId: edge }, 'ips');
    expect(file).toEqual(r.ips);
  });

  it('requires instanceId', () => {
    expect(getAntiDdosIps.args.safeParse({}).success).toBe(false);
  });
});
