/**
 * getConnectionSchemas: the schemas and tables of a connection's source, as its schema config
 * shows them.
 */
import * as z from 'zod';
import { idArg, orNotFound, pipelineLookup, seg } from './shapes/lookup.js';

interface WireSchemas {
  schemas?: Record<string, { enabled: boolean; tables?: Record<string, { enabled: boolean }> }>;
}

/** Arguments of getConnectionSchemas. */
export const getConnectionSchemasArgs = z.object({
  id: idArg('Id of the connection.'),
});

/** One schema of the source. */
const schemaEntry = z
  .object({
    name: z.string().describe('Its name in the source (case-sensitive).'),
    enabled: z.boolean().describe('Whether it syncs.'),
    tables: z.array(z.object({ name: z.string().describe('Its name in the source.'), enabled: z.boolean().describe('Whether it syncs.') })).describe('Its tables.'),
  })
  .describe('A schema of the source.');

/** Result of getConnectionSchemas. */
export const getConnectionSchemasResult = z
  .object({
    id: z.string().describe('The connection id, echoed.'),
    schemas: z.array(schemaEntry).describe('Every schema the source has, as last captured, with its tables.'),
  })
  .describe("The schemas and tables of a connection's source.");

/** Looks up the source's schemas (GET /connections/{id}/schemas). */
export const getConnectionSchemas = pipelineLookup({
  name: 'getConnectionSchemas',
  description: "The schemas and tables of a connection's source, as last captured (a connection whose schema was never captured is not found).",
  args: getConnectionSchemasArgs,
  result: getConnectionSchemasResult,
  async call(client, args) {
    const data = await orNotFound('getConnectionSchemas', 'connection schema', args.id, () => client.get<WireSchemas>(`/connections/${seg(args.id)}/schemas`));
    const schemas = Object.entries(data.schemas ?? {}).map(([name, s]) => ({
      name,
      enabled: s.enabled,
      tables: Object.entries(s.tables ?? {}).map(([table, t]) => ({ name: table, enabled: t.enabled })),
    }));
    return { id: args.id, schemas };
  },
});
