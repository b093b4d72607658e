/**
 * getGroups: every group of the account.
 */
import * as z from 'zod';
import { listGroups } from '../../providers/pipeline/api/groups.js';
import { LIST_ID, listId, pipelineLookup } from './shapes/lookup.js';
import { groupSchema, toGroup } from './shapes/people.js';

/** Arguments of getGroups: none. */
export const getGroupsArgs = z.object({});

/** Result of getGroups. */
export const getGroupsResult = z
  .object({
    id: listId,
    groups: z.array(groupSchema).describe('Every group, in the order the API lists them.'),
  })
  .describe('A list of groups.');

/** Lists groups (GET /groups, every page). */
export const getGroups = pipelineLookup({
  name: 'getGroups',
  description: 'Every group of the account.',
  args: getGroupsArgs,
  result: getGroupsResult,
  async call(client) {
    const items = await listGroups(client);
    return { id: LIST_ID, groups: items.map(toGroup) };
  },
});
