/**
 * Per-provider request limits: a cap on calls in flight, and the API's published rate window
 * (rate-window.ts), shared with every process calling it as the same account or address. An API
 * that publishes no window (cloud) is paced by a token bucket instead; there, and after a 429 that
 * says nothing of when to come back, both limits are lowered while the API refuses (multiplicative
 * decrease) and raised back step by step once it stops (additive increase), as TCP does with a
 * congested link. A 429 with Retry-After on a windowed API pauses every process sharing its ledger.
 */
import * as z from 'zod';
import { parseRateWindow, processLedger, WindowGate, type RateLedger, type RateWindow } from './rate-window.js';

/** The limits a provider's settings ask for; Infinity means no cap. */
export interface RateLimits {
  /** Most calls in flight at once. */
  maxConcurrency: number;
  /** Sustained calls per second (a token bucket); Infinity with a window alone. */
  requestsPerSecond: number;
  /** Calls that may start at once after a quiet spell (the bucket's size); default min(10, rate), at least 1. */
  burst?: number;
}

/** What the limiter allows right now (lowered after 429s) and how busy it is. */
export interface LimiterState {
  maxConcurrency: number;
  requestsPerSecond: number;
  inFlight: number;
  queued: number;
  /** Highest number of calls that were ever in flight at once. */
  peakInFlight: number;
}

/** Lowest rate a 429 burst can push the limiter to: one call every ten seconds. */
const MIN_RATE = 0.1;
/** 429s closer together than this are one burst and lower the limits once. */
const DECREASE_EVERY_MS = 1000;
/** Every this long without a 429 the limits rise by a tenth of the way back. */
const INCREASE_EVERY_MS = 1000;
/** Longest Retry-After that holds back every call; a longer one (an hourly quota) is left to the caller that got it. */
const MAX_PAUSE_MS = 30_000;

/**
 * Runs calls within the limits. Calls start in the order they asked (FIFO), except that a shared
 * call goes before the others: an order (of many products, whose provisioning starts only once
 * it is bought) or a poll round (answering every product waiting), on which many steps wait,
 * while a call for one object holds up only its own step. A call holds its slot only
 * while it runs, never while its caller sleeps before a retry.
 */
