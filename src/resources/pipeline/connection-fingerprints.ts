/** ConnectionFingerprints: the SSH host-key fingerprints a connection trusts (`/connections/{id}/fingerprints`), as a set by hash (trust-set.ts). */
import { trustSetType } from './trust-set.js';

/** The ConnectionFingerprints resource type. */
export const connectionFingerprints = trustSetType(
  { holder: 'connection', kind: 'fingerprints', idField: 'connectionId', value: 'publicKey', wireValue: 'public_key' },
  'pipeline:index/connectionFingerprints:ConnectionFingerprints',
  'ample_kitten',
);
