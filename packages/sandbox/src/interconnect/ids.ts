import { createHash, randomUUID } from 'node:crypto';

/**
 * A UUID derived from a seed string, so seeded objects (partner ports, companies) keep the same UID
 * in every sandbox and every run: manifests and golden files may pin them.
 */
export function stableUid(seed: string): string {
  const h = createHash('sha1').update(`plumb-interconnect:${seed}`).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A fresh random UUID for a newly ordered product, key or add-on. */
export function newUid(): string {
  return randomUUID();
}

/** A small number derived from a string, for deterministic picks (ports for a CSP key, VIF ids). */
export function stableNumber(seed: string, modulo: number): number {
  const h = createHash('sha1').update(seed).digest();
  return h.readUInt32BE(0) % modulo;
}

/** The one customer company the sandbox's credentials act for. */
export const COMPANY = {
  companyId: 1153,
  companyUid: stableUid('company:customer'),
  companyName: 'Plumb Sandbox Pty Ltd',
  /** The API user that places every order (the real API reports a user UID in `createdBy`). */
  userUid: stableUid('user:api'),
};

/** Matches a canonical UUID string. */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
