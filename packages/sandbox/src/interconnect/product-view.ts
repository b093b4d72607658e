import { findIxPoint, findMveImage, MVE_SIZES, type IxPoint } from './seed-catalog.js';
import { findLocation, locationDetail } from './seed-locations.js';
import { ipv4At } from './net.js';
import { commonFields, mediaFor, virtualRouter } from './product-common.js';
import { isVisible, provisioningStatus, type Clock } from './provisioning.js';
import { connectionsOn, type AddOnRecord, type InterconnectDb, type IxRecord, type McrRecord, type MveRecord, type PortRecord, type ProductRecord, type VxcRecord } from './store.js';
import { vxcView } from './vxc-view.js';

/** Vendor config keys safe to echo back; the rest (keys, passwords, licences) are write-only. */
const PUBLIC_VENDOR_KEYS = ['vendor', 'imageId', 'productSize', 'mveLabel'];

/**
 * Views of the VXCs already shown under another product of the same answer: a listing shows each
 * VXC under both its ends, and building it once halves what a listing of many VXCs costs.
 */
export type SharedViews = Map<string, Record<string, unknown>>;

function associated(p: ProductRecord, db: InterconnectDb, clock: Clock, shared: SharedViews): { associatedVxcs: unknown[]; associatedIxs: unknown[] } {
  const vxcs: unknown[] = [];
  const ixs: unknown[] = [];
  for (const c of connectionsOn(db, p.productUid)) {
    if (!isVisible(c, db, clock)) continue;
    if (c.productType === 'VXC' && (c.aEnd.productUid === p.productUid || c.bEnd.productUid === p.productUid)) {
      let view = shared.get(c.productUid);
      if (!view) shared.set(c.productUid, (view = vxcView(c, db, clock)));
      vxcs.push(view);
    }
    if (c.productType === 'IX' && c.portUid === p.productUid) ixs.push(ixView(c, db, clock));
  }
  return { associatedVxcs: vxcs, associatedIxs: ixs };
}

/** An IPsec add-on as the MCR's `addOns[]` lists it. */
export function addOnView(mcr: McrRecord, a: AddOnRecord): Record<string, unknown> {
  return { productUid: mcr.productUid, addOnUid: a.addOnUid, addOnType: a.addOnType, tunnelCount: a.tunnelCount, packCount: a.tunnelCount / 10 };
}

function siteFields(p: PortRecord | McrRecord | MveRecord) {
  const loc = findLocation(p.locationId);
  return { market: loc?.market ?? '', locationId: p.locationId, locationDetail: locationDetail(loc), diversityZone: p.diversityZone };
}

function portView(p: PortRecord, db: InterconnectDb, clock: Clock, shared: SharedViews): Record<string, unknown> {
  const status = provisioningStatus(p, db, clock);
  return {
    ...commonFields(p, db, clock, status),
    portSpeed: p.portSpeed,
    ...siteFields(p),
    usageAlgorithm: 'POST_PAID_FIXED',
    marketplaceVisibility: p.marketplaceVisibility,
    vxcPermitted: true,
    vxcAutoApproval: false,
    lagPrimary: p.lagPrimary,
    lagId: p.aggregationId ?? 0,
    aggregationId: p.aggregationId ?? 0,
    virtual: false,
    buyoutPort: false,
    resources: {
      interface: {
        demarcation: `${findLocation(p.locationId)?.name ?? ''}, Level 2, Suite 2.${(p.productId % 40) + 1}, Rack ${(p.productId % 17) + 1}`,
        description: '',
        id: p.productId,
        loa_template: 'megaport',
        media: mediaFor(p.portSpeed),
        name: p.productName,
        port_speed: p.portSpeed,
        resource_name: 'interface',
        resource_type: 'interface',
        up: status === 'LIVE' ? 1 : 0,
      },
    },
    ...associated(p, db, clock, shared),
  };
}

function mcrView(p: McrRecord, db: InterconnectDb, clock: Clock, shared: SharedViews): Record<string, unknown> {
  const status = provisioningStatus(p, db, clock);
  return {
    ...commonFields(p, db, clock, status),
    portSpeed: p.portSpeed,
    maxVxcSpeed: p.portSpeed,
    ...siteFields(p),
    usageAlgorithm: 'POST_PAID_FIXED',
    marketplaceVisibility: p.marketplaceVisibility,
    vxcPermitted: true,
    vxcAutoApproval: false,
    lagPrimary: false,
    lagId: 0,
    aggregationId: 0,
    virtual: true,
    buyoutPort: false,
    connectType: 'VROUTER',
    up: status === 'LIVE' || status === 'CONFIGURED',
    addOns: p.addOns.map((a) => addOnView(p, a)),
    resources: {
      virtual_router: virtualRouter(p),
    },
    ...associated(p, db, clock, shared),
  };
}

