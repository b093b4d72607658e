/**
 * What every pipeline resource type repeats: reading an object that may be gone, import ids,
 * the secrets of a service's config (from its metadata), a `config` compared by what it means
 * rather than by how the API echoes it, and setup-test results turned into warnings. A new
 * pipeline type should need nothing else from its neighbours. A create whose answer is lost is
 * answered by the type's own findOwned (findMade), as an interrupted one is after a crash.
 *
 * One rule every type's asDeclared keeps for inputs the API never reports: one with a documented
 * default (a re-auth counter, authType, a setup-test flag) absent from state is its default, as an
 * object plumb made without it was made with it, never the manifest's value, which would make
 * writing `authenticationCounter: 1` into an agent made without it no change (defaultsAsDeclared
 * alone). Only one without a default (a webhook's secret, a connection's auth) is taken from the
 * manifest where state lacks it, as an object read by `plumb import` lacks it
 * (unreportedFromManifest).
 */
import * as z from 'zod';
import { AmbiguousOrder, isRemote, UserError } from '../../kernel/errors.js';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import { reveal, Secret, Unknown } from '../../kernel/values.js';
import type { Created, ImportIdFormat, InterruptedOrder, ResourceContext } from '../../engine/contracts/resource-type.js';
import { freeForm } from '../../engine/contracts/strict.js';
import type { SetupTest } from '../../providers/pipeline/api/setup-tests.js';

/** A pipeline handler's context. */
export type Ctx = ResourceContext<PipelineClient, PipelineSettings>;

type Config = Record<string, unknown>;

/** What the API prints in place of a secret value. */
export const MASK = '******';

/**
 * Config and auth keys that are secret for some service, as the vendor's generated field tables
 * mark them (`format: password`): sealed whatever the service. A service's metadata may name
 * others; serviceSecretPaths adds those, so they are sealed in plans and state too.
 */
export const KNOWN_SECRET_KEYS = [
  'password',
  'private_key',
  'secret_key',
  'api_key',
  'api_token',
  'api_secret',
  'api_access_token',
  'access_token',
  'refresh_token',
  'client_secret',
  'consumer_secret',
  'token_secret',
  'connection_string',
  'personal_access_token',
  'passphrase',
  'oauth2_secret',
  'secret',
  'tunnel_password',
  'service_account_key',
];

/** `config.<key>` for every known secret key: a type's static secret paths. */
export function configSecretPaths(field = 'config'): string[] {
  return KNOWN_SECRET_KEYS.map((key) => `${field}.${key}`);
}

/** The object's data, or undefined when the API says it is gone (any `NotFound*`). */
export async function unlessGone<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    if (isRemote(err, 'not-found')) return undefined;
    throw err;
  }
}

/** Runs a delete; an object already gone is deleted. */
export async function deleteIfPresent(ctx: Ctx, path: string): Promise<void> {
  try {
    await ctx.client.write('DELETE', path);
  } catch (err) {
    if (!isRemote(err, 'not-found')) throw err;
  }
}

/** The import format of a type imported by one API id (`decent_dropsy`). */
export function apiIdFormat(what: string, example: string): ImportIdFormat {
  return {
    format: `<${what}_id>`,
    parse(raw) {
      const id = raw.trim();
      if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw new UserError(`invalid ${what} id "${raw}": the format is <${what}_id>, letters, digits and underscores as the API shows it, e.g. ${example}`);
      return id;
    },
  };
}

/** A JSON object of service-specific fields: `config` or `auth`. */
export const fieldsSchema = (description: string) =>
  freeForm(z.record(z.string(), z.unknown()), "the service's fields, as its metadata defines them (GET /v1/metadata/{connector-types|destinations}/{service})").optional().describe(description);

interface MetadataNode {
  properties?: Record<string, { format?: string; type?: string; properties?: Record<string, unknown> }>;
  required?: string[];
}

/** What a service's metadata says its config and auth are. */
export interface ServiceFields {
  /** Top-level config keys that are secret for this service. */
  secrets: Set<string>;
  /** The config key that names the destination schema: `schema_prefix` or `schema`. */
  schemaKey: string;
}

