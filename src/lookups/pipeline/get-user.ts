/**
 * getUser: one user by id.
 */
import * as z from 'zod';
import { idArg, orNotFound, pipelineLookup, seg } from './shapes/lookup.js';
import { toUser, userSchema, type WireUser } from './shapes/people.js';

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
    const wire = await orNotFound('getUser', 'user', args.id, () => client.get<WireUser>(`/users/${seg(args.id)}`));
    return toUser(wire);
  },
});
