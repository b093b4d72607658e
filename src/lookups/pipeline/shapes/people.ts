/**
 * Users and groups as several lookups return them (getUser, getUsers, getGroupUsers; getGroup,
 * getGroups): one result shape and one mapping from the wire record (providers/pipeline/api) each.
 */
import * as z from 'zod';
import type { WireGroup } from '../../../providers/pipeline/api/groups.js';
import type { WireUser } from '../../../providers/pipeline/api/users.js';
import { maybeTimestamp, orNull, timestamp } from './wire.js';

/** The fields of a user result. */
export const userFields = {
  id: z.string().describe('Unique id of the user.'),
  email: z.string().describe('Email address, which is also the login.'),
  givenName: z.string().nullable().describe('First name.'),
  familyName: z.string().nullable().describe('Last name.'),
  verified: z.boolean().describe('Whether the email address is verified.'),
  invited: z.boolean().describe('Whether the user was invited and has not yet accepted.'),
  picture: z.string().nullable().describe('Avatar URL; null when none is set.'),
  phone: z.string().nullable().describe('Phone number; null when none is set.'),
  role: z.string().nullable().describe('Role: the account role, or for group members the role in that group.'),
  active: z.boolean().describe('Whether the user can sign in.'),
  loggedInAt: maybeTimestamp('Last sign-in'),
  createdAt: timestamp('When the user was created'),
};

/** A user result object. */
export const userSchema = z.object(userFields).describe('A user of the account.');

/** A user in result form. */
export function toUser(wire: WireUser): z.input<typeof userSchema> {
  return {
    id: wire.id,
    email: wire.email,
    givenName: orNull(wire.given_name),
    familyName: orNull(wire.family_name),
    verified: wire.verified,
    invited: wire.invited ?? false,
    picture: orNull(wire.picture),
    phone: orNull(wire.phone),
    role: orNull(wire.role),
    active: wire.active ?? true,
    loggedInAt: orNull(wire.logged_in_at),
    createdAt: wire.created_at,
  };
}

/** The fields of a group result. */
export const groupFields = {
  id: z.string().describe('Unique id of the group; its destination has the same id.'),
  name: z.string().describe('Name of the group.'),
  createdAt: timestamp('When the group was created'),
};

/** A group result object. */
export const groupSchema = z.object(groupFields).describe('A group: one destination and the connections that sync into it.');

/** A group in result form. */
export function toGroup(wire: WireGroup): z.input<typeof groupSchema> {
  return { id: wire.id, name: wire.name, createdAt: wire.created_at };
}
