import type { SandboxResponse } from '../types.js';
import { badRequest, isInt, isObject, notFound, objectBody, ok } from './envelope.js';
import { COMPANY, newUid } from './ids.js';
import { isActive, provisioningStatus, type Clock } from './provisioning.js';
import type { Ctx } from './router.js';
import type { InterconnectDb, PortRecord, ServiceKeyRecord } from './store.js';

function expired(k: ServiceKeyRecord, now: number): boolean {
  return k.validFor !== null && now > k.validFor.end;
}

/** Why a service key cannot be used for a new VXC now, or undefined when it can. */
export function keyProblem(k: ServiceKeyRecord | undefined, given: string, now: number): string | undefined {
  if (!k) return `Service key ${given} does not exist`;
  if (!k.active) return `Service key ${k.key} is not active`;
  if (k.validFor && now < k.validFor.start) return `Service key ${k.key} is not valid until ${new Date(k.validFor.start).toISOString()}`;
  if (expired(k, now)) return `Service key ${k.key} has expired`;
  if (k.singleUse && k.lastUsed !== null) return `Service key ${k.key} is single-use and has already been used`;
  return undefined;
}

function keyView(k: ServiceKeyRecord, db: InterconnectDb, clock: Clock): Record<string, unknown> {
  const port = db.products[k.productUid] as PortRecord | undefined;
  const status = port ? provisioningStatus(port, db, clock) : undefined;
  return {
    key: k.key,
    createDate: k.createDate,
    companyId: COMPANY.companyId,
    companyUid: COMPANY.companyUid,
    companyName: COMPANY.companyName,
    description: k.description,
    productId: port?.productId ?? null,
    productUid: k.productUid,
    productName: port?.productName ?? null,
    productDto: port
      ? {
          productId: port.productId,
          productUid: port.productUid,
          productName: port.productName,
          productType: 'MEGAPORT',
          provisioningStatus: status,
          portSpeed: port.portSpeed,
          locationId: port.locationId,
          vxcPermitted: true,
          marketplaceVisibility: port.marketplaceVisibility,
        }
      : null,
    vlan: k.vlan,
    maxSpeed: k.maxSpeed,
    preApproved: k.preApproved,
    singleUse: k.singleUse,
    lastUsed: k.lastUsed,
    active: k.active,
    validFor: k.validFor,
    expired: expired(k, clock.now),
    valid: keyProblem(k, k.key, clock.now) === undefined && status !== undefined && isActive(status),
    promoCode: k.promoCode,
  };
}

/** The Port a key body names by `productUid` or `productId`; both must agree when both are given. */
function portFor(body: Record<string, unknown>, db: InterconnectDb, clock: Clock): PortRecord | undefined {
  const byUid = typeof body.productUid === 'string' && body.productUid ? db.products[body.productUid] : undefined;
  const byId = isInt(body.productId) ? Object.values(db.products).find((p) => p.productId === body.productId) : undefined;
  if (body.productUid === undefined && body.productId === undefined) return undefined;
  const p = byUid ?? byId;
  if (!p) throw badRequest(`Could not find a service with UID ${String(body.productUid ?? body.productId)}`);
  if (byUid && byId && byUid !== byId) throw badRequest('productUid and productId name different services');
  if (p.productType !== 'MEGAPORT') throw badRequest('Service keys can only be created for a Port');
  const status = provisioningStatus(p, db, clock);
  if (!isActive(status)) throw badRequest(`Port ${p.productUid} is not active (status ${status})`);
  return p;
}

function validFor(v: unknown): { start: number; end: number } | null {
  if (v === undefined || v === null) return null;
  if (!isObject(v) || !isInt(v.start) || !isInt(v.end) || v.end <= v.start) {
    throw badRequest('validFor must be {start, end} in epoch milliseconds with end after start');
  }
  return { start: v.start, end: v.end };
}

function checkFlag(body: Record<string, unknown>, key: string): void {
  if (body[key] !== undefined && typeof body[key] !== 'boolean') throw badRequest(`${key} must be true or false`);
}

function checkVlanFor(k: Pick<ServiceKeyRecord, 'singleUse' | 'vlan'>): void {
  if (k.vlan !== null && (!isInt(k.vlan) || k.vlan < 2 || k.vlan > 4093)) throw badRequest('vlan must be between 2 and 4093');
  if (k.singleUse && k.vlan === null) throw badRequest('A VLAN is required for a single-use service key');
}

