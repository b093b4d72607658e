/**
 * getWebhooks: every account and group webhook.
 */
import * as z from 'zod';
import { LIST_ID, listId, pipelineLookup } from './shapes/lookup.js';
import { timestamp } from './shapes/wire.js';

interface WireWebhook {
  id: string;
  type: string;
  group_id?: string | null;
  url: string;
  events?: string[] | null;
  active: boolean;
  secret?: string | null;
  created_at: string;
  created_by: string;
}

/** Arguments of getWebhooks: none. */
export const getWebhooksArgs = z.object({});

/** One webhook. */
export const webhookSchema = z
  .object({
    id: z.string().describe('Unique id of the webhook.'),
    type: z.string().describe('account (events of every group) or group.'),
    groupId: z.string().nullable().describe('Group of a group webhook; null for account webhooks.'),
    url: z.string().describe('Where events are posted.'),
    events: z.array(z.string()).describe('Events that trigger the webhook, e.g. sync_start, sync_end.'),
    active: z.boolean().describe('Whether events are sent.'),
    secret: z.string().nullable().describe('Signing secret, masked as "******" as the API returns it.'),
    createdAt: timestamp('When the webhook was created'),
    createdBy: z.string().describe('Id of the user who created it.'),
  })
  .describe('A webhook.');

/** Result of getWebhooks. */
export const getWebhooksResult = z
  .object({
    id: listId,
    webhooks: z.array(webhookSchema).describe('Every webhook, in the order the API lists them.'),
  })
  .describe('A list of webhooks.');

/** Lists webhooks (GET /webhooks, every page). */
export const getWebhooks = pipelineLookup({
  name: 'getWebhooks',
  description: 'Every account and group webhook, secrets masked.',
  args: getWebhooksArgs,
  result: getWebhooksResult,
  async call(client) {
    const items = await client.list<WireWebhook>('/webhooks');
    const webhooks = items.map((w) => ({
      id: w.id,
      type: w.type,
      groupId: w.group_id || null,
      url: w.url,
      events: w.events ?? [],
      active: w.active,
      secret: w.secret ?? null,
      createdAt: w.created_at,
      createdBy: w.created_by,
    }));
    return { id: LIST_ID, webhooks };
  },
});
