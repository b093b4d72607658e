/**
 * Elastic IP Actions of the UNet service: allocate, rename/retag/remark, bandwidth, pay mode,
 * egress weight, bind, unbind, release, and the pay modes of several (GetEIPPayMode). Binding and unbinding take `provisioningMs`: until a bind
 * settles the EIP still reports `free` with no resource, and until an unbind settles it still
 * reports `used` (and cannot be released, 4212), so a client must wait for the state it wants.
 */
import { ApiError, paramError, type ActionContext, type ActionHandler, type ActionRequest } from './request.js';
import { enumParam } from './actions-compute.js';
import { natEipCount } from './actions-natgw.js';
import { label, remark, madeNow, mustFind, newId, remove, visible } from './network-objects.js';
import { publicIp, type Rec } from './seed-util.js';

/** UNet's code for an EIP that does not exist. */
const NOT_FOUND = 4210;

/** What BindEIP can bind to: the table, id field and name field of each resource type. */
const BINDABLE: Record<string, [table: 'hosts' | 'lbs' | 'natGateways' | 'vpnGateways', id: string, name: string]> = {
  uhost: ['hosts', 'UHostId', 'Name'],
  ulb: ['lbs', 'ULBId', 'Name'],
  natgw: ['natGateways', 'NATGWId', 'NATGWName'],
  vpngw: ['vpnGateways', 'VPNGatewayId', 'VPNGatewayName'],
};

/**
 * Settles a bind or unbind whose time has come, so Status and Resource read as the API reports
 * them. Called before any Action reads an EIP.
 */
export function settleEips(ctx: ActionContext): void {
  for (const eip of ctx.db.eips) {
    const pending = eip._binding as { at: number; resource?: Rec } | undefined;
    if (!pending || pending.at > ctx.now) continue;
    eip.Resource = pending.resource ?? {};
    eip.Status = pending.resource ? 'used' : 'free';
    delete eip._binding;
  }
}

function eip(req: ActionRequest, ctx: ActionContext): Rec {
  settleEips(ctx);
  return mustFind(ctx.db.eips, req, ctx, 'EIPId', 'EIPId', NOT_FOUND, 'EIP');
}

/** The Bandwidth parameter for a pay mode: 0 in share mode (4002), otherwise within the mode's range (4011). */
function bandwidthFor(req: ActionRequest, payMode: string): number {
  const bandwidth = req.int('Bandwidth');
  if (bandwidth === undefined) throw paramError('Bandwidth', 'missing');
  if (payMode === 'ShareBandwidth') {
    if (bandwidth !== 0) throw new ApiError(4002, 'Bandwidth must be 0 in share-bandwidth mode');
    return 0;
  }
  if (bandwidth === 0) throw new ApiError(4011, 'Bandwidth cannot be 0 outside share-bandwidth mode');
  const max = payMode === 'Traffic' ? 300 : 10000;
  if (bandwidth < 1 || bandwidth > max) throw paramError('Bandwidth', `must be 1-${max} Mbps when paying by ${payMode}`);
  return bandwidth;
}

