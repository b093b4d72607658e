/**
 * getConnections: every connection of the account, optionally of one group, one schema name,
 * or one paused state.
 */
import * as z from 'zod';
import { listConnections } from '../../providers/pipeline/api/connections.js';
import { readGroup } from '../../providers/pipeline/api/groups.js';
import { connectionSummarySchema, toConnectionSummary } from './shapes/connection.js';
import { booleanArg, filterArg, LIST_ID, listId, orNotFound, pipelineLookup } from './shapes/lookup.js';

/** Arguments of getConnections. */
export const getConnectionsArgs = z.object({
  groupId: filterArg('Only connections of this group (sent to the API as group_id).'),
  schemaName: filterArg('Only the connection with exactly this name / destination schema (sent as schema; no partial match).'),
  paused: booleanArg('Only paused (true) or only active (false) connections; applied by plumb after listing, the API has no such filter.'),
});

/** Result of getConnections. */
export const getConnectionsResult = z
  .object({
    id: listId,
    groupId: z.string().optional().describe('The groupId filter, echoed.'),
    schemaName: z.string().optional().describe('The schemaName filter, echoed.'),
    paused: z.boolean().optional().describe('The paused filter, echoed.'),
    connections: z.array(connectionSummarySchema).describe('Matching connections, in the order the API lists them (without status or config).'),
  })
  .describe('A list of connections.');

/** Lists connections (GET /connections, every page). */
export const getConnections = pipelineLookup({
  name: 'getConnections',
  description: 'Every connection of the account, filtered by group, schema name or paused state.',
  args: getConnectionsArgs,
  result: getConnectionsResult,
  async call(client, args) {
    const items = await listConnections(client, { group_id: args.groupId, schema: args.schemaName });
    // An empty answer cannot tell a mistyped group from an empty one; one more call can, and a
    // typo should fail loudly rather than report "no connections".
    if (items.length === 0 && args.groupId) {
      await orNotFound('getConnections', 'group', args.groupId, () => readGroup(client, args.groupId!));
    }
    const connections = items.map(toConnectionSummary).filter((c) => args.paused === undefined || c.paused === args.paused);
    return { id: LIST_ID, ...args, connections };
  },
});
