import { ApiError, badRequest, cloneJson, isInt, objectBody, ok, validationFailed } from './envelope.js';
import { clashMessage } from './order-connections.js';
import { parseInnerVlan, parseVlan } from './order-common.js';
import { checkPartnerConfig, configuredTunnels, tunnelLimit, tunnelsIn } from './partner-config.js';
import { findProduct, requireChangeable } from './products.js';
import { isActive, provisioningStatus } from './provisioning.js';
import type { Ctx, Handler } from './router.js';
import { indexConnection, resolveEnd, TERMS_MONTHS, type EndTarget, type VxcEndRecord, type VxcRecord } from './store.js';
import { allocateVlan, findClash, holdVlan, vlanUses } from './vlans.js';
import { vxcView } from './vxc-view.js';

/** Request keys of one end in a VXC update, e.g. `aEndVlan` / `bEndVlan`. */
const KEYS = {
  A: { uid: 'aEndProductUid', vlan: 'aEndVlan', inner: 'aEndInnerVlan', vnic: 'aVnicIndex', config: 'aEndConfig' },
  B: { uid: 'bEndProductUid', vlan: 'bEndVlan', inner: 'bEndInnerVlan', vnic: 'bVnicIndex', config: 'bEndConfig' },
} as const;

function capacity(t: EndTarget): number {
  if (t.kind === 'partner') return t.port.maxVxcSpeed;
  return t.product.productType === 'MVE' ? 10000 : t.product.portSpeed;
}

/** True when a partner config written for `a` still fits `b` (MCR to MCR, or partner ports of one connect type). */
function sameKind(a: EndTarget | undefined, b: EndTarget): boolean {
  if (a?.kind === 'partner' && b.kind === 'partner') return a.port.connectType === b.port.connectType;
  return a?.kind === 'own' && b.kind === 'own' && a.product.productType === 'MCR2' && b.product.productType === 'MCR2';
}

function sameSlot(a: VxcEndRecord, b: VxcEndRecord): boolean {
  return a.productUid === b.productUid && a.vlan === b.vlan && a.innerVlan === b.innerVlan && (a.vNicIndex ?? 0) === (b.vNicIndex ?? 0);
}

/**
 * Applies one end's part of the update to `end`; returns what the end lands on afterwards and
 * whether a VLAN must be allocated there (a requested VLAN of 0).
 */
function updateEnd(ctx: Ctx, vxc: VxcRecord, side: 'A' | 'B', end: VxcEndRecord, body: Record<string, unknown>, errors: string[]): { target: EndTarget | undefined; allocate: boolean } {
  let allocate = false;
  const k = KEYS[side];
  let target = resolveEnd(ctx.db, end.productUid);
  const moveTo = body[k.uid];
  if (typeof moveTo === 'string' && moveTo && moveTo !== end.productUid) {
    const next = resolveEnd(ctx.db, moveTo);
    if (!next || (side === 'A' && next.kind !== 'own')) errors.push(`Valid ${side}-End is required: ${moveTo}`);
    else if (next.kind === 'partner' && !next.port.vxcPermitted) errors.push(`VXCs are not permitted to partner port ${moveTo}`);
    else if (next.kind === 'own' && !isActive(provisioningStatus(next.product, ctx.db, ctx.clock))) errors.push(`${side}-End ${moveTo} is not active`);
    else if (moveTo === (side === 'A' ? vxc.bEnd.productUid : vxc.aEnd.productUid)) errors.push('A-End and B-End must be different services');
    else {
      if (!sameKind(target, next)) delete end.partnerConfig;
      target = next;
      end.productUid = moveTo;
      if (next.kind !== 'own' || next.product.productType !== 'MVE') end.vNicIndex = null;
      else end.vNicIndex ??= 0;
    }
  }
  const partnerEnd = target?.kind === 'partner';
  if (body[k.vlan] !== undefined && body[k.vlan] !== null) {
    const want = parseVlan(body[k.vlan], `${k.vlan}`, errors);
    const nextVlan = want.auto ? undefined : want.vlan;
    if (side === 'B' && partnerEnd && (want.auto || nextVlan !== end.vlan)) throw new ApiError(403, 'Only B end owner can change B VLAN');
    allocate = want.auto;
    if (!want.auto) end.vlan = nextVlan ?? null;
  }
  if (body[k.inner] !== undefined && body[k.inner] !== null) {
    const inner = parseInnerVlan(body[k.inner], `${k.inner}`, errors);
    if (side === 'B' && partnerEnd && inner !== end.innerVlan) throw new ApiError(403, 'Only B end owner can change B VLAN');
    end.innerVlan = inner;
  }
  if (body[k.vnic] !== undefined && body[k.vnic] !== null) {
    const idx = body[k.vnic];
    if (target?.kind !== 'own' || target.product.productType !== 'MVE') errors.push(`${k.vnic} applies only to an MVE end`);
    else if (!isInt(idx) || idx < 0 || idx >= target.product.vnics.length) errors.push(`${k.vnic} ${String(idx)} does not exist on MVE ${end.productUid}`);
    else end.vNicIndex = idx;
  }
  if (body[k.config] !== undefined && body[k.config] !== null && target) {
    end.partnerConfig = checkPartnerConfig(body[k.config], target, side, ctx.db, errors);
  }
  return { target, allocate };
}

