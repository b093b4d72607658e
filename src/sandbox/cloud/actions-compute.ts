/** Compute Actions: host and bare-metal images, hosts, disks, and the zone checks they share. */
import { settleHosts } from './actions-uhost.js';
import { settleDisks } from './actions-udisk.js';
import { ActionRequest, paramError, type ActionContext, type ActionHandler } from './request.js';
import { scoped, without } from './store.js';

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
    const region = req.region();
    const project = req.project();
    const zone = zoneParam(req, ctx, region);
    const ids = req.list('UHostIds');
    const tag = req.str('Tag');
    const matches = scoped(ctx.db.hosts, region, project).filter((h) => (zone === undefined || h.Zone === zone) && inIds(ids, h.UHostId) && (tag === undefined || h.Tag === tag));
    const { items, total } = req.page(matches, 20, 100);
    return { UHostSet: items.map((h) => without(h, 'Region', 'ProjectId')), TotalCount: total };
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
