import { cloneJson, isObject } from './envelope.js';
import { COMPANY, stableNumber } from './ids.js';
import { ipv4At } from './net.js';
import { interfacesOf } from './partner-config.js';
import { provisioningStatus, type Clock } from './provisioning.js';
import type { PartnerPort } from './seed-partners.js';
import { findLocation, locationDetail } from './seed-locations.js';
import { resolveEnd, type EndTarget, type InterconnectDb, type McrRecord, type VxcEndRecord, type VxcRecord } from './store.js';
import { commonFields, virtualRouter } from './product-common.js';

function locationOf(target: EndTarget | undefined) {
  if (!target) return undefined;
  return findLocation(target.kind === 'own' ? target.product.locationId : target.port.locationId);
}

function endView(end: VxcEndRecord, target: EndTarget | undefined): Record<string, unknown> {
  const loc = locationOf(target);
  return {
    ownerUid: target?.kind === 'partner' ? target.port.companyUid : COMPANY.companyUid,
    productUid: end.productUid,
    productName: target ? (target.kind === 'own' ? target.product.productName : target.port.title) : null,
    locationId: loc?.id ?? null,
    location: loc?.name ?? null,
    locationDetail: locationDetail(loc),
    vlan: end.vlan,
    innerVlan: end.innerVlan,
    vNicIndex: end.vNicIndex,
    secondaryName: null,
  };
}

/** A vrouter interface as the API returns it: write-only secrets (IPsec keys, BGP passwords) left out. */
function publicInterfaces(cfg: Record<string, unknown> | undefined): Array<Record<string, unknown>> {
  return interfacesOf(cfg).map((raw) => {
    const iface = cloneJson(raw);
    if (isObject(iface.ipSecTunnelOptions)) delete iface.ipSecTunnelOptions.preSharedKey;
    if (Array.isArray(iface.bgpConnections)) {
      for (const bgp of iface.bgpConnections) if (isObject(bgp)) delete bgp.password;
    }
    return iface;
  });
}

function vrouterConnection(mcr: McrRecord, end: VxcEndRecord, side: 'a' | 'b'): Record<string, unknown> {
  const interfaces = publicInterfaces(end.partnerConfig);
  return {
    connectType: 'VROUTER',
    resource_name: `${side}_csp_connection`,
    resource_type: 'csp_connection',
    vlan: end.vlan,
    interfaces,
    ip_addresses: interfaces.flatMap((i) => (Array.isArray(i.ipAddresses) ? i.ipAddresses : [])),
    virtualRouterName: mcr.productName,
  };
}

/**
 * Azure peerings as the API reports them (the SDK's CSPConnectionAzurePeeringConfig): `peer_asn`
 * and `vlan` are numbers, whatever the order sent (the SDK's order sends `peer_asn` as a string).
 */
function azurePeers(peers: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(peers)) return [];
  return peers.filter(isObject).map((peer) => {
    const out = cloneJson(peer);
    for (const key of ['peer_asn', 'vlan']) {
      const n = typeof out[key] === 'string' && /^\d+$/.test(out[key] as string) ? Number(out[key]) : out[key];
      if (n !== undefined) out[key] = n;
    }
    return out;
  });
}

/** The csp_connection a partner-port end of `vxc` reports, in the shape its cloud's SDK type names. */
function partnerConnection(port: PartnerPort, vxc: VxcRecord, end: VxcEndRecord, side: 'a' | 'b'): Record<string, unknown> {
  const cfg = end.partnerConfig ?? {};
  const base = { connectType: port.connectType, resource_name: `${side}_csp_connection`, resource_type: 'csp_connection' };
  const bandwidth = vxc.rateLimit;
  const serial = stableNumber(vxc.productUid, 0xffffff).toString(16).padStart(6, '0');
  const megaports = [{ port: port.productId, type: port.diversityZone === 'red' ? 'primary' : 'secondary', vxc: vxc.productId }];
  const ports = [{ service_id: port.productId, type: 'PORT', vxc_service_ids: [vxc.productId] }];
  switch (port.connectType) {
    case 'AWS':
      return awsConnection(base, vxc, end, serial);
    case 'AWSHC':
      return {
        ...base,
        bandwidth,
        bandwidths: [bandwidth],
        name: cfg.name ?? vxc.productName,
        ownerAccount: cfg.ownerAccount ?? null,
        connectionId: `dxcon-fg${serial}`,
      };
    case 'AZURE':
      return { ...base, bandwidth, managed: true, megaports, ports, service_key: cfg.serviceKey ?? null, vlan: end.vlan, peers: azurePeers(cfg.peers) };
    case 'GOOGLE':
      return { ...base, bandwidth, bandwidths: [bandwidth], csp_name: 'GOOGLE', megaports, ports, pairingKey: cfg.pairingKey ?? null };
    case 'ORACLE':
      return { ...base, bandwidth, csp_name: 'ORACLE', megaports, ports, virtualCircuitId: cfg.virtualCircuitId ?? null };
    case 'IBM':
      return {
        ...base,
        bandwidth,
        account_id: cfg.account_id ?? null,
        customer_asn: cfg.customer_asn ?? null,
        name: cfg.name ?? vxc.productName,
        customer_ip_address: cfg.customer_ip_address ?? null,
        provider_ip_address: cfg.provider_ip_address ?? null,
      };
    case 'TRANSIT':
      return { ...base, ...transitAddresses(vxc.productId) };
    default:
      return { ...base, bandwidth, ...cloneJson(cfg) };
  }
}