/** The VXC's own fields a modify sets (name, cost centre, shutdown, term, rate limit); the problems found. */
function modifyFields(next: VxcRecord, body: Record<string, any>): string[] {
  const errors: string[] = [];
  if (body.name !== undefined) {
    if (typeof body.name !== 'string' || !body.name.trim()) errors.push('name must be a non-empty string');
    else next.productName = body.name.trim();
  }
  if (body.costCentre !== undefined && body.costCentre !== null) {
    if (typeof body.costCentre !== 'string' || body.costCentre.length > 255) errors.push('costCentre must be a string of 255 characters or fewer');
    else next.costCentre = body.costCentre;
  }
  if (body.shutdown !== undefined && body.shutdown !== null) {
    if (typeof body.shutdown !== 'boolean') errors.push('shutdown must be true or false');
    else next.shutdown = body.shutdown;
  }
  if (body.term !== undefined && body.term !== null && body.term !== 0) {
    if (!isInt(body.term) || !TERMS_MONTHS.includes(body.term)) errors.push(`Invalid term ${String(body.term)}. Valid terms are 1, 12, 24, 36, 48, 60 months`);
    else next.term = body.term;
  }
  if (body.rateLimit !== undefined && body.rateLimit !== null) {
    if (!isInt(body.rateLimit) || body.rateLimit < 1) errors.push('rateLimit must be a whole number of Mbps, at least 1');
    else next.rateLimit = body.rateLimit;
  }
  return errors;
}

/**
 * `PUT /v3/product/vxc/{uid}`: every key optional (name, rateLimit, costCentre, shutdown, term,
 * a/bEndVlan, a/bEndInnerVlan, a/bEndProductUid to move an end, a/bVnicIndex, a/bEndConfig).
 * Answers with the VXC as it now reads, so every changed field is echoed at once.
 */
export const modifyVxc: Handler = (ctx) => {
  const p = findProduct(ctx, ctx.params.uid);
  if (p.productType !== 'VXC') throw badRequest(`Product ${p.productUid} is a ${p.productType}, not a VXC`);
  requireChangeable(ctx, p);
  const body = objectBody(ctx.req.body);
  const next = cloneJson(p);
  const errors = modifyFields(next, body);
  const aUpdate = updateEnd(ctx, p, 'A', next.aEnd, body, errors);
  const bUpdate = updateEnd(ctx, p, 'B', next.bEnd, body, errors);
  const a = aUpdate.target;
  const b = bUpdate.target;
  for (const [t, side] of [
    [a, 'A'],
    [b, 'B'],
  ] as const) {
    if (t && next.rateLimit > capacity(t)) errors.push(`rateLimit ${next.rateLimit} Mbps exceeds the ${side}-End capacity of ${capacity(t)} Mbps`);
  }
  for (const [end, before, t, allocate] of [
    [next.aEnd, p.aEnd, a, aUpdate.allocate],
    [next.bEnd, p.bEnd, b, bUpdate.allocate],
  ] as const) {
    if (!t) continue;
    const uses = vlanUses(ctx.db, end.productUid, ctx.clock, p.productUid);
    if (allocate) end.vlan = allocateVlan(uses, end.productUid, end.vNicIndex ?? 0) ?? null;
    if (t.kind === 'own' && !sameSlot(end, before)) {
      const clash = findClash(uses, { productUid: end.productUid, vNicIndex: end.vNicIndex ?? 0, vlan: end.vlan, innerVlan: end.innerVlan });
      if (clash) errors.push(clashMessage(end.vlan, `${t.product.productName} (${end.productUid})`, clash.owner));
    }
    if (t.kind === 'own' && t.product.productType === 'MCR2' && tunnelsIn(end.partnerConfig) > tunnelsIn(before.partnerConfig)) {
      const used = configuredTunnels(ctx.db, end.productUid, ctx.clock, p.productUid) + tunnelsIn(end.partnerConfig);
      if (used > tunnelLimit(t.product)) errors.push(`MCR ${end.productUid} allows ${tunnelLimit(t.product)} IPsec tunnels; ${used} would be configured`);
    }
  }
  if (errors.length) throw validationFailed(errors);
  for (const [end, before] of [
    [next.aEnd, p.aEnd],
    [next.bEnd, p.bEnd],
  ] as const) {
    if (!sameSlot(end, before)) {
      holdVlan(ctx.db, { productUid: before.productUid, vNicIndex: before.vNicIndex ?? 0, vlan: before.vlan, innerVlan: before.innerVlan }, ctx.clock);
    }
  }
  next.modifiedAt = ctx.clock.now;
  ctx.db.products[p.productUid] = next;
  indexConnection(ctx.db, next);
  return ok(`Product [${p.productUid}] has been updated`, vxcView(next, ctx.db, ctx.clock));
};
