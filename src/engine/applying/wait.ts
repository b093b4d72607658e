import { WaitTimedOut } from '../../kernel/errors.js';
import type { Look, Pace } from '../contracts/resource-type.js';

/**
 * The one way plumb waits for a remote object: a handler's create waiting for provisioning, the
 * engine waiting for an object an interrupted apply left provisioning, for an order that may
 * still show up, or for a claim (a VLAN) the old half of a replacement holds.
 */

/** Time as waits see it: the machine's, or a test's. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The machine's clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((wake) => setTimeout(wake, ms)),
};

/** What a wait needs beside its look: how long at most, where its statuses go, and its clock. */
export interface WaitOptions extends Pace {
  what: string;
  limitMs: number;
  clock?: Clock;
  progress?(status: string): void;
}

/**
 * Looks until `look` says done and returns its value, reporting each new status. An object that
 * becomes ready is noticed within an eighth of the time it took (or `firstMs`), while a long wait
 * looks less and less often, `maxMs` apart at most. Throws WaitTimedOut, naming the last status,
 * once `limitMs` has passed.
 */
export async function waitFor<T>(options: WaitOptions, look: () => Promise<Look<T>>): Promise<T> {
  const clock = options.clock ?? systemClock;
  const first = options.firstMs ?? 200;
  const most = Math.max(first, options.maxMs ?? 10_000);
  const started = clock.now();
  let last = '';
  for (;;) {
    const seen = await look();
    if (seen.done) return seen.value;
    if (seen.status !== last) options.progress?.(seen.status);
    last = seen.status;
    const waited = clock.now() - started;
    const left = options.limitMs - waited;
    if (left <= 0) throw new WaitTimedOut(options.what, waited, last);
    await clock.sleep(Math.min(left, Math.min(most, Math.max(first, waited / 8))));
  }
}

/**
 * ResourceContext.wait over a clock: called on its context (`this`), so a handler's copy of its
 * context with its own progress and wait time waits with those.
 */
export function contextWait(clock?: Clock) {
  return function wait<T>(this: { waitTimeMs: number; progress(status: string): void }, what: string, look: () => Promise<Look<T>>, pace?: Pace & { limitMs?: number }): Promise<T> {
    return waitFor({ what, limitMs: pace?.limitMs ?? this.waitTimeMs, ...pace, clock, progress: (status) => this.progress(status) }, look);
  };
}
