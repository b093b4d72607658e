/** DestinationCertificates: the TLS certificates a destination trusts (`/destinations/{id}/certificates`), as a set by hash (trust-set.ts). */
import { trustSetType } from './trust-set.js';

/** The DestinationCertificates resource type. */
export const destinationCertificates = trustSetType(
  { holder: 'destination', kind: 'certificates', idField: 'destinationId', value: 'encodedCert', wireValue: 'encoded_cert' },
  'pipeline:index/destinationCertificates:DestinationCertificates',
  'decent_dropsy',
);
