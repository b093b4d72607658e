import type { Logger } from 'pino';
import { RemoteError, kindForStatus } from '../../errors.js';
import { sendRequest, type HttpResponse } from '../http.js';
import { RequestLimiter } from '../limiter.js';

/** Where and as whom the client talks. */
export interface InterconnectEndpoint {
  baseUrl: string;
  tokenUrl: string;
  accessKey: string;
  secretKey: string;
  /** True when talking to the built-in sandbox. */
  sandbox: boolean;
}

/** The API's envelope: `{message, terms, data}`. */
export interface Envelope<T> {
  message: string;
  terms?: string;
  data: T;
}

const USER_AGENT = 'plumb/0.1 (+interconnect)';
const MAX_ATTEMPTS = 8;

/**
 * HTTP client for the interconnect API: OAuth2 client-credentials token (exchanged again before
 * it expires and once on a 401), bearer calls, the envelope, and failures classified once into
 * a RemoteError kind. Only calls that are safe to repeat are retried: rate-limited replies for
 * any method (the request was not processed), unavailable replies for GET/PUT/DELETE. An order
 * (POST) that fails as unavailable is never repeated blindly. Every call, the token exchange
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
  ) {}

  get<T>(path: string, query?: Record<string, string | string[]>): Promise<Envelope<T>> {
    return this.request<T>('GET', path, undefined, query);
  }
  /** A POST; `idempotent` ones (validation, lookups) may be repeated after an unavailable reply. */
  post<T>(path: string, body?: unknown, query?: Record<string, string>, opts: { idempotent?: boolean } = {}): Promise<Envelope<T>> {
    return this.request<T>('POST', path, body, query, opts.idempotent);
  }
  put<T>(path: string, body?: unknown): Promise<Envelope<T>> {
    return this.request<T>('PUT', path, body);
  }
  delete<T>(path: string): Promise<Envelope<T>> {
    return this.request<T>('DELETE', path);
  }

  /** One API call with token handling, classification and bounded retries. */
  async request<T>(method: string, path: string, body?: unknown, query?: Record<string, string | string[]>, idempotent = method !== 'POST'): Promise<Envelope<T>> {
    const url = new URL(this.endpoint.baseUrl.replace(/\/$/, '') + path);
    for (const [k, v] of Object.entries(query ?? {})) for (const item of [v].flat()) url.searchParams.append(k, item);
    let reauthorized = false;
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = {
        authorization: `Bearer ${await this.accessToken()}`,
        accept: 'application/json',
        'user-agent': USER_AGENT,
      };
      if (method !== 'GET' && method !== 'HEAD') headers['content-type'] = 'application/json';
      let res: HttpResponse;
      try {
        res = await this.limiter.run(() => sendRequest(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
      } catch (err) {
        const failure = new RemoteError('unavailable', `${method} ${path}: ${(err as Error).message}`, { provider: 'interconnect', method, path });
        if (!idempotent || attempt >= MAX_ATTEMPTS) throw failure;
        await sleep(backoff(attempt));
        continue;
      }
      const text = res.text;
      const parsed = parseJson(text);
      this.log.debug({ method, path, status: res.status, attempt }, 'interconnect call');
      if (res.ok) return (parsed ?? { message: '', data: undefined }) as Envelope<T>;
      const failure = classify(method, path, res, parsed, text);
      if (failure.kind === 'rate-limited') this.limiter.throttled(failure.details.retryAfterMs);
      if (failure.kind === 'unauthorized' && res.status === 401 && !reauthorized) {
        reauthorized = true;
        this.token = undefined;
        continue;
      }
      const retryable = failure.kind === 'rate-limited' || (failure.kind === 'unavailable' && idempotent);
      if (!retryable || attempt >= MAX_ATTEMPTS) throw failure;
      const wait = failure.details.retryAfterMs ?? backoff(attempt);
      this.log.debug({ method, path, status: res.status, wait }, 'retrying interconnect call');
      await sleep(wait);
    }
  }

  private async accessToken(): Promise<string> {
    // Exchange again a minute before expiry so a long apply never sends an expired token.
    if (this.token && Date.now() < this.token.expiresAt - 60_000) return this.token.value;
    this.tokenPromise ??= this.exchange().finally(() => (this.tokenPromise = undefined));
    return this.tokenPromise;
  }

  private async exchange(): Promise<string> {
    // The token exchange has no side effect: repeat it while the server is busy or down.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.exchangeOnce();
      } catch (err) {
        if (!(err instanceof RemoteError) || !['rate-limited', 'unavailable'].includes(err.kind) || attempt >= MAX_ATTEMPTS) throw err;
        await sleep(err.details.retryAfterMs ?? backoff(attempt));
      }
    }
  }

  private async exchangeOnce(): Promise<string> {
    const basic = Buffer.from(`${this.endpoint.accessKey}:${this.endpoint.secretKey}`).toString('base64');
    let res: HttpResponse;
    try {
      res = await this.limiter.run(() =>
        sendRequest(new URL(this.endpoint.tokenUrl), {
          method: 'POST',
          headers: {
            authorization: `Basic ${basic}`,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
            'user-agent': USER_AGENT,
          },
          body: 'grant_type=client_credentials',
        }),
      );
    } catch (err) {
      throw new RemoteError('unavailable', `token exchange failed: ${(err as Error).message}`, { provider: 'interconnect' });
    }
    const parsed = parseJson(res.text) as { access_token?: string; expires_in?: number; error?: string } | undefined;
    if (!res.ok || !parsed?.access_token || parsed.error) {
      const kind = res.ok ? 'unauthorized' : kindForStatus(res.status);
      const retryAfter = Number(res.headers.get('retry-after'));
      if (kind === 'rate-limited') this.limiter.throttled(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined);
      throw new RemoteError(kind, `token exchange failed (${res.status}): ${parsed?.error ?? 'no access token'}; check interconnect:accessKey and interconnect:secretKey`, {
        provider: 'interconnect',
        status: res.status,
        retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
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
  const retryAfter = Number(res.headers.get('retry-after'));
  return new RemoteError(kind, `${method} ${path}: ${res.status} ${[message, ...reasons].filter(Boolean).join(': ')}`, {
    provider: 'interconnect',
    status: res.status,
    method,
    path,
    retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
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

function backoff(attempt: number): number {
  const base = Math.min(8000, 200 * 2 ** (attempt - 1));
  return base / 2 + Math.random() * (base / 2);
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
