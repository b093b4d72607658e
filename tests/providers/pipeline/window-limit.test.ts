/**
 * The per-call window limit (limiter.ts WindowLimiter) the pipeline client applies to connection
 * creations: a call beyond the limit waits for the window instead of being sent, and a slot is
 * counted from when its answer came, never from when it was sent.
 */
import { describe, expect, it } from 'vitest';
import { WindowLimiter } from '../../../src/providers/limiter.js';

/** A clock that moves only when a waiter sleeps. */
function fakeClock() {
  const clock = { now: 0, sleeps: [] as number[] };
  const sleep = async (ms: number) => {
    clock.sleeps.push(ms);
    clock.now += ms;
  };
  return { clock, sleep };
}

describe('WindowLimiter', () => {
  it('lets `limit` calls through at once; the next waits until the first answered one leaves the window', async () => {
    const { clock, sleep } = fakeClock();
    const window = new WindowLimiter({ limit: 2, windowMs: 1000 }, () => clock.now, sleep);
    const first = await window.take();
    clock.now = 100;
    first();
    const second = await window.take();
    clock.now = 300;
    second();
    await window.take();
    // Counted from its answer at 100, the first slot frees at 1100.
    expect(clock.sleeps).toEqual([800]);
    expect(clock.now).toBe(1100);
  });

  it('a call still in flight holds its slot: the next waits for an answer before it can count the window', async () => {
    const { clock, sleep } = fakeClock();
    const window = new WindowLimiter({ limit: 1, windowMs: 1000 }, () => clock.now, sleep);
    const first = await window.take();
    const waiting = window.take();
    await Promise.resolve();
    first();
    await waiting;
    expect(clock.sleeps.length).toBeGreaterThan(0);
    expect(clock.now).toBeGreaterThanOrEqual(1000);
  });
});
