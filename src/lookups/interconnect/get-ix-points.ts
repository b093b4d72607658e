import * as z from 'zod';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import type { LookupFunction } from '../../engine/contracts/lookup.js';

/** Arguments: an optional metro. */
export const getIxPointsArgs = z
  .object({
    metro: z.string().min(1).optional().describe('Only the exchanges of this metro, e.g. Sydney (case ignored). Default: every metro.'),
  })
  .strict();

/** The Internet Exchanges an IX can join. */
export const getIxPointsResult = z.object({
  id: z.string().describe('Provider-assigned id of this result.'),
  ixPoints: z
    .array(
      z.object({
        id: z.number().describe('Numeric id of the exchange.'),
        name: z.string().describe('Name of the exchange, used as networkServiceType of an Ix, e.g. "Sydney IX".'),
        metro: z.string().describe('Metro of the exchange: an Ix joins it from a port in this metro.'),
        asn: z.number().optional().describe("The exchange's route server ASN."),
      }),
    )
    .describe('The exchanges, by name.'),
  metro: z.string().optional().describe('The metro given.'),
});

type Args = z.infer<typeof getIxPointsArgs>;
type Result = z.infer<typeof getIxPointsResult>;

/** Lists the Internet Exchanges (`GET /v2/ixp`). */
export const getIxPoints: LookupFunction<Args, Result, InterconnectClient> = {
  token: 'interconnect:index/getIxPoints:getIxPoints',
  provider: 'interconnect',
  description: 'Lists the Internet Exchanges an Ix can join, with the metro of each (its networkServiceType is the name).',
  args: getIxPointsArgs,
  result: getIxPointsResult,
  async invoke(ctx, args) {
    const { data } = await ctx.client.get<Array<Record<string, unknown>>>('/v2/ixp');
    const ixPoints = (data ?? [])
      .map((p) => ({ id: Number(p.id), name: String(p.name), metro: String(p.metro ?? ''), ...(typeof p.asn === 'number' ? { asn: p.asn } : {}) }))
      .filter((p) => args.metro === undefined || p.metro.toLowerCase() === args.metro.trim().toLowerCase())
      .sort((a, b) => a.name.localeCompare(b.name));
    return { id: 'ix-points', ixPoints, ...args };
  },
};
