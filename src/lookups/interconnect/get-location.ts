import * as z from 'zod';
import { RemoteError, UserError } from '../../kernel/errors.js';
import { closestHint } from '../../kernel/did-you-mean.js';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import type { LookupFunction } from '../../engine/contracts/lookup.js';

/** Arguments: find one location by id (stable, recommended) or by name. */
export const getLocationArgs = z
  .object({
    id: z.coerce.number().int().optional().describe('Numeric location id. Recommended: ids are stable.'),
    name: z.string().optional().describe('Exact location name, e.g. "Equinix SY1". Names may change over time.'),
    siteCode: z.string().optional().describe('DEPRECATED: filtering by site code is no longer supported; it only gives a deprecation warning. Use id.'),
  })
  .strict();

/** One location, as the v3 locations API describes it; fields the v3 API dropped are kept, marked deprecated. */
export const getLocationResult = z.object({
  id: z.number().describe('Numeric location id, stable over time; use it as locationId.'),
  name: z.string().describe('Location name, e.g. "Equinix SY1"; names may change over time.'),
  metro: z.string().optional().describe("Metro area, e.g. Sydney; IX connections must be in the port's metro."),
  market: z.string().optional().describe('Billing market code, e.g. AU.'),
  country: z.string().optional().describe('Country, from the address.'),
  status: z.string().optional().describe('Active, Deployment, Restricted, Extended, New or Expired; only Active is orderable.'),
  address: z.record(z.string(), z.string()).optional().describe('Street address: street, suburb, city, state, postcode, country.'),
  latitude: z.number().optional().describe('Latitude in degrees.'),
  longitude: z.number().optional().describe('Longitude in degrees.'),
  products: z
    .object({
      portSpeeds: z.array(z.number()).describe('Port speeds offered in Mbps (union over diversity zones).'),
      mcrSpeeds: z.array(z.number()).describe('MCR speeds offered in Mbps (union over diversity zones).'),
      mcr: z.boolean().describe('true when an MCR can be ordered here.'),
      mve: z.boolean().describe('true when an MVE can be ordered here.'),
      diversityZones: z.array(z.string()).describe('Diversity zones of the location, e.g. red, blue.'),
      zones: z
        .record(
          z.string(),
          z.object({
            portSpeeds: z.array(z.number()).describe('Port speeds offered in this zone, in Mbps.'),
            mcrSpeeds: z.array(z.number()).describe('MCR speeds offered in this zone, in Mbps.'),
            mve: z.boolean().describe('true when an MVE can be ordered in this zone.'),
            mveMaxCpuCoreCount: z.number().optional().describe('Most vCPUs an MVE may have in this zone; absent when not limited.'),
          }),
        )
        .describe('What each diversity zone offers, by zone name: an order that names a zone gets only what that zone offers.'),
    })
    .optional()
    .describe('What can be ordered at the location, derived from its diversity zones.'),
  siteCode: z.string().optional().describe('DEPRECATED: the v3 locations API no longer returns a site code; empty unless an older API still reports it.'),
  campus: z.string().optional().describe('DEPRECATED: the v3 locations API no longer returns a campus; empty unless an older API still reports it.'),
  networkRegion: z.string().optional().describe('DEPRECATED: the v3 locations API no longer returns a network region; empty unless an older API still reports it.'),
  liveDate: z.string().optional().describe('DEPRECATED: the v3 locations API no longer returns a live date; empty unless an older API still reports it.'),
  vRouterAvailable: z.boolean().optional().describe('DEPRECATED: use products.mcr; true when the location offers an MCR.'),
});

type Args = z.infer<typeof getLocationArgs>;
type Result = z.infer<typeof getLocationResult>;
/** A location as `GET /v3/locations` lists it. */
export type ApiLocation = Record<string, any> & { id: number; name: string };

/** Finds one location by id or name; the API has no get-by-id, so the list is filtered here. */
export const getLocation: LookupFunction<Args, Result, InterconnectClient> = {
  token: 'interconnect:index/getLocation:getLocation',
  provider: 'interconnect',
  description: 'Finds one location by id (recommended) or by name.',
  args: getLocationArgs,
  result: getLocationResult,
  async invoke(ctx, args) {
    if (args.siteCode !== undefined) {
      ctx.warn('getLocation: siteCode is deprecated and no longer filters; look the location up by id (or name) instead');
    }
    if (args.id === undefined && args.name === undefined) {
      throw new UserError('getLocation needs id or name', 'e.g. arguments: { id: 2 } or { name: Equinix SY1 }');
    }
    const { data } = await ctx.client.get<ApiLocation[]>('/v3/locations');
    const found = (data ?? []).find((l) => (args.id === undefined || l.id === args.id) && (args.name === undefined || l.name === args.name));
    if (!found) {
      const which = args.id !== undefined ? `id ${args.id}` : `name "${args.name}"`;
      const hint =
        args.name !== undefined
          ? closestHint(
              args.name,
              (data ?? []).map((l) => l.name),
            )
          : '';
      throw new RemoteError('not-found', `getLocation: no location with ${which}${hint}`);
    }
    return locationResult(found);
  },
};

/** One diversity zone as `GET /v3/locations` reports it. */
type ApiZone = { megaportSpeedMbps?: number[]; mcrSpeedMbps?: number[]; mveAvailable?: boolean; mveMaxCpuCoreCount?: number | null };

/** A location as the lookups return it: availability derived from its diversity zones. */
export function locationResult(l: ApiLocation): Result {
  const zones = Object.entries((l.diversityZones ?? {}) as Record<string, ApiZone>);
  const sorted = (speeds: number[]) => [...new Set(speeds)].sort((a, b) => a - b);
  const union = (pick: (z: ApiZone) => number[] | undefined) => sorted(zones.flatMap(([, z]) => pick(z) ?? []));
  const mcrSpeeds = union((z) => z.mcrSpeedMbps);
  return {
    id: l.id,
    name: l.name,
    metro: l.metro,
    market: l.market,
    country: l.address?.country,
    status: l.status,
    address: l.address,
    latitude: l.latitude,
    longitude: l.longitude,
    products: {
      portSpeeds: union((z) => z.megaportSpeedMbps),
      mcrSpeeds,
      mcr: mcrSpeeds.length > 0,
      mve: zones.some(([, z]) => z.mveAvailable === true),
      diversityZones: zones.map(([name]) => name),
      zones: Object.fromEntries(
        zones.map(([name, z]) => [
          name,
          {
            portSpeeds: sorted(z.megaportSpeedMbps ?? []),
            mcrSpeeds: sorted(z.mcrSpeedMbps ?? []),
            mve: z.mveAvailable === true,
            ...(typeof z.mveMaxCpuCoreCount === 'number' ? { mveMaxCpuCoreCount: z.mveMaxCpuCoreCount } : {}),
          },
        ]),
      ),
    },
    siteCode: typeof l.siteCode === 'string' ? l.siteCode : undefined,
    campus: typeof l.campus === 'string' ? l.campus : undefined,
    networkRegion: typeof l.networkRegion === 'string' ? l.networkRegion : undefined,
    liveDate: typeof l.liveDate === 'number' ? new Date(l.liveDate).toISOString() : typeof l.liveDate === 'string' ? l.liveDate : undefined,
    vRouterAvailable: mcrSpeeds.length > 0,
  };
}
