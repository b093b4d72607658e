/**
 * What the five membership types share: a team's users, groups and connections, and a user's
 * groups and connections. Each membership is addressed by its holder and its target
 * (`/teams/{team_id}/users/{user_id}`), so its id, and import id, is `<holder>:<target>`; only
 * the role changes in place (PATCH), a new holder or target is a new membership. A membership is
 * unique per pair, so a create whose answer was lost is found by reading the pair.
 */
import * as z from 'zod';
import { UserError } from '../../errors.js';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import type { ImportIdFormat, ResourceType } from '../handler.js';
import { deleteIfPresent, unlessGone, type Ctx } from './common.js';

/** How one membership collection is addressed and named. */
export interface MembershipShape<H extends string, T extends string> {
  token: string;
  description: string;
  /** Input naming the holder (`teamId`) and the API's path of holders (`teams`). */
  holder: { field: H; path: 'teams' | 'users'; what: string; example: string };
  /** Input naming the target (`userId`), the holder's sub-path (`users`) and the body's key for it. */
  target: { field: T; path: 'users' | 'groups' | 'connections'; what: string; example: string; wireKey: 'user_id' | 'id' };
  /** What the role means here and an example. */
  role: string;
}

type Inputs<H extends string, T extends string> = Record<H | T | 'role', string>;
type Outputs<H extends string, T extends string> = Inputs<H, T> & { id: string; createdAt?: string };

interface WireMember {
  id?: string;
  user_id?: string;
  role: string;
  created_at?: string;
}

/** The `<holder>:<target>` import format of a membership. */
function pairFormat(shape: MembershipShape<string, string>): ImportIdFormat {
  const format = `<${shape.holder.what}_id>:<${shape.target.what}_id>`;
  return {
    format,
    parse(raw) {
      const id = raw.trim();
      if (!/^[A-Za-z0-9_-]{1,100}:[A-Za-z0-9_-]{1,100}$/.test(id)) {
        throw new UserError(`invalid ${shape.holder.what} ${shape.target.what} membership id "${raw}": the format is ${format}, e.g. ${shape.holder.example}:${shape.target.example}`);
      }
      return id;
    },
  };
}

/** A membership resource type of this shape. */
export function membershipType<H extends string, T extends string>(shape: MembershipShape<H, T>): ResourceType<Inputs<H, T>, Outputs<H, T>, PipelineClient, PipelineSettings> {
  const { holder, target } = shape;
  const fields = {
    [holder.field]: z.string().min(1).describe(`Id of the ${holder.what}. Required. Changing it makes a new membership.`),
    [target.field]: z.string().min(1).describe(`Id of the ${target.what}. Required. Changing it makes a new membership.`),
  };
  const inputs = z.object({ ...fields, role: z.string().min(1).describe(`${shape.role} Required. Changed in place.`) }) as unknown as z.ZodType<Inputs<H, T>>;
  const outputs = z.object({
    ...fields,
    role: z.string().describe('The role the membership grants.'),
    id: z.string().describe(`<${holder.what}_id>:<${target.what}_id>.`),
    createdAt: z.string().optional().describe('When the membership was made (RFC 3339).'),
  }) as unknown as z.ZodType<Outputs<H, T>>;
  const listPath = (h: string) => `/${holder.path}/${encodeURIComponent(h)}/${target.path}`;
  const onePath = (h: string, t: string) => `${listPath(h)}/${encodeURIComponent(t)}`;
  const split = (id: string) => id.split(':') as [string, string];
  const toOutputs = (h: string, wire: WireMember): Outputs<H, T> => {
    const t = String(wire[target.wireKey]);
    return { id: `${h}:${t}`, [holder.field]: h, [target.field]: t, role: wire.role, ...(wire.created_at ? { createdAt: wire.created_at } : {}) } as Outputs<H, T>;
  };
  const readOne = async (ctx: Ctx, h: string, t: string) => {
    const found = await unlessGone(ctx.client.get<WireMember>(onePath(h, t)));
    return found && toOutputs(h, { ...found, [target.wireKey]: t });
  };

  return {
    token: shape.token,
    provider: 'pipeline',
    description: `${shape.description} Only the role changes in place. Import id: <${holder.what}_id>:<${target.what}_id> (e.g. ${holder.example}:${target.example}).`,
    inputs,
    outputs,
    replaceOn: [holder.field, target.field].map((path) => ({ path, reason: `a membership is addressed by its ${holder.what} and ${target.what}; the API's PATCH changes only its role` })),
    remoteManaged: ['createdAt'],
    importId: pairFormat(shape),

    async create(ctx, desired) {
      const [h, t] = [desired[holder.field], desired[target.field]];
      // A pair holds one membership: the pair present after a lost answer is the send's.
      const recover = () => unlessGone(ctx.client.get<WireMember>(onePath(h, t))).then((w) => w && { ...w, [target.wireKey]: t });
      const made = await ctx.client.write<WireMember>('POST', listPath(h), { [target.wireKey]: t, role: desired.role }, { recover });
      ctx.recordId(`${h}:${t}`);
      return { id: `${h}:${t}`, outputs: toOutputs(h, { ...made, [target.wireKey]: t }) };
    },

    read(ctx, id) {
      return readOne(ctx, ...split(id));
    },

    async readMany(ctx, targets) {
      const out = new Map<string, Outputs<H, T> | undefined>();
      const holders = new Set(targets.map((x) => split(x.id)[0]));
      for (const h of holders) {
        const members = await unlessGone(ctx.client.list<WireMember>(listPath(h)));
        for (const m of members ?? []) {
          const seen = toOutputs(h, m);
          if (targets.some((x) => x.id === seen.id)) out.set(seen.id, seen);
        }
      }
      return out;
    },

    async update(ctx, id, prior, desired) {
      const [h, t] = split(id);
      await ctx.client.write('PATCH', onePath(h, t), { role: desired.role });
      return { ...prior.outputs, role: desired.role };
    },

    async delete(ctx, id) {
      await deleteIfPresent(ctx, onePath(...split(id)));
    },

    async list(ctx) {
      const holders = await ctx.client.list<{ id: string }>(`/${holder.path}`);
      const out = [];
      for (const { id: h } of holders) {
        for (const m of (await unlessGone(ctx.client.list<WireMember>(listPath(h)))) ?? []) {
          const seen = toOutputs(h, m);
          out.push({ id: seen.id, outputs: seen });
        }
      }
      return out;
    },

    async findOwned(ctx, desired, order) {
      if (!desired) return undefined;
      const found = await readOne(ctx, desired[holder.field], desired[target.field]);
      return found && !order.recorded(found.id) ? { id: found.id, outputs: found } : undefined;
    },
  };
}
