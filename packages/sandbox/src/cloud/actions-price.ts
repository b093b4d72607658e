/**
 * The price Actions, from the table in prices.ts: what an order would cost (GetUHostInstancePrice,
 * DescribeUDiskPrice, GetEIPPrice, GetVPNGatewayPrice, GetBuyNapServicePrice) and what a change to
 * an existing object costs for the rest of its paid period, negative for a refund (the …UpgradePrice
 * Actions). Parameters and reply fields follow ucloud-sdk-js @ 3db7093 (uhost, udisk, unet,
 * ipsecvpn index.d.ts) and, for the Go-only ones, ucloud-sdk-go @ ff76b12 (uhost/models.go
 * UHostPriceSet, uads/apis.go). A price is for the whole order: every host of `Count` and every
 * period of `Quantity` (the SDKs do not say; PurchaseValue, the expiry of what was bought, suggests it).
 */
import { enumParam, zoneParam } from './actions-compute.js';
import { AREAS } from './actions-uads.js';
import { cpuMemory, disks } from './actions-uhost.js';
import { mustFind } from './network-objects.js';
import {
  DEFAULT_CHARGE_TYPES,
  DISK_FEN_PER_GB_MONTH,
  eipMonthly,
  fen,
  HOST_DISK_PRICE_TYPE,
  hostMonthly,
  NAP_IP_MONTHLY,
  NAP_IP_QUOTA,
  napMonthly,
  periodPrice,
  purchaseValue,
  SNAPSHOT_FEN_PER_GB_MONTH,
  upgradePrice,
  VPN_GATEWAY_MONTHLY,
  yuan,
} from './prices.js';
import { ApiError, paramError, type ActionContext, type ActionHandler, type ActionRequest } from './request.js';
import type { Rec } from './seed-util.js';
import { scoped } from './store.js';

/** The machine types the price Action takes (its SDK enum, and those the sandbox's hosts use). */
const MACHINE_TYPES = ['N', 'C', 'G', 'O', 'OS', 'OM', 'OMEM', 'OPRO', 'OPROG', 'OMAX', 'O.BM'];
const DISK_TYPES = Object.keys(DISK_FEN_PER_GB_MONTH);
/** Largest size of each UDisk type in GB (DescribeUDiskPrice's Size documentation). */
const DISK_MAX_GB: Record<string, number> = { RSSDDataDisk: 32000, EfficiencyDataDisk: 32000, ERSSDDataDisk: 32000, SSDSystemDisk: 4000, RSSDSystemDisk: 4000, EfficiencySystemDisk: 500 };

/** Quantity: how many periods, default 1; 0 (a month: to its end) and up. */
function quantity(req: ActionRequest): number {
  const q = req.int('Quantity') ?? 1;
  if (q < 0) throw paramError('Quantity', 'must not be negative');
  return q;
}

/** The charge types to price: the one asked for, or the defaults. */
function chargeTypes(req: ActionRequest, allowed: string[], defaults = DEFAULT_CHARGE_TYPES): string[] {
  const one = enumParam(req, 'ChargeType', allowed);
  return one ? [one] : defaults;
}

/** A PriceSet of 元 prices, one per charge type, each with the expiry of what it buys. */
function priceSet(req: ActionRequest, ctx: ActionContext, monthly: number, allowed: string[]): Array<Record<string, unknown>> {
  const q = quantity(req);
  return chargeTypes(req, allowed).map((type) => {
    const price = yuan(periodPrice(monthly, type, q, ctx.now));
    return { ChargeType: type, Price: price, OriginalPrice: price, PurchaseValue: purchaseValue(type, q, ctx.now) };
  });
}

/** When an object's paid period ends (Unix seconds); 0 for hourly billing, which prepays nothing whatever expiry it reports. */
function paidUntil(record: Rec): number {
  if (!['Year', 'Month'].includes(String(record.ChargeType ?? 'Month'))) return 0;
  return Number(record.ExpireTime ?? record.ExpiredTime ?? 0);
}

/** The host's price detail (Go PriceDetail): 元 for the host and its disks. */
function hostDetail(host: number, disk: number): Record<string, number> {
  return { UHost: yuan(host), UDisk: yuan(disk), Snapshot: 0, Volume: 0 };
}