/**
 * The service's metadata (`GET /metadata/connector-types/{service}`), read once per pass and
 * shared by every connection of that service.
 */
export function serviceFields(ctx: Ctx, service: string): Promise<ServiceFields> {
  return ctx.shared(`pipeline:connector-type:${service}`, async () => {
    const type = await ctx.client.get<{ config?: MetadataNode }>(`/metadata/connector-types/${encodeURIComponent(service)}`);
    const properties = type.config?.properties ?? {};
    const secrets = new Set(
      Object.entries(properties)
        .filter(([, node]) => node.format === 'password')
        .map(([key]) => key),
    );
    return { secrets, schemaKey: type.config?.required?.includes('schema_prefix') ? 'schema_prefix' : 'schema' };
  });
}

/**
 * `config.<key>` for each key the service's metadata marks secret (`format: password`), known or
 * not by name here: a connection's secrets.pathsFor. A service the catalogue lacks (or one not known
 * yet) adds none; its create meets the API's own refusal.
 */
export async function serviceSecretPaths(ctx: Ctx, service: unknown): Promise<string[]> {
  const name = reveal(service);
  if (typeof name !== 'string' || name === '') return [];
  const fields = await unlessGone(serviceFields(ctx, name));
  return [...(fields?.secrets ?? [])].map((key) => `config.${key}`);
}

/** Whether a value means nothing to the API (it drops it): absent, null, empty text, empty list or map. */
function empty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && !(value instanceof Secret) && !(value instanceof Unknown) && Object.keys(value).length === 0;
}

/**
 * Whether a declared value and what the API reports mean the same: empty matches absent, `5432`
 * matches `"5432"` and `true` matches `"true"`, lists of plain values match in any order (the
 * API keeps them as sets), maps match key by key. A masked value is not compared (see observed).
 */
export function sameMeaning(declared: unknown, reported: unknown): boolean {
  const a = reveal(declared);
  const b = reveal(reported);
  if (empty(a) || empty(b)) return empty(a) && empty(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.every(plain) && b.every(plain)) return sameSet(a, b);
    return a.length === b.length && a.every((item, i) => sameMeaning(item, b[i]));
  }
  if (isMap(a) && isMap(b)) return [...new Set([...Object.keys(a), ...Object.keys(b)])].every((key) => sameMeaning(a[key], b[key]));
  if (plain(a) && plain(b)) return String(a) === String(b);
  return false;
}

