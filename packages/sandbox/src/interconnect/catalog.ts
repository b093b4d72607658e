import { badRequest, isInt, ok } from './envelope.js';
import { findProduct } from './products.js';
import type { Handler } from './router.js';
import { IX_POINTS, MVE_PRODUCTS, MVE_SIZES, networkRegions } from './seed-catalog.js';
import { LOCATIONS } from './seed-locations.js';
import { partnerPorts } from './store.js';
import { availableVlans, VLAN_MAX } from './vlans.js';

/** `GET /v3/locations[?locationStatuses=Active&locationStatuses=...]`: every location unless filtered by status. */
export const listLocations: Handler = (ctx) => {
  const wanted = ctx.req.query
    .getAll('locationStatuses')
    .flatMap((s) => s.split(','))
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const locations = wanted.length ? LOCATIONS.filter((l) => wanted.includes(l.status.toLowerCase())) : LOCATIONS;
  return ok(`Found ${locations.length} locations`, locations);
};

/** `GET /v2/networkRegions`: market codes by network region. */
export const listNetworkRegions: Handler = () => ok('Found network regions', networkRegions());

/**
 * `GET /v2/dropdowns/partner/megaports`: the marketplace list, in the API's own order. The optional
 * `connectType` and `vxcPermitted` filters of the Postman guide are honoured; the SDK never sends them.
 */
export const listPartnerPorts: Handler = (ctx) => {
  const type = ctx.req.query.get('connectType')?.toUpperCase();
  const permitted = ctx.req.query.get('vxcPermitted');
  const ports = partnerPorts(ctx.db).filter((p) => (!type || p.connectType === type) && (permitted === null || String(p.vxcPermitted) === permitted.toLowerCase()));
  return ok(`Found ${ports.length} partner ports`, ports);
};

/** `GET /v4/product/mve/images`. */
export const listMveImages: Handler = () =>
  ok('Found MVE images', {
    mveImages: MVE_PRODUCTS.map((p) => ({ product: p.product, vendor: p.vendor, vendorProductId: p.vendorProductId, images: p.images })),
  });

/** `GET /v3/product/mve/variants`. */
export const listMveSizes: Handler = () => ok('Found MVE sizes', MVE_SIZES);

/** `GET /v2/ixp`. */
export const listIxPoints: Handler = () => ok(`Found ${IX_POINTS.length} IX points`, IX_POINTS);

/**
 * `GET /v2/product/port/{uid}/vlan[?vlan=N]`: the VLANs free on a Port; with `vlan`, `[N]` when it
 * is free and `[]` when it is taken (VLANs held after a cancellation count as taken).
 */
export const portVlans: Handler = (ctx) => {
  const port = findProduct(ctx, ctx.params.uid);
  if (port.productType !== 'MEGAPORT') throw badRequest(`Product ${port.productUid} is not a Port`);
  const raw = ctx.req.query.get('vlan');
  let only: number | undefined;
  if (raw !== null && raw !== '') {
    only = Number(raw);
    if (!isInt(only) || only < 2 || only > VLAN_MAX) throw badRequest('vlan must be between 2 and 4093');
  }
  return ok(`Available VLANs for port ${port.productUid}`, availableVlans(ctx.db, port.productUid, ctx.clock, only));
};
