/**
 * getQuickstartPackage: one quickstart transformation package definition by id.
 */
import * as z from 'zod';
import { idArg, orNotFound, pipelineLookup, seg } from './shapes/lookup.js';
import { packageSchema, toPackage, type WirePackage } from './shapes/packages.js';

/** Arguments of getQuickstartPackage. */
export const getQuickstartPackageArgs = z.object({
  id: idArg('Id of the package definition.'),
});

/** Result of getQuickstartPackage. */
export const getQuickstartPackageResult = packageSchema;

/** Looks up one package (GET /transformations/package-metadata/{id}). */
export const getQuickstartPackage = pipelineLookup({
  name: 'getQuickstartPackage',
  description: 'One quickstart transformation package: version, connector types, output models and configurable variables.',
  args: getQuickstartPackageArgs,
  result: getQuickstartPackageResult,
  async call(client, args) {
    const wire = await orNotFound('getQuickstartPackage', 'quickstart package', args.id, () => client.get<WirePackage>(`/transformations/package-metadata/${seg(args.id)}`));
    return toPackage(wire);
  },
});
