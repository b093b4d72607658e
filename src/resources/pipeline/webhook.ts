/**
 * Webhook: where the platform posts events (sync start and end, failures...), for the whole
 * account (`POST /v1/webhooks/account`) or one group (`POST /v1/webhooks/group/{group_id}`).
 * url, events, active and the signing secret change in place (PATCH); the group is fixed at
 * creation. The API reads the secret back masked, so it is never compared: the manifest's
 * stands (sealed in state, `[secret]` in plans), and an imported webhook takes the manifest's.
 * Events are a set. A create whose answer was lost is found by its url and scope, made since
 * the send. Imported by its id.
 */
import * as z from 'zod';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import { reveal } from '../../kernel/values.js';
import { defaultsAsDeclared, unreportedFromManifest } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { oneOfText } from '../schema.js';
import { apiIdFormat, byId, deleteIfPresent, findMade, onlyCandidate, sameMeaning, unlessGone, type Ctx } from './kit.js';

/** The events the API lets a webhook subscribe to (its WebhookRequest's events); any other is refused. */
export const WEBHOOK_EVENTS = [
  'sync_start',
  'sync_end',
  'status',
  'connection_successful',
  'connection_failure',
  'create_connector',
  'pause_connector',
  'resume_connector',
  'edit_connector',
  'delete_connector',
  'force_update_connector',
  'resync_connector',
  'resync_table',
  'dbt_run_start',
  'dbt_run_succeeded',
  'dbt_run_failed',
  'transformation_run_start',
  'transformation_run_succeeded',
  'transformation_run_failed',
] as const;

/** Inputs of a webhook. */
export const webhookInputs = z.object({
  groupId: z.string().min(1).optional().describe('Id of the group whose events it receives; leave out for an account webhook.'),
  url: z
    .string()
    .regex(/^https?:\/\/[^\s/]+/, 'must be an http(s) URL')
    .describe('Where events are posted. Required.'),
  events: z
    .array(oneOfText(WEBHOOK_EVENTS, 'An event the API posts.'))
    .min(1)
    .describe(`Events to post, each one of ${WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(', ')}. Required; a set (order does not matter).`),
  active: z.boolean().optional().describe('Whether events are posted. Default: true.'),
  secret: z.string().min(1).optional().describe('Secret the payloads are signed with. Sealed; the API never shows it, so a change made elsewhere is not seen.'),
});

/** Inputs of a webhook. */
export type WebhookInputs = z.output<typeof webhookInputs>;

/** What the API reports about a webhook (never its secret). */
export const webhookOutputs = webhookInputs.omit({ secret: true }).extend({
  id: z.string().describe('Webhook id.'),
  type: z.enum(['account', 'group']).describe('`account` or `group`.'),
  createdAt: z.string().describe('When the webhook was made (RFC 3339).'),
  createdBy: z.string().describe('Id of the user whose key made it.'),
});

/** Observed webhook. */
export type WebhookOutputs = z.output<typeof webhookOutputs>;

interface WireWebhook {
  id: string;
  type: 'account' | 'group';
  group_id: string | null;
  url: string;
  events: string[];
  active: boolean;
  created_at: string;
  created_by: string;
}

/** What the API reports, the events in the manifest's order where they are the same set. */
function toOutputs(w: WireWebhook, declared?: WebhookInputs): WebhookOutputs {
  const events = declared && sameMeaning(declared.events, w.events) ? declared.events : w.events;
  return { id: w.id, type: w.type, ...(w.group_id ? { groupId: w.group_id } : {}), url: w.url, events, active: w.active, createdAt: w.created_at, createdBy: w.created_by };
}

const path = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

/** Webhooks of this url and scope made since `earliestMs` that state does not hold. */
async function madeSince(ctx: Ctx, inputs: WebhookInputs, earliestMs: number, recorded: (id: string) => boolean): Promise<WireWebhook[]> {
  const hooks = await ctx.client.list<WireWebhook>('/webhooks');
  return hooks.filter((w) => w.url === inputs.url && (w.group_id ?? undefined) === inputs.groupId && Date.parse(w.created_at) >= earliestMs && !recorded(w.id));
}

/** The Webhook resource type. */
export const webhook: ResourceType<WebhookInputs, WebhookOutputs, PipelineClient, PipelineSettings> = {
  token: 'pipeline:index/webhook:Webhook',
  provider: 'pipeline',
  description: 'An account or group webhook. url, events, active and secret change in place; the secret is sealed and never read back. Import id: <webhook_id> (e.g. fancy_llama).',
  inputs: webhookInputs,
  outputs: webhookOutputs,
  secrets: {
    paths: ['secret'],
  },
  diff: {
    remoteManaged: ['type', 'createdAt', 'createdBy'],
    asDeclared(recorded, _outputs, desired, origin) {
      return defaultsAsDeclared(unreportedFromManifest(recorded, desired, ['secret'], origin), desired, { active: true });
    },
  },
  replace: {
    on: [{ path: 'groupId', reason: "a webhook's scope is fixed at creation: account and group webhooks are made on different paths and the API's PATCH takes no group" }],
  },
  cost: { unpriced: 'not billed on its own' },
  importId: apiIdFormat('webhook', 'fancy_llama'),

  async create(ctx, inputs) {
    const started = Date.now();
    const where = inputs.groupId ? `/webhooks/group/${encodeURIComponent(inputs.groupId)}` : '/webhooks/account';
    const sent = { url: inputs.url, events: inputs.events, active: inputs.active ?? true, ...(inputs.secret ? { secret: reveal(inputs.secret) } : {}) };
    const recover = () =>
      findMade(
        ctx,
        started,
        (order) => webhook.findOwned!(ctx, inputs, order),
        (made) => ctx.client.get<WireWebhook>(path(made.id)),
      );
    const made = await ctx.client.write<WireWebhook>('POST', where, sent, { recover });
    ctx.recordId(made.id);
    return { id: made.id, outputs: toOutputs(made, inputs) };
  },

  async read(ctx, id, prior) {
    const found = await unlessGone(ctx.client.get<WireWebhook>(path(id)));
    return found && toOutputs(found, prior?.inputs);
  },

  async readMany(ctx, targets) {
    const listed = byId(await ctx.client.list<WireWebhook>('/webhooks'));
    const out = new Map<string, WebhookOutputs | undefined>();
    for (const { id, prior } of targets) {
      const found = listed.get(id);
      if (found) out.set(id, toOutputs(found, prior?.inputs));
    }
    return out;
  },

  async update(ctx, id, prior, desired) {
    const sent: Record<string, unknown> = {};
    if (desired.url !== prior.inputs.url) sent.url = desired.url;
    if (!sameMeaning(desired.events, prior.inputs.events)) sent.events = desired.events;
    if ((desired.active ?? true) !== (prior.inputs.active ?? true)) sent.active = desired.active ?? true;
    if (reveal(desired.secret) !== reveal(prior.inputs.secret)) sent.secret = reveal(desired.secret) ?? null;
    const updated = await ctx.client.write<WireWebhook>('PATCH', path(id), sent);
    return toOutputs(updated, desired);
  },

  async delete(ctx, id) {
    await deleteIfPresent(ctx, path(id));
  },

  async list(ctx) {
    return (await ctx.client.list<WireWebhook>('/webhooks')).map((w) => ({ id: w.id, outputs: toOutputs(w) }));
  },

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = onlyCandidate(`webhook to ${inputs.url}`, await madeSince(ctx, inputs, order.earliestMs, order.recorded));
    return found && { id: found.id, outputs: toOutputs(found, inputs) };
  },
};
