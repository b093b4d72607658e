import { LOCATIONS } from './seed-locations.js';

/** An MVE instance size as `GET /v3/product/mve/variants` lists it. */
export interface MveSize {
  size: 'SMALL' | 'MEDIUM' | 'LARGE' | 'X_LARGE_12';
  label: string;
  cpuCoreCount: number;
  ramGB: number;
}

/** The four MVE sizes (4 GB of RAM per vCPU). */
export const MVE_SIZES: MveSize[] = [
  { size: 'SMALL', label: 'MVE 2/8', cpuCoreCount: 2, ramGB: 8 },
  { size: 'MEDIUM', label: 'MVE 4/16', cpuCoreCount: 4, ramGB: 16 },
  { size: 'LARGE', label: 'MVE 8/32', cpuCoreCount: 8, ramGB: 32 },
  { size: 'X_LARGE_12', label: 'MVE 12/48', cpuCoreCount: 12, ramGB: 48 },
];

/** One bootable image as nested in `GET /v4/product/mve/images`. */
export interface MveImage {
  id: number;
  version: string;
  productCode: string;
  vendorDescription: string | null;
  releaseImage: boolean;
  availableSizes: string[];
}

/** A vendor product and its images; `vendorKey` is how an MVE's GET names the vendor. */
export interface MveProduct {
  product: string;
  vendor: string;
  vendorKey: string;
  vendorProductId: string;
  images: MveImage[];
}

const ALL = ['MVE 2/8', 'MVE 4/16', 'MVE 8/32', 'MVE 12/48'];
const FROM_MEDIUM = ['MVE 4/16', 'MVE 8/32', 'MVE 12/48'];

function img(id: number, version: string, productCode: string, sizes: string[], releaseImage = true, vendorDescription: string | null = null): MveImage {
  return { id, version, productCode, vendorDescription, releaseImage, availableSizes: sizes };
}

/** Seeded MVE vendor products and images, ids stable across runs. */
export const MVE_PRODUCTS: MveProduct[] = [
  {
    product: 'Catalyst 8000V',
    vendor: 'Cisco',
    vendorKey: 'CISCO',
    vendorProductId: 'cisco-c8000v',
    images: [img(83, '17.09.04a', 'c8000v', ALL), img(98, '17.12.02', 'c8000v', ALL)],
  },
  {
    product: 'Secure Firewall Threat Defense Virtual',
    vendor: 'Cisco',
    vendorKey: 'CISCO',
    vendorProductId: 'cisco-ftdv',
    images: [img(70, '7.2.5', 'ftdv', FROM_MEDIUM, true, 'Requires a Firewall Management Center')],
  },
  {
    product: 'FortiGate-VM',
    vendor: 'Fortinet',
    vendorKey: 'FORTINET',
    vendorProductId: 'fortinet-fortigate-vm',
    images: [img(72, '7.2.8', 'fortigate', ALL), img(91, '7.4.3', 'fortigate', ALL), img(101, '7.6.0', 'fortigate', ALL, false, 'Early access build')],
  },
  {
    product: 'VM-Series',
    vendor: 'Palo Alto Networks',
    vendorKey: 'PALO_ALTO',
    vendorProductId: 'paloalto-vmseries',
    images: [img(32, '10.2.9-h1', 'vmseries', ALL), img(95, '11.1.2', 'vmseries', FROM_MEDIUM)],
  },
  {
    product: 'Prisma SD-WAN',
    vendor: 'Palo Alto Networks',
    vendorKey: 'PALO_ALTO',
    vendorProductId: 'paloalto-prisma-sdwan',
    images: [img(52, '6.1.5', 'ion-7108v', ['MVE 4/16', 'MVE 8/32'])],
  },
  {
    product: 'FlexVNF',
    vendor: 'Versa',
    vendorKey: 'VERSA',
    vendorProductId: 'versa-flexvnf',
    images: [img(60, '22.1.3', 'flexvnf', ALL)],
  },
  {
    product: 'EdgeConnect SD-WAN',
    vendor: 'Aruba',
    vendorKey: 'ARUBA',
    vendorProductId: 'aruba-edgeconnect',
    images: [img(23, '9.3.1.0', 'edgeconnect', ['MVE 2/8', 'MVE 4/16', 'MVE 8/32'])],
  },
  {
    product: 'SD-WAN Edge',
    vendor: 'VMware',
    vendorKey: 'VMWARE',
    vendorProductId: 'vmware-sdwan-edge',
    images: [img(45, '4.5.1', 'vce', ['MVE 2/8', 'MVE 4/16'])],
  },
  {
    product: 'vMX',
    vendor: 'Meraki',
    vendorKey: 'MERAKI',
    vendorProductId: 'meraki-vmx',
    images: [img(84, '18.1', 'vmx', ['MVE 2/8', 'MVE 4/16', 'MVE 8/32'])],
  },
];

