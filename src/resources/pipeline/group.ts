/**
 * Group: the container of one destination and its connections (`/v1/groups`).
 *
 * Renamed in place (PATCH), unlike the vendor's Terraform provider, which replaces a group on a
 * rename although the API allows it. Names are unique in an account, so a create whose answer
 * was lost is found again by its name. Imported by its id.
 */
import * as z from 'zod';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import { groupPath, listGroups, readGroup, type WireGroup } from '../../providers/pipeline/api/groups.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { apiIdFormat, byId, deleteIfPresent, findMade, onlyCandidate, unlessGone, type Ctx } from './kit.js';

/** Inputs of a group. */
export const groupInputs = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, 'must be letters, digits and underscores, starting with a letter or underscore')
    .describe('Name of the group, unique in the account: letters, digits and underscores. Required.'),
});

/** Inputs of a group. */
export type GroupInputs = z.output<typeof groupInputs>;

/** What the API reports about a group. */
export const groupOutputs = z.object({
  id: z.string().describe('Group id (also the id of its destination).'),
  name: z.string().describe('Name of the group.'),
  createdAt: z.string().describe('When the group was created (RFC 3339).'),
});

/** Observed group. */
export type GroupOutputs = z.output<typeof groupOutputs>;

function toOutputs(group: WireGroup): GroupOutputs {
  return { id: group.id, name: group.name, createdAt: group.created_at };
}

/** Groups of this name made since `earliestMs` that state does not hold (the lost create's). */
async function madeSince(ctx: Ctx, name: string, earliestMs: number, recorded: (id: string) => boolean): Promise<WireGroup[]> {
  const groups = await listGroups(ctx.client);
  return groups.filter((g) => g.name.toLowerCase() === name.toLowerCase() && Date.parse(g.created_at) >= earliestMs && !recorded(g.id));
}

/** The Group resource type. */
export const group: ResourceType<GroupInputs, GroupOutputs, PipelineClient, PipelineSettings> = {
  token: 'pipeline:index/group:Group',
  provider: 'pipeline',
  description: 'A group: the container of one destination and its connections. Renamed in place. Import id: <group_id> (e.g. decent_dropsy).',
  inputs: groupInputs,
  outputs: groupOutputs,
  diff: {
    remoteManaged: ['createdAt'],
  },
  replace: {
    on: [],
  },
  cost: { unpriced: 'not billed on its own' },
  importId: apiIdFormat('group', 'decent_dropsy'),

  async create(ctx, inputs) {
    const started = Date.now();
    // Names are unique: a group of this name made by the lost send is the answer.
    const recover = () =>
      findMade(
        ctx,
        started,
        (order) => group.findOwned!(ctx, inputs, order),
        (made) => readGroup(ctx.client, made.id),
      );
    const made = await ctx.client.write<WireGroup>('POST', '/groups', { name: inputs.name }, { recover });
    ctx.recordId(made.id);
    return { id: made.id, outputs: toOutputs(made) };
  },

  async read(ctx, id) {
    const found = await unlessGone(readGroup(ctx.client, id));
    return found && toOutputs(found);
  },

  async readMany(ctx, targets) {
    const listed = byId(await listGroups(ctx.client));
    const out = new Map<string, GroupOutputs | undefined>();
    for (const { id } of targets) {
      const found = listed.get(id);
      if (found) out.set(id, toOutputs(found));
    }
    return out;
  },

  async update(ctx, id, _prior, desired) {
    const updated = await ctx.client.write<WireGroup>('PATCH', groupPath(id), { name: desired.name });
    return toOutputs(updated);
  },

  async delete(ctx, id) {
    await deleteIfPresent(ctx, groupPath(id));
  },

  async list(ctx) {
    return (await listGroups(ctx.client)).map((g) => ({ id: g.id, outputs: toOutputs(g) }));
  },

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = onlyCandidate(`group named "${inputs.name}"`, await madeSince(ctx, inputs.name, order.earliestMs, order.recorded));
    return found && { id: found.id, outputs: toOutputs(found) };
  },
};
