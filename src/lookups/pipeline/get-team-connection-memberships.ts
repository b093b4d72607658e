/**
 * getTeamConnectionMemberships: the connection memberships of one team.
 */
import * as z from 'zod';
import { idArg, pipelineLookup } from './shapes/lookup.js';
import { listTeamMemberships, membershipFields, teamIdDescription } from './shapes/memberships.js';

/** Arguments of getTeamConnectionMemberships. */
export const getTeamConnectionMembershipsArgs = z.object({
  id: idArg(teamIdDescription),
});

/** Result of getTeamConnectionMemberships. */
export const getTeamConnectionMembershipsResult = z
  .object({
    id: z.string().describe('The team id.'),
    connections: z
      .array(z.object({ connectionId: z.string().describe('Id of the connection.'), ...membershipFields }).describe("The team's membership of a connection."))
      .describe('Every connection membership of the team, in the order the API lists them.'),
  })
  .describe('The connection memberships of a team.');

/** Lists memberships (GET /teams/{id}/connections, every page). */
export const getTeamConnectionMemberships = pipelineLookup({
  name: 'getTeamConnectionMemberships',
  description: 'The connections a team has a role on, with that role.',
  args: getTeamConnectionMembershipsArgs,
  result: getTeamConnectionMembershipsResult,
  async call(client, args) {
    const memberships = await listTeamMemberships(client, 'getTeamConnectionMemberships', args.id, 'connections');
    return {
      id: args.id,
      connections: memberships.map(({ memberId, role, createdAt }) => ({ connectionId: memberId, role, createdAt })),
    };
  },
});