/** The image with this id and the product it belongs to, or undefined. */
export function findMveImage(id: unknown): { product: MveProduct; image: MveImage } | undefined {
  for (const product of MVE_PRODUCTS) {
    const image = product.images.find((i) => i.id === id);
    if (image) return { product, image };
  }
  return undefined;
}

/** Vendor names compared without case, spaces or punctuation ("palo alto" = "PALO_ALTO"). */
export function sameVendor(given: string, product: MveProduct): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const g = norm(given);
  return g === norm(product.vendorKey) || g === norm(product.vendor) || norm(product.vendor).startsWith(g);
}

/** An Internet Exchange as `GET /v2/ixp` lists it; `networkServiceType` in IX orders is its name. */
export interface IxPoint {
  id: number;
  asn: number;
  name: string;
  metro: string;
  ipv4_network: string;
  ipv6_network: string;
}

/** Seeded IX points, one or two per metro. */
export const IX_POINTS: IxPoint[] = [
  { id: 1, asn: 4635, name: 'Sydney IX', metro: 'Sydney', ipv4_network: '103.26.68.0/23', ipv6_network: '2001:dea:0:10::/64' },
  { id: 2, asn: 4635, name: 'Melbourne IX', metro: 'Melbourne', ipv4_network: '103.26.70.0/24', ipv6_network: '2001:dea:0:20::/64' },
  { id: 3, asn: 4635, name: 'Singapore IX', metro: 'Singapore', ipv4_network: '103.26.72.0/23', ipv6_network: '2001:dea:0:30::/64' },
  { id: 4, asn: 8714, name: 'LINX LON1', metro: 'London', ipv4_network: '195.66.224.0/22', ipv6_network: '2001:7f8:4::/64' },
  { id: 5, asn: 6695, name: 'DE-CIX Frankfurt', metro: 'Frankfurt', ipv4_network: '80.81.192.0/21', ipv6_network: '2001:7f8::/64' },
  { id: 6, asn: 4635, name: 'Ashburn IX', metro: 'Ashburn', ipv4_network: '206.126.236.0/22', ipv6_network: '2001:504:0:2::/64' },
  { id: 7, asn: 4635, name: 'Los Angeles IX', metro: 'Los Angeles', ipv4_network: '206.72.210.0/23', ipv6_network: '2001:504:0:3::/64' },
  { id: 8, asn: 51706, name: 'France-IX Paris', metro: 'Paris', ipv4_network: '37.49.236.0/22', ipv6_network: '2001:7f8:54::/64' },
];

/** The IX point with this name (case-insensitive), or undefined. */
export function findIxPoint(name: unknown): IxPoint | undefined {
  return typeof name === 'string' ? IX_POINTS.find((ix) => ix.name.toLowerCase() === name.trim().toLowerCase()) : undefined;
}

/** Name and ISO 3166 alpha-3 code of each seeded market. */
const COUNTRIES: Record<string, { name: string; code: string }> = {
  AU: { name: 'Australia', code: 'AUS' },
  SG: { name: 'Singapore', code: 'SGP' },
  UK: { name: 'United Kingdom', code: 'GBR' },
  DE: { name: 'Germany', code: 'DEU' },
  US: { name: 'USA', code: 'USA' },
  FR: { name: 'France', code: 'FRA' },
};

/** A country of `GET /v2/networkRegions`, with the fields the SDK's Country reads. */
export interface NetworkCountry {
  code: string;
  prefix: string;
  name: string;
  siteCount: number;
}

/** `GET /v2/networkRegions` data: the MP1 region holding every seeded market, plus an empty legacy region. */
export function networkRegions(): Array<{ networkRegion: string; countries: NetworkCountry[] }> {
  const counts = new Map<string, number>();
  for (const loc of LOCATIONS) counts.set(loc.market, (counts.get(loc.market) ?? 0) + 1);
  const countries = [...counts].map(([prefix, siteCount]) => ({ code: COUNTRIES[prefix]?.code ?? prefix, prefix, name: COUNTRIES[prefix]?.name ?? prefix, siteCount }));
  return [
    { networkRegion: 'MP1', countries },
    { networkRegion: 'MP2', countries: [] },
  ];
}
