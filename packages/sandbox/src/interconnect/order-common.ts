import { isInt, isObject } from './envelope.js';
import type { Clock } from './provisioning.js';
import { findLocation, zonesOf, type DiversityZone, type Location } from './seed-locations.js';
import { TERMS_MONTHS, type InterconnectDb, type ProductRecord, type Tag } from './store.js';
import type { VlanUse } from './vlans.js';

/** Shared by every item of one network design, so items see each other's VLANs and ids. */
export interface OrderScope {
  db: InterconnectDb;
  clock: Clock;
  /** Scratch counters; buy copies them back into the db only when the whole design is accepted. */
  nextProductId: number;
  nextAggregationId: number;
  /** VLANs taken by earlier items of this design. */
  pendingVlans: VlanUse[];
  /** IPsec tunnels configured by earlier items of this design, per MCR UID. */
  pendingTunnels: Map<string, number>;
}

/** What one order item turns into if the design is bought. */
export interface OrderPlan {
  kind: 'Port' | 'LAG' | 'MCR' | 'MVE' | 'VXC' | 'IX';
  records: ProductRecord[];
  /** The buy reply's `data` entries for this item. */
  reply: Array<Record<string, unknown>>;
  /** Changes outside the new records (a service key marked used). */
  effects: Array<(db: InterconnectDb) => void>;
}

/** A buy reply entry for a Port, MCR, MVE or IX (VXCs answer with `vxcJTechnicalServiceUid` instead). */
export function serviceReply(r: ProductRecord, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    technicalServiceUid: r.productUid,
    technicalServiceId: r.productId,
    serviceName: r.productName,
    productType: r.productType,
    provisioningStatus: 'DEPLOYABLE',
    ...extra,
  };
}

/** Checks one order item, appending a message per broken rule; returns its plan when it could be built. */
export type OrderChecker = (item: Record<string, unknown>, scope: OrderScope, errors: string[]) => OrderPlan | undefined;

/** The fields every product order shares, checked. */
export interface CommonOrderFields {
  productName: string;
  term: number;
  costCentre: string;
  promoCode?: string;
  resourceTags: Tag[];
}

/** Checks name, term, cost centre, promo code and tags; `termDefault` applies when the order has no term. */
export function commonOrderFields(o: Record<string, unknown>, errors: string[], termDefault?: number): CommonOrderFields {
  const productName = typeof o.productName === 'string' ? o.productName.trim() : '';
  if (!productName) errors.push('productName is required');
  else if (productName.length > 128) errors.push('productName must be 128 characters or fewer');
  const term = o.term === undefined || o.term === 0 ? termDefault : o.term;
  if (term === undefined) errors.push('term is required');
  else if (!isInt(term) || !TERMS_MONTHS.includes(term)) errors.push(`Invalid term ${String(term)}. Valid terms are 1, 12, 24, 36, 48, 60 months`);
  if (o.costCentre !== undefined && o.costCentre !== null && typeof o.costCentre !== 'string') errors.push('costCentre must be a string');
  const costCentre = typeof o.costCentre === 'string' ? o.costCentre : '';
  if (costCentre.length > 255) errors.push('costCentre must be 255 characters or fewer');
  return {
    productName,
    term: isInt(term) ? term : 1,
    costCentre,
    promoCode: typeof o.promoCode === 'string' && o.promoCode ? o.promoCode : undefined,
    resourceTags: checkTags(o.resourceTags, errors),
  };
}

/** Checks a `[{key, value}]` tag list; returns the valid tags. */
export function checkTags(tags: unknown, errors: string[]): Tag[] {
  if (tags === undefined || tags === null) return [];
  if (!Array.isArray(tags)) {
    errors.push('resourceTags must be a list of {key, value}');
    return [];
  }
  const out: Tag[] = [];
  for (const t of tags) {
    if (!isObject(t) || typeof t.key !== 'string' || !t.key.trim() || typeof t.value !== 'string') {
      errors.push('resourceTags entries need a non-empty string key and a string value');
      continue;
    }
    if (t.key.length > 128 || t.value.length > 256) errors.push(`resourceTags ${t.key}: keys are limited to 128 and values to 256 characters`);
    if (out.some((x) => x.key === t.key)) errors.push(`resourceTags: duplicate key ${t.key}`);
    out.push({ key: t.key, value: t.value });
  }
  return out;
}

/** Checks the location of an order; ports may be pre-ordered at a site in Deployment. */
export function checkLocation(id: unknown, errors: string[], allowPreOrder: boolean): { loc: Location; preOrder: boolean } | undefined {
  if (!isInt(id)) {
    errors.push('locationId is required');
    return undefined;
  }
  const loc = findLocation(id);
  if (!loc) {
    errors.push(`Location ${id} does not exist`);
    return undefined;
  }
  if (loc.status === 'Active') return { loc, preOrder: false };
  if (allowPreOrder && loc.status === 'Deployment') return { loc, preOrder: true };
  errors.push(`Location ${loc.name} (${loc.id}) is not available for ordering: status ${loc.status}`);
  return undefined;
}

/**
 * Picks the diversity zone: the requested one when it exists and `fits`, otherwise the first zone
 * that fits (red before blue, as the API allocates automatically).
 */
export function pickZone(loc: Location, requested: unknown, fits: (z: DiversityZone) => boolean, whatDoesNotFit: string, errors: string[]): 'red' | 'blue' | undefined {
  if (requested !== undefined && requested !== null && requested !== '') {
    const name = String(requested).toLowerCase();
    if (name !== 'red' && name !== 'blue') {
      errors.push(`Invalid diversity zone ${String(requested)}; use red or blue`);
      return undefined;
    }
    const z = loc.diversityZones[name];
    if (!z) errors.push(`Diversity zone ${name} is not available at ${loc.name}`);
    else if (!fits(z)) errors.push(`${whatDoesNotFit} at ${loc.name} (diversity zone ${name})`);
    return z && fits(z) ? name : undefined;
  }
  const found = zonesOf(loc).find(([, z]) => fits(z));
  if (!found) errors.push(`${whatDoesNotFit} at ${loc.name}`);
  return found?.[0];
}

/** A VLAN as ordered: undefined/0 = allocate one, -1 = untagged, 2..4093 = that tag. */
export type RequestedVlan = { auto: true } | { auto: false; vlan: number | null };

/** Parses an ordered outer VLAN. */
export function parseVlan(v: unknown, what: string, errors: string[]): RequestedVlan {
  if (v === undefined || v === null || v === 0) return { auto: true };
  if (v === -1) return { auto: false, vlan: null };
  if (isInt(v) && v >= 2 && v <= 4093) return { auto: false, vlan: v };
  errors.push(`${what} must be between 2 and 4093, 0 (allocate) or -1 (untagged)`);
  return { auto: true };
}

/** Parses an ordered inner (QinQ) VLAN: unset, 0 and -1 all mean none. */
export function parseInnerVlan(v: unknown, what: string, errors: string[]): number | null {
  if (v === undefined || v === null || v === 0 || v === -1) return null;
  if (isInt(v) && v >= 2 && v <= 4093) return v;
  errors.push(`${what} must be between 2 and 4093, or -1 for none`);
  return null;
}
