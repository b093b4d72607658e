import type { SandboxResponse } from '../types.js';

/** The acceptable-use sentence the real API puts in every envelope's `terms`. */
export const TERMS = 'This data is subject to the Acceptable Use Policy https://www.megaport.com/legal/acceptable-use-policy';

/** A successful reply in the API's `{message, terms, data}` envelope. */
export function ok(message: string, data: unknown = null, status = 200): SandboxResponse {
  return { status, body: { message, terms: TERMS, data } };
}

/**
 * An error reply, thrown by handlers and turned into an envelope by the router, so a handler can
 * stop at the first broken rule without threading results back by hand.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly data: unknown = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** The reply this error stands for. */
  response(): SandboxResponse {
    return { status: this.status, headers: this.headers, body: { message: this.message, terms: TERMS, data: this.data } };
  }
}

/** 400 `Validation failed` with one `{error}` per broken rule, as validate and buy answer. */
export function validationFailed(errors: string[]): ApiError {
  return new ApiError(
    400,
    'Validation failed',
    errors.map((error) => ({ error })),
  );
}

/** 400 with a plain message (bad parameters outside ordering). */
export function badRequest(message: string): ApiError {
  return new ApiError(400, message);
}

/**
 * The real API's not-found text for a product UID. `GET /v2/product/{uid}` answers 400 with it (the
 * documented quirk); the other product endpoints answer 404, so clients must accept both.
 */
export function serviceNotFound(uid: string, status: 400 | 404 = 404): ApiError {
  return new ApiError(status, `Could not find a service with UID ${uid}`);
}

/** 404 for things that are not products (prefix lists, service keys, add-ons). */
export function notFound(message: string): ApiError {
  return new ApiError(404, message);
}

/** 409 for a state that forbids the call (locked, still referenced, already gone). */
export function conflict(message: string): ApiError {
  return new ApiError(409, message);
}

const FAULT_MESSAGES: Record<number, string> = {
  400: 'Invalid request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Resource not found',
  409: 'Conflict',
  429: 'Too Many Requests: the API rate limit was exceeded, retry later',
  500: 'internal server error',
  502: 'Bad Gateway',
  503: 'Service Unavailable: the API is down for maintenance',
  504: 'Gateway Timeout',
};

/** Body of an injected fault with this status, in the envelope shape. */
export function faultBody(status: number): unknown {
  return { message: FAULT_MESSAGES[status] ?? `HTTP ${status}`, terms: TERMS, data: null };
}

/** The body as a JSON object, or a 400 when it is anything else (array, text, missing). */
export function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  return body as Record<string, unknown>;
}

/** True when `v` is a plain JSON object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True when `v` is an integer number (JSON has no integer type; the Go backend rejects fractions). */
export function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

/** A deep copy of plain JSON data, so stored state never aliases a request body. */
export function cloneJson<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}
