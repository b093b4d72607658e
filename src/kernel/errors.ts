/**
 * Error values shared by every part of plumb.
 *
 * A remote failure is classified once, in the provider's client, into a small `kind` union;
 * handlers branch on `kind`, never on status codes or message text.
 */

/** What went wrong with a remote call, independent of the provider. */
export type ErrorKind = 'not-found' | 'conflict' | 'rate-limited' | 'unavailable' | 'invalid' | 'unauthorized';

/** A failed remote call, classified. `retryAfterMs` is set when the remote API said when to come back. */
export class RemoteError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details: { provider?: string; status?: number; retryAfterMs?: number; method?: string; path?: string } = {},
  ) {
    super(message);
    this.name = 'RemoteError';
  }
}

/** A mistake the user can fix (bad input, refused operation): printed without a stack trace, exit 1. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/**
 * A wait for a remote object ran out of time while the object was still on its way (provisioning,
 * not listed yet, a VLAN still held): nothing says it failed. A create whose wait ends so keeps
 * the object it ordered, still provisioning, and the next apply waits for it again.
 */
export class WaitTimedOut extends Error {
  constructor(
    readonly what: string,
    readonly waitedMs: number,
    /** The last status seen (the API's, or `not listed yet`). */
    readonly lastStatus: string,
  ) {
    super(`timed out after ${duration(waitedMs)} waiting for ${what} (last status: ${lastStatus})`);
    this.name = 'WaitTimedOut';
  }
}

/**
 * What an interrupted create may have made fits several objects: plumb cannot tell which its order
 * made, and adopting or ordering on a guess would take a stranger's object or buy a second one.
 * `candidates` are shown to the user as they are (never a secret: a key by when it was made).
 */
export class AmbiguousOrder extends Error {
  constructor(
    /** What the objects are, singular: `VPC named "shop"`. */
    readonly what: string,
    readonly candidates: string[],
    /** How to tell them apart or adopt one, where the type knows more (`plumb import --discover ... --out FILE`). */
    readonly advice?: string,
  ) {
    super(`may have made any of ${candidates.length} ${what}s: ${candidates.join(', ')}`);
    this.name = 'AmbiguousOrder';
  }
}

/** `3 s`, `2.5 min`. */
export function duration(ms: number): string {
  return ms >= 60_000 ? `${Number((ms / 60_000).toFixed(2))} min` : `${Number((ms / 1000).toFixed(1))} s`;
}

/** Whether a value is a RemoteError of one of the given kinds. */
export function isRemote(err: unknown, ...kinds: ErrorKind[]): err is RemoteError {
  return err instanceof RemoteError && (kinds.length === 0 || kinds.includes(err.kind));
}

/** Maps an HTTP status to the shared kind; used by every provider client. */
export function kindForStatus(status: number): ErrorKind {
  if (status === 404) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate-limited';
  if (status === 401 || status === 403) return 'unauthorized';
  if (status >= 500) return 'unavailable';
  return 'invalid';
}
