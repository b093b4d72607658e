/**
 * getConnectorCertificates: the TLS certificates approved for one connection (connector-era name of getConnectionCertificates).
 */
import * as z from 'zod';
import { idArg, pipelineLookup } from './shapes/lookup.js';
import { CONNECTION_OWNER, certificatesField, listCertificates } from './shapes/trust.js';

/** Arguments of getConnectorCertificates. */
export const getConnectorCertificatesArgs = z.object({
  id: idArg('Id of the connection.'),
});

/** Result of getConnectorCertificates. */
export const getConnectorCertificatesResult = z
  .object({
    id: z.string().describe('The connection id, echoed.'),
    connectorId: z.string().describe('The connection id, as the upstream provider also reports it.'),
    certificates: certificatesField,
  })
  .describe('The TLS certificates approved for a connection.');

/** Lists the approved items (GET /connections/{id}/certificates, every page). */
export const getConnectorCertificates = pipelineLookup({
  name: 'getConnectorCertificates',
  description: 'All TLS certificates approved for one connection.',
  replacedBy: 'getConnectionCertificates',
  args: getConnectorCertificatesArgs,
  result: getConnectorCertificatesResult,
  async call(client, args) {
    const certificates = await listCertificates(client, 'getConnectorCertificates', CONNECTION_OWNER, args.id);
    return { id: args.id, connectorId: args.id, certificates };
  },
});
