/**
 * The remote APIs' documented rate limits, the sandbox's one way of refusing calls for their
 * number. Those every account meets in ordinary use (`always`) are enforced in every sandbox, as
 * the real API enforces them; the rest only when asked (`--limits real`,
 * `PLUMB_SANDBOX_LIMITS=real`, or the `limits` option of startSandbox). Each limit is a rolling
 * window over the calls it covers; a call over any limit is refused, in the provider's own shape
 * (a 429 with Retry-After, or the cloud API's throttling RetCode), and is not counted, so a
 * client that waits as told gets through. Counts live in the sandbox's world, so separate
 * commands against one data folder share the window, as they share it with the real API.
 */
import { SandboxSettingError } from './setting-error.js';
import type { SandboxApi, SandboxRequest, SandboxResponse, SandboxWorld } from './types.js';

/** One limit: at most `max` calls matching it in any `windowMs`, counted per client address or per account. */
export interface LimitRule {
  provider: string;
  /** What the limit covers, as the vendor's documentation says it. */
  name: string;
  /** The calls it covers, by the API's operation name (`METHOD /path`, or a cloud Action); every call when absent. */
  match?: RegExp;
  max: number;
  windowMs: number;
  /** Whose calls count together: one client address's (interconnect: per IP address) or the whole account's. */
  per: 'address' | 'account';
  /** Answer headers naming the limit and what is left of it, where the API sends them. */
  quotaHeaders?: { limit: string; remaining: string };
  /** Where the figure is published. */
  source: string;
  /**
   * Enforced whatever `--limits` says: a limit a client meets in ordinary use (not a large
   * budget), so a sandbox without it would let through what the real API refuses.
   */
  always?: boolean;
  /** The API's own words when it refuses a call over this limit, where its documentation shows them. */
  message?: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The published limits. The cloud API publishes none (only the throttling RetCode 153), so it has
 * no entry; the interconnect API's per-service update limit is left out too, as its page does not
 * say it is enforced (see the README).
 */
export const REAL_LIMITS: readonly LimitRule[] = [
  { provider: 'interconnect', name: 'requests', max: 500, windowMs: 5 * MINUTE, per: 'address', source: 'docs.megaport.com/troubleshooting/api/ "API Limits"' },
  {
    provider: 'pipeline',
    name: 'requests',
    max: 20_000,
    windowMs: HOUR,
    per: 'account',
    quotaHeaders: { limit: 'x-rate-limit', remaining: 'x-rate-limit-remaining' },
    source: 'fivetran.com/docs/rest-api/rate-limiting (paid accounts)',
  },
  {
    provider: 'pipeline',
    name: 'connection creations per minute',
    match: /^POST \/v1\/(connections|connectors)$/,
    max: 20,
    windowMs: MINUTE,
    per: 'account',
    source: 'support.fivetran.com/hc/en-us/articles/1500003155681 (paid accounts)',
    always: true,
    message: 'No more than 20 connections can be created per minute',
  },
  {
    provider: 'pipeline',
    name: 'connection creations per hour',
    match: /^POST \/v1\/(connections|connectors)$/,
    max: 600,
    windowMs: HOUR,
    per: 'account',
    source: 'support.fivetran.com/hc/en-us/articles/1500003155681 (paid accounts)',
  },
  { provider: 'pipeline', name: 'user creations', match: /^POST \/v1\/users$/, max: 500, windowMs: HOUR, per: 'account', source: 'fivetran.com/docs/rest-api/rate-limiting (paid accounts)' },
  {
    provider: 'pipeline',
    name: 'private link creations',
    match: /^POST \/v1\/private-links$/,
    max: 5,
    windowMs: HOUR,
    per: 'account',
    source: 'fivetran.com/docs/rest-api/rate-limiting (paid accounts)',
  },
];

/**
 * What the sandbox is told to enforce: every published limit (`real`), only the `always` ones
 * (`off`, the default), or a table of its own that replaces them all (tests: small windows).
 */
export type LimitsOption = 'real' | 'off' | readonly LimitRule[];

/** The published limits enforced in every sandbox. */
export const ALWAYS_LIMITS: readonly LimitRule[] = REAL_LIMITS.filter((r) => r.always);

/** The rules of an option. */
export function rulesOf(option: LimitsOption | undefined): readonly LimitRule[] {
  if (option === undefined || option === 'off') return ALWAYS_LIMITS;
  return option === 'real' ? REAL_LIMITS : option;
}

/** `--limits` / `PLUMB_SANDBOX_LIMITS`: `real` or `off`; another value is a SandboxSettingError naming where it came from. */
export function limitsFrom(env: Record<string, string | undefined>, flag?: string): LimitsOption | undefined {
  const value = flag ?? env.PLUMB_SANDBOX_LIMITS;
  if (value === undefined || value === '') return undefined;
  const mode = value.trim().toLowerCase();
  if (mode === 'real' || mode === 'off') return mode;
  throw new SandboxSettingError(
    `rate limits "${value}": expected real (the APIs' documented limits) or off (only those every account meets in ordinary use), set with --limits or PLUMB_SANDBOX_LIMITS`,
  );
}

/** Whose call it is and what it is, as the limits see it. */
export interface CallIdentity {
  provider: string;
  /** The operation a rule's `match` is tested against. */
  operation: string;
  /** The client's address. */
  address: string;
}

/** The verdict on one call: refused with how long to wait, or admitted with any quota headers to send. */
export type Admission = { refused: LimitRule; retryAfterSeconds: number } | { refused?: undefined; headers: Record<string, string> };

/** Calls counted per rule and client: when each was admitted (epoch ms, oldest first). */
interface Counts {
  calls: Record<string, number[]>;
}

/** The limits in force in one sandbox, their counts kept in its world. */
export class SandboxLimits {
  private rules: readonly LimitRule[];