function plain(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isMap(value: unknown): value is Config {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameSet(a: unknown[], b: unknown[]): boolean {
  const key = (items: unknown[]) => [...new Set(items.map(String))].sort().join('\u0000');
  return key(a) === key(b);
}

/**
 * The config the API reports, in the manifest's terms: only the keys `declared` gives (the API's
 * defaults for the rest are its own), each the declared value where it means the same, a masked
 * secret taken as unchanged (it cannot be compared), an empty one as met whatever the API filled
 * in, and otherwise what the API holds now (drift).
 * Without a declared config (an import) everything reported but the `skip` keys.
 */
export function observedConfig(declared: Config | undefined, reported: Config, skip: readonly string[] = []): Config {
  if (!declared) return Object.fromEntries(Object.entries(reported).filter(([key]) => !skip.includes(key)));
  const out: Config = {};
  for (const [key, want] of Object.entries(declared)) {
    const got = reported[key];
    // An empty value is dropped by the API, which may then fill its default: it asks for nothing.
    if (empty(want) || (got === MASK && !empty(want))) out[key] = want;
    else if (sameMeaning(want, got)) out[key] = want;
    else if (got !== undefined) out[key] = got;
  }
  return out;
}

/**
 * The recorded config as the manifest would state it: keys the manifest leaves out are left to
 * the API (they are neither compared nor removed), and so is the whole config of a manifest that
 * gives none: nothing would be sent for it, so no change is shown. A key is cleared by giving it
 * as null (or empty), which a PATCH sends. A masked value or one meaning the same as the
 * manifest's is the manifest's. A key the record lacks (written into the manifest later) is what
 * `observed` (the outputs, read for the manifest's config) says the API holds, unless secret, so
 * writing down the value the API filled in is no change.
 */
export function declaredConfig(recorded: Config | undefined, desired: Config | undefined, observed: Config | undefined): Config | undefined {
  if (desired === undefined) return undefined;
  if (!recorded || recorded instanceof Secret || desired instanceof Secret) return recorded;
  const seen = observed instanceof Secret ? undefined : observed;
  const out: Config = {};
  for (const [key, want] of Object.entries(desired)) {
    // A secret the API shows masked (read as the manifest's value) says nothing of what it holds: one written down later is sent.
    if (!(key in recorded) && (seen?.[key] === undefined || seen[key] instanceof Secret || reveal(seen[key]) === MASK)) continue;
    const was = key in recorded ? recorded[key] : seen![key];
    out[key] = (reveal(was) === MASK && !empty(want)) || (!(want instanceof Unknown) && sameMeaning(want, was)) ? want : was;
  }
  return out;
}

/** The keys of `desired` whose value differs in meaning from `prior`'s: what a PATCH sends. */
export function changedConfig(prior: Config | undefined, desired: Config | undefined): Config {
  const out: Config = {};
  for (const [key, want] of Object.entries(desired ?? {})) if (!sameMeaning(want, prior?.[key])) out[key] = want;
  return out;
}

/** The config with each secret key's value sealed, so outputs and state never hold it in clear. */
export function sealed(config: Config, secrets: Iterable<string>): Config {
  const out = { ...config };
  for (const key of secrets) if (out[key] !== undefined && out[key] !== null && !(out[key] instanceof Secret)) out[key] = new Secret(out[key]);
  return out;
}

/** Setup tests that did not pass become warnings naming the test and its message; they never fail the step. */
export function warnSetupTests(ctx: Ctx, what: string, tests: SetupTest[] | undefined): void {
  for (const test of tests ?? []) {
    if (test.status === 'PASSED' || test.status === 'SKIPPED') continue;
    ctx.warn(`${what}: setup test "${test.title}" ${test.status}${test.message ? `: ${test.message}` : ''}`);
  }
}

/** The ids a bulk read returns as gone: every target the list lacks is left for a read of its own. */
export function byId<T extends { id: string }>(items: T[]): Map<string, T> {
  return new Map(items.map((item) => [item.id, item]));
}

/** Allowance for the API's clock against this machine's, as for an order interrupted by a crash. */
const CLOCK_SLACK_MS = 5 * 60_000;

/**
 * After a create whose answer was lost: what the type's findOwned finds for an order sent at
 * `sentAt`, as the answer the send would have given (`answer` turns it into the API's record).
 * The answer in the call and the answer after a crash are one answer: an object recorded at any
 * address is not it, and several candidates are an AmbiguousOrder. Undefined when it made nothing.
 */
export async function findMade<Out, Wire>(
  ctx: Ctx,
  sentAt: number,
  findOwned: (order: InterruptedOrder) => Promise<Created<Out> | undefined>,
  answer: (made: Created<Out>) => Promise<Wire | undefined> | Wire | undefined,
): Promise<Wire | undefined> {
  const made = await findOwned({ earliestMs: sentAt - CLOCK_SLACK_MS, recorded: (id) => ctx.isRecorded?.(id) ?? false });
  return made && answer(made);
}

/**
 * The one object a findOwned search found, or none. With several, none is taken: AmbiguousOrder
 * names them, and the run stops for the user to say which.
 */
export function onlyCandidate<T extends { id: string; created_at?: string }>(what: string, found: T[]): T | undefined {
  if (found.length > 1)
    throw new AmbiguousOrder(
      what,
      found.map((item) => (item.created_at ? `${item.id} (made ${item.created_at})` : item.id)),
    );
  return found[0];
}
