/**
 * getConnector: the connector-era name of getConnection, with the service config added
 * (secrets masked as the API masks them).
 */
import * as z from 'zod';
import { freeForm } from '../../engine/contracts/strict.js';
import { connectionFields, fetchConnection, statusOf, toConnectionSummary } from './shapes/connection.js';
import { connectionStatusSchema, destinationSchemaArg, destinationSchemaSchema, toDestinationSchema } from './shapes/connection-status.js';
import { idArg, pipelineLookup } from './shapes/lookup.js';
import { camelKeys, configSchema } from './shapes/wire.js';

/** Arguments of getConnector. */
export const getConnectorArgs = z.object({
  id: idArg('Id of the connector (connection).'),
  config: freeForm(z.record(z.string(), z.unknown()), 'a block of the upstream provider, accepted and ignored')
    .optional()
    .describe('Accepted for compatibility with the upstream provider, where the block is also an input; ignored, the result reports the API config.'),
  destinationSchema: destinationSchemaArg,
  status: freeForm(z.record(z.string(), z.unknown()), 'a block of the upstream provider, accepted and ignored')
    .optional()
    .describe('Accepted for compatibility with the upstream provider; ignored, the result reports the API status.'),
});

/** Result of getConnector. */
export const getConnectorResult = z
  .object({
    ...connectionFields,
    destinationSchema: destinationSchemaSchema,
    status: connectionStatusSchema,
    config: configSchema,
  })
  .describe('A connector with its status and config.');

/** Looks up one connector (GET /connections/{id}). */
export const getConnector = pipelineLookup({
  name: 'getConnector',
  description: 'One connector: the connection fields plus its service config, secrets masked.',
  replacedBy: 'getConnection',
  args: getConnectorArgs,
  result: getConnectorResult,
  async call(client, args) {
    const wire = await fetchConnection(client, 'getConnector', args.id);
    return {
      ...toConnectionSummary(wire),
      destinationSchema: toDestinationSchema(wire.service, wire.schema, args.destinationSchema),
      status: statusOf(wire),
      config: camelKeys(wire.config ?? {}) as Record<string, unknown>,
    };
  },
});
