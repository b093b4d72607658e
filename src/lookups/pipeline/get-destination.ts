/**
 * getDestination: one destination by id, with its service config (secrets masked as the API
 * masks them).
 */
import * as z from 'zod';
import { readDestination } from '../../providers/pipeline/api/destinations.js';
import { freeForm } from '../../engine/contracts/strict.js';
import { destinationFields, toDestinationSummary } from './shapes/destination.js';
import { idArg, orNotFound, pipelineLookup } from './shapes/lookup.js';
import { camelKeys, configSchema } from './shapes/wire.js';

/** Arguments of getDestination. */
export const getDestinationArgs = z.object({
  id: idArg('Id of the destination (the same as its group id).'),
  config: freeForm(z.record(z.string(), z.unknown()), 'a block of the upstream provider, accepted and ignored')
    .optional()
    .describe('Accepted for compatibility with the upstream provider, where the block is also an input; ignored, the result reports the API config.'),
});

/** Result of getDestination. */
export const getDestinationResult = z.object({ ...destinationFields, config: configSchema }).describe('A destination with its config.');

/** Looks up one destination (GET /destinations/{id}). */
export const getDestination = pipelineLookup({
  name: 'getDestination',
  description: 'One destination: service, region, time zone, setup status, networking and config.',
  args: getDestinationArgs,
  result: getDestinationResult,
  async call(client, args) {
    const wire = await orNotFound('getDestination', 'destination', args.id, () => readDestination(client, args.id));
    return { ...toDestinationSummary(wire), config: camelKeys(wire.config ?? {}) as Record<string, unknown> };
  },
});