function mveView(p: MveRecord, db: InterconnectDb, clock: Clock, shared: SharedViews): Record<string, unknown> {
  const status = provisioningStatus(p, db, clock);
  const found = findMveImage(p.imageId);
  const size = MVE_SIZES.find((s) => s.size === p.size);
  const up = status === 'LIVE' || status === 'CONFIGURED';
  const vendorConfig = Object.fromEntries(PUBLIC_VENDOR_KEYS.filter((k) => p.vendorConfig[k] !== undefined).map((k) => [k, p.vendorConfig[k]]));
  return {
    ...commonFields(p, db, clock, status),
    portSpeed: null,
    maxVxcSpeed: 10000,
    ...siteFields(p),
    usageAlgorithm: 'POST_PAID_FIXED',
    marketplaceVisibility: p.marketplaceVisibility,
    vxcPermitted: true,
    vxcAutoApproval: false,
    lagPrimary: false,
    lagId: null,
    aggregationId: null,
    virtual: false,
    buyoutPort: false,
    vendor: found?.product.vendorKey ?? null,
    mveSize: p.size,
    mveLabel: size?.label ?? null,
    connectType: 'MVE',
    up,
    vnics: p.vnics.map((v) => ({ vlan: v.vlan, description: v.description })),
    vendorConfig,
    resources: {
      interface: { demarcation: '', loa_template: 'megaport', media: mediaFor(10000), port_speed: 10000, resource_name: 'interface', resource_type: 'interface', up: up ? 1 : 0 },
      virtual_machine: [
        {
          id: p.productId,
          cpu_count: size?.cpuCoreCount ?? 0,
          image: found ? { id: found.image.id, vendor: found.product.vendor, product: found.product.product, version: found.image.version } : null,
          resource_type: 'virtual_machine',
          up,
          vnics: p.vnics.map((v) => ({ vlan: v.vlan, description: v.description })),
        },
      ],
    },
    ...associated(p, db, clock, shared),
  };
}

/** An IX connection as `GET /v2/product/{uid}` returns it. */
export function ixView(ix: IxRecord, db: InterconnectDb, clock: Clock): Record<string, unknown> {
  const status = provisioningStatus(ix, db, clock);
  const port = db.products[ix.portUid] as PortRecord | undefined;
  const loc = findLocation(port?.locationId);
  const ixp = findIxPoint(ix.networkServiceType);
  const up = (status === 'LIVE' || status === 'CONFIGURED') && !ix.shutdown;
  const common = commonFields(ix, db, clock, status);
  return {
    ...common,
    locationId: loc?.id ?? null,
    locationDetail: locationDetail(loc),
    locationUid: '',
    // The API never returns the promo code an IX was ordered with.
    promoCode: null,
    term: ix.term,
    rateLimit: ix.rateLimit,
    vlan: ix.vlan,
    macAddress: ix.macAddress,
    asn: ix.asn,
    networkServiceType: ix.networkServiceType,
    publicGraph: ix.publicGraph,
    ixPeerMacro: `AS${ix.asn}`,
    usageAlgorithm: 'POST_PAID_HOURLY_SPEED_IX',
    deployDate: common.liveDate,
    shutdown: ix.shutdown,
    up,
    aEnd: { productUid: ix.portUid, productName: port?.productName ?? null, locationId: loc?.id ?? null },
    resources: {
      interface: {
        demarcation: '',
        description: '',
        id: port?.productId ?? 0,
        loa_template: 'megaport',
        media: mediaFor(port?.portSpeed ?? 1000),
        name: port?.productName ?? '',
        port_speed: port?.portSpeed ?? 0,
        resource_name: 'interface',
        resource_type: 'interface',
        up: up ? 1 : 0,
        shutdown: ix.shutdown,
      },
      ...ixPeering(ix, ixp),
      vpls_interface: {
        mac_address: ix.macAddress,
        rate_limit_mbps: ix.rateLimit,
        vlan: ix.vlan,
        shutdown: ix.shutdown,
        resource_name: 'vpls_interface',
        resource_type: 'vpls_interface',
      },
    },
  };
}

/** The BGP sessions and addresses an IX connection holds on its exchange; none when the exchange is unknown. */
function ixPeering(ix: IxRecord, ixp: IxPoint | undefined): { bgp_connection: unknown[]; ip_address: unknown[] } {
  const v4 = ixp ? ipv4At(ixp.ipv4_network, 10 + (ix.productId % 400)) : null;
  const v6 = ixp ? ixp.ipv6_network.replace('::/64', `::${(ix.productId % 400) + 10}`) : null;
  return {
    bgp_connection: ixp
      ? [4, 6].map((version) => ({
          asn: ix.asn,
          customer_asn: ix.asn,
          customer_ip_address: version === 4 ? v4 : v6,
          isp_asn: ixp.asn,
          isp_ip_address: version === 4 ? ipv4At(ixp.ipv4_network, 1) : ixp.ipv6_network.replace('::/64', '::1'),
          ix_peer_policy: 'open',
          max_prefixes: version === 4 ? 1000 : 250,
          resource_name: `ip_bgp_v${version}`,
          resource_type: 'ip_bgp',
        }))
      : [],
    ip_address: ixp
      ? [
          { address: v4, version: 4, reverse_dns: ix.reverseDns, resource_name: 'ip_address_v4', resource_type: 'ip_address' },
          { address: v6, version: 6, reverse_dns: ix.reverseDns, resource_name: 'ip_address_v6', resource_type: 'ip_address' },
        ]
      : [],
  };
}

/** Any product in its GET representation; `shared` is given for the products of one answer. */
export function productView(p: ProductRecord, db: InterconnectDb, clock: Clock, shared: SharedViews = new Map()): Record<string, unknown> {
  switch (p.productType) {
    case 'MEGAPORT':
      return portView(p, db, clock, shared);
    case 'MCR2':
      return mcrView(p, db, clock, shared);
    case 'MVE':
      return mveView(p, db, clock, shared);
    case 'VXC':
      return vxcView(p as VxcRecord, db, clock);
    case 'IX':
      return ixView(p, db, clock);
  }
}
