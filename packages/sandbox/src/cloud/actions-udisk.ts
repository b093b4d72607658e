/**
 * UDisk write Actions: create, rename, resize, attach, detach, delete. A new disk reads
 * `Initializating` (sic, as the API spells it), an attach `Attaching` and a detach `Detaching`
 * for `provisioningMs` before settling. A disk that is attached (or on its way) cannot be resized
 * alone, attached again or deleted (17026, 17056, 17057), as the API answers.
 */
import { enumParam, zoneParam } from './actions-compute.js';
import { label, madeNow, newId, remove } from './network-objects.js';
import { ApiError, paramError, type ActionContext, type ActionHandler, type ActionRequest } from './request.js';
import { paidExpiry } from './prices.js';
import { scoped } from './store.js';
import type { Rec } from './seed-util.js';

/** UDisk's code for a disk that does not exist. */
const NOT_FOUND = 17041;

const TYPES = ['DataDisk', 'SSDDataDisk', 'ESSDDataDisk', 'RSSDDataDisk', 'ERSSDDataDisk', 'EfficiencyDataDisk'];
const LARGE = ['RSSDDataDisk', 'ERSSDDataDisk', 'EfficiencyDataDisk'];

/** Moves disks whose transition has had its time to the status it leads to. */
export function settleDisks(ctx: ActionContext): void {
  for (const disk of ctx.db.disks) {
    const pending = disk._transition as { at: number; to: string } | undefined;
    if (!pending || pending.at > ctx.now) continue;
    disk.Status = pending.to;
    if (pending.to === 'Available') Object.assign(disk, { UHostId: '', DeviceName: '' });
    delete disk._transition;
  }
}

function transition(disk: Rec, ctx: ActionContext, via: string, to: string): void {
  disk.Status = via;
  disk._transition = { at: ctx.now + ctx.provisioningMs, to };
  settleDisks(ctx);
}

/** The disk the UDiskId parameter names, in the request's region and project. */
export function udisk(req: ActionRequest, ctx: ActionContext): Rec {
  settleDisks(ctx);
  const id = req.required('UDiskId');
  const found = scoped(ctx.db.disks, req.region(), req.project()).find((d) => d.UDiskId === id);
  if (!found) throw new ApiError(NOT_FOUND, `UDisk [${id}] not exists`);
  return found;
}

function size(req: ActionRequest, type: string): number {
  const value = req.int('Size') ?? Number(req.required('Size'));
  const max = LARGE.includes(type) ? 32000 : 8000;
  if (value < 1 || value > max) throw paramError('Size', `must be 1-${max} GB for ${type}`);
  return value;
}

/** The host the HostId (or the older UHostId) parameter names. */
function hostParam(req: ActionRequest, ctx: ActionContext): Rec {
  const id = req.str('HostId') ?? req.str('UHostId') ?? req.required('HostId');
  const found = scoped(ctx.db.hosts, req.region(), req.project()).find((h) => h.UHostId === id);
  if (!found) throw new ApiError(8039, `UHost [${id}] not exists or has been deleted`);
  return found;
}

/** UDisk write Actions by name (DescribeUDisk is in actions-compute.ts). */
export const udiskActions: Record<string, ActionHandler> = {
  CreateUDisk(req, ctx) {
    const zone = zoneParam(req, ctx, req.region()) ?? req.required('Zone');
    const name = label(req, 'Name') ?? req.required('Name');
    const type = enumParam(req, 'DiskType', TYPES) ?? 'DataDisk';
    const base = madeNow(req, ctx);
    delete base._visibleAt;
    const charge = enumParam(req, 'ChargeType', ['Year', 'Month', 'Dynamic', 'Postpay', 'Trial']) ?? 'Dynamic';
    const record: Rec = {
      ...base,
      UDiskId: newId('bsm'),
      Name: name,
      Zone: zone,
      Size: size(req, type),
      DiskType: type,
      ChargeType: charge,
      Tag: label(req, 'Tag') ?? 'Default',
      UHostId: '',
      IsBoot: 'false',
      DeviceName: '',
      ExpiredTime: paidExpiry(charge, req.int('Quantity') ?? 1, ctx.now),
    };
    ctx.db.disks.push(record);
    transition(record, ctx, 'Initializating', 'Available');
    return { UDiskId: [record.UDiskId] };
  },

  RenameUDisk(req, ctx) {
    zoneParam(req, ctx, req.region()) ?? req.required('Zone');
    const record = udisk(req, ctx);
    record.Name = label(req, 'UDiskName') ?? req.required('UDiskName');
    return {};
  },

  ResizeUDisk(req, ctx) {
    zoneParam(req, ctx, req.region()) ?? req.required('Zone');
    const record = udisk(req, ctx);
    if (record.Status !== 'Available') throw new ApiError(17026, `UDisk [${String(record.UDiskId)}] is ${String(record.Status)}: detach it first, or resize it through its host`);
    const next = size(req, String(record.DiskType));
    if (next <= Number(record.Size)) throw paramError('Size', `must be larger than ${String(record.Size)} GB: a disk only grows`);
    record.Size = next;
    return {};
  },

  AttachUDisk(req, ctx) {
    const record = udisk(req, ctx);
    const target = hostParam(req, ctx);
    if (record.Status === 'Attaching') throw new ApiError(17056, `UDisk [${String(record.UDiskId)}] is being attached`);
    if (record.Status === 'InUse' || record.Status === 'Detaching') throw new ApiError(17057, `UDisk [${String(record.UDiskId)}] is attached to ${String(record.UHostId)}`);
    if (record.Status !== 'Available') throw new ApiError(17005, `UDisk [${String(record.UDiskId)}] is ${String(record.Status)}`);
    if (target.Zone !== record.Zone) throw paramError('HostId', `host ${String(target.UHostId)} is in ${String(target.Zone)}, the disk in ${String(record.Zone)}`);
    const taken = ctx.db.disks.filter((d) => d.UHostId === target.UHostId).length;
    Object.assign(record, { UHostId: target.UHostId, DeviceName: `/dev/vd${String.fromCharCode(99 + taken)}` });
    transition(record, ctx, 'Attaching', 'InUse');
    return { UDiskId: record.UDiskId, HostId: target.UHostId, DeviceName: record.DeviceName };
  },

  DetachUDisk(req, ctx) {
    const record = udisk(req, ctx);
    const target = hostParam(req, ctx);
    if (record.Status === 'Detaching') throw new ApiError(17061, `UDisk [${String(record.UDiskId)}] is being detached`);
    if (record.Status !== 'InUse' || record.UHostId !== target.UHostId) throw new ApiError(17060, `UDisk [${String(record.UDiskId)}] is not attached to ${String(target.UHostId)}`);
    transition(record, ctx, 'Detaching', 'Available');
    return { UDiskId: record.UDiskId, HostId: target.UHostId };
  },

  DeleteUDisk(req, ctx) {
    zoneParam(req, ctx, req.region()) ?? req.required('Zone');
    const record = udisk(req, ctx);
    if (record.Status !== 'Available') throw new ApiError(17026, `UDisk [${String(record.UDiskId)}] is ${String(record.Status)}: detach it first`);
    remove(ctx.db.disks, record);
    return {};
  },
};
