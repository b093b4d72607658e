import { randomBytes } from 'node:crypto';
import type { SandboxWorld } from '../types.js';
import { SEED_PARTNER_PORTS, type PartnerPort } from './seed-partners.js';

/** A resource tag as the tags endpoint and orders carry it. */
export interface Tag {
  key: string;
  value: string;
}

/**
 * A cancellation request. `now` (CANCEL_NOW) terminates at once; `end-of-term` (CANCEL) keeps the
 * service CANCELLED until `terminateAt`, the end of the current contract period.
 */
export interface CancelRecord {
  mode: 'now' | 'end-of-term';
  requestedAt: number;
  terminateAt: number;
}

interface BaseRecord {
  productUid: string;
  productId: number;
  productName: string;
  createDate: number;
  /** Last in-place change; the service is briefly not ready after it. */
  modifiedAt?: number;
  term: number;
  costCentre: string;
  promoCode?: string;
  resourceTags: Tag[];
  locked: boolean;
  cancel?: CancelRecord;
}

/** A physical Port; LAG members are separate Port records sharing `aggregationId`. */
export interface PortRecord extends BaseRecord {
  productType: 'MEGAPORT';
  locationId: number;
  portSpeed: number;
  diversityZone: 'red' | 'blue';
  marketplaceVisibility: boolean;
  /** Ordered at a site still being built: stays NEW. */
  preOrder: boolean;
  aggregationId: number | null;
  lagPrimary: boolean;
}

/** An MCR IPsec add-on. */
export interface AddOnRecord {
  addOnUid: string;
  addOnType: 'IP_SEC';
  tunnelCount: number;
  createDate: number;
}

/** A cloud router (MCR). */
export interface McrRecord extends BaseRecord {
  productType: 'MCR2';
  locationId: number;
  portSpeed: number;
  diversityZone: 'red' | 'blue';
  marketplaceVisibility: boolean;
  asn: number;
  addOns: AddOnRecord[];
}

/** A virtual edge (MVE); `vendorConfig` is kept as ordered but only its non-secret keys are returned. */
export interface MveRecord extends BaseRecord {
  productType: 'MVE';
  locationId: number;
  diversityZone: 'red' | 'blue';
  marketplaceVisibility: boolean;
  imageId: number;
  size: string;
  vendorConfig: Record<string, unknown>;
  vnics: Array<{ description: string; vlan: number }>;
}

/** One end of a VXC: the product it lands on now, its tags, and the partner config ordered for it. */
export interface VxcEndRecord {
  productUid: string;
  /** null = untagged. */
  vlan: number | null;
  innerVlan: number | null;
  vNicIndex: number | null;
  partnerConfig?: Record<string, unknown>;
}

/** A virtual cross connect. */
export interface VxcRecord extends BaseRecord {
  productType: 'VXC';
  rateLimit: number;
  shutdown: boolean;
  aEnd: VxcEndRecord;
  bEnd: VxcEndRecord;
  serviceKey?: string;
}

/** An Internet Exchange connection on a Port. */
export interface IxRecord extends BaseRecord {
  productType: 'IX';
  portUid: string;
  networkServiceType: string;
  asn: number;
  macAddress: string;
  rateLimit: number;
  vlan: number;
  shutdown: boolean;
  publicGraph: boolean;
  reverseDns: string | null;
}

/** Any ordered product. */
export type ProductRecord = PortRecord | McrRecord | MveRecord | VxcRecord | IxRecord;

/** A prefix filter list entry; ge/le are stored as numbers and served as strings by GET. */
export interface PrefixEntry {
  action: 'permit' | 'deny';
  prefix: string;
  ge?: number;
  le?: number;
}

/** A prefix filter list on an MCR. */
export interface PrefixListRecord {
  id: number;
  mcrUid: string;
  description: string;
  addressFamily: 'IPv4' | 'IPv6';
  entries: PrefixEntry[];
}

/** A service key on a Port. */
export interface ServiceKeyRecord {
  key: string;
  productUid: string;
  description: string;
  singleUse: boolean;
  maxSpeed: number;
  active: boolean;
  preApproved: boolean;
  vlan: number | null;
  validFor: { start: number; end: number } | null;
  createDate: number;
  lastUsed: number | null;
  promoCode: string | null;
}

/** A VLAN kept busy after a VXC moved away from it or changed it (the real API holds them a while). */
export interface VlanHold {
  productUid: string;
  vNicIndex: number;
  vlan: number | null;
  innerVlan: number | null;
  until: number;
}

/** Everything the interconnect sandbox persists; plain JSON only. */
export interface InterconnectDb {
  version: 1;
  /** Signs bearer tokens, so tokens survive a restart with the same data folder. */
  tokenSecret: string;
  tokenExpiresIn: number;
  nextProductId: number;
  nextAggregationId: number;
  nextPrefixListId: number;
  products: Record<string, ProductRecord>;
  prefixLists: PrefixListRecord[];
  serviceKeys: Record<string, ServiceKeyRecord>;
  vlanHolds: VlanHold[];
  /** Partner ports created by the rotate-partner-port admin action. */
  extraPartnerPorts: PartnerPort[];
}

function initDb(): InterconnectDb {
  return {
    version: 1,
    tokenSecret: randomBytes(24).toString('hex'),
    tokenExpiresIn: 3600,
    nextProductId: 140001,
    nextAggregationId: 5001,
    nextPrefixListId: 2801,
    products: {},
    prefixLists: [],
    serviceKeys: {},
    vlanHolds: [],
    extraPartnerPorts: [],
  };
}

/** Data objects already completed: every request loads the db, and completing it draws random bytes. */
const completed = new WeakSet<InterconnectDb>();

