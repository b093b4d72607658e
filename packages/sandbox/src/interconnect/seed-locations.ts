/** Capabilities of one diversity zone at a location, as `/v3/locations` reports them. */
export interface DiversityZone {
  mcrSpeedMbps: number[];
  megaportSpeedMbps: number[];
  mveMaxCpuCoreCount: number | null;
  mveAvailable: boolean;
}

/** A data centre as `GET /v3/locations` returns it (LocationV3). */
export interface Location {
  id: number;
  name: string;
  metro: string;
  market: string;
  status: 'Active' | 'Deployment' | 'Restricted' | 'Extended' | 'New' | 'Expired';
  address: { street: string; suburb: string; city: string; state: string; postcode: string; country: string };
  latitude: number;
  longitude: number;
  dataCentre: { id: number; name: string };
  orderingMessage: string | null;
  diversityZones: { red?: DiversityZone; blue?: DiversityZone };
  productAddOns: { crossConnect: { available: boolean; type: string } };
}

const MCR_ALL = [1000, 2500, 5000, 10000, 25000, 50000, 100000];
const MCR_SMALL = [1000, 2500, 5000, 10000];

function zone(megaport: number[], mcr: number[], mve: boolean, mveMax: number | null = null): DiversityZone {
  return { mcrSpeedMbps: mcr, megaportSpeedMbps: megaport, mveMaxCpuCoreCount: mve ? mveMax : null, mveAvailable: mve };
}

/** Zone layouts seen at real sites: a flagship site, a typical one, a small one, a single-zone one. */
const FLAGSHIP = { red: zone([1000, 10000, 100000], MCR_ALL, true), blue: zone([1000, 10000, 100000, 400000], MCR_ALL, true) };
const TYPICAL = { red: zone([1000, 10000, 100000], MCR_SMALL, true, 8), blue: zone([1000, 10000, 100000], MCR_ALL, true) };
const SMALL = { red: zone([1000, 10000], MCR_SMALL, false), blue: zone([1000, 10000], [1000, 2500, 5000], false) };
const SINGLE = { red: zone([1000, 10000, 100000], MCR_SMALL, true, 4) };

type Row = [
  id: number,
  name: string,
  metro: string,
  market: string,
  status: Location['status'],
  street: string,
  suburb: string,
  state: string,
  postcode: string,
  country: string,
  lat: number,
  lon: number,
  dataCentre: [number, string],
  zones: Location['diversityZones'],
];

