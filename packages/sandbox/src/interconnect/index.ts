import type { SandboxApi, SandboxRequest, SandboxResponse, SandboxWorld } from '../types.js';
import { requireBearer, tokenEndpoint, tokenSettings } from './auth.js';
import { listIxPoints, listLocations, listMveImages, listMveSizes, listNetworkRegions, listPartnerPorts, portVlans } from './catalog.js';
import { ApiError, faultBody, isObject } from './envelope.js';
import { modifyIx } from './ix.js';
import { productAction } from './lifecycle.js';
import { createAddOn, updateAddOn } from './mcr-addons.js';
import { createPrefixList, deletePrefixList, getPrefixList, listPrefixLists, updatePrefixList } from './mcr-prefix-lists.js';
import { buyDesign, validateDesign } from './ordering.js';
import { productPricing } from './pricebook.js';
import { lookupPartner, rotatePartnerPort } from './partners.js';
import { getProduct, getTags, listProducts, lockProduct, modifyProduct, putTags, unlockProduct } from './products.js';
import { matchRoute, type Route } from './router.js';
import { createServiceKey, getServiceKeys, updateServiceKey } from './service-keys.js';
import { loadDb } from './store.js';
import { modifyVxc } from './vxc.js';

/** Every endpoint of reference §3.0, literal paths before parameterised ones that could shadow them. */
const ROUTES: Route[] = [
  { method: 'GET', pattern: '/v3/locations', handler: listLocations },
  { method: 'GET', pattern: '/v2/networkRegions', handler: listNetworkRegions },
  { method: 'GET', pattern: '/v2/dropdowns/partner/megaports', handler: listPartnerPorts },
  { method: 'GET', pattern: '/v2/secure/:partner/*key', handler: lookupPartner },
  { method: 'GET', pattern: '/v4/product/mve/images', handler: listMveImages },
  { method: 'GET', pattern: '/v3/product/mve/variants', handler: listMveSizes },
  { method: 'POST', pattern: '/v3/networkdesign/validate', handler: validateDesign },
  { method: 'POST', pattern: '/v4/networkdesign/buy', handler: buyDesign },
  { method: 'POST', pattern: '/v4/pricebook/product', handler: productPricing },
  { method: 'GET', pattern: '/v2/products', handler: listProducts },
  { method: 'GET', pattern: '/v2/ixp', handler: listIxPoints },
  { method: 'GET', pattern: '/v2/product/port/:uid/vlan', handler: portVlans },
  { method: 'POST', pattern: '/v2/product/mcr2/:uid/prefixList', handler: createPrefixList },
  { method: 'GET', pattern: '/v2/product/mcr2/:uid/prefixLists', handler: listPrefixLists },
  { method: 'GET', pattern: '/v2/product/mcr2/:uid/prefixList/:id', handler: getPrefixList },
  { method: 'PUT', pattern: '/v2/product/mcr2/:uid/prefixList/:id', handler: updatePrefixList },
  { method: 'DELETE', pattern: '/v2/product/mcr2/:uid/prefixList/:id', handler: deletePrefixList },
  { method: 'GET', pattern: '/v2/product/:uid/tags', handler: getTags },
  { method: 'PUT', pattern: '/v2/product/:uid/tags', handler: putTags },
  { method: 'POST', pattern: '/v2/product/:uid/lock', handler: lockProduct },
  { method: 'DELETE', pattern: '/v2/product/:uid/lock', handler: unlockProduct },
  { method: 'PUT', pattern: '/v2/product/ix/:uid', handler: modifyIx },
  { method: 'PUT', pattern: '/v2/product/:type/:uid', handler: modifyProduct },
  { method: 'GET', pattern: '/v2/product/:uid', handler: getProduct },
  { method: 'PUT', pattern: '/v3/product/vxc/:uid', handler: modifyVxc },
  { method: 'POST', pattern: '/v3/product/:uid/action/:action', handler: productAction },
  { method: 'POST', pattern: '/v3/product/:uid/addon', handler: createAddOn },
  { method: 'PUT', pattern: '/v3/product/:uid/addon/:addOnUid', handler: updateAddOn },
  { method: 'POST', pattern: '/v2/service/key', handler: createServiceKey },
  { method: 'PUT', pattern: '/v2/service/key', handler: updateServiceKey },
  { method: 'GET', pattern: '/v2/service/key', handler: getServiceKeys },
];

/**
 * The Go SDK builds the service-key URL with JoinPath, which escapes `?` into the path:
 * `/v2/service/key%3Fkey=<key>`. Turn that back into a path and a query.
 */
function unescapeQueryInPath(req: SandboxRequest): SandboxRequest {
  const m = /^(\/v2\/service\/key)(?:%3F|\?)(.*)$/i.exec(req.path);
  if (!m) return req;
  const query = new URLSearchParams(req.query);
  let tail = m[2];
  try {
    tail = decodeURIComponent(tail);
  } catch {
    // keep the raw tail; URLSearchParams decodes what it can
  }
  for (const [k, v] of new URLSearchParams(tail)) query.append(k, v);
  return { ...req, path: m[1], query };
}

function handle(raw: SandboxRequest, world: SandboxWorld): SandboxResponse {
  const now = world.now();
  const db = loadDb(world);
  if (raw.path.replace(/\/+$/, '').toLowerCase() === '/oauth2/token') return tokenEndpoint(raw, db, now);
  try {
    requireBearer(raw, db, now);
    const req = unescapeQueryInPath(raw);
    const match = matchRoute(ROUTES, req.method, req.path);
    if (!match) throw new ApiError(404, `Resource not found: ${req.method} ${req.path}`);
    if ('methodNotAllowed' in match) throw new ApiError(405, `Method ${req.method} is not allowed on ${req.path}`);
    const response = match.route.handler({ req, params: match.params, db, world, clock: { now, ms: world.provisioningMs() } });
    if (req.method !== 'GET') world.save('interconnect');
    return response;
  } catch (err) {
    if (err instanceof ApiError) return err.response();
    throw err;
  }
}

function admin(name: string, body: unknown, world: SandboxWorld): SandboxResponse | undefined {
  if (isObject(body) && body.provider !== undefined && body.provider !== 'interconnect') return undefined;
  const db = loadDb(world);
  let response: SandboxResponse;
  if (name === 'rotate-partner-port') response = rotatePartnerPort(body, db);
  else if (name === 'token-settings') response = tokenSettings(body, db);
  else return undefined;
  if (response.status < 300) world.save('interconnect');
  return response;
}

/**
 * The simulated interconnect API under `/interconnect`: OAuth2 token endpoint, the §3.0 endpoints
 * with the `{message, terms, data}` envelope, time-derived provisioning, and admin actions
 * `rotate-partner-port` `{productUid}` and `token-settings` `{expiresIn}` (each answers only when
 * the body names no other `provider`).
 */
export const interconnectApi: SandboxApi = {
  provider: 'interconnect',
  handle,
  faultBody,
  // Over the limit: 429 in the envelope, with the seconds to wait (reference §7).
  throttled: (_req, seconds) => new ApiError(429, 'Too Many Requests: the API rate limit was exceeded, retry later', null, { 'retry-after': String(seconds) }).response(),
  admin,
};
