/** getZones: the zones of the provider's region. */
import * as z from 'zod';
import { str } from '../../providers/cloud/wire.js';
import { cloudLookup, listResultBase, outputFileArg, summary, writeOutputFile } from './kit.js';

const argsShape = {
  outputFile: outputFileArg,
};

const zone = z.object({ id: z.string().describe('Zone id, e.g. `cn-bj2-02`.') });

const result = z.object({ ...argsShape, ...listResultBase, zones: z.array(zone).describe('Zones of the region.') });

interface RegionEntry {
  Region: string;
  Zone: string;
}

/** Lists the zones of the provider region (GetRegion answers for every region; the rest are dropped). */
export const getZones = cloudLookup({
  name: 'getZones',
  description: 'Zones of the provider region.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const body = await ctx.client.call<{ Regions?: RegionEntry[] }>('GetRegion', {});
    const zones = (body.Regions ?? []).filter((r) => r.Region === ctx.client.region).map((r) => ({ id: str(r.Zone) }));
    await writeOutputFile(ctx, args.outputFile, zones);
    return { ...args, ...summary(zones.map((z) => z.id)), zones };
  },
});
