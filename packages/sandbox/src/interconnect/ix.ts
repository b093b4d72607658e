import { badRequest, cloneJson, isInt, objectBody, ok, validationFailed } from './envelope.js';
import { isMac } from './net.js';
import { clashMessage } from './order-connections.js';
import { parseVlan } from './order-common.js';
import { findProduct, requireChangeable } from './products.js';
import { ixView } from './product-view.js';
import { isActive, provisioningStatus } from './provisioning.js';
import type { Ctx, Handler } from './router.js';
import { findIxPoint } from './seed-catalog.js';
import { findLocation } from './seed-locations.js';
import { indexConnection, type IxRecord } from './store.js';
import { allocateVlan, findClash, holdVlan, vlanUses } from './vlans.js';

/**
 * `PUT /v2/product/ix/{uid}`: name, rateLimit, costCentre, vlan, macAddress, asn, password,
 * publicGraph, reverseDns, shutdown, and aEndProductUid to move the IX to another Port in its metro.
 */
export const modifyIx: Handler = (ctx) => {
  const p = findProduct(ctx, ctx.params.uid);
  if (p.productType !== 'IX') throw badRequest(`Product ${p.productUid} is a ${p.productType}, not an IX`);
  requireChangeable(ctx, p);
  const body = objectBody(ctx.req.body);
  const next = cloneJson(p);
  const errors: string[] = [];
  checkIxSettings(body, next, errors);
  checkIxPortMove(ctx, body, p, next, errors);
  const port = ctx.db.products[next.portUid];
  if (body.rateLimit !== undefined) {
    const max = port?.productType === 'MEGAPORT' ? port.portSpeed : 0;
    if (!isInt(body.rateLimit) || body.rateLimit < 1 || body.rateLimit > max) errors.push(`rateLimit must be between 1 and the port speed (${max} Mbps)`);
    else next.rateLimit = body.rateLimit;
  }
  const uses = vlanUses(ctx.db, next.portUid, ctx.clock, p.productUid);
  if (body.vlan !== undefined && body.vlan !== null) {
    const want = parseVlan(body.vlan, 'vlan', errors);
    if (!want.auto && want.vlan === null) errors.push('IX connections need a tagged VLAN');
    else next.vlan = (want.auto ? allocateVlan(uses, next.portUid, 0) : want.vlan) ?? next.vlan;
  }
  const moved = next.portUid !== p.portUid || next.vlan !== p.vlan;
  if (moved) {
    const clash = findClash(uses, { productUid: next.portUid, vNicIndex: 0, vlan: next.vlan, innerVlan: null });
    if (clash) errors.push(clashMessage(next.vlan, `${port?.productName ?? ''} (${next.portUid})`, clash.owner));
  }
  if (errors.length) throw validationFailed(errors);
  if (moved) holdVlan(ctx.db, { productUid: p.portUid, vNicIndex: 0, vlan: p.vlan, innerVlan: null }, ctx.clock);
  next.modifiedAt = ctx.clock.now;
  ctx.db.products[p.productUid] = next;
  indexConnection(ctx.db, next);
  return ok(`Product [${p.productUid}] has been updated`, ixView(next, ctx.db, ctx.clock));
};

/** Copies the IX's own settings in `body` onto `next`, pushing a message to `errors` for each invalid one. */
function checkIxSettings(body: Record<string, unknown>, next: IxRecord, errors: string[]): void {
  if (body.name !== undefined) {
    if (typeof body.name !== 'string' || !body.name.trim()) errors.push('name must be a non-empty string');
    else next.productName = body.name.trim();
  }
  if (body.costCentre !== undefined && body.costCentre !== null) {
    if (typeof body.costCentre !== 'string' || body.costCentre.length > 255) errors.push('costCentre must be a string of 255 characters or fewer');
    else next.costCentre = body.costCentre;
  }
  if (body.macAddress !== undefined) {
    if (!isMac(body.macAddress)) errors.push('macAddress must be a MAC address such as 00:11:22:33:44:55');
    else next.macAddress = String(body.macAddress).toLowerCase();
  }
  if (body.asn !== undefined) {
    if (!isInt(body.asn) || body.asn < 1 || body.asn > 4294967295) errors.push('asn must be a valid ASN');
    else next.asn = body.asn;
  }
  for (const flag of ['shutdown', 'publicGraph'] as const) {
    if (body[flag] === undefined || body[flag] === null) continue;
    if (typeof body[flag] !== 'boolean') errors.push(`${flag} must be true or false`);
    else next[flag] = body[flag] as boolean;
  }
  if (body.reverseDns !== undefined) next.reverseDns = typeof body.reverseDns === 'string' && body.reverseDns ? body.reverseDns : null;
  if (body.password !== undefined && typeof body.password !== 'string') errors.push('password must be a string');
}

/** Moves `next` to the Port `body.aEndProductUid` names when that Port is live and in the IX's metro; otherwise says why in `errors`. */
function checkIxPortMove(ctx: Ctx, body: Record<string, unknown>, p: IxRecord, next: IxRecord, errors: string[]): void {
  if (typeof body.aEndProductUid !== 'string' || !body.aEndProductUid || body.aEndProductUid === p.portUid) return;
  const port = ctx.db.products[body.aEndProductUid];
  const ixp = findIxPoint(next.networkServiceType);
  if (!port || port.productType !== 'MEGAPORT' || !isActive(provisioningStatus(port, ctx.db, ctx.clock))) {
    errors.push(`Valid port is required for an IX connection: ${body.aEndProductUid}`);
  } else if (ixp && findLocation(port.locationId)?.metro !== ixp.metro) {
    errors.push(`${ixp.name} is not available in ${findLocation(port.locationId)?.metro}`);
  } else next.portUid = port.productUid;
}
