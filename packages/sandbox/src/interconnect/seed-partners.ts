import { stableUid } from './ids.js';
import { findLocation } from './seed-locations.js';

/** Connect types a partner (marketplace) port can carry. */
export const CONNECT_TYPES = ['AWS', 'AWSHC', 'AZURE', 'GOOGLE', 'ORACLE', 'OUTSCALE', 'IBM', 'TRANSIT', 'FRANCEIX'] as const;

/** A partner port as `GET /v2/dropdowns/partner/megaports` lists it. */
export interface PartnerPort {
  productUid: string;
  productId: number;
  title: string;
  companyUid: string;
  companyName: string;
  connectType: string;
  locationId: number;
  speed: number;
  maxVxcSpeed: number;
  diversityZone: 'red' | 'blue';
  rank: number;
  vxcPermitted: boolean;
}

/** [locationId, zone, vxcPermitted?] — a port at that site; a false third item marks a port closed to new VXCs. */
type Site = [number, 'red' | 'blue', boolean?];

/** Reads `'2r 2b 130b!'`: location id, r(ed)/b(lue) zone, `!` for a port closed to new VXCs. */
function sites(spec: string): Site[] {
  return spec.split(/\s+/).map((s) => {
    const m = /^(\d+)([rb])(!?)$/.exec(s);
    if (!m) throw new Error(`bad partner site ${s}`);
    return [Number(m[1]), m[2] === 'r' ? 'red' : 'blue', m[3] ? false : undefined];
  });
}

interface Offer {
  connectType: (typeof CONNECT_TYPES)[number];
  companyName: string;
  /** Title for a port at this location and zone. */
  title: (metro: string, zone: 'red' | 'blue', locationId: number) => string;
  sites: Site[];
}

const AWS_REGIONS: Record<string, string> = {
  Sydney: 'Asia Pacific (Sydney) (ap-southeast-2)',
  Melbourne: 'Asia Pacific (Melbourne) (ap-southeast-4)',
  Singapore: 'Asia Pacific (Singapore) (ap-southeast-1)',
  London: 'EU (London) (eu-west-2)',
  Frankfurt: 'EU (Frankfurt) (eu-central-1)',
  Ashburn: 'US East (N. Virginia) (us-east-1)',
  'Los Angeles': 'US West (N. California) (us-west-1)',
  Paris: 'EU (Paris) (eu-west-3)',
};

const OCI_REGIONS: Record<string, string> = {
  Sydney: 'ap-sydney-1',
  Melbourne: 'ap-melbourne-1',
  Singapore: 'ap-singapore-1',
  London: 'uk-london-1',
  Frankfurt: 'eu-frankfurt-1',
  Ashburn: 'us-ashburn-1',
};

const GOOGLE_CODES: Record<string, string> = {
  Sydney: 'syd',
  Melbourne: 'mel',
  Singapore: 'sin',
  London: 'lhr',
  Frankfurt: 'fra',
  Ashburn: 'iad',
  'Los Angeles': 'lax',
};

const AWS_SITES = sites('2r 2r 2b 3r 7r 7b 60r 60b 90r 90b 110r 110b 67r 67r 67b 130r 130b! 150r');

const OFFERS: Offer[] = [
  { connectType: 'AWS', companyName: 'AWS', title: (m) => AWS_REGIONS[m], sites: AWS_SITES },
  { connectType: 'AWSHC', companyName: 'AWS', title: (m) => AWS_REGIONS[m], sites: AWS_SITES.filter(([id]) => id !== 3 && id !== 150) },
  {
    connectType: 'AZURE',
    companyName: 'Azure ExpressRoute',
    title: (m, z) => `${m === 'Ashburn' ? 'Washington DC' : m} ${z === 'red' ? 'Primary' : 'Secondary'}`,
    sites: sites('2r 2b 7r 7b 60r 60b 91r 91b 110r 110b 67r 67b 130r 130b'),
  },
  {
    connectType: 'GOOGLE',
    companyName: 'Google Inc',
    title: (m, z, id) => `${m} (${GOOGLE_CODES[m]}-zone${z === 'red' ? 1 : 2}-${1600 + id})`,
    sites: sites('3r 3b 8r 8b 61r 61b 90r 90b! 111r 111b 68r 68b 131r 131b'),
  },
  {
    connectType: 'ORACLE',
    companyName: 'Oracle',
    title: (m) => `Oracle Cloud Infrastructure (${OCI_REGIONS[m]})`,
    sites: sites('2r 2b 7r 60r 60b 90r 90b 110r 67r 67b'),
  },
  {
    connectType: 'OUTSCALE',
    companyName: '3DS OUTSCALE',
    title: (m) => `OUTSCALE ${m === 'Paris' ? 'eu-west-2' : m === 'Frankfurt' ? 'cloudgouv-eu-west-1' : 'us-east-2'}`,
    sites: sites('150r 150b 110r 67r'),
  },
  {
    connectType: 'IBM',
    companyName: 'IBM Cloud',
    title: (m, z) => `IBM Direct Link ${m} ${z === 'red' ? '1' : '2'}`,
    sites: sites('2r 60r 91r 91b 110r 67r 67b!'),
  },
  {
    connectType: 'TRANSIT',
    companyName: 'Megaport',
    title: (m, z) => `Megaport Internet ${m} (${z})`,
    sites: sites('2r 2b 4r 7r 7b 60r 60b 90r 90b 110r 110b 67r 67b 130r 150r'),
  },
  {
    connectType: 'FRANCEIX',
    companyName: 'France-IX',
    title: (m, z) => `France-IX ${m} ${z === 'red' ? 'PA2' : 'TH2'}`,
    sites: sites('150r 150b 151r'),
  },
];

const HIGH_CAPACITY = new Set([2, 7, 60, 90, 110, 67, 130]);

function buildPorts(): PartnerPort[] {
  const ports: PartnerPort[] = [];
  for (const offer of OFFERS) {
    const seen = new Map<string, number>();
    offer.sites.forEach(([locationId, zone, permitted], i) => {
      const loc = findLocation(locationId);
      if (!loc) throw new Error(`seed partner port at unknown location ${locationId}`);
      const key = `${locationId}:${zone}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      const speed = HIGH_CAPACITY.has(locationId) && offer.connectType !== 'FRANCEIX' ? 100000 : 10000;
      ports.push({
        productUid: stableUid(`partner:${offer.connectType}:${locationId}:${zone}:${n}`),
        productId: 20000 + ports.length,
        title: offer.title(loc.metro, zone, locationId) + (n > 1 ? ` ${n}` : ''),
        companyUid: stableUid(`company:${offer.companyName}`),
        companyName: offer.companyName,
        connectType: offer.connectType,
        locationId,
        speed,
        maxVxcSpeed: offer.connectType === 'TRANSIT' ? 10000 : Math.min(speed, 10000),
        diversityZone: zone,
        rank: (i + 1) * 10,
        vxcPermitted: permitted !== false,
      });
    });
  }
  return ports;
}

/** Every seeded partner port, in the API's own order (which decides what "first" means to clients). */
export const SEED_PARTNER_PORTS: PartnerPort[] = buildPorts();
