/**
 * Rate windows (src/providers/rate-window.ts, limiter.ts): calls start at once while the API's
 * window has room, wait only until its oldest call leaves when it is full, and the API's own word
 * (quota headers, Retry-After) corrects the count.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { limiterFor, RequestLimiter } from '../../src/providers/limiter.js';
import { FileLedger } from '../../src/providers/rate-ledger-file.js';
import { describeWindow, MemoryLedger, parseRateWindow, WindowGate, type RateLedger } from '../../src/providers/rate-window.js';
import { interconnectSettings } from '../../src/providers/interconnect/settings.js';
import { pipelineSettings } from '../../src/providers/pipeline/settings.js';
import { PipelineClient } from '../../src/providers/pipeline/client.js';

/** A call that stays in flight until the test answers it. */
function pendingCalls() {
  let started = 0;
  const answers: Array<() => void> = [];
  const call = () =>
    new Promise<void>((resolve) => {
      started++;
      answers.push(resolve);
    });
  return { call, started: () => started, answerAll: () => answers.splice(0).forEach((a) => a()) };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('a window setting', () => {
  it('reads calls/period as the API publishes it, and says what is valid otherwise', () => {
    expect(parseRateWindow('500/5m')).toEqual({ limit: 500, windowMs: 300_000 });
    expect(parseRateWindow('20000/1h')).toEqual({ limit: 20_000, windowMs: 3_600_000 });
    expect(parseRateWindow('5/h')).toEqual({ limit: 5, windowMs: 3_600_000 });
    expect(parseRateWindow('500 per hour')).toMatch(/expected calls per period, e.g. 500\/5m or 20000\/1h/);
    expect(parseRateWindow('0/1m')).toMatch(/more than 0/);
    expect(describeWindow({ limit: 500, windowMs: 300_000 })).toBe('500/5m');
  });

  it('is a provider setting: the pipeline trial window, and a mistyped one refused by name', () => {
    expect(pipelineSettings.parse({ rateLimit: '500/1h' }).rateLimit).toEqual({ limit: 500, windowMs: 3_600_000 });
    const bad = interconnectSettings.safeParse({ rateLimit: '500 a minute' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['rateLimit'], message: expect.stringContaining('e.g. 500/5m') });
  });
});

describe('a client under a window', () => {
  it('starts every call the window has room for at once, up to its concurrency cap (a token bucket let 10 through)', async () => {
    const window = limiterFor({}, { maxConcurrency: 10, window: { limit: 500, windowMs: 300_000 } }, false, {}, { key: 'a', ledger: new MemoryLedger() });
    const calls = pendingCalls();
    const all = Array.from({ length: 42 }, () => window.run(calls.call));
    await turns();
    expect(calls.started()).toBe(10);
    expect(window.state().inFlight).toBe(10);
    while (calls.started() < 42) {
      calls.answerAll();
      await turns();
    }
    calls.answerAll();
    await Promise.all(all);

    const unlimitedConcurrency = limiterFor({ maxConcurrency: 100 }, { maxConcurrency: 10, window: { limit: 500, windowMs: 300_000 } }, false, {}, { key: 'b', ledger: new MemoryLedger() });
    const more = pendingCalls();
    const rest = Array.from({ length: 42 }, () => unlimitedConcurrency.run(more.call));
    await turns();
    expect(more.started()).toBe(42);
    more.answerAll();
    await Promise.all(rest);
  });

  it('with the window full, the next call waits exactly until the oldest answered call leaves it (to a bucket of 50 ms)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'], now: 0 });
    try {
      const waits: number[] = [];
      const limiter = limiterFor(
        { maxConcurrency: 50 },
        { maxConcurrency: 50, window: { limit: 5, windowMs: 1200 } },
        false,
        {},
        { key: 'full', ledger: new MemoryLedger(), waiting: (ms) => waits.push(ms) },
      );
      const startedAt: number[] = [];
      const all = Promise.all(
        Array.from({ length: 8 }, () =>
          limiter.run(async () => {
            startedAt.push(Date.now());
            await new Promise((resolve) => setTimeout(resolve, 10));
          }),
        ),
      );
      await vi.advanceTimersByTimeAsync(2000);
      await all;
      // Five at once; answered at 10 ms, they leave the window at 1210, counted to the bucket's end at 1250.
      // (The fake clock moves a millisecond over the turn that follows a timer.)
      expect(startedAt.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
      expect(startedAt.slice(5)).toEqual(Array(3).fill(startedAt[5]));
      expect(startedAt[5]).toBeGreaterThanOrEqual(1250);
      expect(startedAt[5]).toBeLessThanOrEqual(1251);
      expect(waits[0]).toBe(1200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the API counting calls made elsewhere (X-Rate-Limit-Remaining) fills the window as much; a lower X-Rate-Limit is followed', async () => {
    const ledger = new MemoryLedger();
    const gate = new WindowGate(ledger, 'quota', { limit: 20_000, windowMs: 3_600_000 });
    gate.observe({ limit: 500, remaining: 480 });
    await turns();
    expect(gate.window.limit).toBe(500);
    expect((await ledger.room('quota', gate.window)).used).toBe(20);
    // A header that says less than the ledger knows takes nothing away.
    gate.observe({ remaining: 499 });
    await turns();
    expect((await ledger.room('quota', gate.window)).used).toBe(20);
  });

  it('a 429 with Retry-After holds back every process sharing the ledger; the window is not lowered as a token bucket would be', async () => {
    const ledger = new MemoryLedger();
    const limiter = limiterFor({}, { maxConcurrency: 10, window: { limit: 500, windowMs: 300_000 } }, false, {}, { key: 'paused', ledger });
    limiter.throttled(5000);
    await turns();
    expect(limiter.state()).toMatchObject({ maxConcurrency: 10, requestsPerSecond: Infinity });
    const other = new WindowGate(ledger, 'paused', { limit: 500, windowMs: 300_000 });
    const room = await other.room();
    expect(room.waitMs).toBeGreaterThan(4000);
    expect(await ledger.take('paused', other.window, 1, [])).toMatchObject({ tickets: [] });
  });

  it('an API with no window keeps the token bucket, lowered on 429 as before', () => {
    const limiter = new RequestLimiter({ maxConcurrency: 10, requestsPerSecond: 10 });
    limiter.throttled();
    expect(limiter.state()).toMatchObject({ maxConcurrency: 5, requestsPerSecond: 5 });
    expect(limiter.window).toBeUndefined();
  });
});