export class RequestLimiter {
  private concurrency: number;
  private rate: number;
  private readonly burst: number;
  private tokens: number;
  private refilledAt: number;
  private inFlight = 0;
  private peak = 0;
  private pausedUntil = 0;
  private lastDecrease = Number.NEGATIVE_INFINITY;
  private lastChange = 0;
  /** The limits to climb back to when the configured ones are unlimited (what was running when the 429s came). */
  private restoreConcurrency: number;
  private restoreRate: number;
  /** Calls started in the current one-second window and the window before, to know the running rate. */
  private windowStart = 0;
  private windowCount = 0;
  private previousWindowRate = 0;
  private readonly waiting: Array<() => void> = [];
  /** Waiting calls that serve many steps: started before `waiting`. */
  private readonly waitingShared: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: RateLimits,
    private readonly now: () => number = Date.now,
    /** The API's rate window, when it publishes one: every call takes a slot of it. */
    readonly window?: WindowGate,
  ) {
    if (!(limits.maxConcurrency >= 1)) throw new Error(`maxConcurrency must be at least 1, got ${limits.maxConcurrency}`);
    if (!(limits.requestsPerSecond > 0)) throw new Error(`requestsPerSecond must be more than 0, got ${limits.requestsPerSecond}`);
    this.concurrency = limits.maxConcurrency;
    this.rate = limits.requestsPerSecond;
    this.restoreConcurrency = limits.maxConcurrency;
    this.restoreRate = limits.requestsPerSecond;
    this.burst = Math.max(1, limits.burst ?? Math.min(10, limits.requestsPerSecond));
    this.tokens = this.burst;
    this.refilledAt = now();
    this.windowStart = this.refilledAt;
  }

  /** Runs `call` once a slot and a token are free; a `shared` call goes before the others waiting. */
  async run<T>(call: () => Promise<T>, { shared = false }: { shared?: boolean } = {}): Promise<T> {
    await this.acquire(shared);
    let ticket: string | undefined;
    try {
      if (this.window) ticket = await this.window.acquire();
      return await call();
    } finally {
      if (ticket !== undefined) this.window?.release(ticket);
      this.release();
    }
  }

  /**
   * Calls per second the limits sustain over time: the token bucket's rate, or the window's
   * average (500 per 5 minutes: 1.67), whichever is lower.
   */
  sustainedRate(): number {
    const rate = this.state().requestsPerSecond;
    const window = this.window?.window;
    return window ? Math.min(rate, (window.limit * 1000) / window.windowMs) : rate;
  }

  /**
   * The API answered 429. With a Retry-After on a windowed API, every process sharing its ledger
   * holds back that long; otherwise halve both limits (once per burst of 429s) and, with a
   * Retry-After, start no call before it has passed.
   */
  throttled(retryAfterMs?: number): void {
    const now = this.now();
    if (this.window && retryAfterMs !== undefined && retryAfterMs > 0) {
      if (retryAfterMs <= MAX_PAUSE_MS) this.window.pause(retryAfterMs);
      return;
    }
    if (retryAfterMs !== undefined && retryAfterMs > 0 && retryAfterMs <= MAX_PAUSE_MS) this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
    if (now - this.lastDecrease >= DECREASE_EVERY_MS) {
      if (!Number.isFinite(this.rate)) {
        this.restoreRate = Math.max(1, this.runningRate(now));
        this.rate = this.restoreRate;
      }
      if (!Number.isFinite(this.concurrency)) {
        this.restoreConcurrency = Math.max(1, this.inFlight);
        this.concurrency = this.restoreConcurrency;
      }
      this.rate = Math.max(MIN_RATE, this.rate / 2);
      this.concurrency = Math.max(1, Math.floor(this.concurrency / 2));
      this.tokens = Math.min(this.tokens, 1);
      this.refilledAt = now;
      this.lastDecrease = now;
    }
    this.lastChange = now;
  }

  /** The limits in force now and the current load. */
  state(): LimiterState {
    this.recover(this.now());
    return { maxConcurrency: this.concurrency, requestsPerSecond: this.rate, inFlight: this.inFlight, queued: this.queued(), peakInFlight: this.peak };
  }

  private queued(): number {
    return this.waitingShared.length + this.waiting.length;
  }

  private acquire(shared: boolean): Promise<void> {
    if ((shared ? this.waitingShared.length : this.queued()) === 0 && this.tryStart()) return Promise.resolve();
    return new Promise((resolve) => {
      (shared ? this.waitingShared : this.waiting).push(resolve);
      this.pump();
    });
  }

  private release(): void {
    this.inFlight--;
    this.pump();
  }

  /** Starts as many waiting calls as the limits allow, and sets a timer for the next token. */
  private pump(): void {
    while (this.queued() > 0 && this.tryStart()) ((this.waitingShared.shift() ?? this.waiting.shift()) as () => void)();
    if (this.queued() === 0 || this.timer || this.inFlight >= this.concurrency) return;
    const now = this.now();
    const wait = Math.max(this.pausedUntil - now, Number.isFinite(this.rate) ? ((1 - this.tokens) / this.rate) * 1000 : 0, 1);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, Math.ceil(wait));
  }

  private tryStart(): boolean {
    const now = this.now();
    this.recover(now);
    if (this.inFlight >= this.concurrency || now < this.pausedUntil) return false;
    if (Number.isFinite(this.rate)) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.rate);
      this.refilledAt = now;
      if (this.tokens < 1) return false;
      this.tokens -= 1;
    }
    this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
    this.count(now);
    return true;
  }

  /** Raises lowered limits a tenth of the way per quiet second; back to unlimited once there. */
  private recover(now: number): void {
    if (this.concurrency === this.limits.maxConcurrency && this.rate === this.limits.requestsPerSecond) return;
    const steps = Math.floor((now - this.lastChange) / INCREASE_EVERY_MS);
    if (steps < 1) return;
    this.lastChange += steps * INCREASE_EVERY_MS;
    this.rate = Math.min(this.limits.requestsPerSecond, this.rate + (steps * this.restoreRate) / 10);
    this.concurrency = Math.min(this.limits.maxConcurrency, this.concurrency + Math.max(1, Math.floor((steps * this.restoreConcurrency) / 10)));
    if (this.rate >= this.restoreRate) this.rate = this.limits.requestsPerSecond;
    if (this.concurrency >= this.restoreConcurrency) this.concurrency = this.limits.maxConcurrency;
  }

  private count(now: number): void {
    if (now - this.windowStart >= 1000) {
      this.previousWindowRate = (this.windowCount * 1000) / (now - this.windowStart);
      this.windowStart = now;
      this.windowCount = 0;
    }
    this.windowCount++;
  }

  /** Calls per second lately: the last full window, or the current one if it is busier. */
  private runningRate(now: number): number {
    const elapsed = Math.max(1, now - this.windowStart);
    return Math.max(this.previousWindowRate, (this.windowCount * 1000) / Math.max(elapsed, 100));
  }
}

