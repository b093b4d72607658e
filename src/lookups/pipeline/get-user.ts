/**
 * getUser: one user by id.
 */
import * as z from 'zod';
import { readUser } from '../../providers/pipeline/api/users.js';
import { idArg, orNotFound, pipelineLookup } from './shapes/lookup.js';
import { toUser, userSchema } from './shapes/people.js';

/** Arguments of getUser. */
export const getUserArgs = z.object({
  id: idArg('Id of the user.'),
});

/** Result of getUser. */
export const getUserResult = userSchema;

/** Looks up one user (GET /users/{id}). */
export const getUser = pipelineLookup({
  name: 'getUser',
  description: 'One user: name, email, account role, and sign-in state.',
  args: getUserArgs,
  result: getUserResult,
  async call(client, args) {
    const wire = await orNotFound('getUser', 'user', args.id, () => readUser(client, args.id));
    return toUser(wire);
  },
});
