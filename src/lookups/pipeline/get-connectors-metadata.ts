/**
 * getConnectorsMetadata: the catalogue of connector (source) types.
 */
import * as z from 'zod';
import { LIST_ID, listId, pipelineLookup } from './shapes/lookup.js';

interface WireConnectorType {
  id: string;
  name: string;
  type: string;
  description?: string | null;
  icon_url?: string | null;
  link_to_docs?: string | null;
  link_to_erd?: string | null;
}

/** Arguments of getConnectorsMetadata: none. */
export const getConnectorsMetadataArgs = z.object({});

/** One connector type. */
export const sourceSchema = z
  .object({
    id: z.string().describe("Service id, the value of a connection's service field."),
    name: z.string().describe('Display name.'),
    type: z.string().describe('Category, e.g. Database, Marketing, File.'),
    description: z.string().describe('What the connector syncs.'),
    iconUrl: z.string().nullable().describe('URL of the icon.'),
    linkToDocs: z.string().nullable().describe('URL of the documentation.'),
    linkToErd: z.string().nullable().describe('URL of the schema (ERD) documentation.'),
  })
  .describe('A connector type.');

/** Result of getConnectorsMetadata. */
export const getConnectorsMetadataResult = z
  .object({
    id: listId,
    sources: z.array(sourceSchema).describe('Every connector type, in the order the API lists them.'),
  })
  .describe('The connector type catalogue.');

/** Lists connector types (GET /metadata/connector-types, every page). */
export const getConnectorsMetadata = pipelineLookup({
  name: 'getConnectorsMetadata',
  description: 'The catalogue of connector types: display name, category, icon and documentation links.',
  args: getConnectorsMetadataArgs,
  result: getConnectorsMetadataResult,
  async call(client) {
    const items = await client.list<WireConnectorType>('/metadata/connector-types');
    const sources = items.map((s) => ({
      id: s.id,
      name: s.name,
      type: s.type,
      description: s.description ?? '',
      iconUrl: s.icon_url || null,
      linkToDocs: s.link_to_docs || null,
      linkToErd: s.link_to_erd || null,
    }));
    return { id: LIST_ID, sources };
  },
});
