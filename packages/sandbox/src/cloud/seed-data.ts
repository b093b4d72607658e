/** Seed data for databases (instances, backups, parameter groups) and object storage buckets. */
import { subnetId, vpcId } from './seed-network.js';
import { ANALYTICS_PROJECT, DEFAULT_PROJECT, privateIp, sid, unix, type Rec } from './seed-util.js';

const DBS: [string, string, string, string, string, number, string, string, string][] = [
  // region, project, zone, name, engine-version, memory MB, mode, disk type, state
  ['cn-bj2', DEFAULT_PROJECT, 'cn-bj2-02', 'orders-db', 'mysql-5.7', 4000, 'HA', 'SATA_SSD', 'Running'],
  ['cn-bj2', DEFAULT_PROJECT, 'cn-bj2-02', 'users-db', 'mysql-8.0', 8000, 'HA', 'NVMe_SSD', 'Running'],
  ['cn-bj2', DEFAULT_PROJECT, 'cn-bj2-03', 'legacy-db', 'percona-5.6', 2000, 'Normal', 'SATA_SSD', 'Shutoff'],
  ['cn-bj2', DEFAULT_PROJECT, 'cn-bj2-03', 'geo-db', 'postgresql-13', 4000, 'HA', 'SATA_SSD', 'Running'],
  ['cn-bj2', ANALYTICS_PROJECT, 'cn-bj2-04', 'warehouse-db', 'mysql-8.0', 16000, 'HA', 'NVMe_SSD', 'Running'],
  ['cn-sh2', DEFAULT_PROJECT, 'cn-sh2-02', 'orders-db-replica', 'mysql-5.7', 4000, 'Normal', 'SATA_SSD', 'Running'],
];

/** The id of a seeded database. */
export function dbId(name: string): string {
  return sid('udb', name);
}

/** Database instances of several engines, modes and projects. */
export function seedDbInstances(): Rec[] {
  return DBS.map(([region, project, zone, name, engine, memory, mode, diskType, state], i) => ({
    Region: region,
    ProjectId: project,
    DBId: dbId(name),
    Name: name,
    Zone: zone,
    BackupZone: mode === 'HA' ? zone.replace(/\d$/, (d) => String((Number(d) % 4) + 2)) : '',
    VPCId: vpcId(region, 'prod'),
    SubnetId: subnetId(region, 'prod-a'),
    DBTypeId: engine,
    ClassType: engine.startsWith('postgresql') ? 'postgresql' : 'SQL',
    Port: engine.startsWith('postgresql') ? 5432 : 3306,
    VirtualIP: privateIp(`udb/${name}`),
    State: state,
    DiskSpace: 100 * (i + 1),
    ChargeType: i % 2 === 0 ? 'Month' : 'Dynamic',
    BackupCount: 7,
    BackupDate: '1111111',
    BackupBeginTime: 3,
    BackupBlacklist: i === 0 ? 'test.%;mysql.%' : '',
    Tag: name.split('-')[0],
    CreateTime: unix(`2024-0${i + 1}-08T02:00:00Z`),
    ExpiredTime: unix(`2026-0${i + 1}-08T02:00:00Z`),
    ModifyTime: unix(`2024-1${i % 3}-08T02:00:00Z`),
    MemoryLimit: memory,
    InstanceMode: mode,
    InstanceType: diskType,
  }));
}

/** Backups: automatic nightly ones and a few manual ones, in both projects. */
export function seedDbBackups(): Rec[] {
  const backups: Rec[] = [];
  let id = 41000;
  for (const [region, project, zone, name] of DBS) {
    for (let day = 1; day <= 3; day++) {
      const start = unix(`2024-11-0${day}T03:00:00Z`);
      backups.push({
        Region: region,
        ProjectId: project,
        BackupId: ++id,
        BackupName: `auto-${name}-2024110${day}`,
        BackupSize: 1_048_576 * (day + 10),
        BackupTime: start,
        BackupEndTime: start + 420,
        BackupType: 0,
        BackupZone: zone,
        DBId: dbId(name),
        DBName: name,
        State: 'Success',
        Zone: zone,
        ErrorInfo: '',
        MD5: sid('md5', `${name}/${day}`).slice(4),
      });
    }
    const start = unix('2024-11-05T14:30:00Z');
    backups.push({
      Region: region,
      ProjectId: project,
      BackupId: ++id,
      BackupName: `manual-${name}-before-upgrade`,
      BackupSize: 12_582_912,
      BackupTime: start,
      BackupEndTime: start + 600,
      BackupType: 1,
      BackupZone: zone,
      DBId: dbId(name),
      DBName: name,
      State: 'Success',
      Zone: zone,
      ErrorInfo: '',
      MD5: sid('md5', `${name}/manual`).slice(4),
    });
  }
  return backups;
}

