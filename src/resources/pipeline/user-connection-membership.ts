/** UserConnectionMembership: a user's role on one connection (`/v1/users/{user_id}/connections/{connection_id}`). */
import { membershipType } from './membership.js';

/** The UserConnectionMembership resource type. */
export const userConnectionMembership = membershipType({
  token: 'pipeline:index/userConnectionMembership:UserConnectionMembership',
  description: "A user's role on a connection.",
  holder: { field: 'userId', path: 'users', what: 'user', example: 'nimble_heron' },
  target: { field: 'connectionId', path: 'connections', what: 'connection', example: 'mellow_wombat', wireKey: 'id' },
  role: 'A connection-level role, e.g. `Connector Reviewer` (see the getRoles lookup).',
});
