/**
 * getDestinationFingerprints: the SSH host-key fingerprints approved for one destination.
 */
import * as z from 'zod';
import { idArg, pipelineLookup } from './shapes/lookup.js';
import { DESTINATION_OWNER, fingerprintsField, listFingerprints } from './shapes/trust.js';

/** Arguments of getDestinationFingerprints. */
export const getDestinationFingerprintsArgs = z.object({
  id: idArg('Id of the destination.'),
});

/** Result of getDestinationFingerprints. */
export const getDestinationFingerprintsResult = z
  .object({
    id: z.string().describe('The destination id, echoed.'),
    destinationId: z.string().describe('The destination id, as the upstream provider also reports it.'),
    fingerprints: fingerprintsField,
  })
  .describe('The SSH host-key fingerprints approved for a destination.');

/** Lists the approved items (GET /destinations/{id}/fingerprints, every page). */
export const getDestinationFingerprints = pipelineLookup({
  name: 'getDestinationFingerprints',
  description: 'All SSH host-key fingerprints approved for one destination.',
  args: getDestinationFingerprintsArgs,
  result: getDestinationFingerprintsResult,
  async call(client, args) {
    const fingerprints = await listFingerprints(client, 'getDestinationFingerprints', DESTINATION_OWNER, args.id);
    return { id: args.id, destinationId: args.id, fingerprints };
  },
});
