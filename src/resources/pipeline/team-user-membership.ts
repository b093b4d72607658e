/** TeamUserMembership: a user's place in a team (`/v1/teams/{team_id}/users/{user_id}`), with a team role. */
import { membershipType } from './membership.js';

/** The TeamUserMembership resource type. */
export const teamUserMembership = membershipType({
  token: 'pipeline:index/teamUserMembership:TeamUserMembership',
  description: "A user's membership of a team.",
  holder: { field: 'teamId', path: 'teams', what: 'team', example: 'witty_heron' },
  target: { field: 'userId', path: 'users', what: 'user', example: 'nimble_heron', wireKey: 'user_id' },
  role: 'The role in the team: `Team Member` or `Team Manager`.',
});
