/**
 * getConnectionFingerprints: the SSH host-key fingerprints approved for one connection.
 */
import * as z from 'zod';
import { idArg, pipelineLookup } from './shapes/lookup.js';
import { CONNECTION_OWNER, fingerprintsField, listFingerprints } from './shapes/trust.js';

/** Arguments of getConnectionFingerprints. */
export const getConnectionFingerprintsArgs = z.object({
  id: idArg('Id of the connection.'),
});

/** Result of getConnectionFingerprints. */
export const getConnectionFingerprintsResult = z
  .object({
    id: z.string().describe('The connection id, echoed.'),
    fingerprints: fingerprintsField,
  })
  .describe('The SSH host-key fingerprints approved for a connection.');

/** Lists the approved items (GET /connections/{id}/fingerprints, every page). */
export const getConnectionFingerprints = pipelineLookup({
  name: 'getConnectionFingerprints',
  description: 'All SSH host-key fingerprints approved for one connection.',
  args: getConnectionFingerprintsArgs,
  result: getConnectionFingerprintsResult,
  async call(client, args) {
    const fingerprints = await listFingerprints(client, 'getConnectionFingerprints', CONNECTION_OWNER, args.id);
    return { id: args.id, fingerprints };
  },
});
