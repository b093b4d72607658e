/**
 * Classification of the cloud API's failures into the shared error kinds, and which of them
 * are worth retrying. This is the only place that knows RetCode numbers.
 */
import { kindForStatus, type ErrorKind } from '../../errors.js';

/** Gateway and common codes (public API docs). */
const COMMON: Record<number, ErrorKind> = {
  110: 'unavailable', // API response timed out
  130: 'unavailable', // gateway or auth service error
  150: 'unavailable', // service temporarily unavailable
  153: 'rate-limited', // request throttled
  160: 'invalid', // missing Action
  161: 'invalid', // Action does not exist
  170: 'unauthorized', // missing signature
  171: 'unauthorized', // signature error
  172: 'unauthorized', // user (public key) does not exist
  174: 'unauthorized', // security token does not exist or has expired
  230: 'invalid', // a parameter is missing or not available
  292: 'invalid', // project does not exist
  293: 'unauthorized', // zone permission error
  294: 'unauthorized', // source IP denied
  295: 'unauthorized', // security lock
  299: 'unauthorized', // IAM permission check failed
};

/** Service codes meaning "no such object" (per service; the upstream provider's helpers). */
const NOT_FOUND = new Set([4103, 4086, 15010, 54002, 8037, 58103, 16001, 11021, 11162, 11217]);

/** Codes that mean "not found" only for one Action (230 is a generic parameter error elsewhere). */
const NOT_FOUND_FOR_ACTION: Record<string, number[]> = {
  DescribeUDBInstance: [230],
};

/** HTTP statuses the reference SDK retries. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

/**
 * The kind of a RetCode ≠ 0. Unknown codes ≥ 2000 are server-side failures (the SDK retries
 * them); unknown codes below 2000 are request problems.
 */
export function kindForRetCode(code: number, action: string): ErrorKind {
  if (NOT_FOUND_FOR_ACTION[action]?.includes(code)) return 'not-found';
  if (NOT_FOUND.has(code)) return 'not-found';
  const common = COMMON[code];
  if (common) return common;
  return code >= 2000 ? 'unavailable' : 'invalid';
}

/** Whether a RetCode failure may succeed when sent again. Not-found and request errors never do. */
export function isRetryableRetCode(code: number, action: string): boolean {
  const kind = kindForRetCode(code, action);
  return kind === 'unavailable' || kind === 'rate-limited';
}

/** The kind of an HTTP status ≥ 400 (the body is not read for those). */
export function kindForHttpStatus(status: number): ErrorKind {
  return kindForStatus(status);
}

/** Whether an HTTP status ≥ 400 is worth retrying. */
export function isRetryableStatus(status: number): boolean {
  return RETRY_STATUSES.has(status);
}

/**
 * Whether an Action may be sent twice. Buying or adding something twice could buy or add it
 * twice, so create-like Actions are never retried, whatever the failure.
 */
export function isRetryableAction(action: string): boolean {
  return !/^(Buy|Add|Create|Allocate|Allow)/.test(action);
}

/** Delay before retry `attempt` (0-based): 4^n × 100–199 ms, n capped at 7, as the SDK does. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return 4 ** Math.min(attempt, 7) * (100 + Math.floor(random() * 100));
}
