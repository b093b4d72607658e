/**
 * getTeam: one team by id.
 */
import * as z from 'zod';
import { idArg, orNotFound, pipelineLookup, seg } from './shapes/lookup.js';

interface WireTeam {
  id: string;
  name: string;
  description?: string | null;
  role?: string | null;
}

/** Arguments of getTeam. */
export const getTeamArgs = z.object({
  id: idArg('Id of the team.'),
});

/** Result of getTeam. */
export const getTeamResult = z
  .object({
    id: z.string().describe('Unique id of the team.'),
    name: z.string().describe('Name of the team.'),
    description: z.string().describe('Description of the team ("" when none).'),
    role: z.string().nullable().describe('Account role of the team, e.g. Account Reviewer; null when it has none.'),
  })
  .describe('A team.');

/** Looks up one team (GET /teams/{id}). */
export const getTeam = pipelineLookup({
  name: 'getTeam',
  description: 'One team: name, description and account role.',
  args: getTeamArgs,
  result: getTeamResult,
  async call(client, args) {
    const wire = await orNotFound('getTeam', 'team', args.id, () => client.get<WireTeam>(`/teams/${seg(args.id)}`));
    return { id: wire.id, name: wire.name, description: wire.description ?? '', role: wire.role || null };
  },
});
