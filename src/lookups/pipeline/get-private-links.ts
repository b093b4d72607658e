/**
 * getPrivateLinks: every private link of the account.
 */
import * as z from 'zod';
import { privateLinkSummarySchema, toPrivateLinkSummary, type WirePrivateLink } from './shapes/agents.js';
import { LIST_ID, listId, pipelineLookup } from './shapes/lookup.js';

/** Arguments of getPrivateLinks: none. */
export const getPrivateLinksArgs = z.object({});

/** Result of getPrivateLinks. */
export const getPrivateLinksResult = z
  .object({
    id: listId,
    items: z.array(privateLinkSummarySchema).describe('Every private link, in the order the API lists them (without config).'),
  })
  .describe('A list of private links.');

/** Lists private links (GET /private-links, every page). */
export const getPrivateLinks = pipelineLookup({
  name: 'getPrivateLinks',
  description: 'Every private link of the account, with its state.',
  args: getPrivateLinksArgs,
  result: getPrivateLinksResult,
  async call(client) {
    const items = await client.list<WirePrivateLink>('/private-links');
    return { id: LIST_ID, items: items.map(toPrivateLinkSummary) };
  },
});