function hostDisksMonthly(req: ActionRequest): number {
  if (req.str('Disks.0.Type') === undefined && req.str('Disks.0.IsBoot') === undefined) return 0;
  return disks(req).reduce((sum, d) => sum + (DISK_FEN_PER_GB_MONTH[HOST_DISK_PRICE_TYPE[String(d.DiskType)]] ?? 0) * Number(d.Size), 0) / 100;
}

function diskSize(req: ActionRequest, type: string): number {
  const size = req.int('Size') ?? Number(req.required('Size'));
  const max = DISK_MAX_GB[type] ?? 8000;
  if (size < 1 || size > max) throw paramError('Size', `must be 1-${max} GB for ${type}`);
  return size;
}

function yesNo(req: ActionRequest, name: string): boolean {
  return (enumParam(req, name, ['Yes', 'No']) ?? 'No') === 'Yes';
}

/** The anti-DDoS sizing of a price call; `fallback` fills what an upgrade leaves out. */
function napSizing(req: ActionRequest, fallback?: { bandwidth: number; base: number; max: number }): { bandwidth: number; base: number; max: number } {
  const bandwidth = req.int('SrcBandwidth') ?? fallback?.bandwidth;
  const base = req.list('DefenceDDosBaseFlowArr')[0] ?? fallback?.base;
  const max = req.list('DefenceDDosMaxFlowArr')[0] ?? fallback?.max;
  if (bandwidth === undefined || bandwidth < 50) throw paramError('SrcBandwidth', 'must be at least 50 (Mbps)');
  if (!Number.isInteger(Number(base)) || Number(base) < 30) throw paramError('DefenceDDosBaseFlowArr.0', 'must be at least 30 (Gbps)');
  if (!Number.isInteger(Number(max)) || Number(max) < Number(base)) throw paramError('DefenceDDosMaxFlowArr.0', 'must not be less than the base defence value');
  return { bandwidth, base: Number(base), max: Number(max) };
}

/** Checks an area line and its engine room. */
function napArea(req: ActionRequest, required: boolean): void {
  const area = required ? req.required('AreaLine') : req.str('AreaLine');
  if (area === undefined) return;
  if (!AREAS[area]) throw paramError('AreaLine', 'must be EastChina or NorthChina');
  const room = req.list('EngineRoom')[0];
  if (required && !room) throw paramError('EngineRoom.0', 'missing');
  if (room && !AREAS[area].includes(room)) throw paramError('EngineRoom.0', `must be one of ${AREAS[area].join(', ')} for ${area}`);
}

