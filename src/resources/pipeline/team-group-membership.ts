/** TeamGroupMembership: a team's role on a group and its destination (`/v1/teams/{team_id}/groups/{group_id}`). */
import { membershipType } from './membership.js';

/** The TeamGroupMembership resource type. */
export const teamGroupMembership = membershipType({
  token: 'pipeline:index/teamGroupMembership:TeamGroupMembership',
  description: "A team's role on a group (its destination and connections).",
  holder: { field: 'teamId', path: 'teams', what: 'team', example: 'witty_heron' },
  target: { field: 'groupId', path: 'groups', what: 'group', example: 'decent_dropsy', wireKey: 'id' },
  role: 'A destination-level role, e.g. `Destination Analyst` (see the getRoles lookup).',
});
