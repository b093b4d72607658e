/**
 * Approved TLS certificates and SSH fingerprints: one shape each, shared by the connection,
 * connector and destination lookups, and the paged calls that fetch them.
 */
import * as z from 'zod';
import type { PipelineClient } from '../../../providers/pipeline/client.js';
import { orNotFound, seg } from './lookup.js';

/** Whose trust list to read: the API path prefix and the noun used in errors. */
export type TrustOwner = { collection: 'connections'; entity: 'connection' } | { collection: 'destinations'; entity: 'destination' };

/** Owner of connection (and connector) trust lists. */
export const CONNECTION_OWNER: TrustOwner = { collection: 'connections', entity: 'connection' };
/** Owner of destination trust lists. */
export const DESTINATION_OWNER: TrustOwner = { collection: 'destinations', entity: 'destination' };

interface WireCertificate {
  hash: string;
  public_key: string;
  name: string;
  type: string;
  sha1: string;
  sha256: string;
  validated_by: string;
  validated_date: string;
}

interface WireFingerprint {
  hash: string;
  public_key: string;
  validated_by: string;
  validated_date: string;
}

/** One approved certificate. */
export const certificateSchema = z
  .object({
    hash: z.string().describe('Hash that identifies the certificate.'),
    publicKey: z.string().describe('Public key of the certificate (PEM).'),
    name: z.string().describe('Subject name of the certificate.'),
    type: z.string().describe('Certificate type, e.g. TLS.'),
    sha1: z.string().describe('SHA-1 digest of the certificate.'),
    sha256: z.string().describe('SHA-256 digest of the certificate.'),
    validatedBy: z.string().describe('Id of the user who approved it.'),
    validatedDate: z.string().describe('When it was approved.'),
  })
  .describe('An approved TLS certificate.');

/** One approved SSH host-key fingerprint. */
export const fingerprintSchema = z
  .object({
    hash: z.string().describe('Fingerprint hash of the host key.'),
    publicKey: z.string().describe('SSH public key (ssh-rsa AAAA...).'),
    validatedBy: z.string().describe('Id of the user who approved it.'),
    validatedDate: z.string().describe('When it was approved.'),
  })
  .describe('An approved SSH host-key fingerprint.');

/** The certificates list field of a result. */
export const certificatesField = z.array(certificateSchema).describe('Every approved certificate, in the order the API lists them.');
/** The fingerprints list field of a result. */
export const fingerprintsField = z.array(fingerprintSchema).describe('Every approved fingerprint, in the order the API lists them.');

/** Every approved certificate of a connection or destination, across all pages. */
export async function listCertificates(client: PipelineClient, lookup: string, owner: TrustOwner, id: string) {
  const items = await orNotFound(lookup, owner.entity, id, () => client.list<WireCertificate>(`/${owner.collection}/${seg(id)}/certificates`));
  return items.map((c) => ({
    hash: c.hash,
    publicKey: c.public_key,
    name: c.name,
    type: c.type,
    sha1: c.sha1,
    sha256: c.sha256,
    validatedBy: c.validated_by,
    validatedDate: c.validated_date,
  }));
}

/** Every approved fingerprint of a connection or destination, across all pages. */
export async function listFingerprints(client: PipelineClient, lookup: string, owner: TrustOwner, id: string) {
  const items = await orNotFound(lookup, owner.entity, id, () => client.list<WireFingerprint>(`/${owner.collection}/${seg(id)}/fingerprints`));
  return items.map((f) => ({ hash: f.hash, publicKey: f.public_key, validatedBy: f.validated_by, validatedDate: f.validated_date }));
}
