/** Compute Actions: host and bare-metal images, hosts, disks, and the zone checks they share. */
import { settleHosts } from './actions-uhost.js';
import { settleDisks } from './actions-udisk.js';
import { ActionRequest, paramError, type ActionContext, type ActionHandler } from './request.js';
import { scoped, without } from './store.js';
import type { Rec } from './seed-util.js';

/** The Zone parameter, which must be a zone of the request's region. */
export function zoneParam(req: ActionRequest, ctx: ActionContext, region: string): string | undefined {
  const zone = req.str('Zone');
  if (zone !== undefined && !ctx.db.regions.some((r) => r.Region === region && r.Zone === zone)) {
    throw paramError('Zone', `${zone} is not a zone of ${region}`);
  }
  return zone;
}

/** An enumerated parameter; anything else is a parameter error naming the accepted values. */
export function enumParam(req: ActionRequest, name: string, values: string[]): string | undefined {
  const value = req.str(name);
  if (value !== undefined && !values.includes(value)) throw paramError(name, `must be one of ${values.join(', ')}`);
  return value;
}

/** Whether an id filter (`X.N`, empty = everything) lets a record through. */
export function inIds(ids: string[], value: unknown): boolean {
  return ids.length === 0 || ids.includes(String(value));
}

/** The host disk type (UHostDiskSet.DiskType) of each UDisk type. */
const HOST_DISK_TYPE: Record<string, string> = {
  DataDisk: 'CLOUD_NORMAL',
  SSDDataDisk: 'CLOUD_SSD',
  ESSDDataDisk: 'CLOUD_ESSD',
  RSSDDataDisk: 'CLOUD_RSSD',
  ERSSDDataDisk: 'CLOUD_ERSSD',
  EfficiencyDataDisk: 'CLOUD_EFFICIENCY',
};

/**
 * A host as DescribeUHostInstance lists it: its DiskSet holds the disks it was made with, then
 * every data UDisk attached to it, which UHostDiskSet marks `Type: Udisk` with the UDisk's `Name`.
 */
function hostInfo(h: Rec, ctx: ActionContext): Rec {
  const attached = ctx.db.disks
    .filter((d) => d.UHostId === h.UHostId && d.IsBoot !== 'true' && (d.Status === 'InUse' || d.Status === 'Detaching'))
    .map((d) => ({
      DiskId: d.UDiskId,
      DiskType: HOST_DISK_TYPE[String(d.DiskType)] ?? 'CLOUD_NORMAL',
      IsBoot: 'False',
      Size: d.Size,
      Drive: String(d.DeviceName).replace(/^\/dev\//, ''),
      Type: 'Udisk',
      Name: d.Name,
      Encrypted: 'false',
    }));
  return { ...without(h, 'Region', 'ProjectId'), DiskSet: [...(h.DiskSet as Rec[]), ...attached] };
}

/** Compute Actions by name. */
export const computeActions: Record<string, ActionHandler> = {
  DescribeImage(req, ctx) {
    const region = req.region();
    req.project();
    const zone = zoneParam(req, ctx, region);
    const type = enumParam(req, 'ImageType', ['Base', 'Business', 'Custom']);
    const os = enumParam(req, 'OsType', ['Linux', 'Windows']);
    const imageId = req.str('ImageId');
    const matches = scoped(ctx.db.hostImages, region, undefined).filter(
      (i) => (zone === undefined || i.Zone === zone) && (type === undefined || i.ImageType === type) && (os === undefined || i.OsType === os) && (imageId === undefined || i.ImageId === imageId),
    );
    const { items, total } = req.page(matches, 20);
    return { ImageSet: items.map((i) => without(i, 'Region', 'ProjectId')), TotalCount: total };
  },

  DescribePHostImage(req, ctx) {
    const region = req.region();
    req.project();
    const zone = zoneParam(req, ctx, region);
    const type = enumParam(req, 'ImageType', ['Base', 'Custom']);
    const ids = req.list('ImageId');
    const matches = scoped(ctx.db.phostImages, region, undefined).filter((i) => (zone === undefined || i.Zone === zone) && (type === undefined || i.ImageType === type) && inIds(ids, i.ImageId));
    const { items, total } = req.page(matches, 20);
    return { ImageSet: items.map((i) => without(i, 'Region', 'ProjectId', 'Zone')), TotalCount: total };
  },

  DescribeUHostInstance(req, ctx) {
    settleHosts(ctx);
    settleDisks(ctx);
    const region = req.region();
    const project = req.project();
    const zone = zoneParam(req, ctx, region);
    const ids = req.list('UHostIds');
    const tag = req.str('Tag');
    const matches = scoped(ctx.db.hosts, region, project).filter((h) => (zone === undefined || h.Zone === zone) && inIds(ids, h.UHostId) && (tag === undefined || h.Tag === tag));
    const { items, total } = req.page(matches, 20, 100);
    return { UHostSet: items.map((h) => hostInfo(h, ctx)), TotalCount: total };
  },

  DescribeUDisk(req, ctx) {
    settleDisks(ctx);
    const region = req.region();
    const project = req.project();
    const zone = zoneParam(req, ctx, region);
    const type = enumParam(req, 'DiskType', ['DataDisk', 'SSDDataDisk', 'ESSDDataDisk', 'SystemDisk', 'SSDSystemDisk', 'RSSDDataDisk']);
    const id = req.str('UDiskId');
    const matches = scoped(ctx.db.disks, region, project).filter(
      (d) => (zone === undefined || d.Zone === zone) && (type === undefined || d.DiskType === type) && (id === undefined || d.UDiskId === id),
    );
    const { items, total } = req.page(matches, 20);
    return { DataSet: items.map((d) => without(d, 'Region', 'ProjectId')), TotalCount: total };
  },
};
