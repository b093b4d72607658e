/**
 * getConnection: one connection by id, with its status and where it writes in the destination.
 */
import * as z from 'zod';
import { freeForm } from '../../engine/contracts/strict.js';
import { connectionFields, fetchConnection, statusOf, toConnectionSummary } from './shapes/connection.js';
import { connectionStatusSchema, destinationSchemaArg, destinationSchemaSchema, toDestinationSchema } from './shapes/connection-status.js';
import { idArg, pipelineLookup } from './shapes/lookup.js';

/** Arguments of getConnection. */
export const getConnectionArgs = z.object({
  id: idArg('Id of the connection.'),
  destinationSchema: destinationSchemaArg,
  status: freeForm(z.record(z.string(), z.unknown()), 'a block of the upstream provider, accepted and ignored')
    .optional()
    .describe('Accepted for compatibility with the upstream provider, where the block is also an input; ignored, the result reports the API status.'),
});

/** Result of getConnection. */
export const getConnectionResult = z
  .object({
    ...connectionFields,
    destinationSchema: destinationSchemaSchema,
    status: connectionStatusSchema,
  })
  .describe('A connection with its status.');

/** Looks up one connection (GET /connections/{id}). */
export const getConnection = pipelineLookup({
  name: 'getConnection',
  description: 'One connection: schedule, data-delay settings, networking, destination schema and status.',
  args: getConnectionArgs,
  result: getConnectionResult,
  async call(client, args) {
    const wire = await fetchConnection(client, 'getConnection', args.id);
    return {
      ...toConnectionSummary(wire),
      destinationSchema: toDestinationSchema(wire.service, wire.schema, args.destinationSchema),
      status: statusOf(wire),
    };
  },
});
