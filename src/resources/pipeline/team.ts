/**
 * Team: a set of users with an account role (`/v1/teams`). Name, description and role all
 * change in place (PATCH). Team names are unique in an account, so a create whose answer was
 * lost is found again by its name. Imported by its id.
 */
import * as z from 'zod';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { apiIdFormat, byId, deleteIfPresent, findMade, onlyCandidate, unlessGone, type Ctx } from './kit.js';

/** Inputs of a team. */
export const teamInputs = z.object({
  name: z.string().min(1).max(100).describe('Name of the team, unique in the account. Required.'),
  description: z.string().max(500).optional().describe('What the team is for. Default: empty.'),
  role: z.string().min(1).describe('The account role every member gets, e.g. `Account Reviewer` (see the getRoles lookup). Required.'),
});

/** Inputs of a team. */
export type TeamInputs = z.output<typeof teamInputs>;

/** What the API reports about a team. */
export const teamOutputs = teamInputs.extend({
  id: z.string().describe('Team id.'),
});

/** Observed team. */
export type TeamOutputs = z.output<typeof teamOutputs>;

interface WireTeam {
  id: string;
  name: string;
  description?: string;
  role: string;
}

function toOutputs(team: WireTeam): TeamOutputs {
  return { id: team.id, name: team.name, description: team.description ?? '', role: team.role };
}

const path = (id: string) => `/teams/${encodeURIComponent(id)}`;

/** The team of this name that state does not hold (names are unique, so at most one). */
async function named(ctx: Ctx, name: string, recorded: (id: string) => boolean): Promise<WireTeam | undefined> {
  const teams = await ctx.client.list<WireTeam>('/teams');
  return onlyCandidate(
    `team named "${name}"`,
    teams.filter((t) => t.name.toLowerCase() === name.toLowerCase() && !recorded(t.id)),
  );
}

/** The Team resource type. */
export const team: ResourceType<TeamInputs, TeamOutputs, PipelineClient, PipelineSettings> = {
  token: 'pipeline:index/team:Team',
  provider: 'pipeline',
  description: 'A team of users with an account role. Name, description and role change in place. Import id: <team_id> (e.g. witty_heron).',
  inputs: teamInputs,
  outputs: teamOutputs,
  diff: {
    asDeclared(recorded, _outputs, desired) {
      return defaultsAsDeclared(recorded, desired, { description: '' });
    },
  },
  replace: {
    on: [],
  },
  cost: { unpriced: 'not billed on its own' },
  importId: apiIdFormat('team', 'witty_heron'),

  async create(ctx, inputs) {
    // Names are unique: a team of this name after a lost answer is the one the send made.
    const recover = () =>
      findMade(
        ctx,
        Date.now(),
        (order) => team.findOwned!(ctx, inputs, order),
        (made) => ctx.client.get<WireTeam>(path(made.id)),
      );
    const made = await ctx.client.write<WireTeam>('POST', '/teams', { name: inputs.name, description: inputs.description ?? '', role: inputs.role }, { recover });
    ctx.recordId(made.id);
    return { id: made.id, outputs: toOutputs(made) };
  },

  async read(ctx, id) {
    const found = await unlessGone(ctx.client.get<WireTeam>(path(id)));
    return found && toOutputs(found);
  },

  async readMany(ctx, targets) {
    const listed = byId(await ctx.client.list<WireTeam>('/teams'));
    const out = new Map<string, TeamOutputs | undefined>();
    for (const { id } of targets) {
      const found = listed.get(id);
      if (found) out.set(id, toOutputs(found));
    }
    return out;
  },

  async update(ctx, id, prior, desired) {
    const sent: Record<string, unknown> = {};
    if (desired.name !== prior.inputs.name) sent.name = desired.name;
    if ((desired.description ?? '') !== (prior.inputs.description ?? '')) sent.description = desired.description ?? '';
    if (desired.role !== prior.inputs.role) sent.role = desired.role;
    const updated = await ctx.client.write<WireTeam>('PATCH', path(id), sent);
    return toOutputs(updated);
  },

  async delete(ctx, id) {
    await deleteIfPresent(ctx, path(id));
  },

  async list(ctx) {
    return (await ctx.client.list<WireTeam>('/teams')).map((t) => ({ id: t.id, outputs: toOutputs(t) }));
  },

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = await named(ctx, inputs.name, order.recorded);
    return found && { id: found.id, outputs: toOutputs(found) };
  },
};
