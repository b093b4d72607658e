/**
 * UHost write Actions: create, start, stop, resize, rename/remark/retag, reset the password,
 * grow an attached disk, swap the firewall, terminate. Power states pass through their
 * transitions (Initializing, Starting, Stopping) for `provisioningMs`; resizing, resetting the
 * password and terminating are refused unless the instance is Stopped (8010, 8856), as the API does.
 */
import { enumParam, zoneParam } from './actions-compute.js';
import { label, madeNow, newId, remark, remove, visible } from './network-objects.js';
import { grantNatFirewall } from './actions-natgw.js';
import { ApiError, paramError, type ActionContext, type ActionHandler, type ActionRequest } from './request.js';
import { paidExpiry } from './prices.js';
import { scoped } from './store.js';
import type { Rec } from './seed-util.js';

/** The UHost service's code for a host that does not exist (deleted). */
const NOT_FOUND = 8039;

const DISK_TYPES = ['LOCAL_NORMAL', 'LOCAL_SSD', 'CLOUD_NORMAL', 'CLOUD_SSD', 'CLOUD_ESSD', 'CLOUD_RSSD', 'EXCLUSIVE_LOCAL_DISK'];
/** Data-disk size limits per type, GB (DOC/uhost-api/disk_type). */
const DATA_MAX: Record<string, number> = { LOCAL_NORMAL: 2000, LOCAL_SSD: 1000, CLOUD_NORMAL: 8000, CLOUD_SSD: 8000, CLOUD_ESSD: 8000, CLOUD_RSSD: 32000, EXCLUSIVE_LOCAL_DISK: 8000 };

/** Moves hosts whose transition has had its time to the state it leads to. */
export function settleHosts(ctx: ActionContext): void {
  for (const host of ctx.db.hosts) {
    const pending = host._transition as { at: number; to: string } | undefined;
    if (!pending || pending.at > ctx.now) continue;
    host.State = pending.to;
    host.BootDiskState = 'Normal';
    delete host._transition;
  }
}

function host(req: ActionRequest, ctx: ActionContext, id = req.required('UHostId')): Rec {
  settleHosts(ctx);
  const found = scoped(ctx.db.hosts, req.region(), req.project()).find((h) => h.UHostId === id);
  if (!found) throw new ApiError(NOT_FOUND, `UHost [${id}] not exists or has been deleted`);
  return found;
}

/** Starts a transition: the host reads `via` until provisioningMs have passed, then `to`. */
function transition(host: Rec, ctx: ActionContext, via: string, to: string): void {
  host.State = via;
  host._transition = { at: ctx.now + ctx.provisioningMs, to };
  settleHosts(ctx);
}

function mustBeStopped(record: Rec, code = 8010): void {
  if (record.State !== 'Stopped') throw new ApiError(code, `UHost [${String(record.UHostId)}] is ${String(record.State)}: stop the host first`);
}

/** A base64 password of 8–30 characters. */
function password(req: ActionRequest): string | undefined {
  const wire = req.str('Password');
  if (wire === undefined) return undefined;
  const plain = Buffer.from(wire, 'base64').toString('utf8');
  if (Buffer.from(plain, 'utf8').toString('base64') !== wire || plain.length < 8 || plain.length > 30) throw paramError('Password', 'must be 8-30 characters, base64-encoded');
  return plain;
}

/** The `Disks.N` structs: exactly one boot disk, known types, sizes in range. */
export function disks(req: ActionRequest): Rec[] {
  const out: Rec[] = [];
  for (let i = 0; req.str(`Disks.${i}.Type`) !== undefined || req.str(`Disks.${i}.IsBoot`) !== undefined; i++) {
    const type = enumParam(req, `Disks.${i}.Type`, DISK_TYPES) ?? req.required(`Disks.${i}.Type`);
    const boot = (enumParam(req, `Disks.${i}.IsBoot`, ['True', 'False']) ?? req.required(`Disks.${i}.IsBoot`)) === 'True';
    const size = req.int(`Disks.${i}.Size`) ?? req.required(`Disks.${i}.Size`);
    if (boot && type === 'CLOUD_NORMAL') throw paramError(`Disks.${i}.Type`, 'CLOUD_NORMAL cannot be a boot disk');
    const [min, max] = boot ? [20, 500] : [20, DATA_MAX[type]];
    if (Number(size) < min || Number(size) > max) throw new ApiError(8046, `Disks.${i}.Size ${String(size)} is out of range ${min}-${max} GB for ${type}`);
    out.push({
      DiskId: newId(type.startsWith('LOCAL') ? 'bsi' : 'bsm'),
      DiskType: type,
      IsBoot: boot ? 'True' : 'False',
      Size: Number(size),
      Drive: `vd${String.fromCharCode(97 + i)}`,
      Type: boot ? 'Boot' : 'Data',
      Encrypted: 'false',
    });
  }
  if (out.filter((d) => d.IsBoot === 'True').length !== 1) throw paramError('Disks.0.IsBoot', 'exactly one disk must be the boot disk');
  return out;
}

