/**
 * The one retry policy of every provider client. A client classifies each failure once into a
 * RemoteError; this module alone decides whether the call is sent again, when, and how often.
 *
 * - rate-limited (HTTP 429, a throttling code): the API processed nothing, so any call is sent
 *   again, after Retry-After when the API gave one, else after a backoff. The limiter is told,
 *   which lowers the provider's request rate.
 * - unavailable (5xx, a connection that failed or closed before an answer): the API may have
 *   processed the call. A call safe to repeat is sent again after a backoff. An unsafe one (an
 *   order, a buy, an add) is never sent again blindly: the caller's `recover()` looks for what
 *   the first send may have made; what it finds is the answer, and only when it finds nothing is
 *   the call sent again. Without a recover() the failure is final.
 * - anything else (invalid, not-found, conflict, unauthorized) is final at once.
 *
 * Handlers never loop over transport failures themselves; they keep only their semantic waits
 * (a VLAN still held, a product provisioning).
 */
import { RemoteError } from '../kernel/errors.js';
import type { RequestLimiter } from './limiter.js';
import type { RetryNotice } from '../engine/contracts/provider.js';

/** How hard the policy tries; clients pass their own, tests a fake clock. */
export interface RetrySettings {
  /** Most sends of one call, the first included (at least 1). */
  attempts: number;
  /** First backoff step; each retry doubles it, up to maxBackoffMs. */
  baseMs: number;
  maxBackoffMs: number;
  /** Longest Retry-After waited out; a longer one (an hourly quota) fails at once, carrying it. */
  maxRetryAfterMs: number;
  sleep(ms: number): Promise<void>;
  /** A number in [0, 1), for the jitter. */
  random(): number;
  /** Told before each wait, for the user (a provider passes its runtime's hook). */
  retrying?(notice: RetryNotice): void;
}

/** The policy's defaults: six sends, backoff from 250 ms to 8 s, Retry-After waited up to 60 s. */
export const DEFAULT_RETRY: RetrySettings = {
  attempts: 6,
  baseMs: 250,
  maxBackoffMs: 8000,
  maxRetryAfterMs: 60_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/** One call as the policy runs it. */
export interface RetryCall<T, P = void> {
  /**
   * Runs before each send, outside the limiter, and hands its result to send (a token or keys,
   * whose own calls need limiter slots). Its failures end the call as they are.
   */
  prepare?: () => Promise<P>;
  /** One send: resolves with the answer or rejects with the client's classified RemoteError. */
  send: (prepared: P) => Promise<T>;
  /** Whether the call may be repeated after the API may have processed it (reads, PUT, DELETE, lookups). */
  safe: boolean;
  /**
   * For an unsafe call: after a failure that may have been processed, looks for what the first
   * send made (e.g. a product carrying this operation's ownership token) and returns it as the
   * call's answer, or undefined when nothing was made.
   */
  recover?: () => Promise<T | undefined>;
  /** Every send runs within the provider's limiter; a 429 lowers its limits. */
  limiter?: RequestLimiter;
  /** The call serves many steps (an order, a poll round): the limiter starts it before calls for one step. */
  shared?: boolean;
  settings?: Partial<RetrySettings>;
  /** Told before each wait, for a debug line. */
  onRetry?(info: { attempt: number; waitMs: number; error: RemoteError }): void;
}

/** Runs one call under the policy; rejects with the last RemoteError once it gives up. */
export async function withRetry<T, P = void>(call: RetryCall<T, P>): Promise<T> {
  const settings = { ...DEFAULT_RETRY, ...call.settings };
  const attempts = Math.max(1, Math.floor(settings.attempts));
  for (let attempt = 1; ; attempt++) {
    const prepared = (call.prepare ? await call.prepare() : undefined) as P;
    let error: RemoteError;
    try {
      return await (call.limiter ? call.limiter.run(() => call.send(prepared), { shared: call.shared }) : call.send(prepared));
    } catch (err) {
      if (!(err instanceof RemoteError)) throw err;
      error = err;
    }
    const retryAfterMs = error.details.retryAfterMs;
    if (error.kind === 'rate-limited') {
      call.limiter?.throttled(retryAfterMs);
      if (retryAfterMs !== undefined && retryAfterMs > settings.maxRetryAfterMs) throw error;
    } else if (error.kind !== 'unavailable') {
      throw error;
    } else if (!call.safe) {
      if (!call.recover) throw error;
      const found = await recoverAfter(error, call.recover);
      if (found !== undefined) return found;
    }
    if (attempt >= attempts) throw gaveUp(error, attempts);
    const waitMs = retryAfterMs !== undefined && retryAfterMs <= settings.maxRetryAfterMs ? retryAfterMs : backoffMs(attempt, settings);
    call.onRetry?.({ attempt, waitMs, error });
    settings.retrying?.({ kind: error.kind === 'rate-limited' ? 'rate-limited' : 'unavailable', waitMs, attempt, reason: withoutCall(error) });
    await settings.sleep(waitMs);
  }
}

/** Runs recover(); a failure of the check itself says the call may have gone through. */
async function recoverAfter<T>(error: RemoteError, recover: () => Promise<T | undefined>): Promise<T | undefined> {
  try {
    return await recover();
  } catch (err) {
    throw new RemoteError('unavailable', `${error.message}; it may have been carried out, and checking for its result failed too: ${(err as Error).message}`, error.details);
  }
}

/** What went wrong without the call's method and path, so the same failure of many calls reads the same. */
function withoutCall(error: RemoteError): string {
  const { method, path } = error.details;
  const prefix = method && path ? `${method} ${path}: ` : method ? `${method}: ` : '';
  return prefix && error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}

function gaveUp(error: RemoteError, attempts: number): RemoteError {
  if (attempts === 1) return error;
  return new RemoteError(error.kind, `${error.message} (gave up after ${attempts} attempts)`, error.details);
}

/** Exponential backoff with equal jitter: half of the step fixed, half random. */
export function backoffMs(attempt: number, settings: Pick<RetrySettings, 'baseMs' | 'maxBackoffMs' | 'random'> = DEFAULT_RETRY): number {
  const step = Math.min(settings.maxBackoffMs, settings.baseMs * 2 ** (attempt - 1));
  return step / 2 + settings.random() * (step / 2);
}

/**
 * Milliseconds a Retry-After header asks for: seconds (`120`, `0.5`) or an HTTP date; undefined
 * when absent or unreadable, so the policy falls back to its backoff. The only parser of it.
 */
export function retryAfterMs(header: string | null | undefined, now: number = Date.now()): number | undefined {
  const text = header?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only something shaped like a date is read as one (Date.parse takes `-5` for a year).
  const at = /^[A-Za-z]{3},/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
