import * as z from 'zod';
import { closestHint } from '../../kernel/did-you-mean.js';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import type { LookupFunction } from '../../engine/contracts/lookup.js';
import { getLocationResult, locationResult, type ApiLocation } from './get-location.js';

/** Arguments: filters, each optional, all of which a location must match. */
export const getLocationsArgs = z
  .object({
    metro: z.string().optional().describe('Metro area, e.g. Sydney (case-insensitive).'),
    market: z.string().optional().describe('Billing market code, e.g. AU (case-insensitive).'),
    siteCode: z.string().optional().describe('Site code, e.g. SY1 (case-insensitive): the code the API reports where an older API still does, else a word of the name (Equinix SY1).'),
    status: z.string().optional().describe('Active, Deployment, Restricted, Extended, New or Expired (case-insensitive). Default: every status.'),
    name: z.string().optional().describe('Text the name contains (case-insensitive).'),
  })
  .strict();

/** The locations found. */
export const getLocationsResult = z.object({
  locations: z.array(getLocationResult).describe('Matching locations, by id.'),
});

type Args = z.infer<typeof getLocationsArgs>;
type Result = z.infer<typeof getLocationsResult>;

const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();

/** Whether a location has the site code: as the API reports it, or as a word of its name. */
function hasSiteCode(l: ApiLocation, code: string): boolean {
  if (typeof l.siteCode === 'string' && same(l.siteCode, code)) return true;
  return l.name.split(/\s+/).some((word) => same(word, code));
}

/** Whether a location passes every filter given. */
function matches(l: ApiLocation, args: Args): boolean {
  if (args.metro !== undefined && !same(l.metro, args.metro)) return false;
  if (args.market !== undefined && !same(l.market, args.market)) return false;
  if (args.status !== undefined && !same(l.status, args.status)) return false;
  if (args.name !== undefined && !l.name.toLowerCase().includes(args.name.toLowerCase())) return false;
  return args.siteCode === undefined || hasSiteCode(l, args.siteCode);
}

/** Lists locations, filtered by metro, market, site code, status and name; the API lists all, so they are filtered here. */
export const getLocations: LookupFunction<Args, Result, InterconnectClient> = {
  token: 'interconnect:index/getLocations:getLocations',
  provider: 'interconnect',
  description: 'Lists locations, filtered by metro, market, site code, status or part of the name.',
  args: getLocationsArgs,
  result: getLocationsResult,
  async invoke(ctx, args) {
    const { data } = await ctx.client.get<ApiLocation[]>('/v3/locations');
    const all = data ?? [];
    const found = all.filter((l) => matches(l, args)).sort((a, b) => a.id - b.id);
    if (!found.length) {
      // A metro or market misspelt finds nothing: say which ones there are.
      for (const field of ['metro', 'market'] as const) {
        const given = args[field];
        if (given === undefined) continue;
        const known = [...new Set(all.map((l) => l[field]).filter((v): v is string => typeof v === 'string'))];
        if (!known.some((k) => same(k, given))) ctx.warn(`getLocations: no location has ${field} "${given}"${closestHint(given, known)}`);
      }
    }
    return { locations: found.map(locationResult) };
  },
};
