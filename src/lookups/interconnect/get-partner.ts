import * as z from 'zod';
import { RemoteError } from '../../kernel/errors.js';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import type { LookupFunction } from '../../engine/contracts/lookup.js';

/** Connect types a partner port can carry. */
export const CONNECT_TYPES = ['AWS', 'AWSHC', 'AZURE', 'GOOGLE', 'ORACLE', 'OUTSCALE', 'IBM', 'TRANSIT', 'FRANCEIX'] as const;

const text = (what: string) => z.string().min(1).optional().describe(`${what} (exact match, case-insensitive).`);

/** Filters; every one given must match. */
export const getPartnerArgs = z
  .object({
    companyName: text('Company offering the port, e.g. AWS'),
    companyUid: text('UID of that company'),
    connectType: z
      .preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(CONNECT_TYPES))
      .optional()
      .describe(`Kind of port: ${CONNECT_TYPES.join(', ')} (AWS = hosted VIF, AWSHC = hosted connection, TRANSIT = internet access).`),
    diversityZone: text('Diversity zone, red or blue'),
    productName: text('Name of the port, e.g. "Asia Pacific (Sydney) (ap-southeast-2)"'),
    productUid: text('UID of the port; pin it once connections exist, as partner ports rotate'),
    locationId: z.coerce.number().int().positive().optional().describe('Numeric location id of the port.'),
  })
  .strict();

/** The partner port chosen. */
export const getPartnerResult = z.object({
  id: z.string().describe("The port's product UID."),
  productUid: z.string().describe('UID of the port: the B-End of a VXC to this partner.'),
  productName: z.string().describe('Name of the port.'),
  companyName: z.string().describe('Company offering the port.'),
  companyUid: z.string().describe('UID of that company.'),
  connectType: z.string().describe('Kind of port, e.g. AWS.'),
  diversityZone: z.string().optional().describe('Diversity zone (red or blue).'),
  locationId: z.number().describe('Numeric location id.'),
  rank: z.number().describe("The provider's ranking; lower is preferred."),
  speed: z.number().describe('Port speed in Mbps.'),
  vxcPermitted: z.boolean().describe('Whether new VXCs may connect to it.'),
});

type Args = z.infer<typeof getPartnerArgs>;
type Result = z.infer<typeof getPartnerResult>;
type ApiPartner = {
  productUid: string;
  title: string;
  companyName: string;
  companyUid: string;
  connectType: string;
  diversityZone?: string;
  locationId: number;
  rank: number;
  speed: number;
  vxcPermitted?: boolean;
  vxcpermitted?: boolean;
};

const same = (a: unknown, b: string | undefined) => b === undefined || String(a ?? '').toLowerCase() === b.toLowerCase();

/**
 * Finds one partner (marketplace) port. Several matches are ordered by rank, then name, then UID,
 * so the choice never depends on the API's list order, and a warning names the one chosen. Ports
 * closed to new VXCs are chosen only when nothing open matches.
 */
export const getPartner: LookupFunction<Args, Result, InterconnectClient> = {
  token: 'interconnect:index/getPartner:getPartner',
  provider: 'interconnect',
  description: 'Finds one partner port (cloud on-ramp, internet, IX) by company, connect type, zone, name or location.',
  args: getPartnerArgs,
  result: getPartnerResult,
  async invoke(ctx, args) {
    const { data } = await ctx.client.get<ApiPartner[]>('/v2/dropdowns/partner/megaports');
    const permitted = (p: ApiPartner) => (p.vxcPermitted ?? p.vxcpermitted) !== false;
    const matches = (data ?? [])
      .filter(
        (p) =>
          same(p.companyName, args.companyName) &&
          same(p.companyUid, args.companyUid) &&
          same(p.connectType, args.connectType) &&
          same(p.diversityZone, args.diversityZone) &&
          same(p.title, args.productName) &&
          same(p.productUid, args.productUid) &&
          (args.locationId === undefined || p.locationId === args.locationId),
      )
      .sort((a, b) => Number(permitted(b)) - Number(permitted(a)) || a.rank - b.rank || a.title.localeCompare(b.title) || a.productUid.localeCompare(b.productUid));
    const chosen = matches[0];
    if (!chosen) {
      const filters = Object.entries(args)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ');
      throw new RemoteError('not-found', `getPartner: no partner port matches ${filters || '(no filters)'}`);
    }
    if (matches.length > 1) {
      ctx.warn(`getPartner: ${matches.length} partner ports match; using "${chosen.title}" (${chosen.productUid}, rank ${chosen.rank}). Add filters or pin productUid for a stable choice.`);
    }
    if (!permitted(chosen)) ctx.warn(`getPartner: partner port "${chosen.title}" does not accept new VXCs`);
    return {
      id: chosen.productUid,
      productUid: chosen.productUid,
      productName: chosen.title,
      companyName: chosen.companyName,
      companyUid: chosen.companyUid,
      connectType: chosen.connectType,
      diversityZone: chosen.diversityZone,
      locationId: chosen.locationId,
      rank: chosen.rank,
      speed: chosen.speed,
      vxcPermitted: permitted(chosen),
    };
  },
};