  constructor(
    option: LimitsOption | undefined,
    private readonly world: SandboxWorld,
  ) {
    this.rules = rulesOf(option);
  }

  /** Replaces the rules; what was counted is forgotten. */
  set(option: LimitsOption): void {
    this.rules = rulesOf(option);
    this.counts().calls = {};
    this.world.save('limits');
  }

  /** Whether any rule is in force for this provider. */
  covers(provider: string): boolean {
    return this.rules.some((r) => r.provider === provider);
  }

  /** Counts the call against every rule covering it, or refuses it (counting nothing) when one is used up. */
  admit(call: CallIdentity, now: number): Admission {
    const applying = this.rules.filter((r) => r.provider === call.provider && (!r.match || r.match.test(call.operation)));
    if (!applying.length) return { headers: {} };
    const logs = applying.map((rule) => this.log(rule, call, now));
    let refused: { rule: LimitRule; at: number } | undefined;
    applying.forEach((rule, i) => {
      const log = logs[i];
      if (log.length < rule.max) return;
      // Free again once enough of the calls in the window have left it.
      const at = (log[log.length - rule.max] ?? now) + rule.windowMs;
      if (!refused || at > refused.at) refused = { rule, at };
    });
    if (refused) return { refused: refused.rule, retryAfterSeconds: Math.max(1, Math.ceil((refused.at - now) / 1000)) };
    const headers: Record<string, string> = {};
    applying.forEach((rule, i) => {
      logs[i].push(now);
      if (rule.quotaHeaders) {
        headers[rule.quotaHeaders.limit] = String(rule.max);
        headers[rule.quotaHeaders.remaining] = String(Math.max(0, rule.max - logs[i].length));
      }
    });
    this.world.save('limits');
    return { headers };
  }

  /** Each rule in force with the calls it has counted in its window now, per client. */
  describe(now: number): Array<Omit<LimitRule, 'match'> & { match?: string; used: Record<string, number> }> {
    const calls = this.counts().calls;
    return this.rules.map(({ match, ...rule }) => {
      const used: Record<string, number> = {};
      const prefix = `${rule.provider}|${rule.name}|`;
      for (const [key, log] of Object.entries(calls)) {
        if (key.startsWith(prefix)) used[key.slice(prefix.length)] = log.filter((t) => t > now - rule.windowMs).length;
      }
      return { ...rule, ...(match ? { match: match.source } : {}), used };
    });
  }

