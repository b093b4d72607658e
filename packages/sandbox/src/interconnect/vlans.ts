import { decommissionedAt, type Clock } from './provisioning.js';
import { connectionsOn, type InterconnectDb } from './store.js';

/** One VLAN in use (or held) on a product's vNIC; `vlan: null` is an untagged service. */
export interface VlanUse {
  productUid: string;
  vNicIndex: number;
  vlan: number | null;
  innerVlan: number | null;
  /** The service using it, or 'held' for a VLAN a service has just released. */
  owner: string;
}

/** Lowest VLAN a service may request (0 asks for one to be allocated, 1 is reserved). */
export const VLAN_MIN = 2;
/** Highest VLAN a service may request. */
export const VLAN_MAX = 4093;

/**
 * VLANs in use on a product: every VXC end and IX on it until a provisioning delay after the
 * service was decommissioned (the real API keeps them a while, which breaks quick re-creates), plus
 * explicit holds left by moves and VLAN changes.
 */
export function vlanUses(db: InterconnectDb, productUid: string, clock: Clock, exceptOwner?: string): VlanUse[] {
  const uses: VlanUse[] = [];
  for (const c of connectionsOn(db, productUid)) {
    if (c.productUid === exceptOwner) continue;
    const gone = decommissionedAt(c, db, clock);
    if (gone !== undefined && clock.now >= gone + clock.ms) continue;
    if (c.productType === 'IX') {
      if (c.portUid === productUid) uses.push({ productUid, vNicIndex: 0, vlan: c.vlan, innerVlan: null, owner: c.productUid });
      continue;
    }
    for (const end of [c.aEnd, c.bEnd]) {
      if (end.productUid !== productUid) continue;
      uses.push({ productUid, vNicIndex: end.vNicIndex ?? 0, vlan: end.vlan, innerVlan: end.innerVlan, owner: c.productUid });
    }
  }
  for (const h of db.vlanHolds) {
    if (h.productUid === productUid && h.until > clock.now) uses.push({ ...h, owner: 'held' });
  }
  return uses;
}

/** True when two uses cannot share a vNIC: an untagged service takes the whole vNIC; QinQ may share an outer tag. */
export function clashes(a: Omit<VlanUse, 'owner'>, b: Omit<VlanUse, 'owner'>): boolean {
  if (a.vNicIndex !== b.vNicIndex) return false;
  if (a.vlan === null || b.vlan === null) return true;
  if (a.vlan !== b.vlan) return false;
  return a.innerVlan === null || b.innerVlan === null || a.innerVlan === b.innerVlan;
}

/** The first use that clashes with `want`, or undefined. */
export function findClash(uses: VlanUse[], want: Omit<VlanUse, 'owner'>): VlanUse | undefined {
  return uses.find((u) => clashes(u, want));
}

/** The lowest free VLAN on a vNIC, or undefined when all are taken. */
export function allocateVlan(uses: VlanUse[], productUid: string, vNicIndex: number): number | undefined {
  for (let v = VLAN_MIN; v <= VLAN_MAX; v++) {
    if (!findClash(uses, { productUid, vNicIndex, vlan: v, innerVlan: null })) return v;
  }
  return undefined;
}

/** Remembers that a VLAN was released now, so it stays busy for one provisioning delay. */
export function holdVlan(db: InterconnectDb, use: Omit<VlanUse, 'owner'>, clock: Clock): void {
  db.vlanHolds = db.vlanHolds.filter((h) => h.until > clock.now);
  if (clock.ms > 0) db.vlanHolds.push({ ...use, until: clock.now + clock.ms });
}

/** The VLANs free for a new service on a Port (`GET /v2/product/port/{uid}/vlan`). */
export function availableVlans(db: InterconnectDb, productUid: string, clock: Clock, only?: number): number[] {
  const uses = vlanUses(db, productUid, clock);
  const candidates = only === undefined ? range(VLAN_MIN, VLAN_MAX) : [only];
  return candidates.filter((v) => !findClash(uses, { productUid, vNicIndex: 0, vlan: v, innerVlan: null }));
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let v = from; v <= to; v++) out.push(v);
  return out;
}
