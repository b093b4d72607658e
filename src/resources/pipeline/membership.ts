/**
 * What the five membership types share: a team's users, groups and connections, and a user's
 * groups and connections. Each membership is addressed by its holder and its target
 * (`/teams/{team_id}/users/{user_id}`), so its id, and import id, is `<holder>:<target>`; only
 * the role changes in place (PATCH), a new holder or target is a new membership. A membership is
 * unique per pair, so a create whose answer was lost is found by reading the pair.
 */
import * as z from 'zod';
import { UserError } from '../../kernel/errors.js';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import type { ImportIdFormat, ResourceType } from '../../engine/contracts/resource-type.js';
import { deleteIfPresent, findMade, unlessGone, type Ctx } from './kit.js';

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

type Type<H extends string, T extends string> = ResourceType<Inputs<H, T>, Outputs<H, T>, PipelineClient, PipelineSettings>;

/** Paths, ids and the reading of one membership collection. */
interface Addressing<H extends string, T extends string> {
  listPath(holder: string): string;
  onePath(holder: string, target: string): string;
  split(id: string): [string, string];
  toOutputs(holder: string, wire: WireMember): Outputs<H, T>;
  readOne(ctx: Ctx, holder: string, target: string): Promise<Outputs<H, T> | undefined>;
}

function addressing<H extends string, T extends string>({ holder, target }: MembershipShape<H, T>): Addressing<H, T> {
  const listPath = (h: string) => `/${holder.path}/${encodeURIComponent(h)}/${target.path}`;
  const onePath = (h: string, t: string) => `${listPath(h)}/${encodeURIComponent(t)}`;
  const toOutputs = (h: string, wire: WireMember): Outputs<H, T> => {
    const t = String(wire[target.wireKey]);
    return { id: `${h}:${t}`, [holder.field]: h, [target.field]: t, role: wire.role, ...(wire.created_at ? { createdAt: wire.created_at } : {}) } as Outputs<H, T>;
  };
  return {
    listPath,
    onePath,
    split: (id) => id.split(':') as [string, string],
    toOutputs,
    async readOne(ctx, h, t) {
      // A single membership's answer may omit the target's id: the path names it.
      const found = await unlessGone(ctx.client.get<WireMember>(onePath(h, t)));
      return found && toOutputs(h, { ...found, [target.wireKey]: t });
    },
  };
}

/** The input and output schemas of a membership. */
function schemas<H extends string, T extends string>({ holder, target, role }: MembershipShape<H, T>): Pick<Type<H, T>, 'inputs' | 'outputs'> {
  const fields = {
    [holder.field]: z.string().min(1).describe(`Id of the ${holder.what}. Required.`),
    [target.field]: z.string().min(1).describe(`Id of the ${target.what}. Required.`),
  };
  const inputs = z.object({ ...fields, role: z.string().min(1).describe(`${role} Required.`) });
  const outputs = z.object({
    ...fields,
    role: z.string().describe('The role the membership grants.'),
    id: z.string().describe(`<${holder.what}_id>:<${target.what}_id>.`),
    createdAt: z.string().optional().describe('When the membership was made (RFC 3339).'),
  });
  return { inputs: inputs as unknown as z.ZodType<Inputs<H, T>>, outputs: outputs as unknown as z.ZodType<Outputs<H, T>> };
}

/** Create, read, update and delete of one membership. */
function verbs<H extends string, T extends string>(shape: MembershipShape<H, T>, a: Addressing<H, T>): Pick<Type<H, T>, 'create' | 'read' | 'update' | 'delete'> {
  const { holder, target } = shape;
  const { findOwned } = searches(shape, a);
  return {
    async create(ctx, desired) {
      const [h, t] = [desired[holder.field], desired[target.field]];
      // A pair holds one membership: the pair present after a lost answer is the send's.
      const recover = () =>
        findMade(
          ctx,
          Date.now(),
          (order) => findOwned!(ctx, desired, order),
          () => ({ [target.wireKey]: t, role: desired.role }),
        );
      const made = await ctx.client.write<WireMember>('POST', a.listPath(h), { [target.wireKey]: t, role: desired.role }, { recover });
      ctx.recordId(`${h}:${t}`);
      return { id: `${h}:${t}`, outputs: a.toOutputs(h, { ...made, [target.wireKey]: t }) };
    },
    read: (ctx, id) => a.readOne(ctx, ...a.split(id)),
    async update(ctx, id, prior, desired) {
      // The API answers a role change with a message only: what it now holds is what was sent.
      await ctx.client.write('PATCH', a.onePath(...a.split(id)), { role: desired.role });
      return { ...prior.outputs, role: desired.role };
    },
    delete: (ctx, id) => deleteIfPresent(ctx, a.onePath(...a.split(id))),
  };
}

/** What reads memberships by the list: the bulk read, discovery, and finding a lost create. */
function searches<H extends string, T extends string>({ holder, target }: MembershipShape<H, T>, a: Addressing<H, T>): Pick<Type<H, T>, 'readMany' | 'list' | 'findOwned'> {
  const membersOf = async (ctx: Ctx, h: string) => ((await unlessGone(ctx.client.list<WireMember>(a.listPath(h)))) ?? []).map((m) => a.toOutputs(h, m));
  return {
    async readMany(ctx, targets) {
      const wanted = new Set(targets.map((x) => x.id));
      const out = new Map<string, Outputs<H, T> | undefined>();
      // One list per holder serves all of its memberships.
      for (const h of new Set(targets.map((x) => a.split(x.id)[0]))) for (const seen of await membersOf(ctx, h)) if (wanted.has(seen.id)) out.set(seen.id, seen);
      return out;
    },
    async list(ctx) {
      const holders = await ctx.client.list<{ id: string }>(`/${holder.path}`);
      const out = [];
      for (const { id } of holders) for (const seen of await membersOf(ctx, id)) out.push({ id: seen.id, outputs: seen });
      return out;
    },
    async findOwned(ctx, desired, order) {
      if (!desired) return undefined;
      const found = await a.readOne(ctx, desired[holder.field], desired[target.field]);
      return found && !order.recorded(found.id) ? { id: found.id, outputs: found } : undefined;
    },
  };
}

/** A membership resource type of this shape. */
export function membershipType<H extends string, T extends string>(shape: MembershipShape<H, T>): Type<H, T> {
  const { holder, target } = shape;
  const a = addressing(shape);
  return {
    token: shape.token,
    provider: 'pipeline',
    description: `${shape.description} Only the role changes in place. Import id: <${holder.what}_id>:<${target.what}_id> (e.g. ${holder.example}:${target.example}).`,
    ...schemas(shape),
    diff: {
      remoteManaged: ['createdAt'],
    },
    replace: {
      on: [holder.field, target.field].map((path) => ({ path, reason: `a membership is addressed by its ${holder.what} and ${target.what}; the API's PATCH changes only its role` })),
    },
    cost: { unpriced: 'not billed on its own' },
    importId: pairFormat(shape),
    ...verbs(shape, a),
    ...searches(shape, a),
  };
}