  /** The rule's log of admitted calls for this client, with those gone out of the window dropped. */
  private log(rule: LimitRule, call: CallIdentity, now: number): number[] {
    const calls = this.counts().calls;
    const key = `${rule.provider}|${rule.name}|${rule.per === 'address' ? call.address : 'account'}`;
    const log = (calls[key] ??= []);
    let expired = 0;
    while (expired < log.length && log[expired] <= now - rule.windowMs) expired++;
    if (expired) log.splice(0, expired);
    return log;
  }

  private counts(): Counts {
    return this.world.data<Counts>('limits', () => ({ calls: {} }));
  }
}

/**
 * Puts one call to an API before the limits: the refusal to send, in the API's own shape, or the
 * quota headers to add to its answer.
 */
export function throttle(limits: SandboxLimits, api: SandboxApi, req: SandboxRequest, address: string, now: number): { refusal?: SandboxResponse; headers?: Record<string, string> } {
  const operation = api.operation?.(req) ?? `${req.method} ${req.path}`;
  const verdict = limits.admit({ provider: api.provider, operation, address }, now);
  if (!verdict.refused) return Object.keys(verdict.headers).length ? { headers: verdict.headers } : {};
  const seconds = verdict.retryAfterSeconds;
  const { message } = verdict.refused;
  const refusal = api.throttled?.(req, seconds, message) ?? { status: 429, headers: { 'retry-after': String(seconds) }, body: api.faultBody?.(429) ?? { message: message ?? 'Too Many Requests' } };
  return { refusal };
}

/**
 * `/_sandbox/limits`: GET shows the rules in force and what each has counted; POST `{limits}`
 * (`"real"`, `"off"` or a table) sets them and forgets what was counted; DELETE is `"off"`:
 * back to the limits every sandbox enforces.
 */
export function limitsAdmin(limits: SandboxLimits, method: string, body: unknown, now: number): SandboxResponse {
  if (method === 'GET') return { status: 200, body: limits.describe(now) };
  if (method === 'DELETE') {
    limits.set('off');
    return { status: 204 };
  }
  if (method !== 'POST') return { status: 405, body: { message: 'use GET, POST {limits} or DELETE' } };
  const value = (body ?? {}) as { limits?: unknown };
  if (value.limits === 'real' || value.limits === 'off') {
    limits.set(value.limits);
    return { status: 200, body: limits.describe(now) };
  }
  const parsed = parseRules(value.limits);
  if ('problems' in parsed) return { status: 400, body: { message: parsed.problems.join('; ') } };
  limits.set(parsed.rules);
  return { status: 200, body: limits.describe(now) };
}

/**
 * A rule table as `POST /_sandbox/limits` takes it (`match` as a regular expression's text):
 * every problem named together, or the rules.
 */
export function parseRules(value: unknown): { rules: LimitRule[] } | { problems: string[] } {
  if (!Array.isArray(value)) return { problems: ['limits must be "real", "off" or a list of {provider, name?, match?, max, windowMs, per?}'] };
  const problems: string[] = [];
  const rules: LimitRule[] = [];
  value.forEach((raw: unknown, i) => {
    const r = (raw ?? {}) as Record<string, unknown>;
    const at = `limits[${i}]`;
    if (typeof r.provider !== 'string' || !r.provider) problems.push(`${at}.provider must name a provider`);
    if (!Number.isInteger(r.max) || (r.max as number) < 1) problems.push(`${at}.max must be a whole number >= 1`);
    if (!Number.isInteger(r.windowMs) || (r.windowMs as number) < 1) problems.push(`${at}.windowMs must be a whole number of milliseconds >= 1`);
    if (r.per !== undefined && r.per !== 'address' && r.per !== 'account') problems.push(`${at}.per must be address or account`);
    let match: RegExp | undefined;
    try {
      match = typeof r.match === 'string' ? new RegExp(r.match) : undefined;
    } catch {
      problems.push(`${at}.match is not a regular expression`);
    }
    if (r.match !== undefined && typeof r.match !== 'string') problems.push(`${at}.match must be a regular expression's text`);
    const name = typeof r.name === 'string' && r.name ? r.name : `rule ${i}`;
    rules.push({
      provider: r.provider as string,
      name,
      match,
      max: r.max as number,
      windowMs: r.windowMs as number,
      per: (r.per as 'address' | 'account') ?? 'account',
      source: 'set through /_sandbox/limits',
    });
  });
  return problems.length ? { problems } : { rules };
}
