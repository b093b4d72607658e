import * as z from 'zod';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import type { LookupFunction } from '../../engine/contracts/lookup.js';

/** No arguments. */
export const getMveSizesArgs = z.object({}).strict();

/** Every MVE instance size. */
export const getMveSizesResult = z.object({
  id: z.string().describe('Provider-assigned id of this result.'),
  mveSizes: z
    .array(
      z.object({
        size: z.string().describe('Size name used as vendorConfig.productSize: SMALL, MEDIUM, LARGE or X_LARGE_12.'),
        label: z.string().describe('Size label, e.g. "MVE 2/8" (vCPU/GB RAM), as images list their availableSizes.'),
        cpuCoreCount: z.number().describe('Number of vCPUs.'),
        ramGB: z.number().describe('Memory in GB.'),
      }),
    )
    .describe('The sizes, smallest first.'),
});

type Result = z.infer<typeof getMveSizesResult>;

/** Lists MVE sizes (`GET /v3/product/mve/variants`). */
export const getMveSizes: LookupFunction<Record<string, never>, Result, InterconnectClient> = {
  token: 'interconnect:index/getMveSizes:getMveSizes',
  provider: 'interconnect',
  description: 'Lists the instance sizes an MVE can have (vCPUs and memory).',
  args: getMveSizesArgs,
  result: getMveSizesResult,
  async invoke(ctx) {
    const { data } = await ctx.client.get<Array<Record<string, any>>>('/v3/product/mve/variants');
    const mveSizes = (data ?? [])
      .map((s) => ({ size: String(s.size), label: String(s.label), cpuCoreCount: Number(s.cpuCoreCount), ramGB: Number(s.ramGB) }))
      .sort((a, b) => a.cpuCoreCount - b.cpuCoreCount);
    return { id: 'mve-sizes', mveSizes };
  },
};
