/**
 * Facts about the pipeline REST API's wire protocol that the client depends on: the default
 * address, the response envelope and which paths expect the version-2 Accept header. Kept
 * apart from the client so each fact has one home.
 */
import type { RateWindow } from '../rate-window.js';

/** The vendor's v1 base address; every request path below is relative to it. */
export const DEFAULT_API_URL = 'https://api.fivetran.com/v1';

/** Items per page when listing: the API's maximum, as the Terraform provider uses. */
export const MAX_PAGE_SIZE = 1000;

/** The envelope every JSON response uses; `data` is absent on errors and payload-less actions. */
export interface Envelope<T = unknown> {
  code: string;
  message?: string;
  data?: T;
}

/** `data` of a list response: one page of items and the cursor of the next page. */
export interface Page<T> {
  items: T[];
  /** Absent, null or "" on the last page; all three mean "no more". */
  next_cursor?: string | null;
}

/** Whether a parsed body has the envelope's shape (a `code` string at least). */
export function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string';
}

const V2 = 'application/json;version=2';
const V1 = 'application/json';

/** Action sub-paths of a connection whose operations default to the v2 media type. */
const CONNECTION_V2_ACTIONS = new Set(['connect-card', 'resync', 'state', 'sync', 'test']);

/**
 * The Accept header for a path. The OpenAPI document defaults `/connections`, `/connections/{id}`
 * (and its connect-card, resync, state, sync and test actions) and everything under
 * `/destinations` to version 2; other paths, including connection certificates, fingerprints and
 * schemas, use plain JSON. Sending v2 elsewhere risks a 406.
 */
export function acceptFor(path: string): string {
  const [first, , action, ...rest] = path.split('/').filter(Boolean);
  if (first === 'destinations') return V2;
  if (first !== 'connections') return V1;
  if (action === undefined) return V2;
  return rest.length === 0 && CONNECTION_V2_ACTIONS.has(action) ? V2 : V1;
}

/** 20 connection creations a minute. */
const CONNECTIONS_PER_MINUTE: RateWindow = { limit: 20, windowMs: 60_000 };

/**
 * Per-account limits on particular calls of paid accounts, keyed `METHOD /path`: connection
 * creations 20 a minute and 600 an hour (the vendor's older rate-limit page; the current one no
 * longer lists them, so they are kept as the stricter reading), user creations 500 and private
 * link creations 5 an hour (the current page).
 */
export const ENDPOINT_LIMITS: Record<string, readonly RateWindow[]> = {
  'POST /connections': [CONNECTIONS_PER_MINUTE, { limit: 600, windowMs: 3_600_000 }],
  'POST /users': [{ limit: 500, windowMs: 3_600_000 }],
  'POST /private-links': [{ limit: 5, windowMs: 3_600_000 }],
};

/** The limits an account meets in ordinary use, kept even against a sandbox that enforces no others (it enforces these). */
export const ALWAYS_ENDPOINT_LIMITS: Record<string, readonly RateWindow[]> = {
  'POST /connections': [CONNECTIONS_PER_MINUTE],
};
