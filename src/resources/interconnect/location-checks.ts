import type { CrossCheckView, CrossProblem, StackResource } from '../../engine/contracts/resource-type.js';
import { reveal } from '../../kernel/values.js';

/*
 * What the locations list already says about an order, checked before any order: a location id
 * that does not exist, a location that takes no orders, a product, speed or MVE size it does not
 * offer, a diversity zone it does not have. The API refuses each only when the order is
 * validated; the plan says so at the input, with what would do: the location's speeds and zones,
 * and the closest locations that take the order. The lists are read once per plan (the
 * cross-check's lookup), and only for resources the plan orders.
 */

const LOCATIONS = 'interconnect:index/getLocations:getLocations';
const MVE_SIZES = 'interconnect:index/getMveSizes:getMveSizes';

/** What one diversity zone offers, as the getLocations lookup reports it. */
interface Zone {
  portSpeeds?: number[];
  mcrSpeeds?: number[];
  mve?: boolean;
  mveMaxCpuCoreCount?: number;
}

/** A location as the getLocations lookup returns it. */
interface Place {
  id: number;
  name: string;
  metro?: string;
  status?: string;
  latitude?: number;
  longitude?: number;
  products?: { zones?: Record<string, Zone> };
}

/** The order a resource asks for: where, in which zone, at what speed, with how many vCPUs. */
interface Asked {
  locationId: number;
  zone?: string;
  speed?: number;
  /** An MVE's size, and its vCPUs once the sizes are read. */
  size?: string;
  cpus?: number;
}

/** What a product needs of its location. */
interface Need {
  /** The product in words: `port`, `MCR`. */
  what: string;
  /** Whether it may be ordered at a location still being built (`Deployment`): a port is pre-ordered there. */
  preOrder: boolean;
  /** Whether a zone offers the product at all. */
  offered(z: Zone): boolean;
  /** The speeds a zone offers it at; absent for a product ordered without a speed. */
  speeds?(z: Zone): number[];
}

/** The products that take a location, by what they need of it. */
const NEEDS = {
  port: { what: 'port', preOrder: true, offered: (z) => (z.portSpeeds ?? []).length > 0, speeds: (z) => z.portSpeeds ?? [] },
  lag: { what: 'LAG port', preOrder: true, offered: (z) => (z.portSpeeds ?? []).length > 0, speeds: (z) => z.portSpeeds ?? [] },
  mcr: { what: 'MCR', preOrder: false, offered: (z) => (z.mcrSpeeds ?? []).length > 0, speeds: (z) => z.mcrSpeeds ?? [] },
  mve: { what: 'MVE', preOrder: false, offered: (z) => z.mve === true },
} satisfies Record<string, Need>;

/** How many other locations a problem names. */
const SUGGESTIONS = 3;

/** The cross-check of a type ordered at a location: `kind` says what it needs of it. */
export function locationCheck(kind: keyof typeof NEEDS): (desired: Record<string, unknown>, view: CrossCheckView) => Promise<CrossProblem[]> {
  const need: Need = NEEDS[kind];
  return async (desired, view) => {
    const asked = askedOf(desired, need);
    if (!asked || !ordered(asked, view)) return [];
    const lookup = view.lookup;
    if (!lookup) return [];
    const places = await view.memo('interconnect: locations', () => lookup(LOCATIONS, {}).then(listed, () => undefined));
    if (!places) return [];
    if (asked.size !== undefined) {
      const sizes = await view.memo('interconnect: MVE sizes', () => lookup(MVE_SIZES, {}).then(cpusBySize, () => undefined));
      asked.cpus = sizes?.get(asked.size);
    }
    return problems(asked, need, places);
  };
}

/** The order's location, zone, speed and size, as far as they are known; undefined without a known location. */
function askedOf(desired: Record<string, unknown>, need: Need): Asked | undefined {
  const { locationId, portSpeed, diversityZone } = desired;
  if (typeof locationId !== 'number') return undefined;
  const size = (reveal(desired.vendorConfig) as { productSize?: unknown } | undefined)?.productSize;
  return {
    locationId,
    zone: typeof diversityZone === 'string' && diversityZone ? diversityZone.toLowerCase() : undefined,
    speed: need.speeds && typeof portSpeed === 'number' ? portSpeed : undefined,
    size: typeof size === 'string' ? size.toUpperCase() : undefined,
  };
}

