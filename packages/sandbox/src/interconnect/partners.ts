import type { SandboxResponse } from '../types.js';
import { badRequest, isObject, notFound, ok } from './envelope.js';
import { newUid, stableNumber, UUID_RE } from './ids.js';
import { decommissionedAt, type Clock } from './provisioning.js';
import type { Handler } from './router.js';
import type { PartnerPort } from './seed-partners.js';
import { findLocation } from './seed-locations.js';
import { indexConnection, partnerPorts, resolveEnd, type InterconnectDb } from './store.js';

const GOOGLE_REGIONS: Record<string, string> = {
  'australia-southeast1': 'Sydney',
  'australia-southeast2': 'Melbourne',
  'asia-southeast1': 'Singapore',
  'europe-west2': 'London',
  'europe-west3': 'Frankfurt',
  'us-east4': 'Ashburn',
  'us-west2': 'Los Angeles',
};

const ORACLE_REGIONS: Record<string, string> = {
  'ap-sydney-1': 'Sydney',
  'ap-melbourne-1': 'Melbourne',
  'ap-singapore-1': 'Singapore',
  'uk-london-1': 'London',
  'eu-frankfurt-1': 'Frankfurt',
  'us-ashburn-1': 'Ashburn',
};

const BANDWIDTHS = [50, 100, 200, 500, 1000, 2000, 5000, 10000];

function metroOf(p: PartnerPort): string | undefined {
  return findLocation(p.locationId)?.metro;
}

/** The metro a CSP key points at: from the region it names, else a stable pick among the partner's metros. */
function pickMetro(ports: PartnerPort[], key: string, region: string | undefined, regions: Record<string, string>): string | undefined {
  if (region && regions[region]) return regions[region];
  const metros = [...new Set(ports.map(metroOf).filter((m): m is string => !!m))].sort();
  return metros.length ? metros[stableNumber(key, metros.length)] : undefined;
}

/** The productId of a live VXC already using this CSP key on the port, or null (clients pick ports with `vxc` null). */
function vxcUsing(db: InterconnectDb, clock: Clock, port: PartnerPort, keyField: string, key: string): number | null {
  for (const p of Object.values(db.products)) {
    if (p.productType !== 'VXC' || p.bEnd.productUid !== port.productUid || p.bEnd.partnerConfig?.[keyField] !== key) continue;
    const gone = decommissionedAt(p, db, clock);
    if (gone === undefined || clock.now < gone) return p.productId;
  }
  return null;
}

function megaport(p: PartnerPort, vxc: number | null, type?: string): Record<string, unknown> {
  const loc = findLocation(p.locationId);
  return {
    portSpeed: p.speed,
    name: p.title,
    state: loc?.address.state ?? '',
    country: loc?.address.country ?? '',
    description: `${p.companyName} at ${loc?.name ?? ''}`,
    productUid: p.productUid,
    productId: p.productId,
    nServiceId: p.productId,
    port: p.productId,
    vxc,
    companyUid: p.companyUid,
    companyName: p.companyName,
    companyId: 1400 + stableNumber(p.companyName, 100),
    locationId: p.locationId,
    ...(type ? { type } : {}),
  };
}

/**
 * `GET /v2/secure/{azure|google|oracle}/{key}`: the partner ports a CSP key can use. Azure keys are
 * UUIDs; Google pairing keys are `<uuid>/<region>/<1|2>`; Oracle keys are virtual-circuit OCIDs
 * whose region picks the metro.
 */
