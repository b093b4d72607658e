/**
 * getGroupUsers: the members of one group, each with their role in it.
 */
import * as z from 'zod';
import { listGroupUsers } from '../../providers/pipeline/api/users.js';
import { idArg, orNotFound, pipelineLookup } from './shapes/lookup.js';
import { toUser, userSchema } from './shapes/people.js';

/** Arguments of getGroupUsers. */
export const getGroupUsersArgs = z.object({
  id: idArg('Id of the group.'),
});

/** Result of getGroupUsers. */
export const getGroupUsersResult = z
  .object({
    id: z.string().describe('The group id, echoed.'),
    users: z.array(userSchema).describe('Members of the group, in the order the API lists them; role is the role in this group.'),
  })
  .describe('The members of a group.');

/** Lists members (GET /groups/{id}/users, every page). */
export const getGroupUsers = pipelineLookup({
  name: 'getGroupUsers',
  description: 'The members of a group, each with their role in the group.',
  args: getGroupUsersArgs,
  result: getGroupUsersResult,
  async call(client, args) {
    const items = await orNotFound('getGroupUsers', 'group', args.id, () => listGroupUsers(client, args.id));
    return { id: args.id, users: items.map(toUser) };
  },
});