/** Parameter groups: defaults per engine and zone, region-wide (multi-zone) ones, and custom ones. */
export function seedParamGroups(): Rec[] {
  const groups: Rec[] = [];
  let id = 0;
  const member = (key: string, value: string) => ({ Key: key, Value: value, AllowedVal: '', ApplyType: 1, FormatType: 1, Modifiable: true, ValueType: 10 });
  const add = (region: string, zone: string, name: string, engine: string, modifiable: boolean, regionFlag: boolean) =>
    groups.push({
      Region: region,
      ProjectId: DEFAULT_PROJECT,
      GroupId: ++id,
      GroupName: name,
      DBTypeId: engine,
      ClassType: engine.startsWith('postgresql') ? 'postgresql' : 'sql',
      Description: modifiable ? `custom ${engine} settings` : `default ${engine} parameters`,
      Modifiable: modifiable,
      RegionFlag: regionFlag,
      Zone: regionFlag ? '' : zone,
      ParamMember: [member('max_connections', '2000'), member('character_set_server', 'utf8mb4')],
    });
  for (const [region, zones] of [
    ['cn-bj2', ['cn-bj2-02', 'cn-bj2-03']],
    ['cn-sh2', ['cn-sh2-02']],
  ] as const) {
    for (const zone of zones) {
      for (const engine of ['mysql-5.7', 'mysql-8.0', 'percona-5.7', 'postgresql-13']) add(region, zone, `${engine}默认WEB配置`, engine, false, false);
    }
    add(region, '', 'mysql-8.0-multi-az-default', 'mysql-8.0', false, true);
    add(region, '', 'postgresql-13-multi-az-default', 'postgresql-13', false, true);
  }
  add('cn-bj2', 'cn-bj2-02', 'orders-tuned', 'mysql-5.7', true, false);
  add('cn-bj2', 'cn-bj2-02', 'users-tuned', 'mysql-8.0', true, false);
  add('cn-bj2', 'cn-bj2-03', 'geo-tuned', 'postgresql-13', true, false);
  return groups;
}

/** Object storage buckets (bucket lists carry no TotalCount). */
export function seedBuckets(): Rec[] {
  const bucket = (region: string, name: string, type: string, tag: string, i: number): Rec => ({
    Region: region,
    ProjectId: DEFAULT_PROJECT,
    BucketName: name,
    BucketId: sid('ufile', name),
    Type: type,
    Tag: tag,
    Biz: 'general',
    CreateTime: unix(`2024-0${i + 1}-12T00:00:00Z`),
    ModifyTime: unix(`2024-1${i % 3}-12T00:00:00Z`),
    HasUserDomain: 0,
    CdnDomainId: [],
    Domain: { Src: [`${name}.${region === 'cn-bj2' ? 'cn-bj' : 'cn-sh2'}.ufileos.com`], Cdn: [], CustomSrc: [], CustomCdn: [] },
  });
  return [
    bucket('cn-bj2', 'static-assets', 'public', 'web', 0),
    bucket('cn-bj2', 'user-uploads', 'private', 'web', 1),
    bucket('cn-bj2', 'db-dumps', 'private', 'backup', 2),
    bucket('cn-bj2', 'logs-archive', 'private', 'ops', 3),
    bucket('cn-bj2', 'static-assets-staging', 'public', 'staging', 4),
    bucket('cn-sh2', 'dr-dumps', 'private', 'backup', 5),
  ];
}
