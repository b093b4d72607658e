/**
 * getConnectorFingerprints: the SSH host-key fingerprints approved for one connection (connector-era name of getConnectionFingerprints).
 */
import * as z from 'zod';
import { idArg, pipelineLookup } from './shapes/lookup.js';
import { CONNECTION_OWNER, fingerprintsField, listFingerprints } from './shapes/trust.js';

/** Arguments of getConnectorFingerprints. */
export const getConnectorFingerprintsArgs = z.object({
  id: idArg('Id of the connection.'),
});

/** Result of getConnectorFingerprints. */
export const getConnectorFingerprintsResult = z
  .object({
    id: z.string().describe('The connection id, echoed.'),
    connectorId: z.string().describe('The connection id, as the upstream provider also reports it.'),
    fingerprints: fingerprintsField,
  })
  .describe('The SSH host-key fingerprints approved for a connection.');

/** Lists the approved items (GET /connections/{id}/fingerprints, every page). */
export const getConnectorFingerprints = pipelineLookup({
  name: 'getConnectorFingerprints',
  description: 'All SSH host-key fingerprints approved for one connection.',
  replacedBy: 'getConnectionFingerprints',
  args: getConnectorFingerprintsArgs,
  result: getConnectorFingerprintsResult,
  async call(client, args) {
    const fingerprints = await listFingerprints(client, 'getConnectorFingerprints', CONNECTION_OWNER, args.id);
    return { id: args.id, connectorId: args.id, fingerprints };
  },
});
