import { badRequest, isInt, notFound, objectBody, ok } from './envelope.js';
import { newUid } from './ids.js';
import { configuredTunnels } from './partner-config.js';
import { addOnView } from './product-view.js';
import { findProduct, requireChangeable } from './products.js';
import type { Ctx, Handler } from './router.js';
import type { AddOnRecord, McrRecord } from './store.js';

function findMcr(ctx: Ctx): McrRecord {
  const p = findProduct(ctx, ctx.params.uid);
  if (p.productType !== 'MCR2') throw badRequest(`Product ${p.productUid} is not an MCR`);
  return p;
}

function addOnType(body: Record<string, unknown>): void {
  if (body.addOnType !== undefined && String(body.addOnType).toUpperCase() !== 'IP_SEC') {
    throw badRequest(`Unsupported addOnType ${String(body.addOnType)}; use IP_SEC`);
  }
}

/**
 * `POST /v3/product/{mcrUid}/addon` `{addOnType: "IP_SEC", tunnelCount}`: one IPsec add-on per MCR.
 * There is no GET: the add-on shows in the MCR's `addOns[]`. The MCR is briefly not ready afterwards.
 */
export const createAddOn: Handler = (ctx) => {
  const mcr = findMcr(ctx);
  requireChangeable(ctx, mcr);
  const body = objectBody(ctx.req.body);
  addOnType(body);
  const count = body.tunnelCount ?? 10;
  if (!isInt(count) || ![10, 20, 30].includes(count)) throw badRequest('Invalid ipsec_tunnels. tunnelCount must be 10, 20 or 30.');
  const existing = mcr.addOns.find((a) => a.addOnType === 'IP_SEC');
  if (existing) throw badRequest(`MCR ${mcr.productUid} already has an IP_SEC add-on (${existing.addOnUid}); update it instead`);
  const addOn: AddOnRecord = { addOnUid: newUid(), addOnType: 'IP_SEC', tunnelCount: count, createDate: ctx.clock.now };
  mcr.addOns.push(addOn);
  mcr.modifiedAt = ctx.clock.now;
  return ok('IP_SEC add-on created', addOnView(mcr, addOn));
};

/**
 * `PUT /v3/product/{mcrUid}/addon/{addOnUid}` `{tunnelCount: 0|10|20|30}`; 0 removes the add-on.
 * A limit below the ipSecTunnel interfaces still configured on the MCR's VXCs is refused with the
 * API's own message, which clients match on to retry.
 */
export const updateAddOn: Handler = (ctx) => {
  const mcr = findMcr(ctx);
  const addOn = mcr.addOns.find((a) => a.addOnUid === ctx.params.addOnUid);
  if (!addOn) throw notFound(`Add-on ${ctx.params.addOnUid} not found on MCR ${mcr.productUid}`);
  requireChangeable(ctx, mcr);
  const body = objectBody(ctx.req.body);
  addOnType(body);
  const count = body.tunnelCount;
  if (!isInt(count) || ![0, 10, 20, 30].includes(count)) throw badRequest('Invalid ipsec_tunnels. tunnelCount must be 0, 10, 20 or 30.');
  if (count < configuredTunnels(ctx.db, mcr.productUid, ctx.clock)) {
    throw badRequest('Invalid ipsec_tunnels. Requested limit is less than number of configured tunnels.');
  }
  if (count === 0) mcr.addOns = mcr.addOns.filter((a) => a !== addOn);
  else addOn.tunnelCount = count;
  mcr.modifiedAt = ctx.clock.now;
  return ok(count === 0 ? 'IP_SEC add-on removed' : 'IP_SEC add-on updated', count === 0 ? null : addOnView(mcr, addOn));
};
