/**
 * Approving and revoking the TLS certificates and SSH host-key fingerprints a connection or
 * destination trusts (REST v1 `/{connections|destinations}/{id}/{certificates|fingerprints}`).
 * An approve answers 201, as the official SDK expects (the OpenAPI spec says 200); approving a
 * hash already approved approves it again. A certificate's details (name, digests, public key)
 * are read from the certificate sent; the certificate itself is never shown again. A revoke of a
 * hash not approved is a 404.
 */
import { createHash } from 'node:crypto';
import type { SandboxRequest, SandboxResponse } from '../types.js';
import { fail, notFound, ok } from './http.js';
import type { Certificate, Fingerprint, PipelineData, User } from './model.js';
import { route, type Route } from './route.js';
import { bodyOf, created, deleted, problem, timestamp } from './write-common.js';

type Holder = 'connections' | 'destinations';
type Kind = 'certificates' | 'fingerprints';

const ENTITY: Record<Holder, [string, string]> = { connections: ['NotFound_Connection', 'Connection'], destinations: ['NotFound_Destination', 'Destination'] };

/** The holder's approved items, or its 404. */
function itemsOf(holder: Holder, id: string, kind: Kind, data: PipelineData): Array<Certificate | Fingerprint> | SandboxResponse {
  const exists = (holder === 'connections' ? data.connections : data.destinations).some((x) => x.id === id);
  if (!exists) return notFound(ENTITY[holder][0], ENTITY[holder][1], id);
  const key = `${holder}/${id}`;
  const store = data[kind] as Record<string, Array<Certificate | Fingerprint>>;
  return (store[key] ??= []);
}

/** An item as the API shows it, with its `id` (the base64url of its hash, usable in a path). */
function shown(item: Certificate | Fingerprint): unknown {
  return { id: Buffer.from(item.hash).toString('base64url'), ...structuredClone(item) };
}

/** The item a path names: by its hash (URL-encoded) or by its id. */
function named(items: Array<Certificate | Fingerprint>, hash: string): number {
  return items.findIndex((item) => item.hash === hash || Buffer.from(item.hash).toString('base64url') === hash);
}

const text = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

function approver(data: PipelineData): string {
  return data.users.find((u: User) => u.role === 'Account Administrator')?.id ?? '';
}

/** A certificate's details from its base64 (DER or PEM) text. */
function certificateOf(hash: string, encoded: string, by: string, now: number): Certificate | undefined {
  const der = Buffer.from(encoded.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
  if (der.length === 0) return undefined;
  const digest = (algorithm: string) => createHash(algorithm).update(der).digest('hex').toUpperCase();
  return {
    hash,
    name: `CN=${createHash('sha1').update(der).digest('hex').slice(0, 12)}.certificate`,
    type: 'TLS',
    sha1: digest('sha1'),
    sha256: digest('sha256'),
    public_key: `-----BEGIN PUBLIC KEY-----\n${createHash('sha512').update(der).digest('base64')}\n-----END PUBLIC KEY-----`,
    validated_by: by,
    validated_date: timestamp(now),
  };
}

function approve(req: SandboxRequest, holder: Holder, id: string, kind: Kind, data: PipelineData, now: number): SandboxResponse {
  const items = itemsOf(holder, id, kind, data);
  if (!Array.isArray(items)) return items;
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const secondField = kind === 'certificates' ? 'encoded_cert' : 'public_key';
  const missing = ['hash', secondField].filter((field) => !text(v[field]));
  if (missing.length) return problem(missing.map((field) => `Field '${field}' is required.`).join(' '));
  const item =
    kind === 'certificates'
      ? certificateOf(String(v.hash), String(v.encoded_cert), approver(data), now)
      : { hash: String(v.hash), public_key: String(v.public_key), validated_by: approver(data), validated_date: timestamp(now) };
  if (!item) return problem("Field 'encoded_cert' must be a base64-encoded certificate.");
  const at = named(items, item.hash);
  if (at >= 0) items.splice(at, 1, item);
  else items.push(item);
  return created(shown(item), `${kind === 'certificates' ? 'Certificate' : 'Fingerprint'} has been approved`);
}

function details(holder: Holder, id: string, kind: Kind, hash: string, data: PipelineData): SandboxResponse {
  const items = itemsOf(holder, id, kind, data);
  if (!Array.isArray(items)) return items;
  const at = named(items, hash);
  return at < 0 ? fail(404, 'NotFound', `No approved ${kind === 'certificates' ? 'certificate' : 'fingerprint'} with hash '${hash}'.`) : ok(shown(items[at]));
}

function revoke(holder: Holder, id: string, kind: Kind, hash: string, data: PipelineData): SandboxResponse {
  const items = itemsOf(holder, id, kind, data);
  if (!Array.isArray(items)) return items;
  const at = named(items, hash);
  const what = kind === 'certificates' ? 'Certificate' : 'Fingerprint';
  if (at < 0) return fail(404, 'NotFound', `No approved ${what.toLowerCase()} with hash '${hash}'.`);
  items.splice(at, 1);
  return deleted(`${what} with hash '${hash}' has been revoked`);
}

/** The approve, details and revoke routes of both holders and both kinds (the lists are read routes). */
export const certificateRoutes: Route[] = (['connections', 'destinations'] as const).flatMap((holder) =>
  (['certificates', 'fingerprints'] as const).flatMap((kind) => [
    route('POST', `/v1/${holder}/:id/${kind}`, (req, p, d, w) => approve(req, holder, p.id, kind, d, w.now())),
    route('GET', `/v1/${holder}/:id/${kind}/:hash`, (_, p, d) => details(holder, p.id, kind, p.hash, d)),
    route('DELETE', `/v1/${holder}/:id/${kind}/:hash`, (_, p, d) => revoke(holder, p.id, kind, p.hash, d)),
  ]),
);