const ROWS: Row[] = [
  [2, 'Equinix SY1', 'Sydney', 'AU', 'Active', '639 Gardeners Road', 'Mascot', 'NSW', '2020', 'Australia', -33.921867, 151.18802, [5, 'Equinix'], FLAGSHIP],
  [3, 'Equinix SY3', 'Sydney', 'AU', 'Active', '47 Bourke Road', 'Alexandria', 'NSW', '2015', 'Australia', -33.910417, 151.193547, [5, 'Equinix'], TYPICAL],
  [4, 'Global Switch Sydney', 'Sydney', 'AU', 'Active', '400 Harris Street', 'Ultimo', 'NSW', '2007', 'Australia', -33.876389, 151.197222, [9, 'Global Switch'], TYPICAL],
  [5, 'NEXTDC S1', 'Sydney', 'AU', 'Active', '4 Eden Park Drive', 'Macquarie Park', 'NSW', '2113', 'Australia', -33.777951, 151.126398, [12, 'NEXTDC'], TYPICAL],
  [6, 'Equinix SY4', 'Sydney', 'AU', 'Restricted', '200 Bourke Road', 'Alexandria', 'NSW', '2015', 'Australia', -33.914064, 151.192291, [5, 'Equinix'], SMALL],
  [78, 'NEXTDC S2', 'Sydney', 'AU', 'Deployment', '2-8 Broadcast Way', 'Artarmon', 'NSW', '2064', 'Australia', -33.81224, 151.18536, [12, 'NEXTDC'], TYPICAL],
  [7, 'NEXTDC M1', 'Melbourne', 'AU', 'Active', '826 Lorimer Street', 'Port Melbourne', 'VIC', '3207', 'Australia', -37.822946, 144.919449, [12, 'NEXTDC'], FLAGSHIP],
  [8, 'Equinix ME1', 'Melbourne', 'AU', 'Active', '600 Lorimer Street', 'Port Melbourne', 'VIC', '3207', 'Australia', -37.823591, 144.925079, [5, 'Equinix'], TYPICAL],
  [9, 'NEXTDC M2', 'Melbourne', 'AU', 'Active', '17 Fennell Street', 'Port Melbourne', 'VIC', '3207', 'Australia', -37.829011, 144.928253, [12, 'NEXTDC'], SINGLE],
  [60, 'Equinix SG1', 'Singapore', 'SG', 'Active', '20 Ayer Rajah Crescent', 'Ayer Rajah Industrial Park', '', '139964', 'Singapore', 1.295431, 103.787903, [5, 'Equinix'], FLAGSHIP],
  [61, 'Global Switch Singapore Tai Seng', 'Singapore', 'SG', 'Active', '2 Tai Seng Avenue', 'Tai Seng', '', '534408', 'Singapore', 1.336322, 103.889046, [9, 'Global Switch'], TYPICAL],
  [62, 'Digital Realty SIN10', 'Singapore', 'SG', 'Extended', '29A International Business Park', 'Jurong East', '', '609934', 'Singapore', 1.327269, 103.745708, [21, 'Digital Realty'], SMALL],
  [90, 'Equinix LD5', 'London', 'UK', 'Active', '8 Buckingham Avenue', 'Slough', 'Berkshire', 'SL1 4AX', 'United Kingdom', 51.521939, -0.628694, [5, 'Equinix'], FLAGSHIP],
  [91, 'Telehouse North', 'London', 'UK', 'Active', 'Coriander Avenue', 'Docklands', 'London', 'E14 2AA', 'United Kingdom', 51.511544, -0.001169, [31, 'Telehouse'], TYPICAL],
  [92, 'Interxion LON1', 'London', 'UK', 'Active', '11 Hanbury Street', 'Shoreditch', 'London', 'E1 6QR', 'United Kingdom', 51.520621, -0.072264, [33, 'Interxion'], TYPICAL],
  [110, 'Equinix FR5', 'Frankfurt', 'DE', 'Active', 'Kleyerstrasse 90', 'Gallus', 'Hesse', '60326', 'Germany', 50.100817, 8.631431, [5, 'Equinix'], FLAGSHIP],
  [111, 'Interxion FRA1', 'Frankfurt', 'DE', 'Active', 'Hanauer Landstrasse 298', 'Ostend', 'Hesse', '60314', 'Germany', 50.119541, 8.735208, [33, 'Interxion'], TYPICAL],
  [112, 'NTT Frankfurt 1', 'Frankfurt', 'DE', 'New', 'Eschborner Landstrasse 100', 'Roedelheim', 'Hesse', '60489', 'Germany', 50.124722, 8.610556, [40, 'NTT'], SMALL],
  [67, 'Equinix DC2', 'Ashburn', 'US', 'Active', '21715 Filigree Court', 'Ashburn', 'VA', '20147', 'USA', 39.016341, -77.459114, [5, 'Equinix'], FLAGSHIP],
  [68, 'CoreSite VA1', 'Ashburn', 'US', 'Active', '12100 Sunrise Valley Drive', 'Reston', 'VA', '20191', 'USA', 38.949734, -77.370203, [45, 'CoreSite'], TYPICAL],
  [69, 'Digital Realty IAD39', 'Ashburn', 'US', 'Active', '44470 Chilum Place', 'Ashburn', 'VA', '20147', 'USA', 39.026622, -77.472237, [21, 'Digital Realty'], SINGLE],
  [130, 'CoreSite LA1', 'Los Angeles', 'US', 'Active', '624 South Grand Avenue', 'Downtown', 'CA', '90017', 'USA', 34.048461, -118.255058, [45, 'CoreSite'], FLAGSHIP],
  [131, 'Equinix LA1', 'Los Angeles', 'US', 'Active', '600 West 7th Street', 'Downtown', 'CA', '90017', 'USA', 34.047597, -118.256882, [5, 'Equinix'], TYPICAL],
  [132, 'Digital Realty LAX10', 'Los Angeles', 'US', 'Expired', '530 West 6th Street', 'Downtown', 'CA', '90014', 'USA', 34.048306, -118.253611, [21, 'Digital Realty'], SMALL],
  [150, 'Equinix PA2', 'Paris', 'FR', 'Active', '114 Rue Ambroise Croizat', 'Saint-Denis', 'Ile-de-France', '93200', 'France', 48.923872, 2.357046, [5, 'Equinix'], TYPICAL],
  [151, 'Telehouse Paris 2 Voltaire', 'Paris', 'FR', 'Active', '137 Boulevard Voltaire', '11e Arrondissement', 'Ile-de-France', '75011', 'France', 48.856869, 2.383612, [31, 'Telehouse'], SINGLE],
];

const ORDERING_MESSAGES: Partial<Record<Location['status'], string>> = {
  Deployment: 'This site is being built. Ports may be pre-ordered and will be delivered when the site goes live.',
  Restricted: 'New orders at this site are restricted. Contact your account manager.',
  Extended: 'This site has limited capacity. New orders are not being accepted.',
  New: 'This site is not yet open for orders.',
  Expired: 'This site has been retired.',
};

/** Every seeded location, in a stable order. */
export const LOCATIONS: Location[] = ROWS.map(([id, name, metro, market, status, street, suburb, state, postcode, country, latitude, longitude, [dcId, dcName], zones]) => ({
  id,
  name,
  metro,
  market,
  status,
  address: { street, suburb, city: metro, state, postcode, country },
  latitude,
  longitude,
  dataCentre: { id: dcId, name: dcName },
  orderingMessage: ORDERING_MESSAGES[status] ?? null,
  diversityZones: zones,
  productAddOns: { crossConnect: { available: status === 'Active', type: 'STANDARD' } },
}));

const BY_ID = new Map(LOCATIONS.map((l) => [l.id, l]));

/** The location with this id, or undefined. */
export function findLocation(id: unknown): Location | undefined {
  return typeof id === 'number' ? BY_ID.get(id) : undefined;
}

/** The `locationDetail` object products embed for their location. */
export function locationDetail(loc: Location | undefined): { name: string; city: string; metro: string; country: string } | null {
  return loc ? { name: loc.name, city: loc.address.city, metro: loc.metro, country: loc.address.country } : null;
}

/** The diversity zones of a location that exist, as `[name, zone]` pairs, red first. */
export function zonesOf(loc: Location): Array<['red' | 'blue', DiversityZone]> {
  const out: Array<['red' | 'blue', DiversityZone]> = [];
  if (loc.diversityZones.red) out.push(['red', loc.diversityZones.red]);
  if (loc.diversityZones.blue) out.push(['blue', loc.diversityZones.blue]);
  return out;
}