/**
 * Whether the plan orders this resource where it asks: not when state records it at the same
 * location, zone and speed (it exists there; a location that stopped taking orders since keeps it).
 */
function ordered(asked: Asked, view: CrossCheckView): boolean {
  const byAddress = view.memo('interconnect: resources by address', () => new Map<string, StackResource>(view.resources.map((r) => [r.address, r])));
  const was = byAddress.get(view.address)?.recorded?.inputs;
  if (!was) return true;
  const zone = typeof was.diversityZone === 'string' ? was.diversityZone.toLowerCase() : undefined;
  return was.locationId !== asked.locationId || (asked.speed !== undefined && was.portSpeed !== asked.speed) || (asked.zone !== undefined && zone !== asked.zone);
}

/** The locations of a getLocations result, by id; undefined for an answer that is not one. */
function listed(found: unknown): Map<number, Place> | undefined {
  const locations = (found as { locations?: unknown } | undefined)?.locations;
  if (!Array.isArray(locations)) return undefined;
  return new Map((locations as Place[]).filter((p) => typeof p?.id === 'number').map((p) => [p.id, p]));
}

/** The vCPUs of each MVE size, by size name and label (upper case), from a getMveSizes result. */
function cpusBySize(found: unknown): Map<string, number> {
  const sizes = (found as { mveSizes?: Array<{ size?: unknown; label?: unknown; cpuCoreCount?: unknown }> } | undefined)?.mveSizes ?? [];
  const cpus = new Map<string, number>();
  for (const s of sizes) {
    if (typeof s.cpuCoreCount !== 'number') continue;
    for (const name of [s.size, s.label]) if (typeof name === 'string') cpus.set(name.toUpperCase(), s.cpuCoreCount);
  }
  return cpus;
}

/** Whether a location takes orders for the product: Active, or being built for a product pre-ordered there. */
function takesOrders(p: Place, need: Need): boolean {
  return p.status === undefined || p.status === 'Active' || (need.preOrder && p.status === 'Deployment');
}

/** The zones an order may land in: the one it names, else every zone of the location. */
function zonesFor(p: Place, zone: string | undefined): Zone[] {
  const zones = p.products?.zones ?? {};
  return zone === undefined ? Object.values(zones) : zone in zones ? [zones[zone]] : [];
}

/** Whether a zone would take the order: offering the product at the speed asked, with room for the vCPUs asked. */
function zoneFits(z: Zone, need: Need, asked: Asked): boolean {
  if (!need.offered(z)) return false;
  if (asked.speed !== undefined && !(need.speeds?.(z) ?? []).includes(asked.speed)) return false;
  return asked.cpus === undefined || z.mveMaxCpuCoreCount === undefined || asked.cpus <= z.mveMaxCpuCoreCount;
}

/** Whether a location would take the order. */
function fits(p: Place, need: Need, asked: Asked): boolean {
  return takesOrders(p, need) && zonesFor(p, asked.zone).some((z) => zoneFits(z, need, asked));
}

/** What the API would refuse of this order, each at its input. */
function problems(asked: Asked, need: Need, places: Map<number, Place>): CrossProblem[] {
  const here = places.get(asked.locationId);
  if (!here) {
    const near = [...places.values()].filter((p) => fits(p, need, asked)).sort((a, b) => Math.abs(a.id - asked.locationId) - Math.abs(b.id - asked.locationId) || a.id - b.id);
    const named = suggest('the locations with the nearest ids that take this order', 'no location takes this order', near.slice(0, SUGGESTIONS).map(describe));
    return [{ path: ['locationId'], message: `no location has id ${asked.locationId}`, detail: `${named}; look one up with getLocation or getLocations` }];
  }
  const name = describe(here);
  const elsewhere = (they: string, it: string) =>
    suggest(
      `the closest locations that ${they}`,
      `no other location ${it}`,
      closest(here, places, (p) => fits(p, need, asked)),
    );
  const anywhere = zonesFor(here, undefined);
  if (!takesOrders(here, need))
    return [{ path: ['locationId'], message: `location ${name} is ${here.status}: it takes no new ${need.what} orders`, detail: elsewhere('take this order', 'takes this order') }];
  if (!anywhere.some(need.offered)) return [{ path: ['locationId'], message: `location ${name} offers no ${need.what}`, detail: elsewhere('take this order', 'takes this order') }];
  if (asked.zone !== undefined && !zonesFor(here, asked.zone).length) {
    const zones = Object.keys(here.products?.zones ?? {});
    return [
      {
        path: ['diversityZone'],
        message: `location ${name} has no diversity zone ${asked.zone}`,
        detail: `its zones: ${zones.join(', ') || 'none'}; leave diversityZone out for the API to choose one`,
      },
    ];
  }
  return [...speedProblems(asked, need, here, elsewhere), ...sizeProblems(asked, need, here, elsewhere)];
}

