/**
 * Rate windows: an API's published limit of at most `limit` calls in any rolling `windowMs`
 * (500 per 5 minutes per address, 20,000 per hour per account), counted in a ledger that every
 * plumb process calling the API as the same account or from the same address shares. A call may
 * start at once whenever the window has room; when it is full, the next call waits exactly until
 * the oldest call in it leaves.
 *
 * A call is counted from when it was answered (never before the API counted it, so the two windows
 * cannot disagree at their edges), and while it is in flight it holds a ticket that counts as a
 * call. What the ledger holds is the calls' times, not the callers: the same data serves every
 * window of the key, whatever length each caller asks for.
 */

import { randomBytes } from 'node:crypto';
import type { Grant, RateLedger, RateWindow, Room } from '../engine/contracts/rate.js';

export type { Grant, RateLedger, RateWindow, Room };

/** A wait for a window shorter than this is not told to the user. */
const NOTICEABLE_WAIT_MS = 1000;

/** A ticket not answered after this long is from a process that ended mid-call: counted as answered then. */
export const STALE_TICKET_MS = 10 * 60_000;

/**
 * The calls of one key: tickets in flight (by when they started) and answered calls in buckets (by
 * the end of the bucket they were answered in, a thousandth of the longest window kept, so the
 * record stays small and a call leaves the window at most that much after the API forgets it).
 */
export interface LedgerData {
  /** Epoch ms before which no ticket is given. */
  pausedUntil: number;
  /** The longest window asked for: answered calls older than it are dropped. */
  keepMs: number;
  inFlight: Record<string, number>;
  /** [bucket end (epoch ms), calls answered in it], oldest first. */
  answered: Array<[number, number]>;
}

/** An empty record. */
export function emptyLedger(): LedgerData {
  return { pausedUntil: 0, keepMs: 0, inFlight: {}, answered: [] };
}

/** A record read from outside (a file, a row), or undefined when it is not one. */
export function asLedgerData(value: unknown): LedgerData | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Partial<LedgerData>;
  if (typeof v.pausedUntil !== 'number' || typeof v.keepMs !== 'number' || !v.inFlight || typeof v.inFlight !== 'object' || !Array.isArray(v.answered)) return undefined;
  if (!Object.values(v.inFlight).every((t) => typeof t === 'number')) return undefined;
  if (!v.answered.every((b) => Array.isArray(b) && b.length === 2 && typeof b[0] === 'number' && typeof b[1] === 'number')) return undefined;
  return v as LedgerData;
}

function bucketMs(keepMs: number): number {
  return Math.max(50, Math.ceil(keepMs / 1000));
}

/** Records tickets as answered at `now` (a ticket it does not hold, already answered or stale, is ignored). */
export function markAnswered(data: LedgerData, tickets: readonly string[], now: number): void {
  for (const ticket of tickets) {
    if (!(ticket in data.inFlight)) continue;
    delete data.inFlight[ticket];
    addAnswered(data, now, 1);
  }
}

function addAnswered(data: LedgerData, at: number, count: number): void {
  const size = bucketMs(data.keepMs);
  const end = Math.ceil(at / size) * size;
  const last = data.answered.at(-1);
  if (last && last[0] === end) last[1] += count;
  else if (last && last[0] > end) {
    // Rare (a stale ticket, or a clock stepped back): kept in order.
    const found = data.answered.find((b) => b[0] === end);
    if (found) found[1] += count;
    else (data.answered.push([end, count]), data.answered.sort((a, b) => a[0] - b[0]));
  } else data.answered.push([end, count]);
}

/** Drops what no window can count any more, and turns tickets of ended processes into answered calls. */
export function prune(data: LedgerData, window: RateWindow, now: number): void {
  data.keepMs = Math.max(data.keepMs, window.windowMs);
  for (const [ticket, started] of Object.entries(data.inFlight)) {
    if (now - started < STALE_TICKET_MS) continue;
    delete data.inFlight[ticket];
    addAnswered(data, started + STALE_TICKET_MS, 1);
  }
  const from = data.answered.findIndex((b) => b[0] > now - data.keepMs);
  data.answered = from < 0 ? [] : data.answered.slice(from);
  if (data.pausedUntil <= now) data.pausedUntil = 0;
}

/**
 * Calls `window` counts at `now`, and milliseconds until it has room for `need` more (0 when it has
 * room now): until enough of its oldest answered calls have left it, and any pause has ended.
 */
