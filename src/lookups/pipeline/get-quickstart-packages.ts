/**
 * getQuickstartPackages: every quickstart transformation package definition.
 */
import * as z from 'zod';
import { LIST_ID, listId, pipelineLookup } from './shapes/lookup.js';
import { packageSchema, toPackage, type WirePackage } from './shapes/packages.js';

/** Arguments of getQuickstartPackages: none. */
export const getQuickstartPackagesArgs = z.object({});

/** Result of getQuickstartPackages. */
export const getQuickstartPackagesResult = z
  .object({
    id: listId,
    packages: z.array(packageSchema).describe('Every package definition, in the order the API lists them.'),
  })
  .describe('A list of quickstart packages.');

/** Lists packages (GET /transformations/package-metadata, every page). */
export const getQuickstartPackages = pipelineLookup({
  name: 'getQuickstartPackages',
  description: 'Every quickstart transformation package definition.',
  args: getQuickstartPackagesArgs,
  result: getQuickstartPackagesResult,
  async call(client) {
    const items = await client.list<WirePackage>('/transformations/package-metadata');
    return { id: LIST_ID, packages: items.map(toPackage) };
  },
});