export const lookupPartner: Handler = (ctx) => {
  const partner = ctx.params.partner.toLowerCase();
  const key = ctx.params.key;
  const all = partnerPorts(ctx.db).filter((p) => p.vxcPermitted);
  if (partner === 'azure') {
    if (!UUID_RE.test(key)) throw badRequest(`Service key ${key} is not a valid ExpressRoute service key`);
    const ports = all.filter((p) => p.connectType === 'AZURE');
    const metro = pickMetro(ports, key, undefined, {});
    const here = ports.filter((p) => metroOf(p) === metro);
    const vlan = 100 + stableNumber(`${key}:vlan`, 3900);
    return ok('Successful lookup', {
      managed: true,
      connectType: 'AZURE',
      resource_type: 'csp_connection',
      bandwidth: BANDWIDTHS[stableNumber(`${key}:bw`, 5) + 2],
      bandwidths: BANDWIDTHS,
      service_key: key,
      vlan,
      megaports: here.map((p) => megaport(p, vxcUsing(ctx.db, ctx.clock, p, 'serviceKey', key), p.diversityZone === 'red' ? 'primary' : 'secondary')),
      peers: [
        { peer_asn: 12076, shared_key: null, primary_subnet: '169.254.167.176/30', secondary_subnet: '169.254.167.180/30', vlan, type: 'private' },
        { peer_asn: 12076, prefixes: null, primary_subnet: null, secondary_subnet: null, vlan: vlan + 1, type: 'microsoft' },
      ],
    });
  }
  if (partner === 'google') {
    const m = /^([0-9a-f-]{36})\/([a-z0-9-]+)\/([12])$/i.exec(key);
    if (!m) throw badRequest(`Pairing key ${key} is not valid; expected <uuid>/<region>/<1|2>`);
    const ports = all.filter((p) => p.connectType === 'GOOGLE');
    const metro = pickMetro(ports, key, m[2].toLowerCase(), GOOGLE_REGIONS);
    const zone = m[3] === '1' ? 'red' : 'blue';
    const here = ports.filter((p) => metroOf(p) === metro && p.diversityZone === zone);
    return ok('Successful lookup', {
      connectType: 'GOOGLE',
      resource_type: 'csp_connection',
      pairingKey: key,
      bandwidths: BANDWIDTHS,
      megaports: here.map((p) => megaport(p, vxcUsing(ctx.db, ctx.clock, p, 'pairingKey', key))),
    });
  }
  if (partner === 'oracle') {
    const m = /^ocid1\.virtualcircuit\.oc1\.([a-z0-9-]+)\.[a-z0-9]+$/i.exec(key);
    if (!m) throw badRequest(`Virtual circuit ID ${key} is not valid; expected ocid1.virtualcircuit.oc1.<region>.<id>`);
    const ports = all.filter((p) => p.connectType === 'ORACLE');
    const metro = pickMetro(ports, key, m[1].toLowerCase(), ORACLE_REGIONS);
    const here = ports.filter((p) => metroOf(p) === metro);
    return ok('Successful lookup', {
      connectType: 'ORACLE',
      resource_type: 'csp_connection',
      virtualCircuitId: key,
      bandwidths: BANDWIDTHS,
      megaports: here.map((p) => megaport(p, vxcUsing(ctx.db, ctx.clock, p, 'virtualCircuitId', key))),
    });
  }
  throw notFound(`Unknown partner ${ctx.params.partner}; use azure, google or oracle`);
};

/**
 * Admin `rotate-partner-port` `{productUid}` (a VXC): moves its B-End to another partner port of the
 * same connect type, location and diversity zone, creating one when none exists, as the real
 * network does when it rebalances capacity.
 */
export function rotatePartnerPort(body: unknown, db: InterconnectDb): SandboxResponse {
  const uid = isObject(body) ? body.productUid : undefined;
  const vxc = typeof uid === 'string' ? db.products[uid] : undefined;
  if (!vxc || vxc.productType !== 'VXC') return { status: 404, body: { message: `VXC ${String(uid)} not found` } };
  const end = resolveEnd(db, vxc.bEnd.productUid);
  if (end?.kind !== 'partner') return { status: 400, body: { message: `VXC ${vxc.productUid} has no partner port at its B-End` } };
  const current = end.port;
  let next = partnerPorts(db).find(
    (p) => p.productUid !== current.productUid && p.connectType === current.connectType && p.locationId === current.locationId && p.diversityZone === current.diversityZone && p.vxcPermitted,
  );
  if (!next) {
    next = { ...current, productUid: newUid(), productId: 30000 + db.extraPartnerPorts.length, rank: current.rank + 1, vxcPermitted: true };
    db.extraPartnerPorts.push(next);
  }
  vxc.bEnd.productUid = next.productUid;
  indexConnection(db, vxc);
  return { status: 200, body: { productUid: vxc.productUid, previousBEndUid: current.productUid, newBEndUid: next.productUid } };
}
