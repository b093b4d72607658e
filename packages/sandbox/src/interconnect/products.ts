import type { SandboxResponse } from '../types.js';
import { badRequest, conflict, isInt, isObject, objectBody, ok, serviceNotFound } from './envelope.js';
import { COMPANY } from './ids.js';
import { checkTags } from './order-common.js';
import { productView, type SharedViews } from './product-view.js';
import { isActive, isReady, isVisible, provisioningStatus } from './provisioning.js';
import type { Ctx, Handler } from './router.js';
import { TERMS_MONTHS, type ProductRecord } from './store.js';

/** The product named by `uid` if it exists and is still visible; otherwise the not-found error with this status. */
export function findProduct(ctx: Ctx, uid: string, status: 400 | 404 = 404): ProductRecord {
  const p = ctx.db.products[uid];
  if (!p || !isVisible(p, ctx.db, ctx.clock)) throw serviceNotFound(uid, status);
  return p;
}

/** Throws unless the product may be changed now: it must still be in service and not locked. */
export function requireChangeable(ctx: Ctx, p: ProductRecord): void {
  const status = provisioningStatus(p, ctx.db, ctx.clock);
  if (!isActive(status)) throw badRequest(`Service ${p.productUid} cannot be changed while it is ${status}`);
  if (p.locked) throw conflict(`Service ${p.productUid} is locked; unlock it before changing it`);
}

/** `GET /v2/product/{uid}`: any product type; an unknown UID answers 400 `Could not find a service with UID`, as the real API does. */
export const getProduct: Handler = (ctx) => {
  const p = findProduct(ctx, ctx.params.uid, 400);
  return ok(`Found Product ${p.productUid}`, productView(p, ctx.db, ctx.clock));
};

/** `GET /v2/products`: top-level products only (Ports, LAG members, MCRs, MVEs), VXCs and IXs nested under both ends. */
export const listProducts: Handler = (ctx) => {
  const top = Object.values(ctx.db.products)
    .filter((p) => p.productType === 'MEGAPORT' || p.productType === 'MCR2' || p.productType === 'MVE')
    .filter((p) => isVisible(p, ctx.db, ctx.clock))
    .sort((a, b) => a.productId - b.productId);
  const shared: SharedViews = new Map();
  return ok(
    `Found ${top.length} Products`,
    top.map((p) => productView(p, ctx.db, ctx.clock, shared)),
  );
};

const MODIFY_PATHS: Record<string, ProductRecord['productType']> = { megaport: 'MEGAPORT', mcr2: 'MCR2', mve: 'MVE' };

/** The legacy product DTO the modify endpoint answers with (clients ignore it). */
function legacyDto(p: ProductRecord, ctx: Ctx): Record<string, unknown> {
  return {
    serviceName: p.productName,
    name: p.productName,
    secondaryName: null,
    technicalServiceId: p.productId,
    technicalServiceUid: p.productUid,
    requestedDate: p.createDate,
    configuredDate: null,
    companyName: COMPANY.companyName,
    companyId: COMPANY.companyId,
    productType: p.productType,
    provisioningStatus: provisioningStatus(p, ctx.db, ctx.clock),
    rateLimit: null,
    contractTermMonths: p.term,
    costCentre: p.costCentre,
    marketplaceVisibility: 'marketplaceVisibility' in p ? p.marketplaceVisibility : false,
    vxcPermitted: true,
    createDate: p.createDate,
  };
}

/**
 * `PUT /v2/product/{megaport|mcr2|mve}/{uid}`: name, costCentre, marketplaceVisibility, term, and
 * `asn` (MCR) or `vnics` (MVE: descriptions only). Stray keys such as `ProductID` are ignored. The service is briefly
 * not ready afterwards.
 */