describe('the ledger', () => {
  it('counts a call from its answer: a window of 2 per second frees its first slot a second after the first answer', async () => {
    let now = 0;
    const ledger = new MemoryLedger(() => now);
    const window = { limit: 2, windowMs: 1000 };
    const first = await ledger.take('k', window, 2, []);
    expect(first.tickets).toHaveLength(2);
    now = 100;
    await ledger.answered('k', first.tickets.slice(0, 1));
    now = 300;
    const full = await ledger.take('k', window, 1, first.tickets.slice(1));
    expect(full.tickets).toEqual([]);
    // The bucket of a 1-second window is 50 ms: the slot frees at 1100, told from 300.
    expect(full.waitMs).toBe(800);
    now = 1100;
    expect((await ledger.take('k', window, 1, [])).tickets).toHaveLength(1);
  });

  it('how long until a window has room for many calls', async () => {
    let now = 0;
    const ledger = new MemoryLedger(() => now);
    const window = { limit: 10, windowMs: 1000 };
    for (let t = 0; t < 10; t++) {
      now = t * 50;
      const { tickets } = await ledger.take('k', window, 1, []);
      await ledger.answered('k', tickets);
    }
    now = 500;
    expect(await ledger.room('k', window, 1)).toEqual({ used: 10, waitMs: 500 });
    expect(await ledger.room('k', window, 4)).toEqual({ used: 10, waitMs: 650 });
    expect(await ledger.room('k', window, 25)).toMatchObject({ used: 10, waitMs: 2000 });
  });

  it('a file shared by two processes: the second sees the first one’s calls', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plumb-ledger-'));
    const window = { limit: 5, windowMs: 60_000 };
    const a = new FileLedger(dir);
    const b = new FileLedger(dir);
    expect((await a.take('acct', window, 3, [])).tickets).toHaveLength(3);
    expect((await b.take('acct', window, 3, [])).tickets).toHaveLength(2);
    expect((await b.room('acct', window)).used).toBe(5);
  });

  it('a file that holds something else is started afresh, with a warning naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plumb-ledger-'));
    const warnings: string[] = [];
    const ledger = new FileLedger(dir, (m) => warnings.push(m));
    writeFileSync(ledger.fileOf('acct'), 'not json');
    expect((await ledger.take('acct', { limit: 5, windowMs: 60_000 }, 1, [])).tickets).toHaveLength(1);
    expect(warnings).toEqual([`the rate ledger ${ledger.fileOf('acct')} was not a rate ledger; it was started afresh`]);
    expect(JSON.parse(readFileSync(ledger.fileOf('acct'), 'utf8'))).toMatchObject({ inFlight: expect.any(Object) });
  });

  it('a ledger that fails is warned of once; calls go on, counted by the process alone', async () => {
    const broken: RateLedger = {
      where: '/nowhere',
      take: () => Promise.reject(new Error('EACCES')),
      answered: () => Promise.reject(new Error('EACCES')),
      counted: () => Promise.reject(new Error('EACCES')),
      pause: () => Promise.reject(new Error('EACCES')),
      room: () => Promise.reject(new Error('EACCES')),
      close: async () => undefined,
    };
    const warnings: string[] = [];
    const limiter = limiterFor({}, { maxConcurrency: 4, window: { limit: 3, windowMs: 60_000 } }, false, {}, { key: 'k', ledger: broken, warn: (m) => warnings.push(m) });
    await Promise.all(Array.from({ length: 3 }, () => limiter.run(async () => undefined)));
    expect(warnings).toEqual(['the rate ledger in /nowhere could not be used (EACCES); calls are counted by this process alone']);
    // The process's own count still holds the window: a fourth call waits.
    const calls = pendingCalls();
    void limiter.run(calls.call);
    await turns();
    expect(calls.started()).toBe(0);
  });
});

