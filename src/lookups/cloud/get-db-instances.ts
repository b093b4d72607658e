/** getDbInstances: MySQL-family database instances. */
import * as z from 'zod';
import { int, rfc3339, snake, str } from '../../providers/cloud/wire.js';
import { availabilityZoneArg, cloudLookup, filterItems, idsArg, listResultBase, nameRegexArg, outputFileArg, summary, writeOutputFile } from './kit.js';

const argsShape = {
  availabilityZone: availabilityZoneArg,
  ids: idsArg,
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const dbInstance = z.object({
  id: z.string().describe('Database instance id.'),
  availabilityZone: z.string().describe('Zone of the primary.'),
  standbyZone: z.string().describe('Zone of the standby (high-availability instances).'),
  name: z.string().describe('Instance name.'),
  vpcId: z.string().describe('VPC id.'),
  subnetId: z.string().describe('Subnet id.'),
  engine: z.string().describe('Engine, e.g. `mysql` or `percona`.'),
  engineVersion: z.string().describe('Engine version, e.g. `5.7`.'),
  port: z.number().int().describe('Port.'),
  privateIp: z.string().describe('Private address.'),
  status: z.string().describe('State, e.g. `Running`.'),
  instanceStorage: z.number().int().describe('Disk space, GB.'),
  instanceType: z.string().describe('`<engine>-<ha|basic>-<memory GB>`, with `-nvme` before the memory for NVMe instances.'),
  chargeType: z.string().describe('Billing, snake_case (`month`, `year`, `dynamic`).'),
  backupCount: z.number().int().describe('Backups kept.'),
  backupDate: z.string().describe('Backup weekdays mask.'),
  backupBeginTime: z.number().int().describe('Hour automatic backups start.'),
  backupBlackList: z.array(z.string()).describe('Tables left out of backups (`db.table` patterns).'),
  tag: z.string().describe('Business group.'),
  createTime: z.string().describe('RFC 3339.'),
  expireTime: z.string().describe('RFC 3339.'),
  modifyTime: z.string().describe('RFC 3339.'),
});

const result = z.object({ ...argsShape, ...listResultBase, dbInstances: z.array(dbInstance).describe('The matching instances.') });

interface UdbInstance {
  DBId: string;
  Name: string;
  Zone: string;
  BackupZone?: string;
  VPCId?: string;
  SubnetId?: string;
  DBTypeId: string;
  Port: number;
  VirtualIP: string;
  State: string;
  DiskSpace: number;
  ChargeType: string;
  BackupCount: number;
  BackupDate: string;
  BackupBeginTime: number;
  BackupBlacklist?: string;
  Tag?: string;
  CreateTime: number;
  ExpiredTime: number;
  ModifyTime: number;
  MemoryLimit: number;
  InstanceMode: string;
  InstanceType?: string;
}

/** `mysql-5.7` → engine and version; a type id without a dash is all engine (upstream panics). */
export function splitDbType(typeId: string): { engine: string; version: string } {
  const at = typeId.indexOf('-');
  return at < 0 ? { engine: typeId, version: '' } : { engine: typeId.slice(0, at), version: typeId.slice(at + 1) };
}

function instanceType(d: UdbInstance): string {
  const { engine } = splitDbType(d.DBTypeId);
  const mode = d.InstanceMode === 'HA' ? 'ha' : 'basic';
  const memory = Math.floor(int(d.MemoryLimit) / 1000);
  return d.InstanceType === 'NVMe_SSD' ? `${engine}-${mode}-nvme-${memory}` : `${engine}-${mode}-${memory}`;
}

/** Lists MySQL-family database instances (ClassType SQL). */
export const getDbInstances = cloudLookup({
  name: 'getDbInstances',
  description: 'MySQL-family database instances, filtered by zone, ids and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await ctx.client.pageAll<UdbInstance>('DescribeUDBInstance', { ClassType: 'SQL', Zone: args.availabilityZone }, 'DataSet');
    const matches = filterItems(all, { ids: args.ids, idOf: (d) => d.DBId, nameRegex: args.nameRegex, nameOf: (d) => d.Name });
    const dbInstances = matches.map((d) => {
      const { engine, version } = splitDbType(str(d.DBTypeId));
      return {
        id: d.DBId,
        availabilityZone: str(d.Zone),
        standbyZone: str(d.BackupZone),
        name: str(d.Name),
        vpcId: str(d.VPCId),
        subnetId: str(d.SubnetId),
        engine,
        engineVersion: version,
        port: int(d.Port),
        privateIp: str(d.VirtualIP),
        status: str(d.State),
        instanceStorage: int(d.DiskSpace),
        instanceType: instanceType(d),
        chargeType: snake(d.ChargeType),
        backupCount: int(d.BackupCount),
        backupDate: str(d.BackupDate),
        backupBeginTime: int(d.BackupBeginTime),
        // An empty blacklist is no tables (upstream reports [""]).
        backupBlackList: str(d.BackupBlacklist)
          .split(';')
          .filter((t) => t !== ''),
        tag: str(d.Tag),
        createTime: rfc3339(d.CreateTime),
        expireTime: rfc3339(d.ExpiredTime),
        modifyTime: rfc3339(d.ModifyTime),
      };
    });
    await writeOutputFile(ctx, args.outputFile, dbInstances);
    return { ...args, ...summary(dbInstances.map((d) => d.id)), dbInstances };
  },
});
