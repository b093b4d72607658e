/**
 * getTeamGroupMemberships: the group memberships of one team.
 */
import * as z from 'zod';
import { idArg, pipelineLookup } from './shapes/lookup.js';
import { listTeamMemberships, membershipFields, teamIdDescription } from './shapes/memberships.js';

/** Arguments of getTeamGroupMemberships. */
export const getTeamGroupMembershipsArgs = z.object({
  teamId: idArg(teamIdDescription),
});

/** Result of getTeamGroupMemberships. */
export const getTeamGroupMembershipsResult = z
  .object({
    id: z.string().describe('The team id.'),
    teamId: z.string().describe('The teamId argument, echoed.'),
    groups: z
      .array(z.object({ groupId: z.string().describe('Id of the group.'), ...membershipFields }).describe("The team's membership of a group."))
      .describe('Every group membership of the team, in the order the API lists them.'),
  })
  .describe('The group memberships of a team.');

/** Lists memberships (GET /teams/{id}/groups, every page). */
export const getTeamGroupMemberships = pipelineLookup({
  name: 'getTeamGroupMemberships',
  description: 'The groups a team has a role on, with that role.',
  args: getTeamGroupMembershipsArgs,
  result: getTeamGroupMembershipsResult,
  async call(client, args) {
    const memberships = await listTeamMemberships(client, 'getTeamGroupMemberships', args.teamId, 'groups');
    return {
      id: args.teamId,
      teamId: args.teamId,
      groups: memberships.map(({ memberId, role, createdAt }) => ({ groupId: memberId, role, createdAt })),
    };
  },
});
