/**
 * The cloud API client: one signed POST per Action, the RetCode envelope, paging, and the shared
 * retry policy (retry.ts). Every failure is classified here, once, into a RemoteError kind;
 * callers never see RetCodes.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { RemoteError } from '../../kernel/errors.js';
import { certificateProblem, sendRequest, type HttpResponse, type Sender } from '../http.js';
import { RequestLimiter } from '../limiter.js';
import { retryAfterMs, withRetry, type RetrySettings } from '../retry.js';
import type { CredentialSource, Keys } from './credentials.js';
import { ActionNotOffered, isActionNotOffered, isSafeAction, kindForHttpStatus, kindForRetCode } from './retcodes.js';
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
  /** How many times a failed call may be sent again (cloud:maxRetries). */
  maxRetries: number;
  log: Logger;
  /** Body encoding: form (the SDK default) or JSON with flattened keys. Default form. */
  encoding?: 'form' | 'json';
  /** Limit per page when listing. Default 100 (the largest most Actions accept). */
  pageSize?: number;
  /** Per-request timeout. Default 30 s. */
  timeoutMs?: number;
  /** The retry policy's backoff and clock (tests shorten them); attempts come from maxRetries. */
  retry?: Partial<RetrySettings>;
  /** Limits on calls in flight and per second (cloud:maxConcurrency, cloud:requestsPerSecond); default none. */
  limiter?: RequestLimiter;
  /** Sends one HTTP request (default the shared transport). */
  send?: Sender;
}

/** Per-call choices. */
export interface CallOptions {
  /** Send the client's ProjectId (default true; the single anti-DDoS describe must not). */
  project?: boolean;
  /** Send the client's Region (default true; STS and IAM calls are account-wide). */
  region?: boolean;
  /** Whether the call may be sent again after a 5xx or a lost answer (default: by Action name, see isSafeAction). */
  safe?: boolean;
  /**
   * For an unsafe Action: after a failure it may have carried out, finds what it made and returns
   * the answer to use instead (see retry.ts), or undefined when it made nothing.
   */
  recover?: () => Promise<Envelope | undefined>;
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
    const body = await withRetry({
      // Keys are fetched outside the limiter: assuming a role is a call that needs a slot of its own.
      prepare: () => (options.keys ? Promise.resolve(options.keys) : this.credentials.keys()),
      send: (keys: Keys) => this.attempt(action, params, options, keys),
      safe: options.safe ?? isSafeAction(action),
      recover: options.recover,
      limiter: this.limiter,
      settings: { ...this.opts.retry, attempts: this.opts.maxRetries + 1 },
      onRetry: ({ attempt, waitMs, error }) => this.opts.log.debug({ action, attempt, waitMs, kind: error.kind }, 'cloud call retrying'),
    });
    return body as T & Envelope;
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

  /** One signed send of an Action; the answer's envelope, or the classified failure thrown. */
  private async attempt(action: string, params: Params, options: CallOptions, keys: Keys): Promise<Envelope> {
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
    const fail = (kind: RemoteError['kind'], message: string, status?: number, retryAfter?: number) =>
      new RemoteError(kind, `${action}: ${message}`, { provider: 'cloud', status, retryAfterMs: retryAfter, method: action });
    let res: HttpResponse;
    try {
      res = await (this.opts.send ?? sendRequest)(url, {
        method: 'POST',
        headers: {
          'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
          'user-agent': 'plumb-cloud/0.1',
          'u-timestamp-ms': String(started),
        },
        body: json ? JSON.stringify(flat) : formBody(flat),
        timeoutMs: this.opts.timeoutMs ?? 30_000,
      });
    } catch (err) {
      const untrusted = certificateProblem(err, url);
      throw untrusted ? fail('unauthorized', untrusted) : fail('unavailable', `network error: ${(err as Error).message}`);
    }
    const requestId = res.headers.get('x-ucloud-request-uuid') ?? randomUUID();
    if (res.status >= 400) {
      this.opts.log.debug({ action, status: res.status, requestId, ms: Date.now() - started }, 'cloud call failed');
      throw fail(kindForHttpStatus(res.status), `HTTP ${res.status} (request ${requestId})`, res.status, retryAfterMs(res.headers.get('retry-after')));
    }
    if (!res.text) throw fail('unavailable', `empty response body (request ${requestId})`, res.status);
    let body: Envelope;
    try {
      body = JSON.parse(res.text) as Envelope;
    } catch {
      throw fail('unavailable', `response is not JSON (request ${requestId})`, res.status);
    }
    // Some gateways send RetCode as a string; a missing RetCode counts as success.
    const code = Number(body.RetCode ?? 0);
    this.opts.log.debug({ action, retCode: code, requestId, ms: Date.now() - started }, 'cloud call');
    if (code === 0) return { ...body, RetCode: 0 };
    const message = typeof body.Message === 'string' && body.Message ? body.Message : 'request failed';
    if (isActionNotOffered(code)) {
      throw new ActionNotOffered(`${action}: ${message} (RetCode ${code}, request ${requestId})`, { provider: 'cloud', status: res.status, method: action });
    }
    throw fail(kindForRetCode(code, action), `${message} (RetCode ${code}, request ${requestId})`, res.status);
  }
}
