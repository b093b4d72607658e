/**
 * getGroupConnections: the connections of one group, with their status.
 */
import * as z from 'zod';
import { listGroupConnections } from '../../providers/pipeline/api/connections.js';
import { connectionFields, statusOf, toConnectionSummary } from './shapes/connection.js';
import { connectionStatusSchema } from './shapes/connection-status.js';
import { filterArg, idArg, orNotFound, pipelineLookup } from './shapes/lookup.js';

/** Arguments of getGroupConnections. */
export const getGroupConnectionsArgs = z.object({
  id: idArg('Id of the group.'),
  schema: filterArg('Only the connection with exactly this schema name (sent to the API, unlike the upstream provider which ignores it).'),
});

/** Result of getGroupConnections. */
export const getGroupConnectionsResult = z
  .object({
    id: z.string().describe('The group id, echoed.'),
    schema: z.string().optional().describe('The schema filter, echoed.'),
    connections: z
      .array(z.object({ ...connectionFields, status: connectionStatusSchema }).describe('A connection with its status.'))
      .describe('Connections of the group, in the order the API lists them.'),
  })
  .describe('The connections of a group.');

/** Lists a group's connections (GET /groups/{id}/connections, every page). */
export const getGroupConnections = pipelineLookup({
  name: 'getGroupConnections',
  description: 'The connections of one group, each with its status.',
  args: getGroupConnectionsArgs,
  result: getGroupConnectionsResult,
  async call(client, args) {
    const items = await orNotFound('getGroupConnections', 'group', args.id, () => listGroupConnections(client, args.id, { schema: args.schema }));
    return { id: args.id, schema: args.schema, connections: items.map((c) => ({ ...toConnectionSummary(c), status: statusOf(c) })) };
  },
});
