/**
 * Classification of the cloud API's failures into the shared error kinds, and which Actions
 * are safe to send again. This is the only place that knows RetCode numbers.
 */
import { kindForStatus, RemoteError, type ErrorKind } from '../../errors.js';

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
const NOT_FOUND = new Set([4103, 4086, 15010, 54002, 8037, 58103, 16001, 11021, 11162, 11217, 4210, 4600, 8039, 17041, 4088, 4093]);

/**
 * Codes meaning the object is still in use (an EIP bound, a firewall applied, a VPC or subnet
 * holding resources, a recommended firewall): sending the call again cannot succeed by itself.
 */
const IN_USE = new Set([4212, 4361, 4358, 5024, 4154, 8010, 8856, 8905, 8034, 17026, 17056, 17057, 17060, 17061, 17101, 4108, 4110]);

/** UHost and UDisk codes for a request the API will never accept as sent (sizes, quotas, balance). */
const REFUSED = new Set([520, 8044, 8045, 8046, 8095, 8104, 8117, 8315, 8316, 8319, 8847, 17005, 17062, 17063, 17067]);

/** Codes that mean "not found" only for one Action (230 is a generic parameter error elsewhere). */
const NOT_FOUND_FOR_ACTION: Record<string, number[]> = {
  DescribeUDBInstance: [230],
};

/**
 * The API does not offer the Action to this account: it answers as for an Action that does not
 * exist (161), as it does for one released to some accounts only. A caller with another way to
 * make the change takes it; to any other it is a request problem like the rest.
 */
export class ActionNotOffered extends RemoteError {
  constructor(message: string, details: RemoteError['details']) {
    super('invalid', message, details);
    this.name = 'ActionNotOffered';
  }
}

/** Whether a RetCode says the Action is not offered to the account. */
export function isActionNotOffered(code: number): boolean {
  return code === 161;
}

/**
 * The kind of a RetCode ≠ 0. Unknown codes ≥ 2000 are server-side failures (unavailable, as the
 * SDK treats them); unknown codes below 2000 are request problems.
 */
export function kindForRetCode(code: number, action: string): ErrorKind {
  if (NOT_FOUND_FOR_ACTION[action]?.includes(code)) return 'not-found';
  if (NOT_FOUND.has(code)) return 'not-found';
  if (IN_USE.has(code)) return 'conflict';
  if (REFUSED.has(code)) return 'invalid';
  const common = COMMON[code];
  if (common) return common;
  return code >= 2000 ? 'unavailable' : 'invalid';
}

/** The kind of an HTTP status ≥ 400 (the body is not read for those). */
export function kindForHttpStatus(status: number): ErrorKind {
  return kindForStatus(status);
}

/**
 * Whether an Action may be sent again after a failure the API may have carried out (5xx, a lost
 * answer). Buying, adding, creating or allocating twice could buy or add twice, so those are
 * unsafe: the retry policy sends them again only once the caller's recover() finds nothing.
 */
export function isSafeAction(action: string): boolean {
  return !/^(Buy|Add|Create|Allocate|Allow)/.test(action);
}
