/** getDbBackups: backups of the database instances. */
import * as z from 'zod';
import { int, rfc3339, str } from '../../providers/cloud/wire.js';
import { availabilityZoneArg, cloudLookup, filterItems, listResultBase, nameRegexArg, outputFileArg, summary, writeOutputFile } from './kit.js';

const argsShape = {
  availabilityZone: availabilityZoneArg,
  projectId: z.string().min(1).optional().describe('Project to look in. Default: the provider projectId.'),
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const backup = z.object({
  backupId: z.number().int().describe('Backup id.'),
  backupName: z.string().describe('Backup name.'),
  backupSize: z.number().int().describe('Size in bytes.'),
  backupTime: z.string().describe('When the backup started (RFC 3339).'),
  backupEndTime: z.string().describe('When the backup finished (RFC 3339).'),
  backupType: z.number().int().describe('0 automatic, 1 manual.'),
  backupZone: z.string().describe('Zone the backup is stored in.'),
  dbId: z.string().describe('Database instance id.'),
  dbName: z.string().describe('Database instance name.'),
  state: z.string().describe('Backup state, e.g. `Success`.'),
  zone: z.string().describe('Zone of the database.'),
});

const result = z.object({ ...argsShape, ...listResultBase, dbBackups: z.array(backup).describe('The matching backups.') });

interface UdbBackup {
  BackupId: number;
  BackupName: string;
  BackupSize: number;
  BackupTime: number;
  BackupEndTime: number;
  BackupType: number;
  BackupZone: string;
  DBId: string;
  DBName: string;
  State: string;
  Zone: string;
}

/** Lists database backups; times are RFC 3339 (upstream prints a 12-hour clock with no AM/PM). */
export const getDbBackups = cloudLookup({
  name: 'getDbBackups',
  description: 'Database backups, filtered by zone, project and name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await ctx.client.pageAll<UdbBackup>('DescribeUDBBackup', { Zone: args.availabilityZone, ProjectId: args.projectId }, 'DataSet');
    const dbBackups = filterItems(all, { nameRegex: args.nameRegex, nameOf: (b) => b.BackupName }).map((b) => ({
      backupId: int(b.BackupId),
      backupName: str(b.BackupName),
      backupSize: int(b.BackupSize),
      backupTime: rfc3339(b.BackupTime),
      backupEndTime: rfc3339(b.BackupEndTime),
      backupType: int(b.BackupType),
      backupZone: str(b.BackupZone),
      dbId: str(b.DBId),
      dbName: str(b.DBName),
      state: str(b.State),
      zone: str(b.Zone),
    }));
    await writeOutputFile(ctx, args.outputFile, dbBackups);
    return { ...args, ...summary(dbBackups.map((b) => String(b.backupId))), dbBackups };
  },
});