export function roomIn(data: LedgerData, window: RateWindow, now: number, need = 1): Room {
  const inFlight = Object.keys(data.inFlight).length;
  const counted = data.answered.filter((b) => b[0] > now - window.windowMs);
  const used = inFlight + counted.reduce((n, b) => n + b[1], 0);
  const paused = Math.max(0, data.pausedUntil - now);
  let excess = used + need - window.limit;
  if (excess <= 0) return { used, waitMs: paused };
  for (const [end, count] of counted) {
    excess -= count;
    if (excess <= 0) return { used, waitMs: Math.max(paused, end + window.windowMs - now) };
  }
  // More than the answered calls can free: the rest waits for calls in flight to be answered and
  // leave in turn, a window later at least; a need beyond the limit, a window for each limit's worth.
  const rounds = Math.ceil(excess / window.limit);
  return { used, waitMs: Math.max(paused, rounds * window.windowMs) };
}

let sequence = 0;
/** Names this process's tickets apart from every other's, on this machine or another (containers all run as pid 1). */
const PROCESS_TAG = randomBytes(6).toString('base64url');

/** Takes up to `want` tickets from the window's room at `now`. */
export function takeFrom(data: LedgerData, window: RateWindow, want: number, now: number): Grant {
  prune(data, window, now);
  const room = roomIn(data, window, now);
  const n = data.pausedUntil > now ? 0 : Math.max(0, Math.min(want, window.limit - room.used));
  const tickets: string[] = [];
  for (let i = 0; i < n; i++) {
    const ticket = `${PROCESS_TAG}.${now.toString(36)}.${(sequence++).toString(36)}`;
    data.inFlight[ticket] = now;
    tickets.push(ticket);
  }
  const used = room.used + n;
  return { tickets, used, waitMs: n < want ? roomIn(data, window, now).waitMs || 1 : 0 };
}

/** The API counts `used` calls: adds the ones this record does not know of, as answered now. */
export function addCounted(data: LedgerData, window: RateWindow, used: number, now: number): void {
  prune(data, window, now);
  const known = roomIn(data, window, now).used;
  if (used > known) addAnswered(data, now, used - known);
}

/**
 * A ledger that keeps one record per key wherever it keeps it (in memory, a file, a database row):
 * every operation reads the key's record, changes it at the ledger's time and writes it back, in
 * one `update` its store makes atomic.
 */
export abstract class RecordLedger implements RateLedger {
  abstract readonly where: string;

  /** Reads `key`'s record, changes it at the store's `now`, writes it back; what `change` returns is the answer. */
  protected abstract update<T>(key: string, change: (data: LedgerData, now: number) => T): Promise<T>;

  take(key: string, window: RateWindow, want: number, answered: readonly string[]): Promise<Grant> {
    return this.update(key, (data, now) => {
      markAnswered(data, answered, now);
      return takeFrom(data, window, want, now);
    });
  }

  answered(key: string, tickets: readonly string[]): Promise<void> {
    return this.update(key, (data, now) => markAnswered(data, tickets, now));
  }

  counted(key: string, window: RateWindow, used: number): Promise<void> {
    return this.update(key, (data, now) => addCounted(data, window, used, now));
  }

  pause(key: string, ms: number): Promise<void> {
    return this.update(key, (data, now) => {
      data.pausedUntil = Math.max(data.pausedUntil, now + ms);
    });
  }

  room(key: string, window: RateWindow, need = 1): Promise<Room> {
    return this.update(key, (data, now) => {
      prune(data, window, now);
      return roomIn(data, window, now, need);
    });
  }

  async close(): Promise<void> {}
}

/** A ledger kept in this process alone: what a process uses when the shared one cannot be read, and what tests give. */
export class MemoryLedger extends RecordLedger {
  readonly where = 'this process';
  private readonly keys = new Map<string, LedgerData>();

  constructor(private readonly now: () => number = Date.now) {
    super();
  }

  protected async update<T>(key: string, change: (data: LedgerData, now: number) => T): Promise<T> {
    let data = this.keys.get(key);
    if (!data) this.keys.set(key, (data = emptyLedger()));
    return change(data, this.now());
  }
}

/** The ledger of this process, shared by its clients when no other is given. */
export const processLedger: RateLedger = new MemoryLedger();

/** A window as its setting is written: `500/5m`, `20000/1h`, `5/h`; a problem's text otherwise. */
export function parseRateWindow(text: string): RateWindow | string {
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*(ms|s|m|h|d)\s*$/i.exec(text);
  const expected = 'expected calls per period, e.g. 500/5m or 20000/1h (units ms, s, m, h, d)';
  if (!match) return `"${text}": ${expected}`;
  const limit = Number(match[1]);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[3]!.toLowerCase() as 'ms'];
  const windowMs = Number(match[2] ?? 1) * unit;
  if (!(limit >= 1) || !(windowMs >= 1)) return `"${text}": the count and the period must be more than 0; ${expected}`;
  return { limit, windowMs };
}

