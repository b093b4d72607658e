/**
 * The cloud API client: one signed POST per Action, the RetCode envelope, retries and paging.
 * Every failure is classified here, once, into a RemoteError kind; callers never see RetCodes.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { RemoteError } from '../../errors.js';
import { RequestLimiter } from '../limiter.js';
import type { CredentialSource, Keys } from './credentials.js';
import { backoffMs, isRetryableAction, isRetryableRetCode, isRetryableStatus, kindForHttpStatus, kindForRetCode } from './retcodes.js';
import { flattenParams, formBody, signParams, type Params } from './signature.js';

/** The common fields of every response; the payload fields sit beside them. */
export interface Envelope {
  RetCode: number;
  Message?: string;
  Action?: string;
  TotalCount?: number;
  [field: string]: unknown;
}

/** How a client is built. */
export interface CloudClientOptions {
  /** Address of the action endpoint, e.g. `https://api.ucloud.cn` or `<sandbox>/cloud/`. */
  baseUrl: string;
  region: string;
  projectId: string;
  credentials: CredentialSource;
  maxRetries: number;
  log: Logger;
  /** Body encoding: form (the SDK default) or JSON with flattened keys. Default form. */
  encoding?: 'form' | 'json';
  /** Limit per page when listing. Default 100 (the largest most Actions accept). */
  pageSize?: number;
  /** Per-request timeout. Default 30 s. */
  timeoutMs?: number;
  /** Delay before retry n; default the SDK's 4^n × 100–199 ms. */
  backoff?: (attempt: number) => number;
  /** Limits on calls in flight and per second (cloud:maxConcurrency, cloud:requestsPerSecond); default none. */
  limiter?: RequestLimiter;
}

/** Per-call choices. */
export interface CallOptions {
  /** Send the client's ProjectId (default true; the single anti-DDoS describe must not). */
  project?: boolean;
  /** Send the client's Region (default true; STS and IAM calls are account-wide). */
  region?: boolean;
  /** Allow retries (default: by Action name; create-like Actions never retry). */
  retryable?: boolean;
  /** Sign with these keys instead of the credential source (the AssumeRole call itself). */
  keys?: Keys;
}

/** Options for listing through every page. */
export interface PageOptions extends CallOptions {
  /** Overrides the client's page size for this listing. */
  pageSize?: number;
}

/** A signed client for the cloud API's single action endpoint. */
export class CloudClient {
  /** Limit per page when listing; tests lower it to exercise paging. */
  pageSize: number;
  readonly region: string;
  readonly projectId: string;
  private credentials: CredentialSource;
  private readonly opts: CloudClientOptions;
  /** Every signed call waits here for a slot and a token; throttling answers lower its limits. */
  readonly limiter: RequestLimiter;

  constructor(options: CloudClientOptions) {
    this.opts = options;
    this.limiter = options.limiter ?? new RequestLimiter({ maxConcurrency: Infinity, requestsPerSecond: Infinity });
    this.credentials = options.credentials;
    this.region = options.region;
    this.projectId = options.projectId;
    this.pageSize = options.pageSize ?? 100;
  }

  /** Replaces the credential source (used once, to switch to assumed-role keys). */
  useCredentials(source: CredentialSource): void {
    this.credentials = source;
  }

