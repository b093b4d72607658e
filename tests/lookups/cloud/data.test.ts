import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDbBackups } from '../../../src/lookups/cloud/get-db-backups.js';
import { getDbInstances } from '../../../src/lookups/cloud/get-db-instances.js';
import { getDbParameterGroups } from '../../../src/lookups/cloud/get-db-parameter-groups.js';
import { getUs3Buckets } from '../../../src/lookups/cloud/get-us3-buckets.js';
import { startHarness, type Harness } from '../../support/cloud-harness.js';
import { names, run, runPaged, runToFile } from '../../support/cloud-lookup-kit.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('getDbInstances', () => {
  it('lists MySQL-family instances of the project with derived shapes', async () => {
    const r = await run(h, getDbInstances);
    expect(names(r.dbInstances)).toEqual(['legacy-db', 'orders-db', 'users-db']);
    const byName = Object.fromEntries(r.dbInstances.map((d: { name: string }) => [d.name, d]));
    expect(byName['orders-db']).toMatchObject({ engine: 'mysql', engineVersion: '5.7', instanceType: 'mysql-ha-4', port: 3306, backupBlackList: ['test.%', 'mysql.%'], chargeType: 'month' });
    expect(byName['users-db'].instanceType).toBe('mysql-ha-nvme-8');
    expect(byName['users-db'].backupBlackList).toEqual([]);
    expect(byName['legacy-db']).toMatchObject({ instanceType: 'percona-basic-2', standbyZone: '', status: 'Shutoff' });
  });

  it('filters by zone, ids and name; pages; writes outputFile', async () => {
    expect(names((await run(h, getDbInstances, { availabilityZone: 'cn-bj2-02' })).dbInstances)).toEqual(['orders-db', 'users-db']);
    const all = await run(h, getDbInstances);
    expect((await run(h, getDbInstances, { ids: [all.ids[2]] })).ids).toEqual([all.ids[2]]);
    expect(names((await run(h, getDbInstances, { nameRegex: '^(orders|users)' })).dbInstances)).toEqual(['orders-db', 'users-db']);
    expect((await runPaged(h, getDbInstances, {}, 'DescribeUDBInstance')).calls).toBe(2);
    const { result, file } = await runToFile(h, getDbInstances, {}, 'dbs');
    expect(file).toEqual(result.dbInstances);
  });
});

describe('getDbBackups', () => {
  it('lists backups of the provider project with RFC 3339 times', async () => {
    const r = await run(h, getDbBackups);
    expect(r.totalCount).toBe(16);
    const manual = r.dbBackups.find((b: { backupName: string }) => b.backupName === 'manual-orders-db-before-upgrade');
    expect(manual).toMatchObject({ backupType: 1, backupTime: '2024-11-05T14:30:00Z', backupEndTime: '2024-11-05T14:40:00Z', dbName: 'orders-db', state: 'Success' });
    expect(r.ids).toEqual(r.dbBackups.map((b: { backupId: number }) => String(b.backupId)));
  });

  it('uses its own projectId over the provider one', async () => {
    const r = await run(h, getDbBackups, { projectId: 'org-analytics' });
    expect(new Set(r.dbBackups.map((b: { dbName: string }) => b.dbName))).toEqual(new Set(['warehouse-db']));
    expect(r.totalCount).toBe(4);
  });

  it('filters by zone and name; pages; writes outputFile', async () => {
    expect((await run(h, getDbBackups, { availabilityZone: 'cn-bj2-03' })).totalCount).toBe(8);
    expect((await run(h, getDbBackups, { nameRegex: '^manual-' })).totalCount).toBe(4);
    const { result, calls } = await runPaged(h, getDbBackups, {}, 'DescribeUDBBackup');
    expect(result.totalCount).toBe(16);
    expect(calls).toBe(8);
    const { result: r, file } = await runToFile(h, getDbBackups, { nameRegex: 'geo' }, 'backups');
    expect(file).toEqual(r.dbBackups);
  });
});