/** `500/5m`: a window as its setting writes it. */
export function describeWindow(window: RateWindow): string {
  const units: Array<[number, string]> = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'm'],
    [1000, 's'],
  ];
  for (const [ms, unit] of units) if (window.windowMs % ms === 0) return `${window.limit}/${window.windowMs / ms}${unit}`;
  return `${window.limit}/${window.windowMs}ms`;
}

/**
 * One window of one key, as this process's calls go through it: calls ask for a ticket and give
 * it back once answered, and the gate exchanges them with the ledger in batches (one exchange per
 * turn of the event loop, whatever the number of calls), so a shared ledger costs one read and
 * write per batch, not per call.
 */
export class WindowGate {
  private readonly waiting: Array<(ticket: string) => void> = [];
  private pendingAnswers: string[] = [];
  private exchanging = false;
  private timer: NodeJS.Timeout | undefined;
  private flushDue: NodeJS.Immediate | undefined;
  private warned = false;
  /** Calls the window counted at the last exchange (the quota header is compared with it). */
  private lastUsed = 0;

  constructor(
    private ledger: RateLedger,
    readonly key: string,
    public window: RateWindow,
    /** Told when calls wait for the window, with how long; and once when the shared ledger fails. */
    private readonly events: { waiting?(waitMs: number, window: RateWindow): void; warn?(message: string): void } = {},
  ) {}

  /** Waits until the window has room for one more call; resolves with its ticket. */
  acquire(): Promise<string> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule(0);
    });
  }

  /** The call of `ticket` was answered (or failed): it now counts from this moment. */
  release(ticket: string): void {
    this.pendingAnswers.push(ticket);
    this.flushSoon();
  }

  /** Tells the ledger of answers at the end of this turn (all of the turn's answers at once), unless an exchange is under way: its end does. */
  private flushSoon(): void {
    this.flushDue ??= setImmediate(() => {
      this.flushDue = undefined;
      if (!this.pendingAnswers.length || this.exchanging) return;
      const tickets = this.pendingAnswers;
      this.pendingAnswers = [];
      void this.guard(() => this.ledger.answered(this.key, tickets));
    });
  }

  /** The API says how many calls it counts and of how many (quota headers): the ledger and the window follow it. */
  observe(quota: { limit?: number; remaining?: number }): void {
    if (quota.limit !== undefined && quota.limit >= 1 && quota.limit < this.window.limit) this.window = { ...this.window, limit: quota.limit };
    if (quota.remaining === undefined) return;
    const used = this.window.limit - quota.remaining;
    if (used <= this.lastUsed) return;
    this.lastUsed = used;
    void this.guard(() => this.ledger.counted(this.key, this.window, used));
  }

  /** The API asked for no call for `ms`: every process sharing the ledger holds back. */
  pause(ms: number): void {
    void this.guard(() => this.ledger.pause(this.key, ms));
  }

  /** How full the window is now, and how long until it has room for `need` more calls. */
  room(need = 1): Promise<Room> {
    return this.guard(() => this.ledger.room(this.key, this.window, need), { used: 0, waitMs: 0 });
  }

  private schedule(delayMs: number): void {
    if (this.exchanging || this.timer) return;
    if (delayMs > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.schedule(0);
      }, delayMs);
      return;
    }
    this.exchanging = true;
    // Calls asking in the same turn go in one exchange.
    setImmediate(() => void this.exchange());
  }

  private async exchange(): Promise<void> {
    const answered = this.pendingAnswers;
    this.pendingAnswers = [];
    const want = this.waiting.length;
    const grant = await this.guard(() => this.ledger.take(this.key, this.window, want, answered), undefined);
    this.exchanging = false;
    if (!grant) {
      if (this.pendingAnswers.length) this.flushSoon();
      // The shared ledger failed: this process counts alone from now on.
      this.ledger = new MemoryLedger();
      this.schedule(0);
      return;
    }
    this.lastUsed = grant.used;
    if (this.pendingAnswers.length) this.flushSoon();
    for (const ticket of grant.tickets) this.waiting.shift()?.(ticket);
    if (this.waiting.length) {
      // A wait of a moment (a window freeing its slots as its oldest calls leave) is not news.
      if (grant.waitMs >= NOTICEABLE_WAIT_MS) this.events.waiting?.(grant.waitMs, this.window);
      this.schedule(grant.waitMs);
    }
  }

  /** Runs a ledger operation; a failure is warned of once and gives `fallback` (the ledger is then this process's own). */
  private async guard<T>(run: () => Promise<T>, fallback?: T): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (!this.warned) {
        this.warned = true;
        this.events.warn?.(`the rate ledger in ${this.ledger.where} could not be used (${(err as Error).message}); calls are counted by this process alone`);
      }
      if (!(this.ledger instanceof MemoryLedger)) this.ledger = new MemoryLedger();
      return fallback as T;
    }
  }
}