  /** Calls one Action; resolves with the envelope when RetCode is 0, throws a RemoteError otherwise. */
  async call<T extends object = Envelope>(action: string, params: Params = {}, options: CallOptions = {}): Promise<T & Envelope> {
    const retryable = options.retryable ?? isRetryableAction(action);
    const maxRetries = retryable ? this.opts.maxRetries : 0;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(action, params, options);
      if (outcome.ok) return outcome.body as T & Envelope;
      if (!outcome.retry || attempt >= maxRetries) throw outcome.error;
      const delay = Math.max((this.opts.backoff ?? backoffMs)(attempt), outcome.retryAfterMs ?? 0);
      this.opts.log.debug({ action, attempt: attempt + 1, delayMs: delay, kind: outcome.error.kind }, 'cloud call retrying');
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  /**
   * Lists through every page with Offset/Limit. Stops at a short or empty page, at TotalCount,
   * or when the API ignores Offset and repeats a page (some list Actions take no paging).
   */
  async pageAll<T>(action: string, params: Params, listKey: string, options: PageOptions = {}): Promise<T[]> {
    const limit = options.pageSize ?? this.pageSize;
    const items: T[] = [];
    let previous = '';
    for (let offset = 0; ; offset += limit) {
      const body = await this.call(action, { ...params, Offset: offset, Limit: limit }, options);
      const page = (Array.isArray(body[listKey]) ? body[listKey] : []) as T[];
      const fingerprint = JSON.stringify(page);
      if (page.length > 0 && fingerprint === previous) break;
      previous = fingerprint;
      items.push(...page);
      if (page.length < limit) break;
      if (typeof body.TotalCount === 'number' && items.length >= body.TotalCount) break;
    }
    return items;
  }

  /** A classified error for a failure reported inside a payload (e.g. a per-domain Code). */
  errorFor(action: string, code: number, message: string): RemoteError {
    return new RemoteError(kindForRetCode(code, action), `${action}: ${message} (code ${code})`, { provider: 'cloud', method: action });
  }

  private async attempt(
    action: string,
    params: Params,
    options: CallOptions,
  ): Promise<{ ok: true; body: Envelope } | { ok: false; error: RemoteError; retry: boolean; retryAfterMs?: number }> {
    const keys = options.keys ?? (await this.credentials.keys());
    // An argument left undefined keeps the client default (e.g. a lookup's own ProjectId).
    const given = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
    const flat = flattenParams({
      ...(options.region === false ? {} : { Region: this.region }),
      ...(options.project === false ? {} : { ProjectId: this.projectId }),
      ...given,
      Action: action,
      PublicKey: keys.publicKey,
      SecurityToken: keys.securityToken,
    });
    flat.Signature = signParams(flat, keys.privateKey);
    const url = new URL(this.opts.baseUrl);
    // The SDK repeats Action in the query string so that access logs show it.
    url.searchParams.set('Action', action);
    const json = this.opts.encoding === 'json';
    const started = Date.now();
    const fail = (kind: RemoteError['kind'], message: string, retry: boolean, status?: number, retryAfterMs?: number) => ({
      ok: false as const,
      retry,
      retryAfterMs,
      error: new RemoteError(kind, `${action}: ${message}`, { provider: 'cloud', status, retryAfterMs, method: action }),
    });
    let res: Response;
    let text: string;
    try {
      [res, text] = await this.limiter.run(async () => {
        const answer = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
            'user-agent': 'plumb-cloud/0.1',
            'u-timestamp-ms': String(started),
          },
          body: json ? JSON.stringify(flat) : formBody(flat),
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
        });
        return [answer, await answer.text().catch(() => '')] as const;
      });
    } catch (err) {
      return fail('unavailable', `network error: ${(err as Error).message}`, true);
    }
    const requestId = res.headers.get('x-ucloud-request-uuid') ?? randomUUID();
    if (res.status >= 400) {
      const retryAfterMs = retryAfter(res.headers.get('retry-after'));
      if (res.status === 429) this.limiter.throttled(retryAfterMs);
      this.opts.log.debug({ action, status: res.status, requestId, ms: Date.now() - started }, 'cloud call failed');
      return fail(kindForHttpStatus(res.status), `HTTP ${res.status} (request ${requestId})`, isRetryableStatus(res.status), res.status, retryAfterMs);
    }
    if (!text) return fail('unavailable', `empty response body (request ${requestId})`, false, res.status);
    let body: Envelope;
    try {
      body = JSON.parse(text) as Envelope;
    } catch {
      return fail('unavailable', `response is not JSON (request ${requestId})`, false, res.status);
    }
    // Some gateways send RetCode as a string; a missing RetCode counts as success.
    const code = Number(body.RetCode ?? 0);
    this.opts.log.debug({ action, retCode: code, requestId, ms: Date.now() - started }, 'cloud call');
    if (code === 0) return { ok: true, body: { ...body, RetCode: 0 } };
    const message = typeof body.Message === 'string' && body.Message ? body.Message : 'request failed';
    if (kindForRetCode(code, action) === 'rate-limited') this.limiter.throttled();
    return fail(kindForRetCode(code, action), `${message} (RetCode ${code}, request ${requestId})`, isRetryableRetCode(code, action), res.status);
  }
}

/** Milliseconds from a Retry-After header (seconds or an HTTP date), capped at 30 s. */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), 30_000) : undefined;
}