/** The AWS hosted VIF the partner side reports for `vxc`, `serial` being the VIF id's stable suffix. */
function awsConnection(base: Record<string, unknown>, vxc: VxcRecord, end: VxcEndRecord, serial: string): Record<string, unknown> {
  const cfg = end.partnerConfig ?? {};
  // The keys of the SDK's CSPConnectionAWS: camelCase for what was ordered, snake_case for
  // the addresses and ids AWS assigned. `asn` and `peerAsn` are both the customer's ASN.
  return {
    ...base,
    id: vxc.productId,
    vif_id: `dxvif-ffg${serial}`,
    type: cfg.type ?? 'private',
    name: cfg.name ?? vxc.productName,
    account: cfg.ownerAccount ?? null,
    ownerAccount: cfg.ownerAccount ?? null,
    asn: cfg.asn ?? null,
    peerAsn: cfg.asn ?? null,
    amazonAsn: cfg.amazonAsn ?? 64512,
    authKey: cfg.authKey ?? null,
    customer_address: cfg.customerIpAddress ?? null,
    customerIpAddress: cfg.customerIpAddress ?? null,
    amazon_address: cfg.amazonIpAddress ?? null,
    prefixes: cfg.prefixes ?? null,
    vlan: end.vlan,
  };
}

/** The /30 and /64 a Transit VXC gets, each a stable slot of the range derived from `productId`. */
function transitAddresses(productId: number): Record<string, unknown> {
  const slot = (productId % 16000) * 4;
  return {
    customer_ip4_address: `${ipv4At('100.66.0.0/16', slot + 2)}/30`,
    ipv4_gateway_address: ipv4At('100.66.0.0/16', slot + 1),
    customer_ip6_network: `2001:db8:${(productId % 65536).toString(16)}::/64`,
    ipv6_gateway_address: `2001:db8:${(productId % 65536).toString(16)}::1`,
  };
}

function cspConnections(vxc: VxcRecord, a: EndTarget | undefined, b: EndTarget | undefined): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const [end, target, side] of [
    [vxc.aEnd, a, 'a'],
    [vxc.bEnd, b, 'b'],
  ] as const) {
    if (target?.kind === 'own' && target.product.productType === 'MCR2') out.push(vrouterConnection(target.product, end, side));
    if (target?.kind === 'partner') out.push(partnerConnection(target.port, vxc, end, side));
  }
  return out;
}

/** True when a VXC's B-End is a Megaport Internet (TRANSIT) port. */
export function isTransitVxc(vxc: VxcRecord, db: InterconnectDb): boolean {
  const b = resolveEnd(db, vxc.bEnd.productUid);
  return b?.kind === 'partner' && b.port.connectType === 'TRANSIT';
}

/** How far a VXC travels: within a metro, within a market, or beyond. */
function distanceBand(a: EndTarget | undefined, b: EndTarget | undefined): string {
  const la = locationOf(a);
  const lb = locationOf(b);
  if (!la || !lb || la.metro === lb.metro) return 'METRO';
  return la.market === lb.market ? 'ZONE' : 'INTERCONTINENTAL';
}

/**
 * A VXC as `GET /v2/product/{uid}` returns it. `resources.csp_connection` is a single object when
 * there is one and an array when there are several (both forms occur on the real API).
 */
export function vxcView(vxc: VxcRecord, db: InterconnectDb, clock: Clock): Record<string, unknown> {
  const a = resolveEnd(db, vxc.aEnd.productUid);
  const b = resolveEnd(db, vxc.bEnd.productUid);
  const status = provisioningStatus(vxc, db, clock);
  const up = (status === 'LIVE' || status === 'CONFIGURED') && !vxc.shutdown;
  const band = distanceBand(a, b);
  const vll = {
    a_vlan: vxc.aEnd.vlan,
    b_vlan: vxc.bEnd.vlan,
    rate_limit_mbps: vxc.rateLimit,
    resource_name: 'vll',
    resource_type: 'vll',
    up: up ? 1 : 0,
    shutdown: vxc.shutdown,
  };
  const resources: Record<string, unknown> = { vll: status === 'DECOMMISSIONED' ? [] : vll };
  const csp = cspConnections(vxc, a, b);
  if (csp.length) resources.csp_connection = csp.length === 1 ? csp[0] : csp;
  const mcr = [a, b].find((t) => t?.kind === 'own' && t.product.productType === 'MCR2');
  if (mcr?.kind === 'own' && mcr.product.productType === 'MCR2') resources.virtual_router = virtualRouter(mcr.product);
  return {
    ...commonFields(vxc, db, clock, status),
    nServiceId: vxc.productId,
    rateLimit: vxc.rateLimit,
    distanceBand: band,
    usageAlgorithm: band === 'METRO' ? 'POST_PAID_HOURLY_SPEED_METRO_VXC' : 'POST_PAID_HOURLY_SPEED_LONG_HAUL_VXC',
    shutdown: vxc.shutdown,
    up,
    vxcApproval: { status: null, message: null, uid: null, type: null, newSpeed: null },
    aEnd: endView(vxc.aEnd, a),
    bEnd: endView(vxc.bEnd, b),
    resources,
  };
}