/** `POST /v2/service/key`: creates a key on a Port. */
export function createServiceKey(ctx: Ctx): SandboxResponse {
  const body = objectBody(ctx.req.body);
  const port = portFor(body, ctx.db, ctx.clock);
  if (!port) throw badRequest('productUid or productId is required');
  for (const flag of ['singleUse', 'active', 'preApproved']) checkFlag(body, flag);
  if (!isInt(body.maxSpeed) || body.maxSpeed < 1) throw badRequest('maxSpeed is required, in Mbps');
  if (body.maxSpeed > port.portSpeed) throw badRequest(`maxSpeed ${body.maxSpeed} Mbps exceeds the port speed of ${port.portSpeed} Mbps`);
  const record: ServiceKeyRecord = {
    key: newUid(),
    productUid: port.productUid,
    description: typeof body.description === 'string' ? body.description : '',
    singleUse: body.singleUse === true,
    maxSpeed: body.maxSpeed,
    active: body.active !== false,
    preApproved: body.preApproved === true,
    vlan: body.vlan === undefined || body.vlan === null || body.vlan === 0 ? null : (body.vlan as number),
    validFor: validFor(body.validFor),
    createDate: ctx.clock.now,
    lastUsed: null,
    promoCode: typeof body.promoCode === 'string' && body.promoCode ? body.promoCode : null,
  };
  checkVlanFor(record);
  ctx.db.serviceKeys[record.key] = record;
  return ok(`New service key [${record.key}] generated`, keyView(record, ctx.db, ctx.clock));
}

/** `PUT /v2/service/key`: changes a key named by `key`; `active:false` is how keys are retired (there is no DELETE). */
export function updateServiceKey(ctx: Ctx): SandboxResponse {
  const body = objectBody(ctx.req.body);
  if (typeof body.key !== 'string' || !body.key) throw badRequest('key is required');
  const k = ctx.db.serviceKeys[body.key];
  if (!k) throw notFound(`Service key ${body.key} not found`);
  for (const flag of ['singleUse', 'active', 'preApproved']) checkFlag(body, flag);
  const next: ServiceKeyRecord = { ...k };
  const port = portFor(body, ctx.db, ctx.clock);
  if (port) next.productUid = port.productUid;
  if (typeof body.active === 'boolean') next.active = body.active;
  if (typeof body.singleUse === 'boolean') next.singleUse = body.singleUse;
  if (typeof body.preApproved === 'boolean') next.preApproved = body.preApproved;
  if (typeof body.description === 'string') next.description = body.description;
  if (body.vlan !== undefined) next.vlan = body.vlan === null || body.vlan === 0 ? null : (body.vlan as number);
  if (body.maxSpeed !== undefined) {
    if (!isInt(body.maxSpeed) || body.maxSpeed < 1) throw badRequest('maxSpeed must be a whole number of Mbps');
    next.maxSpeed = body.maxSpeed;
  }
  if (body.validFor !== undefined) next.validFor = validFor(body.validFor);
  checkVlanFor(next);
  ctx.db.serviceKeys[k.key] = next;
  return ok(`Service key [${k.key}] updated`, keyView(next, ctx.db, ctx.clock));
}

/**
 * `GET /v2/service/key`: `?key=` gives one key, `?productIdOrUid=` the keys of a Port, neither all
 * keys. The Go SDK escapes the `?` into the path, so `/v2/service/key%3Fkey=<key>` arrives here too,
 * already turned into a query by the router.
 */
export function getServiceKeys(ctx: Ctx): SandboxResponse {
  const key = ctx.req.query.get('key');
  if (key !== null) {
    const k = ctx.db.serviceKeys[key];
    if (!k) throw notFound(`Service key ${key} not found`);
    return ok(`Found service key [${k.key}]`, keyView(k, ctx.db, ctx.clock));
  }
  const product = ctx.req.query.get('productIdOrUid');
  const all = Object.values(ctx.db.serviceKeys).filter((k) => {
    if (product === null) return true;
    const p = ctx.db.products[k.productUid];
    return k.productUid === product || (p !== undefined && String(p.productId) === product);
  });
  return ok(
    `Found [${all.length}] service keys for company [${COMPANY.companyId}]`,
    all.map((k) => keyView(k, ctx.db, ctx.clock)),
  );
}
