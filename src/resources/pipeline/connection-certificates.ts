/** ConnectionCertificates: the TLS certificates a connection trusts (`/connections/{id}/certificates`), as a set by hash (trust-set.ts). */
import { trustSetType } from './trust-set.js';

/** The ConnectionCertificates resource type. */
export const connectionCertificates = trustSetType(
  { holder: 'connection', kind: 'certificates', idField: 'connectionId', value: 'encodedCert', wireValue: 'encoded_cert' },
  'pipeline:index/connectionCertificates:ConnectionCertificates',
  'ample_kitten',
);