/** Price Actions by name. */
export const priceActions: Record<string, ActionHandler> = {
  GetUHostInstancePrice(req, ctx) {
    zoneParam(req, ctx, req.region());
    const [cpu, memory] = cpuMemory(req, req.int('CPU') ?? Number(req.required('CPU')), req.int('Memory') ?? Number(req.required('Memory')));
    const count = req.int('Count') ?? Number(req.required('Count'));
    if (count < 1 || count > 5) throw paramError('Count', 'must be 1-5');
    if (req.str('ImageId') === undefined && req.str('Disks.0.Size') === undefined) throw paramError('Disks.0.Size', 'the boot disk size is required without an ImageId');
    const host = hostMonthly(cpu, memory, enumParam(req, 'MachineType', MACHINE_TYPES) ?? 'N', req.int('GPU') ?? 0) * count;
    const disk = hostDisksMonthly(req) * count;
    const q = quantity(req);
    const PriceSet = chargeTypes(req, ['Year', 'Month', 'Dynamic', 'Preemptive']).map((type) => {
      const part = (monthly: number) => periodPrice(monthly, type, q, ctx.now);
      const detail = hostDetail(part(host), part(disk));
      const price = yuan(part(host) + part(disk));
      return { ChargeType: type, Price: price, OriginalPrice: price, ListPrice: price, PriceDetail: detail, OriginalPriceDetail: detail };
    });
    return { PriceSet };
  },

  GetUHostUpgradePrice(req, ctx) {
    const id = req.required('UHostId');
    const host = scoped(ctx.db.hosts, req.region(), req.project()).find((h) => h.UHostId === id);
    if (!host) throw new ApiError(8039, `UHost [${id}] not exists or has been deleted`);
    const [cpu, memory] = cpuMemory(req, req.int('CPU') ?? Number(host.CPU), req.int('Memory') ?? Number(host.Memory));
    enumParam(req, 'NetCapValue', ['0', '1', '2']);
    const type = String(host.MachineType ?? 'N');
    const price = upgradePrice(hostMonthly(Number(host.CPU), Number(host.Memory), type, 0), hostMonthly(cpu, memory, type, 0), paidUntil(host), ctx.now);
    return { Price: price, OriginalPrice: price };
  },

  DescribeUDiskPrice(req, ctx) {
    zoneParam(req, ctx, req.region()) ?? req.required('Zone');
    const type = enumParam(req, 'DiskType', DISK_TYPES) ?? 'DataDisk';
    const size = diskSize(req, type);
    const [charge] = chargeTypes(req, ['Year', 'Month', 'Dynamic', 'Postpay', 'Trial'], ['Month']);
    const q = quantity(req);
    const item = (name: string, monthlyFen: number) => {
      const price = fen(periodPrice(monthlyFen, charge, q, ctx.now));
      return { ChargeType: charge, ChargeName: name, Price: price, OriginalPrice: price, ListPrice: price };
    };
    const DataSet = [item('UDisk', DISK_FEN_PER_GB_MONTH[type] * size)];
    if (yesNo(req, 'SnapshotService')) DataSet.push(item('SnapshotService', SNAPSHOT_FEN_PER_GB_MONTH * size));
    yesNo(req, 'UDataArkMode');
    if (yesNo(req, 'IsTotalPrice'))
      DataSet.push({
        ...DataSet[0],
        ChargeName: 'Total',
        Price: DataSet.reduce((s, d) => s + d.Price, 0),
        OriginalPrice: DataSet.reduce((s, d) => s + d.OriginalPrice, 0),
        ListPrice: DataSet.reduce((s, d) => s + d.ListPrice, 0),
      });
    return { DataSet };
  },

  DescribeUDiskUpgradePrice(req, ctx) {
    zoneParam(req, ctx, req.region()) ?? req.required('Zone');
    const id = req.required('SourceId');
    const disk = scoped(ctx.db.disks, req.region(), req.project()).find((d) => d.UDiskId === id);
    if (!disk) throw new ApiError(17041, `UDisk [${id}] not exists`);
    const type = String(disk.DiskType);
    const size = diskSize(req, type);
    if (size < Number(disk.Size)) throw paramError('Size', `must not be less than the disk's ${String(disk.Size)} GB`);
    let rate = DISK_FEN_PER_GB_MONTH[type] ?? 0;
    if (yesNo(req, 'SnapshotService')) rate += SNAPSHOT_FEN_PER_GB_MONTH;
    // In 分 like DescribeUDiskPrice: the SDK states no unit for this reply.
    const price = fen(upgradePrice(rate * Number(disk.Size), rate * size, paidUntil(disk), ctx.now));
    return { Price: price, OriginalPrice: price };
  },

  GetEIPPrice(req, ctx) {
    req.region();
    const operator = enumParam(req, 'OperatorName', ['Bgp', 'International', 'ChinaMobile']) ?? req.required('OperatorName');
    const bandwidth = req.int('Bandwidth') ?? Number(req.required('Bandwidth'));
    if (bandwidth < 0 || bandwidth > 800) throw paramError('Bandwidth', 'must be 0-800 Mbps');
    const payMode = enumParam(req, 'PayMode', ['Bandwidth', 'Traffic', 'ShareBandwidth']) ?? 'Bandwidth';
    return { PriceSet: priceSet(req, ctx, eipMonthly(operator, bandwidth, payMode), ['Year', 'Month', 'Dynamic']) };
  },

  GetEIPUpgradePrice(req, ctx) {
    const eip = mustFind(ctx.db.eips, req, ctx, 'EIPId', 'EIPId', 4210, 'EIP');
    const bandwidth = req.int('Bandwidth') ?? Number(req.required('Bandwidth'));
    if (bandwidth < 1 || bandwidth > 800) throw paramError('Bandwidth', 'must be 1-800 Mbps');
    const operator = String((eip.EIPAddr as Rec[] | undefined)?.[0]?.OperatorName ?? 'Bgp');
    const line = ['Bgp', 'International', 'ChinaMobile'].includes(operator) ? operator : 'Bgp';
    const mode = String(eip.PayMode ?? 'Bandwidth');
    return { Price: upgradePrice(eipMonthly(line, Number(eip.Bandwidth), mode), eipMonthly(line, bandwidth, mode), paidUntil(eip), ctx.now) };
  },

  GetVPNGatewayPrice(req, ctx) {
    req.region();
    const grade = enumParam(req, 'Grade', ['Standard', 'Enhanced']) ?? req.required('Grade');
    return { PriceSet: priceSet(req, ctx, VPN_GATEWAY_MONTHLY[grade], ['Year', 'Month', 'Dynamic']) };
  },

  GetVPNGatewayUpgradePrice(req, ctx) {
    const gw = mustFind(ctx.db.vpnGateways, req, ctx, 'VPNGatewayId', 'VPNGatewayId', 54002, 'VPN gateway');
    const grade = enumParam(req, 'Grade', ['Standard', 'Enhanced']) ?? req.required('Grade');
    return { Price: upgradePrice(VPN_GATEWAY_MONTHLY[String(gw.Grade)] ?? 0, VPN_GATEWAY_MONTHLY[grade], paidUntil(gw), ctx.now) };
  },

  GetBuyNapServicePrice(req, ctx) {
    req.region();
    napArea(req, true);
    req.required('LineType');
    const charge = enumParam(req, 'ChargeType', ['Month', 'Year']) ?? req.required('ChargeType');
    req.required('Quantity');
    const { bandwidth, base, max } = napSizing(req);
    const price = yuan(periodPrice(napMonthly(bandwidth, base, max), charge, quantity(req), ctx.now));
    // Price in 元 like the other 元 prices: the SDK states no unit.
    return { Price: price, ChargeIPQuota: NAP_IP_QUOTA.charged, FreeIPQuota: NAP_IP_QUOTA.free, UdpFreeIpQuota: NAP_IP_QUOTA.udpFree, Message: '' };
  },

  DescribeUpgradeHighProtectGameServicePrice(req, ctx) {
    req.region();
    const id = req.required('ResourceId');
    const inst = ctx.db.uadsInstances.find((i) => i.ResourceId === id && i.VisibleAt <= ctx.now);
    if (!inst) throw paramError('ResourceId', `no anti-DDoS instance ${id}`);
    napArea(req, false);
    const next = napSizing(req, { bandwidth: inst.SrcBandwidth, base: inst.Base, max: inst.Max });
    const before = napMonthly(inst.SrcBandwidth, inst.Base, inst.Max);
    // The SDK types this Price as an int: whole 元.
    const price = Math.round(upgradePrice(before, napMonthly(next.bandwidth, next.base, next.max), inst.ExpiredTime, ctx.now));
    return { Price: price, ChargeIPQuota: NAP_IP_QUOTA.charged, FreeIPQuota: NAP_IP_QUOTA.free };
  },

  // uads/apis.go DescribeBuyHighProtectGameIPPriceRequest: ResourceId, ChargeType, Quantity, all
  // required; the reply's UnitPrice (one IP beyond the free quota, for Quantity periods) and
  // PremiumPrice are float64 with no unit stated: 元 here, like the other 元 prices.
  DescribeBuyHighProtectGameIPPrice(req, ctx) {
    const id = req.required('ResourceId');
    if (!ctx.db.uadsInstances.some((i) => i.ResourceId === id && i.VisibleAt <= ctx.now)) throw paramError('ResourceId', `no anti-DDoS instance ${id}`);
    const charge = enumParam(req, 'ChargeType', ['Year', 'Month', 'Dynamic', 'Trial']) ?? req.required('ChargeType');
    req.required('Quantity');
    const q = quantity(req);
    if (q < 1) throw paramError('Quantity', 'must be at least 1');
    return { UnitPrice: yuan(periodPrice(NAP_IP_MONTHLY, charge, q, ctx.now)), PremiumPrice: 0 };
  },
};
