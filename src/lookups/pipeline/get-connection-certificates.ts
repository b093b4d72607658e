/**
 * getConnectionCertificates: the TLS certificates approved for one connection.
 */
import * as z from 'zod';
import { idArg, pipelineLookup } from './shapes/lookup.js';
import { CONNECTION_OWNER, certificatesField, listCertificates } from './shapes/trust.js';

/** Arguments of getConnectionCertificates. */
export const getConnectionCertificatesArgs = z.object({
  id: idArg('Id of the connection.'),
});

/** Result of getConnectionCertificates. */
export const getConnectionCertificatesResult = z
  .object({
    id: z.string().describe('The connection id, echoed.'),
    certificates: certificatesField,
  })
  .describe('The TLS certificates approved for a connection.');

/** Lists the approved items (GET /connections/{id}/certificates, every page). */
export const getConnectionCertificates = pipelineLookup({
  name: 'getConnectionCertificates',
  description: 'All TLS certificates approved for one connection.',
  args: getConnectionCertificatesArgs,
  result: getConnectionCertificatesResult,
  async call(client, args) {
    const certificates = await listCertificates(client, 'getConnectionCertificates', CONNECTION_OWNER, args.id);
    return { id: args.id, certificates };
  },
});
