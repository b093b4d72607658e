/** Database and object storage Actions: DB instances, backups, parameter groups and buckets. */
import { enumParam, zoneParam } from './actions-compute.js';
import { ApiError, paramError, type ActionHandler } from './request.js';
import { scoped, without } from './store.js';

/** Whether a record's engine belongs to a requested class (`SQL`/`sql` = MySQL and Percona). */
function inClass(classType: string | undefined, recordClass: unknown): boolean {
  return classType === undefined || String(recordClass).toLowerCase() === classType.toLowerCase();
}

/** Data Actions by name. */
export const dataActions: Record<string, ActionHandler> = {
  DescribeUDBInstance(req, ctx) {
    const region = req.region();
    const project = req.project();
    const classType = enumParam(req, 'ClassType', ['SQL', 'sql', 'NOSQL', 'postgresql', 'sqlserver']);
    if (classType === undefined) throw paramError('ClassType', 'missing');
    const zone = zoneParam(req, ctx, region);
    const id = req.str('DBId');
    const all = scoped(ctx.db.dbInstances, region, project);
    if (id !== undefined && !all.some((d) => d.DBId === id)) throw paramError('DBId', `no database ${id}`);
    if (id === undefined && (req.str('Offset') === undefined || req.str('Limit') === undefined)) throw paramError('Offset/Limit', 'required when DBId is not given');
    const matches = all.filter((d) => (id === undefined || d.DBId === id) && (zone === undefined || d.Zone === zone) && inClass(classType, d.ClassType));
    const { items, total } = req.page(matches, 20);
    return { DataSet: items.map((d) => without(d, 'Region', 'ProjectId', 'ClassType')), TotalCount: total };
  },

  DescribeUDBBackup(req, ctx) {
    const region = req.region();
    const project = req.project();
    if (req.str('Offset') === undefined || req.str('Limit') === undefined) throw paramError('Offset/Limit', 'missing');
    const zone = zoneParam(req, ctx, region);
    const id = req.str('DBId');
    const type = req.int('BackupType');
    const matches = scoped(ctx.db.dbBackups, region, project).filter(
      (b) => (zone === undefined || b.Zone === zone) && (id === undefined || b.DBId === id) && (type === undefined || b.BackupType === type),
    );
    const { items, total } = req.page(matches, 20);
    return { DataSet: items.map((b) => without(b, 'Region', 'ProjectId')), TotalCount: total };
  },

  DescribeUDBParamGroup(req, ctx) {
    const region = req.region();
    req.project();
    const zone = zoneParam(req, ctx, region);
    const multiZone = req.bool('RegionFlag') ?? false;
    if (multiZone && zone !== undefined) throw paramError('Zone', 'cannot be given with RegionFlag=true');
    const classType = enumParam(req, 'ClassType', ['SQL', 'sql', 'postgresql']);
    const groupId = req.int('GroupId');
    const matches = scoped(ctx.db.paramGroups, region, undefined).filter(
      (g) => g.RegionFlag === multiZone && (zone === undefined || g.Zone === zone) && inClass(classType, g.ClassType) && (groupId === undefined || g.GroupId === groupId),
    );
    const { items, total } = req.page(matches, 20);
    return { DataSet: items.map((g) => without(g, 'Region', 'ProjectId', 'ClassType')), TotalCount: total };
  },

  DescribeBucket(req, ctx) {
    const region = req.region();
    const project = req.project();
    const name = req.str('BucketName');
    const all = scoped(ctx.db.buckets, region, project);
    if (name !== undefined && !all.some((b) => b.BucketName === name)) throw new ApiError(15010, `bucket ${name} not found`);
    const matches = all.filter((b) => name === undefined || b.BucketName === name);
    // Bucket listings carry no TotalCount; callers page until a short page.
    return { DataSet: req.page(matches, 20).items.map((b) => without(b, 'ProjectId')) };
  },
};
