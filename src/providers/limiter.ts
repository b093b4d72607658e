/**
 * Per-provider request limits: a cap on calls in flight and a token bucket on the request rate,
 * both lowered while the remote API answers 429 (multiplicative decrease) and raised back step by
 * step once it stops (additive increase), as TCP does with a congested link.
 */

/** The limits a provider's settings ask for; Infinity means no cap. */
export interface RateLimits {
  /** Most calls in flight at once. */
  maxConcurrency: number;
  /** Sustained calls per second. */
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
    try {
      return await call();
    } finally {
      this.release();
    }
  }

  /**
   * The API answered 429: halve both limits (once per burst of 429s) and, with a Retry-After,
   * start no call before it has passed.
   */
  throttled(retryAfterMs?: number): void {
    const now = this.now();
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
  requestsPerSecond?: number;
}

/**
 * The limiter for a client: the settings where given, else `defaults` for a real API. The sandbox
 * has no limits unless asked for (it runs on this machine and limits itself only on request);
 * with `PLUMB_SANDBOX_LIMITS=real` in `env` it enforces the real APIs' limits, and the client
 * keeps to the real API's defaults as it would there.
 */
export function limiterFor(settings: LimitSettings, defaults: RateLimits, sandbox: boolean, env: Record<string, string | undefined> = {}): RequestLimiter {
  const unlimited = sandbox && env.PLUMB_SANDBOX_LIMITS?.trim().toLowerCase() !== 'real';
  const fallback: RateLimits = unlimited ? { maxConcurrency: Infinity, requestsPerSecond: Infinity } : defaults;
  return new RequestLimiter({
    maxConcurrency: settings.maxConcurrency ?? fallback.maxConcurrency,
    requestsPerSecond: settings.requestsPerSecond ?? fallback.requestsPerSecond,
    burst: fallback.burst,
  });
}

/** A documented limit on one kind of call (connection creations): at most `limit` in any `windowMs`. */
export interface WindowLimit {
  limit: number;
  windowMs: number;
}

/**
 * Holds calls of one kind back so that no more than `limit` are made in any rolling window, as an
 * API that counts them per account does (20 connection creations a minute): a call waits for a
 * slot instead of being refused. A slot is counted from when the call's answer arrived, which is
 * never before the API counted it, so the two windows cannot disagree at their edges.
 */
export class WindowLimiter {
  /** When each counted call finished; Infinity while it is in flight. */
  private slots: number[] = [];

  constructor(
    readonly limits: WindowLimit,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** Waits for a slot and holds it; the returned function marks the call answered. */
  async take(): Promise<() => void> {
    for (;;) {
      const now = this.now();
      this.slots = this.slots.filter((at) => at > now - this.limits.windowMs);
      if (this.slots.length < this.limits.limit) break;
      const oldest = Math.min(...this.slots);
      await this.sleep(Number.isFinite(oldest) ? Math.max(1, oldest + this.limits.windowMs - now) : 20);
    }
    this.slots.push(Infinity);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      // In-flight markers are alike: whichever is replaced, one call is now counted as answered.
      const found = this.slots.indexOf(Infinity);
      if (found >= 0) this.slots[found] = this.now();
    };
  }
}
