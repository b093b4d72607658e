/**
 * Classification of the cloud API's failures into the shared error kinds, and which Actions
 * are safe to send again. This is the only place that knows RetCode numbers.
 */
import { kindForStatus, RemoteError, type ErrorKind } from '../../kernel/errors.js';

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
const NOT_FOUND = new Set([4103, 4086, 15010, 54002, 8037, 58103, 16001, 11021, 11162, 11217, 4210, 4600, 8039, 17041, 4088, 4093, 4143, 4148]);

/**
 * Codes meaning the object is still in use (an EIP bound, a firewall applied, a VPC or subnet
 * holding resources, a recommended firewall): sending the call again cannot succeed by itself.
 */
const IN_USE = new Set([
  4212, 4361, 4358, 5024, 4154, 8010, 8856, 8905, 8034, 17026, 17056, 17057, 17060, 17061, 17101, 4108, 4110,
  // UNet and ULB: a port a VServer already takes (4107), a host already a backend there (4109), a
  // resource a NAT gateway forwards to (4234), a NAT gateway's last EIP (4235), a VPN gateway with
  // tunnels (4238), an EIP in a bandwidth package (4223).
  4107, 4109, 4223, 4234, 4235, 4238,
]);

/**
 * Codes for a request the API will never accept as sent (sizes, quotas, balance, a resource an
 * EIP cannot bind to). UHost and UDisk, then UNet, ULB and the firewall, as their error-code
 * pages list them: a code ≥ 2000 missing here reads as a server failure, so a refusal would be
 * sent again and an order it refused taken for one that may have gone through.
 */
const REFUSED = new Set([
  520, 8044, 8045, 8046, 8095, 8104, 8117, 8315, 8316, 8319, 8847, 17005, 17062, 17063, 17067,
  // Bandwidth out of its pay mode's range (4002, 4011), balance (4018, 4057), quota (4207, 4360),
  // a shared bandwidth not changeable (4216), nothing to bind to (4218, 4224, 5032).
  4002, 4011, 4018, 4057, 4207, 4216, 4218, 4224, 4360, 5032,
  // A policy without backends (4077), a certificate not PEM (4111), a policy on a non-HTTP
  // listener (4112), a firewall rule priority not HIGH/MEDIUM/LOW (4359).
  4077, 4111, 4112, 4359,
]);

/** Codes for a state that passes by itself (a subnet whose resources are still being let go): sent again after a while. */
const TRANSIENT = new Set([4411]);

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
  if (TRANSIENT.has(code)) return 'unavailable';
  const common = COMMON[code];
  if (common) return common;
  return code >= 2000 ? 'unavailable' : 'invalid';
}

/** Whether the code is one of those this module names (else its kind is a guess from its size). */
export function isKnownRetCode(code: number): boolean {
  return [NOT_FOUND, IN_USE, REFUSED, TRANSIENT].some((set) => set.has(code)) || code in COMMON || Object.values(NOT_FOUND_FOR_ACTION).some((codes) => codes.includes(code));
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