/** The persistent data, created on first use and completed when an older file lacks a field. */
export function loadDb(world: SandboxWorld): InterconnectDb {
  const db = world.data<InterconnectDb>('interconnect', initDb);
  if (completed.has(db)) return db;
  const fresh = initDb();
  for (const key of Object.keys(fresh) as Array<keyof InterconnectDb>) {
    if (db[key] === undefined) (db as unknown as Record<string, unknown>)[key] = fresh[key];
  }
  completed.add(db);
  return db;
}

/** Takes the next product id. */
export function nextProductId(db: InterconnectDb): number {
  return db.nextProductId++;
}

/** Every partner port: the seeded ones plus those created by rotation. */
export function partnerPorts(db: InterconnectDb): PartnerPort[] {
  return db.extraPartnerPorts.length ? SEED_PARTNER_PORTS.concat(db.extraPartnerPorts) : SEED_PARTNER_PORTS;
}

/** The partner port with this UID, or undefined. */
export function findPartnerPort(db: InterconnectDb, uid: unknown): PartnerPort | undefined {
  return typeof uid === 'string' ? partnerPorts(db).find((p) => p.productUid === uid) : undefined;
}

/** The VXCs and IXs in the store. */
export function connections(db: InterconnectDb): Array<VxcRecord | IxRecord> {
  return Object.values(db.products).filter((p): p is VxcRecord | IxRecord => p.productType === 'VXC' || p.productType === 'IX');
}

/**
 * Connection UIDs by the product UIDs they have landed on, beside the plain-JSON data and never
 * persisted. Reading a port or ordering a VXC asks what lands on one product; scanning every
 * product for that made each call O(products). Entries are only ever added (built from all
 * products on first use, then by `indexConnection`); `connectionsOn` checks each candidate's
 * current ends, so a connection that moved away is simply skipped.
 */
const endIndex = new WeakMap<InterconnectDb['products'], Map<string, Set<string>>>();

function indexFor(db: InterconnectDb): Map<string, Set<string>> {
  let index = endIndex.get(db.products);
  if (!index) {
    index = new Map();
    endIndex.set(db.products, index);
    for (const p of Object.values(db.products)) addToIndex(index, p);
  }
  return index;
}

function addToIndex(index: Map<string, Set<string>>, p: ProductRecord): void {
  if (p.productType !== 'VXC' && p.productType !== 'IX') return;
  for (const uid of endUids(p)) {
    const set = index.get(uid);
    if (set) set.add(p.productUid);
    else index.set(uid, new Set([p.productUid]));
  }
}

/** Records where a connection lands now; call after storing a new connection or moving an end. */
export function indexConnection(db: InterconnectDb, p: ProductRecord): void {
  // Before the first lookup there is no index yet; it will be built from the products.
  const index = endIndex.get(db.products);
  if (index) addToIndex(index, p);
}

/** The VXCs and IXs that land on `productUid` now, in the store's order (as `connections` lists them). */
export function connectionsOn(db: InterconnectDb, productUid: string): Array<VxcRecord | IxRecord> {
  const out: Array<VxcRecord | IxRecord> = [];
  for (const uid of indexFor(db).get(productUid) ?? []) {
    const p = db.products[uid];
    if ((p?.productType === 'VXC' || p?.productType === 'IX') && endUids(p).includes(productUid)) out.push(p);
  }
  // Products are stored in the order they were ordered, which is productId order.
  return out.sort((a, b) => a.productId - b.productId);
}

/** The product UIDs a VXC or IX lands on (both ends of a VXC, the port of an IX). */
export function endUids(p: VxcRecord | IxRecord): string[] {
  return p.productType === 'VXC' ? [p.aEnd.productUid, p.bEnd.productUid] : [p.portUid];
}

/** Valid contract terms, in months. */
export const TERMS_MONTHS = [1, 12, 24, 36, 48, 60];

/** `ts` plus `months` calendar months (UTC), the day kept within the month: a term begun on 31 January has a month end on the last day of February, not in March. */
export function addMonths(ts: number, months: number): number {
  const d = new Date(ts);
  const month = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(d.getUTCFullYear(), month + 1, 0)).getUTCDate();
  d.setUTCFullYear(d.getUTCFullYear(), month, Math.min(d.getUTCDate(), last));
  return d.getTime();
}

/**
 * The contract term running at `now`: terms run from the order, and each renews for the same
 * length at its end (the API's default, Minimum Term Renewal), so a product reports the current
 * one's start and end.
 */
export function currentTerm(p: Pick<ProductRecord, 'createDate' | 'term'>, now: number): { start: number; end: number } {
  let k = 1;
  while (addMonths(p.createDate, p.term * k) <= now && k < 10_000) k++;
  return { start: addMonths(p.createDate, p.term * (k - 1)), end: addMonths(p.createDate, p.term * k) };
}

/** End of the contract term running at `now`. */
export function currentTermEnd(p: ProductRecord, now: number): number {
  return currentTerm(p, now).end;
}

/** What a VXC end lands on: one of the customer's own products, or another company's partner port. */
export type EndTarget = { kind: 'own'; product: PortRecord | McrRecord | MveRecord } | { kind: 'partner'; port: PartnerPort };

/** Resolves a UID a VXC end names, or undefined when it is neither an own product nor a partner port. */
export function resolveEnd(db: InterconnectDb, uid: unknown): EndTarget | undefined {
  if (typeof uid !== 'string') return undefined;
  const p = db.products[uid];
  if (p && (p.productType === 'MEGAPORT' || p.productType === 'MCR2' || p.productType === 'MVE')) return { kind: 'own', product: p };
  const port = findPartnerPort(db, uid);
  return port ? { kind: 'partner', port } : undefined;
}
