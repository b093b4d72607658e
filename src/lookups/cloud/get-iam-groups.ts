/** getIamGroups: IAM user groups of the account. */
import * as z from 'zod';
import { str } from '../../providers/cloud/wire.js';
import { cloudLookup, filterItems, hashIds, nameRegexArg } from './kit.js';

const argsShape = {
  nameRegex: nameRegexArg,
};

const group = z.object({
  name: z.string().describe('Group name.'),
  comment: z.string().describe('Description.'),
});

const result = z.object({
  ...argsShape,
  id: z.string().describe('A stable id for this result: the CRC32 of the names.'),
  names: z.array(z.string()).describe('Names of the groups returned.'),
  totalCount: z.number().int().describe('Number of groups returned.'),
  groups: z.array(group).describe('The matching groups.'),
});

interface IamGroup {
  GroupName: string;
  Description?: string;
}

/** Lists IAM groups. The Action takes no paging parameters and answers with every group at once. */
export const getIamGroups = cloudLookup({
  name: 'getIamGroups',
  description: 'IAM user groups of the account, filtered by name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const body = await ctx.client.call<{ Groups?: IamGroup[] }>('ListGroups', {}, { project: false });
    const groups = filterItems(body.Groups ?? [], { nameRegex: args.nameRegex, nameOf: (g) => g.GroupName }).map((g) => ({ name: str(g.GroupName), comment: str(g.Description) }));
    const names = groups.map((g) => g.name);
    return { ...args, id: hashIds(names), names, totalCount: names.length, groups };
  },
});
