/**
 * The pipeline API client: Basic auth, the `{code, message, data}` envelope, cursor paging and
 * error classification, over the shared transport and retry policy. Lookups call `get` and `list`
 * with paths relative to the v1 base (`/connections/abc`) and receive the wire (snake_case)
 * `data`; resources also `write` (POST, PATCH, DELETE), within the API's per-call limits.
 */
import type { Logger } from 'pino';
import { sendRequest, type HttpResponse, type Sender } from '../http.js';
import { createHash } from 'node:crypto';
import { RequestLimiter } from '../limiter.js';
import { describeWindow, processLedger, WindowGate, type RateLedger, type RateWindow } from '../rate-window.js';
import { withRetry, type RetrySettings } from '../retry.js';
import { classifyNetworkFailure, classifyResponse, malformedResponse, type CallSite } from './classify.js';
import { acceptFor, ENDPOINT_LIMITS, isEnvelope, MAX_PAGE_SIZE, type Page } from './protocol.js';

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
  /** Times a failed call (429, 5xx, lost answer) is sent again before it fails (default 3, i.e. 4 requests). */
  maxRetries?: number;
  /** The retry policy's backoff, Retry-After cap and clock (tests record the waits). */
  retry?: Partial<RetrySettings>;
  /** Longest silence waiting for an answer (default 30 s). */
  timeoutMs?: number;
  log?: Logger;
  /** Sends one HTTP request (default the shared transport; tests record or alter requests). */
  send?: Sender;
  /** Appended to the User-Agent. */
  userAgent?: string;
  /** Limits on calls in flight and the account's rate window (pipeline:maxConcurrency, pipeline:rateLimit); default none. */
  limiter?: RequestLimiter;
  /** Limits on particular calls (`POST /connections`: 20 a minute); tests shorten the window. */
  endpointLimits?: Record<string, RateWindow | readonly RateWindow[]>;
  /** Where the particular calls' windows are counted (default: this process's ledger). */
  ledger?: RateLedger;
}

/** How a write is sent again after a failure that may have been processed. */
export interface WriteOptions<T> {
  /** Whether sending it twice does no harm (PATCH, DELETE, a test run); default: all but POST. */
  safe?: boolean;
  /** For a create: finds what a send whose answer was lost made (see retry.ts). */
  recover?: () => Promise<T | undefined>;
}

