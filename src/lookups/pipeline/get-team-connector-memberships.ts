/**
 * getTeamConnectorMemberships: the connection memberships of one team (connector-era name of getTeamConnectionMemberships).
 */
import * as z from 'zod';
import { idArg, pipelineLookup } from './shapes/lookup.js';
import { listTeamMemberships, membershipFields, teamIdDescription } from './shapes/memberships.js';

/** Arguments of getTeamConnectorMemberships. */
export const getTeamConnectorMembershipsArgs = z.object({
  teamId: idArg(teamIdDescription),
});

/** Result of getTeamConnectorMemberships. */
export const getTeamConnectorMembershipsResult = z
  .object({
    id: z.string().describe('The team id.'),
    teamId: z.string().describe('The teamId argument, echoed.'),
    connectors: z
      .array(z.object({ connectorId: z.string().describe('Id of the connector (connection).'), ...membershipFields }).describe("The team's membership of a connector (connection)."))
      .describe('Every connection membership of the team, in the order the API lists them.'),
  })
  .describe('The connection memberships of a team.');

/** Lists memberships (GET /teams/{id}/connections, every page). */
export const getTeamConnectorMemberships = pipelineLookup({
  name: 'getTeamConnectorMemberships',
  description: 'The connectors a team has a role on, with that role.',
  replacedBy: 'getTeamConnectionMemberships',
  args: getTeamConnectorMembershipsArgs,
  result: getTeamConnectorMembershipsResult,
  async call(client, args) {
    const memberships = await listTeamMemberships(client, 'getTeamConnectorMemberships', args.teamId, 'connections');
    return {
      id: args.teamId,
      teamId: args.teamId,
      connectors: memberships.map(({ memberId, role, createdAt }) => ({ connectorId: memberId, role, createdAt })),
    };
  },
});