export const modifyProduct: Handler = (ctx) => {
  const expected = MODIFY_PATHS[ctx.params.type.toLowerCase()];
  if (!expected) throw badRequest(`Products of type ${ctx.params.type} cannot be modified through this endpoint`);
  const p = findProduct(ctx, ctx.params.uid);
  if (p.productType !== expected) throw badRequest(`Product ${p.productUid} is a ${p.productType}, not a ${expected}`);
  requireChangeable(ctx, p);
  const body = objectBody(ctx.req.body);
  const next = { ...p } as ProductRecord;
  if (body.name !== undefined) {
    if (typeof body.name !== 'string' || !body.name.trim()) throw badRequest('name must be a non-empty string');
    next.productName = body.name.trim();
  }
  if (body.costCentre !== undefined && body.costCentre !== null) {
    if (typeof body.costCentre !== 'string' || body.costCentre.length > 255) throw badRequest('costCentre must be a string of 255 characters or fewer');
    next.costCentre = body.costCentre;
  }
  if (body.marketplaceVisibility !== undefined && body.marketplaceVisibility !== null && 'marketplaceVisibility' in next) {
    if (typeof body.marketplaceVisibility !== 'boolean') throw badRequest('marketplaceVisibility must be true or false');
    next.marketplaceVisibility = body.marketplaceVisibility;
  }
  const term = body.term ?? body.contractTermMonths;
  if (term !== undefined && term !== null && term !== 0) {
    if (!isInt(term) || !TERMS_MONTHS.includes(term)) throw badRequest(`Invalid term ${String(term)}. Valid terms are 1, 12, 24, 36, 48, 60 months`);
    next.term = term;
  }
  if (body.asn !== undefined && body.asn !== null) {
    if (next.productType !== 'MCR2') throw badRequest('asn can only be changed on an MCR');
    if (!isInt(body.asn) || body.asn < 1 || body.asn > 4294967295) throw badRequest('asn must be a valid ASN');
    next.asn = body.asn;
  }
  if (body.vnics !== undefined && body.vnics !== null) {
    if (next.productType !== 'MVE') throw badRequest('vnics can only be changed on an MVE');
    next.vnics = describedVnics(next.vnics, body.vnics);
  }
  next.modifiedAt = ctx.clock.now;
  ctx.db.products[p.productUid] = next;
  return ok(`Product [${p.productUid}] has been updated`, legacyDto(next, ctx));
};

/** `GET /v2/product/{uid}/tags`. */
export const getTags: Handler = (ctx) => {
  const p = findProduct(ctx, ctx.params.uid);
  return ok(`Resource tags for product [${p.productUid}]`, { resourceTags: p.resourceTags });
};

/** `PUT /v2/product/{uid}/tags` `{resourceTags: [...]}`: replaces the whole set; an empty list clears it. */
export const putTags: Handler = (ctx) => {
  const p = findProduct(ctx, ctx.params.uid);
  const status = provisioningStatus(p, ctx.db, ctx.clock);
  if (status === 'DECOMMISSIONED') throw badRequest(`Service ${p.productUid} cannot be changed while it is ${status}`);
  const body = objectBody(ctx.req.body);
  if (!Array.isArray(body.resourceTags)) throw badRequest('resourceTags must be a list of {key, value}');
  const errors: string[] = [];
  const tags = checkTags(body.resourceTags, errors);
  if (errors.length) throw badRequest(errors.join('; '));
  p.resourceTags = tags;
  return ok(`Resource tags updated for product [${p.productUid}]`, { resourceTags: tags });
};

function lockReply(ctx: Ctx, p: ProductRecord, message: string): SandboxResponse {
  return ok(message, productView(p, ctx.db, ctx.clock));
}

/** `POST /v2/product/{uid}/lock`: only a ready (CONFIGURED or LIVE) service can be locked. */
export const lockProduct: Handler = (ctx) => {
  const p = findProduct(ctx, ctx.params.uid);
  const status = provisioningStatus(p, ctx.db, ctx.clock);
  if (p.locked) throw badRequest(`Service ${p.productUid} is already locked`);
  if (!isReady(status)) throw badRequest(`Only a live service can be locked; ${p.productUid} is ${status}`);
  p.locked = true;
  return lockReply(ctx, p, 'Service locked');
};

/** `DELETE /v2/product/{uid}/lock`. */
export const unlockProduct: Handler = (ctx) => {
  const p = findProduct(ctx, ctx.params.uid);
  if (!p.locked) throw badRequest(`Service ${p.productUid} is not locked`);
  p.locked = false;
  return lockReply(ctx, p, 'Service unlocked');
};

/**
 * The vNICs of an MVE after a modify: each entry of `list` gives, by position, a new description
 * of a vNIC the MVE has; VLANs and the number of vNICs are fixed at order time (megaportgo's
 * MVEVnicUpdate carries the description only, and the API refuses an empty one).
 */
function describedVnics(vnics: Array<{ description: string; vlan: number }>, list: unknown): Array<{ description: string; vlan: number }> {
  if (!Array.isArray(list)) throw badRequest('vnics must be a list of vNIC descriptions');
  if (list.length > vnics.length) throw badRequest(`vnics lists ${list.length} vNICs; the MVE has ${vnics.length}, and vNICs are only added when an MVE is ordered`);
  const errors = list.flatMap((v, i) => (isObject(v) && typeof v.description === 'string' && v.description.trim() ? [] : [`vnics[${i}].description must be a non-empty string`]));
  if (errors.length) throw badRequest(errors.join('; '));
  return vnics.map((v, i) => (i < list.length ? { ...v, description: (list[i] as { description: string }).description } : v));
}