/** CPU cores and memory (MB) checked against the ranges the API accepts (8044, 8045). */
export function cpuMemory(req: ActionRequest, cpu: number, memory: number): [number, number] {
  if (!Number.isInteger(cpu) || cpu < 1 || cpu > 64) throw new ApiError(8044, `CPU ${cpu} is out of range 1-64`);
  if (memory % 1024 !== 0 || memory < 1024 || memory > 262144) throw new ApiError(8045, `Memory ${memory} must be a multiple of 1024 MB in 1024-262144`);
  return [cpu, memory];
}

/** An address of the subnet not used by another host. */
function freeIp(ctx: ActionContext, subnet: Rec): string {
  const base = String(subnet.Subnet).split('.').map(Number);
  const start = base.reduce((n, p) => n * 256 + p, 0);
  const used = new Set(ctx.db.hosts.flatMap((h) => (h.IPSet as Rec[]).map((ip) => ip.IP)));
  for (let n = start + 2; ; n++) {
    const ip = [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
    if (!used.has(ip)) return ip;
  }
}

function grant(ctx: ActionContext, firewallId: string | undefined, delta: number): void {
  const firewall = ctx.db.firewalls.find((f) => f.FWId === firewallId);
  if (firewall) firewall.ResourceCount = Math.max(0, Number(firewall.ResourceCount ?? 0) + delta);
}

function create(req: ActionRequest, ctx: ActionContext): Record<string, unknown> {
  const region = req.region();
  const zone = zoneParam(req, ctx, region) ?? req.required('Zone');
  const imageId = req.required('ImageId');
  const image = ctx.db.hostImages.find((i) => i.ImageId === imageId && i.Zone === zone);
  if (!image || image.State !== 'Available') throw paramError('ImageId', `${imageId} is not an available image of ${zone}`);
  const mode = enumParam(req, 'LoginMode', ['Password', 'KeyPair', 'ImagePasswd']) ?? req.required('LoginMode');
  if (mode === 'Password' && password(req) === undefined) throw paramError('Password', 'missing for LoginMode Password');
  if (mode === 'KeyPair') req.required('KeyPairId');
  const [cpu, memory] = cpuMemory(req, req.int('CPU') ?? 4, req.int('Memory') ?? 8192);
  const set = disks(req);
  const subnet = visible(ctx.db.subnets, req, ctx).find((s) => s.SubnetId === req.required('SubnetId') && s.VPCId === req.required('VPCId'));
  if (!subnet) throw new ApiError(8847, `subnet [${String(req.str('SubnetId'))}] of VPC [${String(req.str('VPCId'))}] not found`);
  const firewallId = req.str('SecurityGroupId');
  if (firewallId !== undefined && !visible(ctx.db.firewalls, req, ctx).some((f) => f.FWId === firewallId)) throw paramError('SecurityGroupId', `firewall ${firewallId} not found`);
  const id = newId('uhost');
  const ip = freeIp(ctx, subnet);
  const base = madeNow(req, ctx);
  delete base._visibleAt;
  const charge = enumParam(req, 'ChargeType', ['Year', 'Month', 'Dynamic', 'Postpay', 'Spot']) ?? 'Month';
  const record: Rec = {
    ...base,
    UHostId: id,
    Zone: zone,
    Name: label(req, 'Name') ?? 'UHost',
    Tag: label(req, 'Tag') ?? 'Default',
    Remark: '',
    CPU: cpu,
    Memory: memory,
    MachineType: enumParam(req, 'MachineType', ['N', 'C', 'G', 'O', 'OM', 'OMEM', 'OPRO', 'OPROG']) ?? 'N',
    ChargeType: charge,
    AutoRenew: 'Yes',
    BasicImageId: imageId,
    ImageId: imageId,
    LoginMode: mode,
    KeyPair: mode === 'KeyPair' ? { KeyPairId: req.str('KeyPairId') } : {},
    BootDiskState: 'Initializing',
    IPSet: [{ IPMode: 'IPv4', IP: ip, Type: 'Private', VPCId: subnet.VPCId, SubnetId: subnet.SubnetId, Mac: `52:54:00:${id.slice(6, 8)}:${id.slice(8, 10)}:01`, Default: 'true', Bandwidth: 0 }],
    DiskSet: set,
    ExpireTime: paidExpiry(charge, req.int('Quantity') ?? 1, ctx.now),
    _firewall: firewallId,
  };
  ctx.db.hosts.push(record);
  grant(ctx, firewallId, 1);
  transition(record, ctx, 'Initializing', 'Running');
  return { UHostIds: [id], IPs: [ip] };
}

/** UHost write Actions by name (DescribeUHostInstance is in actions-compute.ts). */
export const uhostActions: Record<string, ActionHandler> = {
  CreateUHostInstance: create,

  StartUHostInstance(req, ctx) {
    const record = host(req, ctx);
    if (record.State !== 'Stopped') throw new ApiError(8905, `UHost [${String(record.UHostId)}] is ${String(record.State)}, not Stopped`);
    transition(record, ctx, 'Starting', 'Running');
    return { UhostId: record.UHostId };
  },

  StopUHostInstance(req, ctx) {
    const record = host(req, ctx);
    if (record.State !== 'Running') throw new ApiError(8905, `UHost [${String(record.UHostId)}] is ${String(record.State)}, not Running`);
    transition(record, ctx, 'Stopping', 'Stopped');
    return { UhostId: record.UHostId };
  },

  PoweroffUHostInstance(req, ctx) {
    const record = host(req, ctx);
    transition(record, ctx, 'Stopping', 'Stopped');
    return {};
  },

  ResizeUHostInstance(req, ctx) {
    const record = host(req, ctx);
    mustBeStopped(record);
    const [cpu, memory] = cpuMemory(req, req.int('CPU') ?? Number(record.CPU), req.int('Memory') ?? Number(record.Memory));
    Object.assign(record, { CPU: cpu, Memory: memory });
    if (req.bool('AutoStart')) transition(record, ctx, 'Starting', 'Running');
    return { UhostId: record.UHostId };
  },

  ResizeAttachedDisk(req, ctx) {
    const record = host(req, ctx);
    zoneParam(req, ctx, req.region()) ?? req.required('Zone');
    const diskId = req.required('DiskId');
    const disk = (record.DiskSet as Rec[]).find((d) => d.DiskId === diskId) ?? ctx.db.disks.find((d) => d.UDiskId === diskId && d.UHostId === record.UHostId && d.Status === 'InUse');
    if (!disk) throw paramError('DiskId', `${String(req.str('DiskId'))} is not a disk of ${String(record.UHostId)}`);
    const size = req.int('DiskSpace') ?? Number(req.required('DiskSpace'));
    if (size <= Number(disk.Size) || size % 10 !== 0) throw new ApiError(8046, `DiskSpace ${size} must be larger than ${String(disk.Size)} GB, in steps of 10`);
    disk.Size = size;
    return { DiskId: diskId, NeedRestart: false };
  },

  ModifyUHostInstanceName(req, ctx) {
    host(req, ctx).Name = label(req, 'Name') ?? req.required('Name');
    return {};
  },

  ModifyUHostInstanceRemark(req, ctx) {
    host(req, ctx).Remark = remark(req) ?? '';
    return {};
  },

  ModifyUHostInstanceTag(req, ctx) {
    host(req, ctx).Tag = label(req, 'Tag') ?? 'Default';
    return {};
  },

  ResetUHostInstancePassword(req, ctx) {
    const record = host(req, ctx);
    mustBeStopped(record);
    const mode = enumParam(req, 'LoginMode', ['Password', 'KeyPair']) ?? 'Password';
    if (mode === 'Password' && password(req) === undefined) throw paramError('Password', 'missing');
    record.LoginMode = mode;
    record.KeyPair = mode === 'KeyPair' ? { KeyPairId: req.required('KeyPairId') } : {};
    if (req.bool('AutoStart')) transition(record, ctx, 'Starting', 'Running');
    return { UhostId: record.UHostId };
  },

  GrantFirewall(req, ctx) {
    const fwId = req.required('FWId');
    if (!visible(ctx.db.firewalls, req, ctx).some((f) => f.FWId === fwId)) throw new ApiError(4600, `firewall [${fwId}] not exists`);
    const type = req.required('ResourceType');
    if (type === 'unatgw' || type === 'natgw') {
      grantNatFirewall(req, ctx, fwId);
      return {};
    }
    if (type !== 'uhost') throw paramError('ResourceType', 'only uhost and unatgw are served here');
    const record = host(req, ctx, req.required('ResourceId'));
    grant(ctx, record._firewall as string | undefined, -1);
    record._firewall = fwId;
    grant(ctx, fwId, 1);
    return {};
  },

  TerminateUHostInstance(req, ctx) {
    const record = host(req, ctx);
    mustBeStopped(record, 8856);
    grant(ctx, record._firewall as string | undefined, -1);
    // Cloud disks attached later go with it (ReleaseUDisk) or are left detached.
    const release = req.bool('ReleaseUDisk') === true;
    for (const disk of ctx.db.disks.filter((d) => d.UHostId === record.UHostId)) {
      if (release) remove(ctx.db.disks, disk);
      else Object.assign(disk, { UHostId: '', Status: 'Available', DeviceName: '' });
    }
    remove(ctx.db.hosts, record);
    return { UHostIds: [record.UHostId], InRecycle: 'No' };
  },
};
