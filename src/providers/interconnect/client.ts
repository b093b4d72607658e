import type { Logger } from 'pino';
import { isRemote, kindForStatus, RemoteError } from '../../kernel/errors.js';
import { certificateProblem, sendRequest, type HttpResponse } from '../http.js';
import { RequestLimiter } from '../limiter.js';
import { retryAfterMs, withRetry, type RetrySettings } from '../retry.js';

/** Where and as whom the client talks. */
export interface InterconnectEndpoint {
  baseUrl: string;
  tokenUrl: string;
  accessKey: string;
  secretKey: string;
  /** True when talking to the built-in sandbox. */
  sandbox: boolean;
  /** Order and wait for each product alone, never batched or polled by one list (PLUMB_READS=one-by-one, a diagnostic). */
  oneAtATime?: boolean;
}

/** The API's envelope: `{message, terms, data}`. */
export interface Envelope<T> {
  message: string;
  terms?: string;
  data: T;
}

/** How a call may be repeated (see retry.ts). */
export interface CallOptions<T> {
  /** Whether it may be sent again after a 5xx or a lost answer; default: every method but POST. */
  safe?: boolean;
  /** For an unsafe call: after a failure it may have carried out, finds and returns what it made, or undefined. */
  recover?: () => Promise<Envelope<T> | undefined>;
  /** The call serves many steps (an order, a poll round): under the rate limit it goes before calls for one step. */
  shared?: boolean;
}

const USER_AGENT = 'plumb/0.1 (+interconnect)';

/**
 * HTTP client for the interconnect API: OAuth2 client-credentials token (exchanged again before
 * it expires and once on a 401), bearer calls, the envelope, and failures classified once into
 * a RemoteError kind. Whether a failed call is sent again is the shared retry policy's choice
 * (retry.ts): an order (POST) is never repeated blindly. Every call, the token exchange
 * included, goes through the provider's limiter (interconnect:maxConcurrency, requestsPerSecond),
 * which a 429 lowers.
 */
export class InterconnectClient {
  private token: { value: string; expiresAt: number } | undefined;
  private tokenPromise: Promise<string> | undefined;

  constructor(
    readonly endpoint: InterconnectEndpoint,
    private readonly log: Logger,
    readonly pollBaseMs = 250,
    readonly limiter = new RequestLimiter({ maxConcurrency: Infinity, requestsPerSecond: Infinity }),
    private readonly retry: Partial<RetrySettings> = {},
  ) {}

  get<T>(path: string, query?: Record<string, string | string[]>, opts: CallOptions<T> = {}): Promise<Envelope<T>> {
    return this.request<T>('GET', path, undefined, query, opts);
  }

  /**
   * The shortest time between two poll rounds: `pollBaseMs`, and under a rate limit four calls'
   * worth of it, so waiting never takes more than a quarter of the calls the API allows from the
   * steps that have work to do (at 1.6 calls a second, a round every 2.5 s at most).
   */
  pollEveryMs(): number {
    const rate = this.limiter.sustainedRate();
    return Math.max(this.pollBaseMs, Number.isFinite(rate) ? 4000 / rate : 0);
  }
  /** A POST: sent again after a 5xx only when `safe` (validation, lookups), else only once `recover` finds nothing. */
  post<T>(path: string, body?: unknown, query?: Record<string, string>, opts: CallOptions<T> = {}): Promise<Envelope<T>> {
    return this.request<T>('POST', path, body, query, opts);
  }
  put<T>(path: string, body?: unknown): Promise<Envelope<T>> {
    return this.request<T>('PUT', path, body);
  }
  delete<T>(path: string): Promise<Envelope<T>> {
    return this.request<T>('DELETE', path);
  }

  /** One API call with token handling and classification, under the shared retry policy. */
  async request<T>(method: string, path: string, body?: unknown, query?: Record<string, string | string[]>, opts: CallOptions<T> = {}): Promise<Envelope<T>> {
    const url = new URL(this.endpoint.baseUrl.replace(/\/$/, '') + path);
    for (const [k, v] of Object.entries(query ?? {})) for (const item of [v].flat()) url.searchParams.append(k, item);
    const text = body === undefined ? undefined : JSON.stringify(body);
    const call = () =>
      withRetry({
        // The token comes first, outside the limiter: its exchange is a call of its own.
        prepare: () => this.accessToken(),
        send: (token: string) => this.sendOnce<T>(method, path, url, text, token),
        safe: opts.safe ?? method !== 'POST',
        recover: opts.recover,
        limiter: this.limiter,
        shared: opts.shared,
        settings: this.retry,
        onRetry: ({ attempt, waitMs, error }) => this.log.debug({ method, path, attempt, waitMs, kind: error.kind }, 'retrying interconnect call'),
      });
    try {
      return await call();
    } catch (err) {
      // A token refused before it was due to expire (revoked, clock skew) is exchanged once
      // more; a 401 means the call itself was not carried out.
      if (!isRemote(err, 'unauthorized') || err.details.status !== 401 || err.details.path !== path) throw err;
      this.token = undefined;
      return call();
    }
  }