describe('getDbParameterGroups', () => {
  it('lists the groups of a zone, default and custom', async () => {
    const r = await run(h, getDbParameterGroups, { availabilityZone: 'cn-bj2-02' });
    expect(r.totalCount).toBe(6);
    expect(r.parameterGroups.find((g: { name: string }) => g.name === 'orders-tuned')).toMatchObject({ engine: 'mysql', engineVersion: '5.7', isDefault: false, availabilityZone: 'cn-bj2-02' });
    expect(r.parameterGroups.filter((g: { isDefault: boolean }) => g.isDefault)).toHaveLength(4);
  });

  it('lists region-wide groups with multiAz, and filters by class and name', async () => {
    const multi = await run(h, getDbParameterGroups, { multiAz: true });
    expect(names(multi.parameterGroups)).toEqual(['mysql-8.0-multi-az-default', 'postgresql-13-multi-az-default']);
    expect(multi.parameterGroups[0].availabilityZone).toBe('');
    expect(names((await run(h, getDbParameterGroups, { availabilityZone: 'cn-bj2-03', classType: 'postgresql' })).parameterGroups)).toEqual(['geo-tuned', 'postgresql-13默认WEB配置']);
    expect(names((await run(h, getDbParameterGroups, { availabilityZone: 'cn-bj2-02', nameRegex: 'tuned' })).parameterGroups)).toEqual(['orders-tuned', 'users-tuned']);
  });

  it('refuses multiAz with availabilityZone, at availabilityZone', () => {
    const r = getDbParameterGroups.args.safeParse({ multiAz: true, availabilityZone: 'cn-bj2-02' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]).toMatchObject({ path: ['availabilityZone'] });
    expect(r.error!.issues[0].message).toContain('multiAz');
    expect(getDbParameterGroups.args.safeParse({ multiAz: false, availabilityZone: 'cn-bj2-02' }).success).toBe(true);
  });

  it('pages and writes outputFile', async () => {
    expect((await runPaged(h, getDbParameterGroups, { availabilityZone: 'cn-bj2-02' }, 'DescribeUDBParamGroup')).calls).toBe(3);
    const { result, file } = await runToFile(h, getDbParameterGroups, { multiAz: true }, 'groups');
    expect(file).toEqual(result.parameterGroups);
  });
});

describe('getUs3Buckets', () => {
  it('lists buckets of the region with their origin domains', async () => {
    const r = await run(h, getUs3Buckets);
    expect(names(r.us3Buckets)).toEqual(['db-dumps', 'logs-archive', 'static-assets', 'static-assets-staging', 'user-uploads']);
    expect(r.us3Buckets.find((b: { name: string }) => b.name === 'static-assets')).toMatchObject({ type: 'public', tag: 'web', sourceDomainNames: ['static-assets.cn-bj.ufileos.com'] });
    expect(r.ids).toEqual(r.us3Buckets.map((b: { name: string }) => b.name));
  });

  it('filters by name; pages without a TotalCount; writes outputFile', async () => {
    expect(names((await run(h, getUs3Buckets, { nameRegex: '^static' })).us3Buckets)).toEqual(['static-assets', 'static-assets-staging']);
    const { result, calls } = await runPaged(h, getUs3Buckets, {}, 'DescribeBucket');
    expect(result.totalCount).toBe(5);
    expect(calls).toBe(3);
    const { result: r, file } = await runToFile(h, getUs3Buckets, { nameRegex: 'dumps' }, 'buckets');
    expect(file).toEqual(r.us3Buckets);
  });

  it('reports a file that cannot be written', async () => {
    writeFileSync(join(h.workDir, 'blocker'), 'a file, not a folder');
    const err = await run(h, getUs3Buckets, { outputFile: 'blocker/x.json' }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/^cannot write outputFile blocker\/x\.json: E/);
  });
});
