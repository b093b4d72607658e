/**
 * Users as the API sends them (items of `GET /users` and `GET /groups/{id}/users`, `GET
 * /users/{id}`), and the calls that read them: shared by the User resource and the user lookups.
 */
import type { PipelineClient } from '../client.js';
import { groupPath } from './groups.js';

/**
 * A user on the wire. The vendor's OpenAPI document requires id, email, verified, role, active,
 * logged_in_at (null for one who never signed in) and created_at; the rest may be absent.
 */
export interface WireUser {
  id: string;
  email: string;
  given_name?: string | null;
  family_name?: string | null;
  verified: boolean;
  invited?: boolean | null;
  picture?: string | null;
  phone?: string | null;
  /** The account role; for the members of a group, the role in that group. */
  role: string;
  active: boolean;
  logged_in_at: string | null;
  created_at: string;
}

/** The API path of a user. */
export const userPath = (id: string) => `/users/${encodeURIComponent(id)}`;

/** One user by id (a not-found RemoteError when it is gone). */
export function readUser(client: PipelineClient, id: string): Promise<WireUser> {
  return client.get<WireUser>(userPath(id));
}

/** Every user of the account, through every page. */
export function listUsers(client: PipelineClient): Promise<WireUser[]> {
  return client.list<WireUser>('/users');
}

/** The users of a group, each with its role in the group (a not-found RemoteError for a group that is gone). */
export function listGroupUsers(client: PipelineClient, groupId: string): Promise<WireUser[]> {
  return client.list<WireUser>(`${groupPath(groupId)}/users`);
}
