import type { IncomingHttpHeaders } from 'node:http';
import type { SandboxSettings } from './settings.js';

/** A request as a provider's simulated API sees it: the path is below the provider prefix. */
export interface SandboxRequest {
  method: string;
  /** Path below `/<provider>`, starting with `/`, without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Parsed body: JSON value, or an object of strings for form-encoded bodies; undefined when empty. */
  body: unknown;
}

/** What a simulated API answers. `body` is JSON-encoded unless it is a string. */
export interface SandboxResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The simulated world shared by every provider's API: time, settings and persistent data. */
export interface SandboxWorld {
  /** Current time in epoch milliseconds (provisioning is derived from timestamps). */
  now(): number;
  /** How long a product takes to provision, in ms (0 = instant). */
  provisioningMs(): number;
  /** Every setting now in force (a copy). */
  settings(): SandboxSettings;
  /**
   * The provider's persistent data, created by `init` on first use. Mutate it in place and call
   * `save(provider)`; it is written to the data folder so separate commands see one world.
   */
  data<T>(provider: string, init: () => T): T;
  /** Marks that provider's data (every provider's, without an argument) to be written soon. */
  save(provider?: string): void;
}

/** One provider's simulated remote API. */
export interface SandboxApi {
  provider: string;
  handle(req: SandboxRequest, world: SandboxWorld): SandboxResponse | Promise<SandboxResponse>;
  /** Body for an injected fault with this status, in the API's own error shape. */
  faultBody?(status: number): unknown;
  /** The name a rate limit matches a call by (default `METHOD /path`; the cloud API: its Action). */
  operation?(req: SandboxRequest): string;
  /**
   * The answer to a call over a rate limit, as the real API gives it, with the limit's documented
   * message where it has one (default: 429 with Retry-After and faultBody(429)).
   */
  throttled?(req: SandboxRequest, retryAfterSeconds: number, message?: string): SandboxResponse;
  /** Provider-specific admin actions under `/_sandbox/<name>`; undefined = not mine. */
  admin?(name: string, body: unknown, world: SandboxWorld): SandboxResponse | undefined | Promise<SandboxResponse | undefined>;
}