/** A speed the zones the order may land in do not offer, with what they offer and where it is offered. */
function speedProblems(asked: Asked, need: Need, here: Place, elsewhere: (they: string, it: string) => string): CrossProblem[] {
  const zones = zonesFor(here, asked.zone).filter(need.offered);
  if (asked.speed === undefined || zones.some((z) => (need.speeds?.(z) ?? []).includes(asked.speed!))) return [];
  const speed = `${asked.speed} Mbps`;
  const inZone = asked.zone === undefined ? '' : ` in diversity zone ${asked.zone}`;
  const offered = [...new Set(zones.flatMap((z) => need.speeds?.(z) ?? []))].sort((a, b) => a - b);
  const otherZone =
    asked.zone !== undefined && zonesFor(here, undefined).some((z) => zoneFits(z, need, { ...asked, zone: undefined })) ? `another zone here offers it (leave diversityZone out); ` : '';
  return [
    {
      path: ['portSpeed'],
      message: `location ${describe(here)} offers no ${speed} ${need.what}${inZone}`,
      detail: `its ${need.what} speeds${inZone}: ${offered.join(', ')} Mbps; ${otherZone}${elsewhere(`offer ${speed}`, `offers ${speed}`)}`,
    },
  ];
}

/** An MVE size with more vCPUs than the zones the order may land in allow. */
function sizeProblems(asked: Asked, need: Need, here: Place, elsewhere: (they: string, it: string) => string): CrossProblem[] {
  const zones = zonesFor(here, asked.zone).filter(need.offered);
  if (asked.cpus === undefined || !zones.length || zones.some((z) => zoneFits(z, need, asked))) return [];
  const most = Math.max(...zones.map((z) => z.mveMaxCpuCoreCount ?? 0));
  const inZone = asked.zone === undefined ? '' : ` in diversity zone ${asked.zone}`;
  return [
    {
      path: ['vendorConfig', 'productSize'],
      message: `location ${describe(here)} offers no ${asked.size} MVE (${asked.cpus} vCPUs)${inZone}: at most ${most} vCPUs`,
      detail: elsewhere(`offer ${asked.cpus} vCPUs`, `offers ${asked.cpus} vCPUs`),
    },
  ];
}

/** A location in words: `2 (Equinix SY1, Sydney)`. */
function describe(p: Place): string {
  return `${p.id} (${p.name}${p.metro ? `, ${p.metro}` : ''})`;
}

/** Locations after a heading, or what to say when there are none. */
function suggest(heading: string, none: string, items: string[]): string {
  return items.length ? `${heading}: ${items.join('; ')}` : none;
}

/** The locations nearest to `from` that pass `keep`, in words with their distance. */
function closest(from: Place, places: Map<number, Place>, keep: (p: Place) => boolean): string[] {
  return [...places.values()]
    .filter((p) => p.id !== from.id && keep(p))
    .map((place) => ({ place, km: distanceKm(from, place) }))
    .sort((a, b) => (a.km ?? Infinity) - (b.km ?? Infinity) || a.place.id - b.place.id)
    .slice(0, SUGGESTIONS)
    .map(({ place, km }) => `${describe(place)}${km === undefined ? '' : `, ${km} km away`}`);
}

/** The great-circle distance between two locations in whole kilometres; undefined when either has no coordinates. */
function distanceKm(a: Place, b: Place): number | undefined {
  if ([a.latitude, a.longitude, b.latitude, b.longitude].some((v) => typeof v !== 'number')) return undefined;
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const [lat1, lat2] = [rad(a.latitude!), rad(b.latitude!)];
  const h = Math.sin((lat2 - lat1) / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin(rad(b.longitude! - a.longitude!) / 2) ** 2;
  return Math.round(2 * 6371 * Math.asin(Math.sqrt(h)));
}
