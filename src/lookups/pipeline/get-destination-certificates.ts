/**
 * getDestinationCertificates: the TLS certificates approved for one destination.
 */
import * as z from 'zod';
import { idArg, pipelineLookup } from './shapes/lookup.js';
import { DESTINATION_OWNER, certificatesField, listCertificates } from './shapes/trust.js';

/** Arguments of getDestinationCertificates. */
export const getDestinationCertificatesArgs = z.object({
  id: idArg('Id of the destination.'),
});

/** Result of getDestinationCertificates. */
export const getDestinationCertificatesResult = z
  .object({
    id: z.string().describe('The destination id, echoed.'),
    destinationId: z.string().describe('The destination id, as the upstream provider also reports it.'),
    certificates: certificatesField,
  })
  .describe('The TLS certificates approved for a destination.');

/** Lists the approved items (GET /destinations/{id}/certificates, every page). */
export const getDestinationCertificates = pipelineLookup({
  name: 'getDestinationCertificates',
  description: 'All TLS certificates approved for one destination.',
  args: getDestinationCertificatesArgs,
  result: getDestinationCertificatesResult,
  async call(client, args) {
    const certificates = await listCertificates(client, 'getDestinationCertificates', DESTINATION_OWNER, args.id);
    return { id: args.id, destinationId: args.id, certificates };
  },
});
