/** DestinationFingerprints: the SSH host-key fingerprints a destination trusts (`/destinations/{id}/fingerprints`), as a set by hash (trust-set.ts). */
import { trustSetType } from './trust-set.js';

/** The DestinationFingerprints resource type. */
export const destinationFingerprints = trustSetType(
  { holder: 'destination', kind: 'fingerprints', idField: 'destinationId', value: 'publicKey', wireValue: 'public_key' },
  'pipeline:index/destinationFingerprints:DestinationFingerprints',
  'decent_dropsy',
);
