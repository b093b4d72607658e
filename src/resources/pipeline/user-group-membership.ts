/** UserGroupMembership: a user's role on a group and its destination (`/v1/users/{user_id}/groups/{group_id}`). */
import { membershipType } from './membership.js';

/** The UserGroupMembership resource type. */
export const userGroupMembership = membershipType({
  token: 'pipeline:index/userGroupMembership:UserGroupMembership',
  description: "A user's role on a group (its destination and connections).",
  holder: { field: 'userId', path: 'users', what: 'user', example: 'nimble_heron' },
  target: { field: 'groupId', path: 'groups', what: 'group', example: 'decent_dropsy', wireKey: 'id' },
  role: 'A destination-level role, e.g. `Destination Analyst` (see the getRoles lookup).',
});
