import { isInt, isObject } from './envelope.js';
import { newUid } from './ids.js';
import { isMac } from './net.js';
import { commonOrderFields, parseInnerVlan, parseVlan, serviceReply, type OrderChecker, type OrderPlan, type OrderScope } from './order-common.js';
import { checkPartnerConfig, configuredTunnels, tunnelLimit, tunnelsIn } from './partner-config.js';
import { isActive, provisioningStatus } from './provisioning.js';
import { findIxPoint } from './seed-catalog.js';
import { findLocation } from './seed-locations.js';
import { keyProblem } from './service-keys.js';
import { resolveEnd, type EndTarget, type IxRecord, type ProductRecord, type ServiceKeyRecord, type VxcEndRecord, type VxcRecord } from './store.js';
import { allocateVlan, findClash, vlanUses, type VlanUse } from './vlans.js';

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

function checkActive(p: ProductRecord, label: string, scope: OrderScope, errors: string[]): void {
  const status = provisioningStatus(p, scope.db, scope.clock);
  if (!isActive(status)) errors.push(`${label} ${p.productUid} is not active (status ${status})`);
}

/** Mbps a VXC may use at this end. */
function capacity(t: EndTarget): number {
  if (t.kind === 'partner') return t.port.maxVxcSpeed;
  return t.product.productType === 'MVE' ? 10000 : t.product.portSpeed;
}

function uidOf(t: EndTarget): string {
  return t.kind === 'own' ? t.product.productUid : t.port.productUid;
}

function nameOf(t: EndTarget): string {
  return t.kind === 'own' ? t.product.productName : t.port.title;
}

/** Uses of a product's VLANs, counting those taken by earlier items of the same design. */
export function usesWithPending(scope: OrderScope, productUid: string, exceptOwner?: string): VlanUse[] {
  return vlanUses(scope.db, productUid, scope.clock, exceptOwner).concat(scope.pendingVlans.filter((u) => u.productUid === productUid));
}

/** The message for a VLAN that is taken. */
export function clashMessage(vlan: number | null, where: string, owner: string): string {
  const tag = vlan === null ? 'untagged' : String(vlan);
  return owner === 'held' ? `VLAN ${tag} is not available on ${where}: it was released recently and is still held` : `VLAN ${tag} is not available on ${where}: it is in use by service ${owner}`;
}

function buildEnd(raw: Record<string, unknown>, target: EndTarget, side: 'A' | 'B', scope: OrderScope, errors: string[], key?: ServiceKeyRecord): VxcEndRecord | undefined {
  const start = errors.length;
  const uid = uidOf(target);
  let vNicIndex: number | null = null;
  if (target.kind === 'own' && target.product.productType === 'MVE') {
    const idx = raw.vNicIndex ?? 0;
    if (!isInt(idx) || idx < 0 || idx >= target.product.vnics.length) errors.push(`${side}-End vNicIndex ${String(idx)} does not exist on MVE ${uid}`);
    else vNicIndex = idx;
  }
  let want = parseVlan(raw.vlan, `${side}-End vlan`, errors);
  if (key?.singleUse && key.vlan !== null) {
    if (!want.auto && want.vlan !== key.vlan) errors.push(`${side}-End vlan must be ${key.vlan}, the VLAN of the single-use service key`);
    want = { auto: false, vlan: key.vlan };
  }
  const innerVlan = parseInnerVlan(raw.innerVlan, `${side}-End innerVlan`, errors);
  const partnerConfig = checkPartnerConfig(raw.partnerConfig, target, side, scope.db, errors);
  const uses = usesWithPending(scope, uid);
  let vlan: number | null = null;
  if (want.auto) {
    const free = allocateVlan(uses, uid, vNicIndex ?? 0);
    if (free === undefined) errors.push(`No VLAN is free on ${nameOf(target)} (${uid})`);
    vlan = free ?? null;
  } else {
    vlan = want.vlan;
    const clash = target.kind === 'own' ? findClash(uses, { productUid: uid, vNicIndex: vNicIndex ?? 0, vlan, innerVlan }) : undefined;
    if (clash) errors.push(clashMessage(vlan, `${nameOf(target)} (${uid})`, clash.owner));
  }
  if (target.kind === 'own' && target.product.productType === 'MCR2') {
    const wanted = tunnelsIn(partnerConfig);
    const mcr = target.product;
    const used = configuredTunnels(scope.db, uid, scope.clock) + (scope.pendingTunnels.get(uid) ?? 0);
    const limit = tunnelLimit(mcr);
    if (wanted > 0 && limit === 0) errors.push(`MCR ${uid} has no IPsec add-on; add one before configuring ipSecTunnel interfaces`);
    else if (wanted > 0 && used + wanted > limit) errors.push(`MCR ${uid} allows ${limit} IPsec tunnels and ${used} are configured; ${wanted} more were requested`);
  }
  if (errors.length > start) return undefined;
  return { productUid: uid, vlan, innerVlan, vNicIndex, partnerConfig };
}