/** EIP Actions by name (DescribeEIP is in actions-network.ts). */
export const eipActions: Record<string, ActionHandler> = {
  AllocateEIP(req, ctx) {
    const operator = enumParam(req, 'OperatorName', ['Bgp', 'International', 'BGPPro']) ?? req.required('OperatorName');
    const payMode = enumParam(req, 'PayMode', ['Traffic', 'Bandwidth', 'ShareBandwidth', 'PostAccurateBandwidth']) ?? 'Bandwidth';
    const charge = enumParam(req, 'ChargeType', ['Year', 'Month', 'Dynamic']) ?? 'Month';
    const bandwidth = bandwidthFor(req, payMode);
    const quantity = req.int('Quantity') ?? 1;
    const base = madeNow(req, ctx);
    const id = newId('eip');
    const expires = new Date(ctx.now);
    expires.setUTCMonth(expires.getUTCMonth() + (charge === 'Year' ? 12 : 1) * Math.max(quantity, 1));
    const record: Rec = {
      ...base,
      EIPId: id,
      Name: label(req, 'Name') ?? 'EIP',
      Tag: label(req, 'Tag') ?? 'Default',
      Remark: remark(req) ?? '',
      Status: 'free',
      Bandwidth: bandwidth,
      BandwidthType: payMode === 'ShareBandwidth' ? 1 : 0,
      ChargeType: charge,
      PayMode: payMode,
      ExpireTime: charge === 'Dynamic' ? 0 : Math.floor(expires.getTime() / 1000),
      Expire: false,
      Weight: 50,
      EIPAddr: [{ IP: publicIp(`eip/${id}`), OperatorName: operator }],
      ShareBandwidthSet: { ShareBandwidthId: req.str('ShareBandwidthId') ?? '', ShareBandwidthName: '', ShareBandwidth: 0 },
      Resource: {},
    };
    // Allocation is immediate: the EIP is listed as soon as it is made.
    delete record._visibleAt;
    ctx.db.eips.push(record);
    return { EIPSet: [{ EIPId: id, EIPAddr: record.EIPAddr }] };
  },

  UpdateEIPAttribute(req, ctx) {
    const record = eip(req, ctx);
    const [name, tag, note] = [label(req, 'Name'), label(req, 'Tag'), remark(req)];
    if (name === undefined && tag === undefined && note === undefined) throw paramError('Name', 'one of Name, Tag or Remark is required');
    if (name !== undefined) record.Name = name;
    if (tag !== undefined) record.Tag = tag;
    if (note !== undefined) record.Remark = note;
    return {};
  },

  ModifyEIPBandwidth(req, ctx) {
    const record = eip(req, ctx);
    if (record.PayMode === 'ShareBandwidth') throw new ApiError(4216, 'the bandwidth of an EIP in a shared bandwidth package cannot be changed');
    record.Bandwidth = bandwidthFor(req, String(record.PayMode));
    return {};
  },

  SetEIPPayMode(req, ctx) {
    const record = eip(req, ctx);
    const payMode = enumParam(req, 'PayMode', ['Traffic', 'Bandwidth']) ?? req.required('PayMode');
    record.Bandwidth = bandwidthFor(req, payMode);
    record.PayMode = payMode;
    return {};
  },

  // EIPId.N: each EIP's pay mode (4210 for an id that does not exist).
  GetEIPPayMode(req, ctx) {
    const ids = req.list('EIPId');
    if (!ids.length) throw paramError('EIPId.0', 'missing');
    const records = ids.map((id) => {
      const record = visible(ctx.db.eips, req, ctx).find((e) => e.EIPId === id);
      if (!record) throw new ApiError(NOT_FOUND, `EIP [${id}] not exists`);
      return record;
    });
    return { EIPPayMode: records.map((e) => ({ EIPId: e.EIPId, EIPPayMode: e.PayMode })) };
  },

  ModifyEIPWeight(req, ctx) {
    const record = eip(req, ctx);
    const weight = req.int('Weight');
    if (weight === undefined || weight < 0 || weight > 100) throw paramError('Weight', 'must be 0-100');
    record.Weight = weight;
    return {};
  },

  BindEIP(req, ctx) {
    const record = eip(req, ctx);
    const type = req.required('ResourceType').toLowerCase();
    const resourceId = req.required('ResourceId');
    const kind = BINDABLE[type];
    if (!kind) throw new ApiError(4218, `an EIP cannot be bound to resource type ${type} here; supported: ${Object.keys(BINDABLE).join(', ')}`);
    const [table, idField, nameField] = kind;
    const target = ctx.db[table].find((r) => r[idField] === resourceId && r.Region === req.region());
    if (!target) throw new ApiError(4218, `cannot bind to ${type} [${resourceId}]: no such resource`);
    if (record.Status !== 'free' || record._binding) throw new ApiError(4154, `EIP [${String(record.EIPId)}] is already bound or being bound`);
    const resource = { ResourceType: type, ResourceID: resourceId, ResourceName: target[nameField], EIPId: record.EIPId };
    record._binding = { at: ctx.now + ctx.provisioningMs, resource };
    settleEips(ctx);
    return {};
  },

  UnBindEIP(req, ctx) {
    const record = eip(req, ctx);
    const type = req.required('ResourceType').toLowerCase();
    const resourceId = req.required('ResourceId');
    const bound = record.Resource as Rec;
    if (record.Status !== 'used' || record._binding || bound.ResourceID !== resourceId || bound.ResourceType !== type) {
      throw paramError('ResourceId', `EIP [${String(record.EIPId)}] is not bound to ${type} [${resourceId}]`);
    }
    if (type === 'vpngw' && ctx.db.vpnTunnels.some((t) => t.VPNGatewayId === resourceId)) throw new ApiError(4238, `VPN gateway [${resourceId}] still has tunnels: its EIP cannot be unbound`);
    if (type === 'natgw' && natEipCount(ctx, resourceId) <= 1) throw new ApiError(4235, `EIP [${String(record.EIPId)}] is the last EIP of NAT gateway [${resourceId}] and cannot be unbound`);
    record._binding = { at: ctx.now + ctx.provisioningMs };
    settleEips(ctx);
    return {};
  },

  ReleaseEIP(req, ctx) {
    const record = eip(req, ctx);
    if (record.Status === 'used' || record._binding) throw new ApiError(4212, `EIP [${String(record.EIPId)}] is in use: unbind it first`);
    remove(ctx.db.eips, record);
    return {};
  },
};