describe('the windows of one call', () => {
  it('a connection creation counts once in each of its windows (20 a minute, 600 an hour), not twice in one', async () => {
    let sent = 0;
    const answers: Array<() => void> = [];
    const client = new PipelineClient({
      baseUrl: 'https://api.example.test/v1',
      apiKey: 'k',
      apiSecret: 's',
      ledger: new MemoryLedger(),
      endpointLimits: {
        'POST /connections': [
          { limit: 3, windowMs: 60_000 },
          { limit: 600, windowMs: 3_600_000 },
        ],
      },
      send: () =>
        new Promise((resolve) => {
          sent++;
          answers.push(() => resolve({ status: 201, ok: true, text: '{"code":"Success","data":{"id":"c"}}', headers: { get: () => null } }));
        }),
    });
    const first = Array.from({ length: 2 }, () => client.write('POST', '/connections', {}, { safe: true }));
    await turns(10);
    answers.splice(0).forEach((answer) => answer());
    await Promise.all(first);
    // Two answered of three a minute: one more may go now, and only one.
    const next = Array.from({ length: 2 }, () => client.write('POST', '/connections', {}, { safe: true }));
    await turns(10);
    expect(sent).toBe(3);
    answers.splice(0).forEach((answer) => answer());
    await Promise.race(next);
  });
});
