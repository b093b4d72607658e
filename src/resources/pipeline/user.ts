/**
 * User: a person invited to the account (`POST /v1/users`); they accept by email. Names, phone,
 * picture and account role change in place (PATCH; a phone or picture taken out of the manifest
 * is cleared). The email cannot change: a new email is a new invitation. Emails are unique in
 * an account, so a create whose answer was lost is found again by its email. Imported by its id.
 */
import * as z from 'zod';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import { listUsers, readUser, userPath as path, type WireUser } from '../../providers/pipeline/api/users.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { apiIdFormat, byId, deleteIfPresent, findMade, onlyCandidate, unlessGone, type Ctx } from './kit.js';

/** Inputs of a user. */
export const userInputs = z.object({
  email: z.string().email().describe('Email the invitation goes to. Required.'),
  givenName: z.string().min(1).describe('Given name. Required.'),
  familyName: z.string().min(1).describe('Family name. Required.'),
  phone: z
    .string()
    .regex(/^\+?[0-9 ()-]{4,30}$/, 'must be a phone number, e.g. +1 415 555 0100')
    .optional()
    .describe('Phone number.'),
  picture: z
    .string()
    .regex(/^(https?:\/\/|data:image\/)/, 'must be a URL or a data URI')
    .optional()
    .describe('Picture: a URL or a data URI.'),
  role: z.string().min(1).optional().describe("Account role, e.g. `Account Analyst` (see the getRoles lookup). Default: the API's (`Account Reviewer`)."),
});

/** Inputs of a user. */
export type UserInputs = z.output<typeof userInputs>;

/** What the API reports about a user. */
export const userOutputs = userInputs.extend({
  id: z.string().describe('User id.'),
  verified: z.boolean().describe('Whether the user has verified the email.'),
  invited: z.boolean().describe('Whether the user was invited and has not accepted yet.'),
  active: z.boolean().describe('Whether the user is active.'),
  createdAt: z.string().describe('When the user was invited (RFC 3339).'),
});

/** Observed user. */
export type UserOutputs = z.output<typeof userOutputs>;

function toOutputs(u: WireUser): UserOutputs {
  return {
    id: u.id,
    email: u.email,
    // The API may leave a name out (a user invited elsewhere without one): it reads as empty.
    givenName: u.given_name ?? '',
    familyName: u.family_name ?? '',
    ...(u.phone ? { phone: u.phone } : {}),
    ...(u.picture ? { picture: u.picture } : {}),
    role: u.role,
    verified: u.verified,
    invited: u.invited ?? false,
    active: u.active,
    createdAt: u.created_at,
  };
}

/** Users of this email made since `earliestMs` that state does not hold (the lost invite's). */
async function invitedSince(ctx: Ctx, email: string, earliestMs: number, recorded: (id: string) => boolean): Promise<WireUser[]> {
  const users = await listUsers(ctx.client);
  return users.filter((u) => u.email.toLowerCase() === email.toLowerCase() && Date.parse(u.created_at) >= earliestMs && !recorded(u.id));
}

/** The PATCH body: each changed field, a phone or picture taken out sent as null (clears it). */
function patch(prior: UserInputs, desired: UserInputs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields: Array<[keyof UserInputs, string]> = [
    ['givenName', 'given_name'],
    ['familyName', 'family_name'],
    ['phone', 'phone'],
    ['picture', 'picture'],
    ['role', 'role'],
  ];
  for (const [key, wire] of fields) {
    if (desired[key] === prior[key]) continue;
    if (desired[key] !== undefined) out[wire] = desired[key];
    else if (key === 'phone' || key === 'picture') out[wire] = null;
  }
  return out;
}

/** The User resource type. */
export const user: ResourceType<UserInputs, UserOutputs, PipelineClient, PipelineSettings> = {
  token: 'pipeline:index/user:User',
  provider: 'pipeline',
  description: 'A user invited to the account. Names, phone, picture and role change in place; a new email is a new user. Import id: <user_id> (e.g. nimble_heron).',
  inputs: userInputs,
  outputs: userOutputs,
  diff: {
    computedInputs: ['role'],
    remoteManaged: ['verified', 'invited', 'active', 'createdAt'],
  },
  replace: {
    on: [{ path: 'email', reason: "the API cannot change a user's email (the update body has none): a new email is a new invitation" }],
  },
  cost: { unpriced: 'not billed on its own' },
  importId: apiIdFormat('user', 'nimble_heron'),

  async create(ctx, inputs) {
    const started = Date.now();
    const sent = { email: inputs.email, given_name: inputs.givenName, family_name: inputs.familyName, phone: inputs.phone, picture: inputs.picture, role: inputs.role };
    // Emails are unique: a user of this email invited since the send is the send's.
    const recover = () =>
      findMade(
        ctx,
        started,
        (order) => user.findOwned!(ctx, inputs, order),
        (made) => readUser(ctx.client, made.id),
      );
    const made = await ctx.client.write<WireUser>('POST', '/users', sent, { recover });
    ctx.recordId(made.id);
    return { id: made.id, outputs: toOutputs(made) };
  },

  async read(ctx, id) {
    const found = await unlessGone(readUser(ctx.client, id));
    return found && toOutputs(found);
  },

  async readMany(ctx, targets) {
    const listed = byId(await listUsers(ctx.client));
    const out = new Map<string, UserOutputs | undefined>();
    for (const { id } of targets) {
      const found = listed.get(id);
      if (found) out.set(id, toOutputs(found));
    }
    return out;
  },

  async update(ctx, id, prior, desired) {
    const updated = await ctx.client.write<WireUser>('PATCH', path(id), patch(prior.inputs, desired));
    return toOutputs(updated);
  },

  async delete(ctx, id) {
    await deleteIfPresent(ctx, path(id));
  },

  async list(ctx) {
    return (await listUsers(ctx.client)).map((u) => ({ id: u.id, outputs: toOutputs(u) }));
  },

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = onlyCandidate(`user invited as ${inputs.email}`, await invitedSince(ctx, inputs.email, order.earliestMs, order.recorded));
    return found && { id: found.id, outputs: toOutputs(found) };
  },
};
