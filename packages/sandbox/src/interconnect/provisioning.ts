import { endUids, type InterconnectDb, type ProductRecord } from './store.js';

/** Every `provisioningStatus` the API reports. DESIGN belongs to NAT gateways, which this sandbox does not sell. */
export type ProvisioningStatus = 'NEW' | 'DESIGN' | 'DEPLOYABLE' | 'CONFIGURED' | 'LIVE' | 'CANCELLED' | 'CANCELLED_PARENT' | 'DECOMMISSIONING' | 'DECOMMISSIONED';

/** The moment of a read and the world's provisioning delay; statuses are derived from these, never stored. */
export interface Clock {
  now: number;
  ms: number;
}

/** Decommissioned services stay readable this long, then disappear (the real API: 30 days). */
export const RETENTION_MS = 30 * 24 * 3600 * 1000;

function isConnection(p: ProductRecord): boolean {
  return p.productType === 'VXC' || p.productType === 'IX';
}

/**
 * When the product's own cancellation takes effect. Ports, MCRs and MVEs read DECOMMISSIONED right
 * after CANCEL_NOW (as staging does); VXCs and IXs spend half a provisioning delay DECOMMISSIONING.
 */
export function ownDecommissionAt(p: ProductRecord, clock: Clock): number | undefined {
  if (!p.cancel) return undefined;
  if (p.cancel.mode === 'end-of-term') return p.cancel.terminateAt;
  return isConnection(p) ? p.cancel.requestedAt + clock.ms / 2 : p.cancel.requestedAt;
}

/** For a VXC or IX: when the first of the products it lands on was terminated. */
export function parentTerminatedAt(p: ProductRecord, db: InterconnectDb, clock: Clock): number | undefined {
  if (p.productType !== 'VXC' && p.productType !== 'IX') return undefined;
  let first: number | undefined;
  for (const uid of endUids(p)) {
    const parent = db.products[uid];
    const at = parent ? ownDecommissionAt(parent, clock) : undefined;
    if (at !== undefined && (first === undefined || at < first)) first = at;
  }
  return first;
}

/** When the product reads DECOMMISSIONED (own cancellation or its parent's), or undefined if never. */
export function decommissionedAt(p: ProductRecord, db: InterconnectDb, clock: Clock): number | undefined {
  const own = ownDecommissionAt(p, clock);
  const parent = parentTerminatedAt(p, db, clock);
  const viaParent = parent === undefined ? undefined : parent + clock.ms / 2;
  if (own === undefined) return viaParent;
  if (viaParent === undefined) return own;
  return Math.min(own, viaParent);
}

/**
 * When the product was first provisioned: a provisioning delay after it was ordered, and never
 * before the products a connection lands on. Infinity for a pre-ordered Port (and what lands on it).
 */
export function provisionedAt(p: ProductRecord, db: InterconnectDb, ms: number): number {
  if (p.productType === 'MEGAPORT' && p.preOrder) return Infinity;
  let at = p.createDate + ms;
  if (p.productType === 'VXC' || p.productType === 'IX') {
    for (const uid of endUids(p)) {
      const parent = db.products[uid];
      if (parent) at = Math.max(at, provisionedAt(parent, db, ms));
    }
  }
  return at;
}

/** When the product is (again) ready: once provisioned, and half a delay after its last change. */
export function readyAt(p: ProductRecord, db: InterconnectDb, ms: number): number {
  const at = provisionedAt(p, db, ms);
  return p.modifiedAt === undefined ? at : Math.max(at, p.modifiedAt + ms / 2);
}

/**
 * The status at `clock.now`: DEPLOYABLE until ready, then CONFIGURED; everything but a physical
 * Port goes on to LIVE a quarter delay later (a Port never sees light in the sandbox).
 * Cancellation wins over provisioning; a parent's termination shows as CANCELLED_PARENT first.
 */
export function provisioningStatus(p: ProductRecord, db: InterconnectDb, clock: Clock): ProvisioningStatus {
  const { now, ms } = clock;
  const own = ownDecommissionAt(p, clock);
  if (own !== undefined && now >= own) return 'DECOMMISSIONED';
  const parent = parentTerminatedAt(p, db, clock);
  if (parent !== undefined && now >= parent) return now >= parent + ms / 2 ? 'DECOMMISSIONED' : 'CANCELLED_PARENT';
  if (p.cancel) return p.cancel.mode === 'now' ? 'DECOMMISSIONING' : 'CANCELLED';
  if (p.productType === 'MEGAPORT' && p.preOrder) return 'NEW';
  const ready = readyAt(p, db, ms);
  if (now < ready) return 'DEPLOYABLE';
  if (p.productType === 'MEGAPORT') return 'CONFIGURED';
  return now < ready + ms / 4 ? 'CONFIGURED' : 'LIVE';
}

/** True for CONFIGURED and LIVE, the states clients treat as ready. */
export function isReady(status: ProvisioningStatus): boolean {
  return status === 'CONFIGURED' || status === 'LIVE';
}

/** True while the service still exists as a service (not cancelled, not terminated, not pre-order). */
export function isActive(status: ProvisioningStatus): boolean {
  return status === 'NEW' || status === 'DEPLOYABLE' || status === 'CONFIGURED' || status === 'LIVE';
}

/** True once termination has started or finished. */
export function isTerminating(status: ProvisioningStatus): boolean {
  return status === 'CANCELLED_PARENT' || status === 'DECOMMISSIONING' || status === 'DECOMMISSIONED';
}

/** The date the service first went ready, or null before then (and for pre-orders). */
export function liveDate(p: ProductRecord, db: InterconnectDb, clock: Clock): number | null {
  const at = provisionedAt(p, db, clock.ms);
  return clock.now >= at ? at : null;
}

/** The termination date to report: the scheduled or actual end, or null while none is planned. */
export function terminateDate(p: ProductRecord, db: InterconnectDb, clock: Clock): number | null {
  if (p.cancel) return p.cancel.mode === 'now' ? p.cancel.requestedAt : p.cancel.terminateAt;
  const parent = parentTerminatedAt(p, db, clock);
  return parent === undefined ? null : parent;
}

/** False once a decommissioned product has passed the retention period: reads then say not found. */
export function isVisible(p: ProductRecord, db: InterconnectDb, clock: Clock): boolean {
  const at = decommissionedAt(p, db, clock);
  return at === undefined || clock.now < at + RETENTION_MS;
}