function checkOneVxc(v: Record<string, unknown>, topUid: unknown, scope: OrderScope, errors: string[]): OrderPlan | undefined {
  const start = errors.length;
  const { db, clock } = scope;
  const common = commonOrderFields(v, errors);
  const aIn = isObject(v.aEnd) ? v.aEnd : {};
  const bIn = isObject(v.bEnd) ? v.bEnd : {};
  const rate = v.rateLimit;
  if (!isInt(rate) || rate < 1) errors.push('rateLimit must be a whole number of Mbps, at least 1');
  const shutdown = v.shutdown ?? false;
  if (typeof shutdown !== 'boolean') errors.push('shutdown must be true or false');

  const aUid = text(aIn.productUid) ?? text(topUid);
  const a = resolveEnd(db, aUid);
  if (!a || a.kind !== 'own') errors.push(aUid ? `Valid A-End is required: ${aUid} is not one of your services` : 'Valid A-End is required');
  else checkActive(a.product, 'A-End', scope, errors);

  const { key, bUid, b } = checkBEnd(v, bIn, scope, errors);
  if (aUid && aUid === bUid) errors.push('A-End and B-End must be different services');
  if (isInt(rate)) {
    for (const [t, side] of [
      [a, 'A'],
      [b, 'B'],
    ] as const) {
      if (t && rate > capacity(t)) errors.push(`rateLimit ${rate} Mbps exceeds the ${side}-End capacity of ${capacity(t)} Mbps`);
    }
    if (key && rate > key.maxSpeed) errors.push(`rateLimit ${rate} Mbps exceeds the service key's maximum speed of ${key.maxSpeed} Mbps`);
  }
  const aEnd = a?.kind === 'own' ? buildEnd(aIn, a, 'A', scope, errors) : undefined;
  const bEnd = b ? buildEnd(bIn, b, 'B', scope, errors, key) : undefined;
  if (!aEnd || !bEnd || !isInt(rate) || errors.length > start) return undefined;

  const record: VxcRecord = {
    productType: 'VXC',
    productUid: newUid(),
    productId: scope.nextProductId++,
    productName: common.productName,
    createDate: clock.now,
    term: common.term,
    costCentre: common.costCentre,
    promoCode: common.promoCode,
    resourceTags: common.resourceTags,
    locked: false,
    rateLimit: rate,
    shutdown: shutdown === true,
    aEnd,
    bEnd,
    serviceKey: key?.key,
  };
  return vxcPlan(record, key, scope);
}

/** The B-End a VXC order names, or the Port its service key is for, with the key; each problem goes to `errors`. */
function checkBEnd(
  v: Record<string, unknown>,
  bIn: Record<string, unknown>,
  scope: OrderScope,
  errors: string[],
): { key: ServiceKeyRecord | undefined; bUid: string | undefined; b: EndTarget | undefined } {
  const { db, clock } = scope;
  let key: ServiceKeyRecord | undefined;
  const keyText = text(v.serviceKey);
  if (keyText) {
    key = db.serviceKeys[keyText];
    const problem = keyProblem(key, keyText, clock.now);
    if (problem) errors.push(problem);
  }
  let bUid = text(bIn.productUid);
  if (key) {
    if (bUid && bUid !== key.productUid) errors.push(`B-End ${bUid} does not match the port of service key ${key.key}`);
    bUid = key.productUid;
  }
  const b = resolveEnd(db, bUid);
  if (!b) errors.push('Valid B-End is required');
  else if (b.kind === 'partner' && !b.port.vxcPermitted) errors.push(`VXCs are not permitted to partner port ${b.port.productUid} (${b.port.title})`);
  else if (b.kind === 'own') checkActive(b.product, 'B-End', scope, errors);
  return { key, bUid, b };
}

/** The order plan for a checked VXC: its VLANs and tunnels held against later orders in the batch, its reply, and the key's last use. */
function vxcPlan(record: VxcRecord, key: ServiceKeyRecord | undefined, scope: OrderScope): OrderPlan {
  for (const end of [record.aEnd, record.bEnd]) {
    scope.pendingVlans.push({ productUid: end.productUid, vNicIndex: end.vNicIndex ?? 0, vlan: end.vlan, innerVlan: end.innerVlan, owner: record.productUid });
    const t = tunnelsIn(end.partnerConfig);
    if (t) scope.pendingTunnels.set(end.productUid, (scope.pendingTunnels.get(end.productUid) ?? 0) + t);
  }
  const reply = {
    vxcJTechnicalServiceUid: record.productUid,
    vxcOrderId: record.productId,
    serviceName: record.productName,
    speed: record.rateLimit,
    payerStatus: 'APPROVED',
    nonPayerStatus: 'APPROVED',
    fullyApproved: true,
    vxc: { productUid: record.productUid, productName: record.productName, rateLimit: record.rateLimit, provisioningStatus: 'DEPLOYABLE' },
  };
  const effects = key ? [(d: typeof scope.db) => void (d.serviceKeys[key.key].lastUsed = scope.clock.now)] : [];
  return { kind: 'VXC', records: [record], reply: [reply], effects };
}

