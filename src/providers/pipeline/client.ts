/**
 * The pipeline API client: Basic auth, the `{code, message, data}` envelope, cursor paging,
 * Retry-After on 429 and error classification. Lookups call `get` and `list` with paths relative
 * to the v1 base (`/connections/abc`) and receive the wire (snake_case) `data`.
 */
import type { Logger } from 'pino';
import { RemoteError } from '../../errors.js';
import { RequestLimiter } from '../limiter.js';
import { classifyNetworkFailure, classifyResponse, malformedResponse, type CallSite } from './classify.js';
import { acceptFor, isEnvelope, MAX_PAGE_SIZE, type Page } from './protocol.js';

/** Query parameters; undefined values are left out, as the Go SDK does. */
export type Query = Record<string, string | undefined>;

/** How to build a client; only the address and credentials are required. */
export interface PipelineClientOptions {
  /** Base address including `/v1`, e.g. `https://api.fivetran.com/v1`. */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** Items requested per page when listing, 1..1000 (default 1000). Tests use 2 to cross pages. */
  pageSize?: number;
  /** Retries after a 429 before the call fails as rate-limited (default 3, i.e. 4 requests). */
  maxRetries?: number;
  /** Longest Retry-After worth waiting for; a longer one fails at once, carrying retryAfterMs (default 60 s). */
  maxRetryWaitMs?: number;
  /** Wait when a 429 carries no usable Retry-After; doubled on each retry (default 1 s). */
  fallbackRetryMs?: number;
  /** Per-request timeout (default 30 s). */
  timeoutMs?: number;
  log?: Logger;
  /** Replaces global fetch (tests record headers with it). */
  fetch?: typeof fetch;
  /** Replaces the timer used between retries (tests record the waits). */
  sleep?: (ms: number) => Promise<void>;
  /** Appended to the User-Agent. */
  userAgent?: string;
  /** Limits on calls in flight and per second (pipeline:maxConcurrency, pipeline:requestsPerSecond); default none. */
  limiter?: RequestLimiter;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A connection to one pipeline account. Credentials live in a private field and are never logged. */
export class PipelineClient {
  /** Base address without a trailing slash. */
  readonly baseUrl: string;
  readonly pageSize: number;
  readonly #authorization: string;
  readonly #options: Required<Pick<PipelineClientOptions, 'maxRetries' | 'maxRetryWaitMs' | 'fallbackRetryMs' | 'timeoutMs'>>;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #log: Logger | undefined;
  readonly #userAgent: string;
  /** Every call waits here for a slot and a token; a 429 lowers its limits. */
  readonly limiter: RequestLimiter;

  constructor(options: PipelineClientOptions) {
    if (!options.apiKey || !options.apiSecret) throw new Error('pipeline client needs a non-empty apiKey and apiSecret');
    const pageSize = options.pageSize ?? MAX_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw new Error(`pipeline client pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${pageSize}`);
    }
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.pageSize = pageSize;
    this.#authorization = `Basic ${Buffer.from(`${options.apiKey}:${options.apiSecret}`).toString('base64')}`;
    this.#options = {
      maxRetries: options.maxRetries ?? 3,
      maxRetryWaitMs: options.maxRetryWaitMs ?? 60_000,
      fallbackRetryMs: options.fallbackRetryMs ?? 1000,
      timeoutMs: options.timeoutMs ?? 30_000,
    };
    this.#fetch = options.fetch ?? fetch;
    this.#sleep = options.sleep ?? sleepFor;
    this.#log = options.log;
    this.#userAgent = ['plumb-pipeline/0.1', options.userAgent].filter(Boolean).join(' ');
    this.limiter = options.limiter ?? new RequestLimiter({ maxConcurrency: Infinity, requestsPerSecond: Infinity });
  }

  /** GETs one object and returns the envelope's `data`. */
  async get<T>(path: string, query: Query = {}): Promise<T> {
    const site = { method: 'GET', path };
    const { status, body } = await this.request(site, query);
    if (!isEnvelope(body) || body.data === undefined || body.data === null) throw malformedResponse(site, status, 'has no data');
    return body.data as T;
  }

  /**
   * GETs every item of a paged collection: `limit` is the client's page size and `cursor` the
   * previous page's `next_cursor`, until that is absent, null or empty. A cursor seen twice
   * means the server is looping, which would otherwise never end.
   */
  async list<T>(path: string, query: Query = {}): Promise<T[]> {
    const site = { method: 'GET', path };
    const items: T[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await this.get<Page<T>>(path, { ...query, limit: String(this.pageSize), cursor });
      if (!Array.isArray(page.items)) throw malformedResponse(site, 200, 'has no data.items list');
      items.push(...page.items);
      cursor = page.next_cursor || undefined;
      if (cursor !== undefined && seen.has(cursor)) throw malformedResponse(site, 200, `repeats cursor ${cursor}`);
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    return items;
  }

  /** Sends one call, retrying 429 answers as Retry-After says; returns status and parsed body of a 2xx. */
  private async request(site: CallSite, query: Query): Promise<{ status: number; body: unknown }> {
    const url = this.url(site.path, query);
    for (let attempt = 0; ; attempt++) {
      const started = Date.now();
      const { response, body } = await this.limiter.run(async () => {
        const answer = await this.send(site, url);
        return { response: answer, body: await readBody(answer) };
      });
      this.#log?.debug({ provider: 'pipeline', method: site.method, path: site.path, status: response.status, ms: Date.now() - started }, 'pipeline call');
      if (response.ok) {
        if (typeof body === 'string') throw malformedResponse(site, response.status, 'is not JSON');
        return { status: response.status, body };
      }
      const error = classifyResponse(site, response.status, body, response.headers.get('retry-after'));
      if (error.kind === 'rate-limited') this.limiter.throttled(error.details.retryAfterMs);
      const wait = this.retryWait(error, attempt);
      if (wait === undefined) throw error;
      this.#log?.warn({ provider: 'pipeline', path: site.path, attempt: attempt + 1, waitMs: wait }, 'pipeline API rate limit; retrying after Retry-After');
      await this.#sleep(wait);
    }
  }

  /** How long to wait before retrying, or undefined when the error is final. */
  private retryWait(error: RemoteError, attempt: number): number | undefined {
    if (error.kind !== 'rate-limited' || attempt >= this.#options.maxRetries) return undefined;
    const wait = error.details.retryAfterMs ?? this.#options.fallbackRetryMs * 2 ** attempt;
    return wait <= this.#options.maxRetryWaitMs ? wait : undefined;
  }

  private async send(site: CallSite, url: string): Promise<Response> {
    try {
      return await this.#fetch(url, {
        method: site.method,
        headers: { authorization: this.#authorization, accept: acceptFor(site.path), 'user-agent': this.#userAgent },
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      });
    } catch (err) {
      throw classifyNetworkFailure(site, new URL(url).host, err, this.#options.timeoutMs);
    }
  }

  private url(path: string, query: Query): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
    const search = params.toString();
    return `${this.baseUrl}${path.startsWith('/') ? path : `/${path}`}${search ? `?${search}` : ''}`;
  }
}

/** The body as JSON when it parses, else as text (error pages from proxies are often HTML). */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