/** Whose calls the pipeline API counts together: the account behind a key at an address (the key itself only as a hash). */
export function pipelineAccountKey(baseUrl: string, apiKey: string): string {
  return `pipeline ${baseUrl.replace(/\/+$/, '')} account ${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
}

/** A connection to one pipeline account. Credentials live in a private field and are never logged. */
export class PipelineClient {
  /** Base address without a trailing slash. */
  readonly baseUrl: string;
  readonly pageSize: number;
  readonly #authorization: string;
  readonly #timeoutMs: number;
  readonly #retry: Partial<RetrySettings>;
  readonly #send: Sender;
  readonly #log: Logger | undefined;
  readonly #userAgent: string;
  /** Every call waits here for a slot and a token; a 429 lowers its limits. */
  readonly limiter: RequestLimiter;
  readonly #endpointLimits: Record<string, RateWindow | readonly RateWindow[]>;
  readonly #account: string;
  readonly #ledger: RateLedger;
  readonly #gates = new Map<string, WindowGate[]>();

  constructor(options: PipelineClientOptions) {
    if (!options.apiKey || !options.apiSecret) throw new Error('pipeline client needs a non-empty apiKey and apiSecret');
    const pageSize = options.pageSize ?? MAX_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw new Error(`pipeline client pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${pageSize}`);
    }
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.pageSize = pageSize;
    this.#authorization = `Basic ${Buffer.from(`${options.apiKey}:${options.apiSecret}`).toString('base64')}`;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#retry = { ...options.retry, attempts: (options.maxRetries ?? 3) + 1 };
    this.#send = options.send ?? sendRequest;
    this.#log = options.log;
    this.#userAgent = ['plumb-pipeline/0.1', options.userAgent].filter(Boolean).join(' ');
    this.limiter = options.limiter ?? new RequestLimiter({ maxConcurrency: Infinity, requestsPerSecond: Infinity });
    this.#endpointLimits = options.endpointLimits ?? ENDPOINT_LIMITS;
    this.#account = pipelineAccountKey(this.baseUrl, options.apiKey);
    this.#ledger = options.ledger ?? processLedger;
  }

  /**
   * Sends a write with a JSON body and returns the envelope's `data` (undefined for the
   * message-only answers of deletes). A POST is not sent again after a failure that may have
   * been processed unless `recover` finds nothing it made.
   */
  async write<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, options: WriteOptions<T> = {}): Promise<T> {
    const site = { method, path };
    const answer = await this.request(site, {}, body, { safe: options.safe ?? method !== 'POST', recover: options.recover && (async () => wrapped(await options.recover!())) });
    if (!isEnvelope(answer.body)) throw malformedResponse(site, answer.status, 'is not the documented envelope');
    return answer.body.data as T;
  }

  /** The windows of a call the API limits apart (none for most). */
  private windows(site: CallSite): WindowGate[] {
    const key = `${site.method} ${site.path}`;
    let gates = this.#gates.get(key);
    if (!gates) {
      const limits = [this.#endpointLimits[key] ?? []].flat();
      // Each window its own key: a call counts once in each, not twice in one.
      gates = limits.map((limit) => new WindowGate(this.#ledger, `${this.#account} ${key} ${describeWindow(limit)}`, limit));
      this.#gates.set(key, gates);
    }
    return gates;
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

  /** Sends one call under the retry policy; returns status and parsed body of a 2xx. */
  private request(
    site: CallSite,
    query: Query,
    body?: unknown,
    write?: { safe: boolean; recover?: () => Promise<{ status: number; body: unknown } | undefined> },
  ): Promise<{ status: number; body: unknown }> {
    const url = this.url(site.path, query);
    const windows = this.windows(site);
    return withRetry({
      // Each send of a limited call waits for its slots outside the limiter, so it holds no slot there.
      prepare: async () => {
        const tickets: string[] = [];
        for (const gate of windows) tickets.push(await gate.acquire());
        return tickets;
      },
      send: async (tickets) => {
        try {
          return await this.sendOnce(site, url, body);
        } finally {
          tickets.forEach((ticket, i) => windows[i]!.release(ticket));
        }
      },
      safe: write?.safe ?? true,
      recover: write?.recover,
      limiter: this.limiter,
      settings: this.#retry,
      onRetry: ({ attempt, waitMs, error }) => this.#log?.warn({ provider: 'pipeline', path: site.path, attempt, waitMs, kind: error.kind }, 'pipeline call failed; sending it again'),
    });
  }

  /** One send: the status and parsed body of a 2xx, or the classified failure thrown. */
  private async sendOnce(site: CallSite, url: string, payload?: unknown): Promise<{ status: number; body: unknown }> {
    const started = Date.now();
    let response: HttpResponse;
    const json = payload === undefined ? undefined : JSON.stringify(payload);
    try {
      response = await this.#send(new URL(url), {
        method: site.method,
        headers: { authorization: this.#authorization, accept: acceptFor(site.path), 'user-agent': this.#userAgent, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(json === undefined ? {} : { body: json }),
        timeoutMs: this.#timeoutMs,
      });
    } catch (err) {
      throw classifyNetworkFailure(site, new URL(url), err);
    }
    this.limiter.window?.observe(quotaOf(response.headers));
    const body = parseBody(response.text);
    this.#log?.debug({ provider: 'pipeline', method: site.method, path: site.path, status: response.status, ms: Date.now() - started }, 'pipeline call');
    if (!response.ok) throw classifyResponse(site, response.status, body, response.headers.get('retry-after'));
    if (typeof body === 'string') throw malformedResponse(site, response.status, 'is not JSON');
    return { status: response.status, body };
  }

  private url(path: string, query: Query): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
    const search = params.toString();
    return `${this.baseUrl}${path.startsWith('/') ? path : `/${path}`}${search ? `?${search}` : ''}`;
  }
}

/** What the API's quota headers say: the hourly limit and what is left of it. */
function quotaOf(headers: { get(name: string): string | null }): { limit?: number; remaining?: number } {
  const number = (name: string) => {
    const value = Number(headers.get(name) ?? Number.NaN);
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  return { limit: number('x-rate-limit'), remaining: number('x-rate-limit-remaining') };
}

/** What recover found, as the answer a send would have given. */
function wrapped<T>(found: T | undefined): { status: number; body: unknown } | undefined {
  return found === undefined ? undefined : { status: 200, body: { code: 'Success', data: found } };
}

/** The body as JSON when it parses, else as text (error pages from proxies are often HTML). */
function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
