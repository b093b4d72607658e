/**
 * The simulated API's protocol, written from the vendor's documentation rather than from plumb's
 * client: the `{code, message, data}` envelope, Basic auth, Accept negotiation, cursor paging and
 * the error bodies with their machine codes.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { SandboxResponse } from '../types.js';

/** The largest `limit` a list accepts. */
export const MAX_LIMIT = 1000;
/** The page size when a list request names no `limit`. */
export const DEFAULT_LIMIT = 100;

/** A success answer carrying `data`. */
export function ok(data: unknown, message?: string): SandboxResponse {
  return { status: 200, body: { code: 'Success', ...(message ? { message } : {}), data } };
}

/** An error answer in the API's shape: a machine code and a human message, no `data`. */
export function fail(status: number, code: string, message: string, headers?: Record<string, string>): SandboxResponse {
  return { status, body: { code, message }, ...(headers ? { headers } : {}) };
}

/** The documented not-found answer: `code` names the entity type, the message names the id. */
export function notFound(code: string, entity: string, id: string): SandboxResponse {
  return fail(404, code, `Cannot find entity '${entity}' with id '${id}'.`);
}

/** The error code the API uses for a status, for injected faults and generic failures. */
export function codeForStatus(status: number): string {
  const codes: Record<number, string> = {
    400: 'InvalidInput',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    405: 'MethodNotAllowed',
    406: 'NotAcceptable',
    409: 'Conflict',
    415: 'UnsupportedMediaType',
    429: 'TooManyRequests',
    500: 'InternalServerError',
    502: 'BadGateway',
    503: 'ServiceUnavailable',
    504: 'GatewayTimeout',
  };
  return codes[status] ?? 'Error';
}

/** The 429 answer, with the integer Retry-After the documentation shows and the limit's own message where it has one. */
export function tooManyRequests(retryAfterSeconds: number, message?: string): SandboxResponse {
  return fail(429, 'TooManyRequests', message ?? `Too many requests. Retry after ${retryAfterSeconds} seconds.`, { 'retry-after': String(retryAfterSeconds) });
}

/** The sandbox account's API key (documented in the README; plumb uses it when no key is set). */
export const SANDBOX_API_KEY = 'sandbox-key';
/** The sandbox account's API secret. */
export const SANDBOX_API_SECRET = 'sandbox-secret';

/**
 * Checks HTTP Basic credentials: only the sandbox account's key and secret are accepted, so a
 * mistyped pair meets the API's 401 as it would on the real service; a missing, malformed or
 * half-empty header gets the same answer.
 */
export function authorize(headers: IncomingHttpHeaders): SandboxResponse | undefined {
  const challenge = { 'www-authenticate': 'Basic realm="api"' };
  const header = headers.authorization;
  if (!header) return fail(401, 'Unauthorized', 'Missing Authorization header: use HTTP Basic with your API key and secret.', challenge);
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)$/i.exec(header.trim());
  if (!match) return fail(401, 'Unauthorized', 'Malformed Authorization header: expected the Basic scheme.', challenge);
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || decoded.slice(0, colon) !== SANDBOX_API_KEY || decoded.slice(colon + 1) !== SANDBOX_API_SECRET) {
    return fail(401, 'Unauthorized', 'Invalid API key or secret.', challenge);
  }
  return undefined;
}

/**
 * Answers 406 when the Accept header names nothing the API can produce. Documented values are
 * `application/json` and `application/json;version=2`; wildcards are fine, as is no header.
 */
export function negotiate(headers: IncomingHttpHeaders): SandboxResponse | undefined {
  const accept = headers.accept;
  if (!accept) return undefined;
  const acceptable = accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    if (type === '*/*' || type === 'application/*') return true;
    if (type !== 'application/json') return false;
    const version = params.find((p) => p.startsWith('version='))?.slice('version='.length);
    return version === undefined || version === '1' || version === '2';
  });
  return acceptable ? undefined : fail(406, 'NotAcceptable', `Cannot produce a response matching Accept: ${accept}`);
}

/** Encodes an offset as the API's opaque cursor: base64url of `{"skip":N}`, no padding. */
export function encodeCursor(skip: number): string {
  return Buffer.from(JSON.stringify({ skip })).toString('base64url');
}

function decodeCursor(cursor: string): number | undefined {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { skip?: unknown };
    return Number.isInteger(value.skip) && (value.skip as number) >= 0 ? (value.skip as number) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One page of a collection as `{items, next_cursor}`, honouring `limit` (1..1000, default 100)
 * and `cursor`. `next_cursor` is omitted on the last page. An out-of-range limit or unreadable
 * cursor is a 400 InvalidInput (undocumented upstream; this is the chosen behaviour).
 */
export function page(query: URLSearchParams, items: unknown[]): SandboxResponse {
  const limitText = query.get('limit');
  const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    return fail(400, 'InvalidInput', `Invalid value '${limitText}' for 'limit': expected an integer from 1 to ${MAX_LIMIT}.`);
  }
  const cursor = query.get('cursor');
  const skip = cursor === null || cursor === '' ? 0 : decodeCursor(cursor);
  if (skip === undefined) return fail(400, 'InvalidInput', `Invalid cursor '${cursor}'.`);
  const end = skip + limit;
  return ok({ items: items.slice(skip, end), ...(end < items.length ? { next_cursor: encodeCursor(end) } : {}) });
}
