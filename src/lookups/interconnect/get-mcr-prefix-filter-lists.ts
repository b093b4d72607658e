import * as z from 'zod';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import { ADDRESS_FAMILIES, listPrefixLists, readPrefixList } from '../../providers/interconnect/api/prefix-lists.js';
import type { LookupFunction } from '../../engine/contracts/lookup.js';

/** Arguments: the MCR whose lists to read. */
export const getMcrPrefixFilterListsArgs = z
  .object({
    mcrId: z.string().min(1).describe('Product UID of the MCR.'),
  })
  .strict();

const entry = z.object({
  action: z.string().describe('permit or deny.'),
  prefix: z.string().describe('Network prefix in CIDR form.'),
  ge: z.number().optional().describe('Shortest prefix length matched, when set.'),
  le: z.number().optional().describe('Longest prefix length matched, when set.'),
});

/** Every prefix filter list of the MCR, with its entries. */
export const getMcrPrefixFilterListsResult = z.object({
  id: z.string().describe('The MCR UID.'),
  mcrId: z.string().describe('Echo of the mcrId argument.'),
  prefixFilterLists: z
    .array(
      z.object({
        id: z.number().describe('Numeric list id (import a list as <mcr_uid>:<id>).'),
        description: z.string().describe('Name of the list.'),
        addressFamily: z.string().describe(`${ADDRESS_FAMILIES.join(' or ')}.`),
        entries: z.array(entry).describe('Ordered entries; ge/le as numbers.'),
      }),
    )
    .describe('The lists, in the order the API returns them.'),
});

type Args = z.infer<typeof getMcrPrefixFilterListsArgs>;
type Result = z.infer<typeof getMcrPrefixFilterListsResult>;

/** Reads every prefix filter list of an MCR: one summary call, then one call per list for its entries. */
export const getMcrPrefixFilterLists: LookupFunction<Args, Result, InterconnectClient> = {
  token: 'interconnect:index/getMcrPrefixFilterLists:getMcrPrefixFilterLists',
  provider: 'interconnect',
  description: 'The prefix filter lists of one MCR, with their entries.',
  args: getMcrPrefixFilterListsArgs,
  result: getMcrPrefixFilterListsResult,
  async invoke(ctx, args) {
    const summaries = await listPrefixLists(ctx.client, args.mcrId);
    const lists = [];
    for (const s of summaries) {
      const list = await readPrefixList(ctx.client, args.mcrId, s.id);
      // A list deleted between the two calls is simply not reported.
      if (list) lists.push(list);
    }
    return { id: args.mcrId, mcrId: args.mcrId, prefixFilterLists: lists };
  },
};
