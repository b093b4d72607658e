/**
 * getDestinations: every destination of the account.
 */
import * as z from 'zod';
import { listDestinations } from '../../providers/pipeline/api/destinations.js';
import { destinationSummarySchema, toDestinationSummary } from './shapes/destination.js';
import { LIST_ID, listId, pipelineLookup } from './shapes/lookup.js';

/** Arguments of getDestinations: none. */
export const getDestinationsArgs = z.object({});

/** Result of getDestinations. */
export const getDestinationsResult = z
  .object({
    id: listId,
    destinations: z.array(destinationSummarySchema).describe('Every destination, in the order the API lists them (without config).'),
  })
  .describe('A list of destinations.');

/** Lists destinations (GET /destinations, every page). */
export const getDestinations = pipelineLookup({
  name: 'getDestinations',
  description: 'Every destination of the account.',
  args: getDestinationsArgs,
  result: getDestinationsResult,
  async call(client) {
    const items = await listDestinations(client);
    return { id: LIST_ID, destinations: items.map(toDestinationSummary) };
  },
});
