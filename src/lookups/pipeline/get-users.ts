/**
 * getUsers: every user of the account.
 */
import * as z from 'zod';
import { listUsers } from '../../providers/pipeline/api/users.js';
import { LIST_ID, listId, pipelineLookup } from './shapes/lookup.js';
import { toUser, userSchema } from './shapes/people.js';

/** Arguments of getUsers: none. */
export const getUsersArgs = z.object({});

/** Result of getUsers. */
export const getUsersResult = z
  .object({
    id: listId,
    users: z.array(userSchema).describe('Every user, in the order the API lists them; role is the account role.'),
  })
  .describe('A list of users.');

/** Lists users (GET /users, every page). */
export const getUsers = pipelineLookup({
  name: 'getUsers',
  description: 'Every user of the account.',
  args: getUsersArgs,
  result: getUsersResult,
  async call(client) {
    const items = await listUsers(client);
    return { id: LIST_ID, users: items.map(toUser) };
  },
});
