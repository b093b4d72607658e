/**
 * The retry policy every client uses, with a fake sender and a fake clock: which failures are
 * sent again, how long it waits, when recover() is asked, and where it stops.
 */
import { describe, expect, it } from 'vitest';
import { RemoteError, type ErrorKind } from '../../src/kernel/errors.js';
import { RequestLimiter } from '../../src/providers/limiter.js';
import { backoffMs, retryAfterMs, withRetry } from '../../src/providers/retry.js';

/** What one send returns: an answer, or a classified failure. */
type Outcome = { ok: string } | { fail: ErrorKind; status?: number; retryAfterMs?: number };

const ok = (value = 'done'): Outcome => ({ ok: value });
const http = (status: number, retryAfter?: number): Outcome => ({ fail: status === 429 ? 'rate-limited' : 'unavailable', status, retryAfterMs: retryAfter });
const dropped: Outcome = { fail: 'unavailable' };

interface Case {
  name: string;
  outcomes: Outcome[];
  safe: boolean;
  /** What recover() finds, in order of its calls; absent = the caller gives no recover(). */
  recovers?: Array<string | undefined>;
  attempts?: number;
  expected: { result?: string; error?: ErrorKind; sends: number; recovers: number; waits: number[] };
}

/** A fake clock: waits are recorded, random() is always the middle, backoff steps are 100, 200, 400... ms. */
async function run(c: Case) {
  const outcomes = [...c.outcomes];
  const waits: number[] = [];
  let sends = 0;
  let recovers = 0;
  const found = [...(c.recovers ?? [])];
  const send = async () => {
    sends++;
    const next = outcomes.shift() ?? ok();
    if ('ok' in next) return next.ok;
    throw new RemoteError(next.fail, `call failed (${next.status ?? 'no answer'})`, { status: next.status, retryAfterMs: next.retryAfterMs });
  };
  const recover = c.recovers ? async () => (recovers++, found.shift()) : undefined;
  const settings = { attempts: c.attempts ?? 5, baseMs: 100, maxBackoffMs: 1000, maxRetryAfterMs: 60_000, random: () => 0.5, sleep: async (ms: number) => void waits.push(ms) };
  let result: string | undefined;
  let error: RemoteError | undefined;
  try {
    result = await withRetry({ send, safe: c.safe, recover, settings });
  } catch (err) {
    error = err as RemoteError;
  }
  return { result, error: error?.kind, sends, recovers, waits };
}