  private async sendOnce<T>(method: string, path: string, url: URL, body: string | undefined, token: string): Promise<Envelope<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': USER_AGENT };
    if (method !== 'GET' && method !== 'HEAD') headers['content-type'] = 'application/json';
    let res: HttpResponse;
    try {
      res = await sendRequest(url, { method, headers, body });
    } catch (err) {
      const untrusted = certificateProblem(err, url);
      if (untrusted) throw new RemoteError('unauthorized', `${method} ${path}: ${untrusted}`, { provider: 'interconnect', method, path });
      throw new RemoteError('unavailable', `${method} ${path}: ${(err as Error).message}`, { provider: 'interconnect', method, path });
    }
    const parsed = parseJson(res.text);
    this.log.debug({ method, path, status: res.status }, 'interconnect call');
    if (res.ok) return (parsed ?? { message: '', data: undefined }) as Envelope<T>;
    throw classify(method, path, res, parsed, res.text);
  }

  private async accessToken(): Promise<string> {
    // Exchange again a minute before expiry so a long apply never sends an expired token.
    if (this.token && Date.now() < this.token.expiresAt - 60_000) return this.token.value;
    // The exchange has no side effect: it is safe to send again.
    this.tokenPromise ??= withRetry({ send: () => this.exchangeOnce(), safe: true, limiter: this.limiter, settings: this.retry }).finally(() => (this.tokenPromise = undefined));
    return this.tokenPromise;
  }

  private async exchangeOnce(): Promise<string> {
    const basic = Buffer.from(`${this.endpoint.accessKey}:${this.endpoint.secretKey}`).toString('base64');
    const tokenUrl = new URL(this.endpoint.tokenUrl);
    let res: HttpResponse;
    try {
      res = await sendRequest(tokenUrl, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'user-agent': USER_AGENT },
        body: 'grant_type=client_credentials',
      });
    } catch (err) {
      const untrusted = certificateProblem(err, tokenUrl);
      if (untrusted) throw new RemoteError('unauthorized', `token exchange failed: ${untrusted}`, { provider: 'interconnect' });
      throw new RemoteError('unavailable', `token exchange failed: ${(err as Error).message}`, { provider: 'interconnect' });
    }
    const parsed = parseJson(res.text) as { access_token?: string; expires_in?: number; error?: string } | undefined;
    if (!res.ok || !parsed?.access_token || parsed.error) {
      // The token server answers credentials it does not know 400 `invalid_client` (OAuth2's
      // words, not a status): a key or secret is wrong, which no retry mends.
      const refused = res.ok || parsed?.error === 'invalid_client' || parsed?.error === 'unauthorized_client';
      const kind = refused ? 'unauthorized' : kindForStatus(res.status);
      throw new RemoteError(kind, `token exchange failed (${res.status}): ${parsed?.error ?? 'no access token'}; check interconnect:accessKey and interconnect:secretKey`, {
        provider: 'interconnect',
        status: res.status,
        retryAfterMs: retryAfterMs(res.headers.get('retry-after')),
      });
    }
    this.token = { value: parsed.access_token, expiresAt: Date.now() + (parsed.expires_in ?? 3600) * 1000 };
    return parsed.access_token;
  }
}

function classify(method: string, path: string, res: Pick<HttpResponse, 'status' | 'headers'>, parsed: unknown, text: string): RemoteError {
  const body = (parsed ?? {}) as { message?: string; data?: unknown; error?: string };
  let kind = kindForStatus(res.status);
  const message = body.message ?? text.slice(0, 200);
  const all = [message, ...(Array.isArray(body.data) ? body.data.map((d) => JSON.stringify(d)) : [])].join(' ');
  // The API says some things only in its text; they are classified here, once.
  // Unknown product UIDs: 400 with this text instead of 404.
  if (res.status === 400 && /Could not find a service with UID/i.test(all)) kind = 'not-found';
  // A state the request conflicts with, that goes away with time or other changes: tunnels
  // still configured on an IPsec add-on (reference §3.14), a VLAN still held on a port.
  if (res.status === 400 && (/configured tunnels/i.test(all) || /\bVLAN\b[^:"]*\bnot available\b/i.test(all))) kind = 'conflict';
  const reasons = Array.isArray(body.data)
    ? body.data.map((d) => (d && typeof d === 'object' && 'error' in d ? String((d as { error: unknown }).error) : JSON.stringify(d)))
    : typeof body.data === 'string' && body.data
      ? [body.data]
      : [];
  if (body.error) reasons.push(body.error);
  return new RemoteError(kind, `${method} ${path}: ${res.status} ${[message, ...reasons].filter(Boolean).join(': ')}`, {
    provider: 'interconnect',
    status: res.status,
    method,
    path,
    retryAfterMs: retryAfterMs(res.headers.get('retry-after')),
  });
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
