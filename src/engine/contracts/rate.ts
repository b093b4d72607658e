/**
 * Rate windows as providers and the session share them: the window an API publishes and the
 * ledger of recent calls that every plumb process calling it counts in (providers/rate-window.ts).
 */

/** At most `limit` calls in any rolling `windowMs`. */
export interface RateWindow {
  limit: number;
  windowMs: number;
}

/** What one exchange with the ledger gave: tickets for calls that may start now, and when to ask again for the rest. */
export interface Grant {
  /** One per call that may start now (fewer than asked when the window is full). */
  tickets: string[];
  /** Calls the window counts now, the new tickets included. */
  used: number;
  /** With fewer tickets than asked: milliseconds until the window frees a slot (or a pause ends). */
  waitMs: number;
}

/** The calls of one key as a window sees them: how many it counts now, and when it next frees a slot. */
export interface Room {
  used: number;
  /** Milliseconds until the window has room for the calls asked about (0 when it has room now). */
  waitMs: number;
}

/**
 * The shared record of recent calls, per key (an API and the account or address it counts by).
 * Its clock is its own (the ledger's machine, or the database server): every time it takes or
 * gives is relative to now.
 */
export interface RateLedger {
  /** Where it is kept, for messages. */
  readonly where: string;
  /**
   * Marks `answered` tickets answered now, then takes up to `want` tickets while the window has room
   * (none while a pause is in force).
   */
  take(key: string, window: RateWindow, want: number, answered: readonly string[]): Promise<Grant>;
  /** Marks tickets answered now. */
  answered(key: string, tickets: readonly string[]): Promise<void>;
  /**
   * The API said it counts `used` calls in the window (a quota header): the ledger counts at least
   * that many from now on, adding calls made elsewhere (another tool, another machine) as made now.
   */
  counted(key: string, window: RateWindow, used: number): Promise<void>;
  /** The API asked for no call for `ms` (Retry-After): no ticket is given to anyone until then. */
  pause(key: string, ms: number): Promise<void>;
  /** How full the window is now, and how long until it has room for `need` more calls (default 1), taking nothing. */
  room(key: string, window: RateWindow, need?: number): Promise<Room>;
  close(): Promise<void>;
}