describe('the retry policy', () => {
  const cases: Case[] = [
    {
      name: 'a 429 is sent again after its Retry-After, even for an order (nothing was processed)',
      outcomes: [http(429, 2000)],
      safe: false,
      recovers: [],
      expected: { result: 'done', sends: 2, recovers: 0, waits: [2000] },
    },
    { name: 'a 429 without Retry-After is sent again after the backoff', outcomes: [http(429), http(429)], safe: true, expected: { result: 'done', sends: 3, recovers: 0, waits: [75, 150] } },
    { name: 'a Retry-After beyond the cap fails at once, as rate-limited', outcomes: [http(429, 3_600_000)], safe: true, expected: { error: 'rate-limited', sends: 1, recovers: 0, waits: [] } },
    { name: 'a 500 on a read is sent again', outcomes: [http(500), http(503)], safe: true, expected: { result: 'done', sends: 3, recovers: 0, waits: [75, 150] } },
    { name: 'a dropped connection on a read is sent again', outcomes: [dropped], safe: true, expected: { result: 'done', sends: 2, recovers: 0, waits: [75] } },
    {
      name: 'a 500 on a buy asks recover(); what it finds is the answer and nothing is sent again',
      outcomes: [http(500)],
      safe: false,
      recovers: ['found-uid'],
      expected: { result: 'found-uid', sends: 1, recovers: 1, waits: [] },
    },
    {
      name: 'a 500 on a buy that recover() finds nothing of is sent once more',
      outcomes: [http(500)],
      safe: false,
      recovers: [undefined],
      expected: { result: 'done', sends: 2, recovers: 1, waits: [75] },
    },
    {
      name: 'a buy whose reply was dropped is adopted through recover()',
      outcomes: [dropped],
      safe: false,
      recovers: ['found-uid'],
      expected: { result: 'found-uid', sends: 1, recovers: 1, waits: [] },
    },
    { name: 'an unsafe call without recover() is never sent again after a 500', outcomes: [http(500)], safe: false, expected: { error: 'unavailable', sends: 1, recovers: 0, waits: [] } },
    {
      name: 'a read that keeps failing stops after the attempt bound, unavailable',
      outcomes: Array(10).fill(http(500)),
      safe: true,
      attempts: 4,
      expected: { error: 'unavailable', sends: 4, recovers: 0, waits: [75, 150, 300] },
    },
    {
      name: 'a call that keeps being throttled stops after the attempt bound, rate-limited',
      outcomes: Array(10).fill(http(429, 10)),
      safe: true,
      attempts: 3,
      expected: { error: 'rate-limited', sends: 3, recovers: 0, waits: [10, 10] },
    },
    {
      name: 'a buy that recover() never finds stops after the attempt bound',
      outcomes: Array(10).fill(http(502)),
      safe: false,
      recovers: Array(10).fill(undefined),
      attempts: 3,
      expected: { error: 'unavailable', sends: 3, recovers: 3, waits: [75, 150] },
    },
    { name: 'a refused request (invalid) is final', outcomes: [{ fail: 'invalid', status: 400 }], safe: true, expected: { error: 'invalid', sends: 1, recovers: 0, waits: [] } },
    { name: 'a missing object (not-found) is final', outcomes: [{ fail: 'not-found', status: 404 }], safe: true, expected: { error: 'not-found', sends: 1, recovers: 0, waits: [] } },
  ];
  it.each(cases)('$name', async (c) => {
    expect(await run(c)).toEqual({ result: undefined, error: undefined, ...c.expected });
  });

  it('says how many attempts it made when it gives up', async () => {
    const err = await withRetry({
      send: async () => {
        throw new RemoteError('unavailable', 'GET /x: 500', { status: 500 });
      },
      safe: true,
      settings: { attempts: 3, sleep: async () => {} },
    }).catch((e: unknown) => e as RemoteError);
    expect(err.message).toBe('GET /x: 500 (gave up after 3 attempts)');
    expect(err.details.status).toBe(500);
  });

  it('reports a recover() that fails itself as unavailable, saying the order may have gone through', async () => {
    const err = await withRetry({
      send: async () => {
        throw new RemoteError('unavailable', 'POST /buy: 500');
      },
      safe: false,
      recover: async () => {
        throw new Error('GET /products: 503');
      },
      settings: { sleep: async () => {} },
    }).catch((e: unknown) => e as RemoteError);
    expect(err.kind).toBe('unavailable');
    expect(err.message).toMatch(/POST \/buy: 500; it may have been carried out.*GET \/products: 503/);
  });

  it('lowers the limiter on a 429 and runs every send within it', async () => {
    let now = 0;
    const limiter = new RequestLimiter({ maxConcurrency: 4, requestsPerSecond: 8 }, () => now);
    let sends = 0;
    const result = await withRetry({
      send: async () => {
        if (++sends === 1) throw new RemoteError('rate-limited', '429', { retryAfterMs: 500 });
        return limiter.state();
      },
      safe: true,
      limiter,
      settings: { sleep: async (ms) => void (now += ms) },
    });
    // The second send ran within the limiter, whose limits the 429 had halved.
    expect(result).toMatchObject({ maxConcurrency: 2, requestsPerSecond: 4, inFlight: 1 });
    expect(limiter.state().inFlight).toBe(0);
  });

  it('backs off exponentially with equal jitter, up to the largest step', () => {
    const settings = { baseMs: 100, maxBackoffMs: 1000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, { ...settings, random: () => 0 }))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, { ...settings, random: () => 0.999999 }))).toEqual([100, 200, 400, 800, 1000, 1000].map((v) => expect.closeTo(v, 2)));
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    ['whole seconds', '120', 120_000],
    ['zero: at once', '0', 0],
    ['seconds with whitespace around', ' 12 ', 12_000],
    ['fractional seconds', '0.5', 500],
    ['an HTTP date', 'Wed, 01 Jan 2025 00:00:30 GMT', 30_000],
    ['an HTTP date already past: no wait', 'Tue, 31 Dec 2024 23:59:00 GMT', 0],
    ['nothing', null, undefined],
    ['blank', ' ', undefined],
    ['something unreadable', 'soon', undefined],
    ['a negative number (unreadable)', '-5', undefined],
  ])('%s', (_name, header, expected) => {
    expect(retryAfterMs(header, now)).toBe(expected);
  });
});