/** Provider settings that carry limits; an absent value takes the default for where the client talks. */
export interface LimitSettings {
  maxConcurrency?: number;
  /** The API's window (`500/5m`); replaces the default one. */
  rateLimit?: RateWindow;
  /** The older setting: a token bucket of this many calls a second, kept alongside any window. */
  requestsPerSecond?: number;
}

/** A provider's limits for a real API when its settings give none. */
export interface DefaultLimits {
  maxConcurrency: number;
  /** The API's published window, when it has one. */
  window?: RateWindow;
  /** A token bucket, for an API that publishes no window. */
  requestsPerSecond?: number;
  burst?: number;
}

/** Where a client's window is counted and told about, as the session gives it. */
export interface WindowContext {
  /** Whose calls the API counts together: the API and the account or address (hashed before it names a file). */
  key: string;
  /** The shared ledger (default: this process's). */
  ledger?: RateLedger;
  /** Told when calls wait for the window to have room, and how long. */
  waiting?(waitMs: number, window: RateWindow): void;
  /** Told when the shared ledger cannot be used. */
  warn?(message: string): void;
}

/**
 * The limiter for a client: the settings where given, else `defaults` for a real API. The sandbox
 * has no limits unless asked for (it runs on this machine and limits itself only on request);
 * with `PLUMB_SANDBOX_LIMITS=real` in `env` it enforces the real APIs' limits, and the client
 * keeps to the real API's defaults as it would there.
 */
export function limiterFor(
  settings: LimitSettings,
  defaults: DefaultLimits,
  sandbox: boolean,
  env: Record<string, string | undefined> = {},
  context: WindowContext = { key: 'unnamed' },
): RequestLimiter {
  const unlimited = sandbox && !sandboxEnforcesRealLimits(env);
  const rate = settings.requestsPerSecond ?? (unlimited ? undefined : defaults.requestsPerSecond);
  const window = settings.rateLimit ?? (unlimited ? undefined : defaults.window);
  const gate = window && new WindowGate(context.ledger ?? processLedger, context.key, window, context);
  return new RequestLimiter(
    {
      maxConcurrency: settings.maxConcurrency ?? (unlimited ? Infinity : defaults.maxConcurrency),
      requestsPerSecond: rate ?? Infinity,
      burst: settings.requestsPerSecond ? undefined : defaults.burst,
    },
    Date.now,
    gate,
  );
}

/** Whether a sandbox enforces the real APIs' limits (`PLUMB_SANDBOX_LIMITS=real`), and its clients keep to them. */
export function sandboxEnforcesRealLimits(env: Record<string, string | undefined>): boolean {
  return env.PLUMB_SANDBOX_LIMITS?.trim().toLowerCase() === 'real';
}

/** A `rateLimit` setting: a window as `calls/period` (`500/5m`), parsed; `described` says what the API publishes. */
export function rateLimitSetting(described: string) {
  return z
    .string()
    .transform((text, ctx): RateWindow => {
      const parsed = parseRateWindow(text);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    })
    .optional()
    .describe(
      `The API's rate window as calls/period (s, m, h): ${described} Every call counts in a ledger shared with the other plumb processes calling the API (a file in the user's cache folder, or the state's PostgreSQL database): calls start at once while the window has room and wait, when it is full, exactly until its oldest call leaves it. Unlimited against the sandbox.`,
    );
}
