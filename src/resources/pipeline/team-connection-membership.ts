/** TeamConnectionMembership: a team's role on one connection (`/v1/teams/{team_id}/connections/{connection_id}`). */
import { membershipType } from './membership.js';

/** The TeamConnectionMembership resource type. */
export const teamConnectionMembership = membershipType({
  token: 'pipeline:index/teamConnectionMembership:TeamConnectionMembership',
  description: "A team's role on a connection.",
  holder: { field: 'teamId', path: 'teams', what: 'team', example: 'witty_heron' },
  target: { field: 'connectionId', path: 'connections', what: 'connection', example: 'mellow_wombat', wireKey: 'id' },
  role: 'A connection-level role, e.g. `Connector Reviewer` (see the getRoles lookup).',
});