/** A VXC order: `{productUid: <A-End>, associatedVxcs: [...]}`. */
export const checkVxcOrder: OrderChecker = (o, scope, errors) => {
  const start = errors.length;
  if (!Array.isArray(o.associatedVxcs) || !o.associatedVxcs.length) {
    errors.push('associatedVxcs must list at least one VXC');
    return undefined;
  }
  const plan: OrderPlan = { kind: 'VXC', records: [], reply: [], effects: [] };
  for (const v of o.associatedVxcs) {
    if (!isObject(v)) {
      errors.push('associatedVxcs entries must be objects');
      continue;
    }
    const one = checkOneVxc(v, o.productUid, scope, errors);
    if (one) {
      plan.records.push(...one.records);
      plan.reply.push(...one.reply);
      plan.effects.push(...one.effects);
    }
  }
  return errors.length > start ? undefined : plan;
};

/**
 * An IX order: `{productUid: <Port>, associatedIxs: [...]}`; the IX must be in the port's metro.
 * The order has no field for public graphs or reverse DNS (megaportgo's AssociatedIXOrder): an IX
 * starts with public graphs and no reverse DNS name, and only the IX update changes them.
 */
export const checkIxOrder: OrderChecker = (o, scope, errors) => {
  const start = errors.length;
  const port = typeof o.productUid === 'string' ? scope.db.products[o.productUid] : undefined;
  if (!port || port.productType !== 'MEGAPORT') errors.push('Valid port is required for an IX connection');
  else checkActive(port, 'Port', scope, errors);
  if (!Array.isArray(o.associatedIxs) || !o.associatedIxs.length) errors.push('associatedIxs must list at least one IX');
  if (!port || port.productType !== 'MEGAPORT' || errors.length > start) return undefined;
  const metro = findLocation(port.locationId)?.metro;
  const plan: OrderPlan = { kind: 'IX', records: [], reply: [], effects: [] };
  for (const ix of o.associatedIxs as unknown[]) {
    if (!isObject(ix)) {
      errors.push('associatedIxs entries must be objects');
      continue;
    }
    const before = errors.length;
    const common = commonOrderFields(ix, errors, 1);
    const ixp = findIxPoint(ix.networkServiceType);
    if (!ixp) errors.push(`Unknown networkServiceType ${String(ix.networkServiceType)}; see GET /v2/ixp`);
    else if (ixp.metro !== metro) errors.push(`${ixp.name} is not available in ${metro}`);
    if (!isInt(ix.asn) || ix.asn < 1 || ix.asn > 4294967295) errors.push('asn must be a valid ASN');
    if (!isMac(ix.macAddress)) errors.push('macAddress must be a MAC address such as 00:11:22:33:44:55');
    if (!isInt(ix.rateLimit) || ix.rateLimit < 1 || ix.rateLimit > port.portSpeed) {
      errors.push(`rateLimit must be between 1 and the port speed (${port.portSpeed} Mbps)`);
    }
    const want = parseVlan(ix.vlan, 'vlan', errors);
    if (!want.auto && want.vlan === null) errors.push('IX connections need a tagged VLAN');
    const uses = usesWithPending(scope, port.productUid);
    const vlan = (want.auto ? allocateVlan(uses, port.productUid, 0) : want.vlan) ?? null;
    if (want.auto && vlan === null) errors.push(`No VLAN is free on ${port.productName} (${port.productUid})`);
    const clash = want.auto || vlan === null ? undefined : findClash(uses, { productUid: port.productUid, vNicIndex: 0, vlan, innerVlan: null });
    if (clash) errors.push(clashMessage(vlan, `${port.productName} (${port.productUid})`, clash.owner));
    if (ix.shutdown !== undefined && typeof ix.shutdown !== 'boolean') errors.push('shutdown must be true or false');
    if (errors.length > before || !ixp || vlan === null) continue;
    const record: IxRecord = {
      productType: 'IX',
      productUid: newUid(),
      productId: scope.nextProductId++,
      productName: common.productName,
      createDate: scope.clock.now,
      term: common.term,
      costCentre: common.costCentre,
      promoCode: common.promoCode,
      resourceTags: common.resourceTags,
      locked: false,
      portUid: port.productUid,
      networkServiceType: ixp.name,
      asn: ix.asn as number,
      macAddress: String(ix.macAddress).toLowerCase(),
      rateLimit: ix.rateLimit as number,
      vlan,
      shutdown: ix.shutdown === true,
      publicGraph: true,
      reverseDns: null,
    };
    scope.pendingVlans.push({ productUid: port.productUid, vNicIndex: 0, vlan, innerVlan: null, owner: record.productUid });
    plan.records.push(record);
    plan.reply.push(serviceReply(record));
  }
  return errors.length > start ? undefined : plan;
};
