/**
 * getConnectors: the connector-era name of getConnections, without filters.
 */
import * as z from 'zod';
import { listConnections } from '../../providers/pipeline/api/connections.js';
import { connectionSummarySchema, toConnectionSummary } from './shapes/connection.js';
import { LIST_ID, listId, pipelineLookup } from './shapes/lookup.js';

/** Arguments of getConnectors: none. */
export const getConnectorsArgs = z.object({});

/** Result of getConnectors. */
export const getConnectorsResult = z
  .object({
    id: listId,
    connectors: z.array(connectionSummarySchema).describe('Every connector (connection) of the account, in the order the API lists them.'),
  })
  .describe('A list of connectors.');

/** Lists connectors (GET /connections, every page). */
export const getConnectors = pipelineLookup({
  name: 'getConnectors',
  description: 'Every connector (connection) of the account.',
  replacedBy: 'getConnections',
  args: getConnectorsArgs,
  result: getConnectorsResult,
  async call(client) {
    const items = await listConnections(client);
    return { id: LIST_ID, connectors: items.map(toConnectionSummary) };
  },
});
