/**
 * getTeamUserMemberships: the user memberships of one team.
 */
import * as z from 'zod';
import { idArg, pipelineLookup } from './shapes/lookup.js';
import { listTeamMemberships, membershipFields, teamIdDescription } from './shapes/memberships.js';

/** Arguments of getTeamUserMemberships. */
export const getTeamUserMembershipsArgs = z.object({
  teamId: idArg(teamIdDescription),
});

/** Result of getTeamUserMemberships. */
export const getTeamUserMembershipsResult = z
  .object({
    id: z.string().describe('The team id.'),
    teamId: z.string().describe('The teamId argument, echoed.'),
    users: z
      .array(z.object({ userId: z.string().describe('Id of the user.'), ...membershipFields }).describe("A user's membership of the team, with the user's team role."))
      .describe('Every user membership of the team, in the order the API lists them.'),
  })
  .describe('The user memberships of a team.');

/** Lists memberships (GET /teams/{id}/users, every page). */
export const getTeamUserMemberships = pipelineLookup({
  name: 'getTeamUserMemberships',
  description: 'The users in a team, with their team role.',
  args: getTeamUserMembershipsArgs,
  result: getTeamUserMembershipsResult,
  async call(client, args) {
    const memberships = await listTeamMemberships(client, 'getTeamUserMemberships', args.teamId, 'users');
    return {
      id: args.teamId,
      teamId: args.teamId,
      users: memberships.map(({ memberId, role, createdAt }) => ({ userId: memberId, role, createdAt })),
    };
  },
});
