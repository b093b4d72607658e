import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestLimiter } from '../../src/providers/limiter.js';
import type { InterconnectClient } from '../../src/providers/interconnect/client.js';
import { interconnectProvider } from '../../src/providers/interconnect/index.js';
import { testSandbox } from '../support/cli.js';

/** A promise with its resolve handle, to hold a limited call open. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets queued callbacks and promise reactions run. */
const settle = () => new Promise((r) => setImmediate(r));

describe('RequestLimiter', () => {
  it('never has more than maxConcurrency calls running, and starts the others in order', async () => {
    const limiter = new RequestLimiter({ maxConcurrency: 3, requestsPerSecond: Infinity });
    const gates = Array.from({ length: 10 }, deferred);
    const started: number[] = [];
    const runs = gates.map((g, i) => limiter.run(async () => (started.push(i), await g.promise, i)));
    await settle();
    expect(limiter.state()).toMatchObject({ inFlight: 3, queued: 7 });
    expect(started).toEqual([0, 1, 2]);
    gates[1].resolve();
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    expect(limiter.state().inFlight).toBe(3);
    for (const g of gates) g.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(limiter.state()).toMatchObject({ inFlight: 0, queued: 0, peakInFlight: 3 });
  });

  it('starts a shared call (an order, a poll round) before the calls queued for one step each', async () => {
    const limiter = new RequestLimiter({ maxConcurrency: 1, requestsPerSecond: Infinity });
    const first = deferred();
    const started: string[] = [];
    const runs = [limiter.run(async () => (started.push('running'), await first.promise))];
    for (const name of ['list1', 'list2']) runs.push(limiter.run(async () => void started.push(name)));
    runs.push(limiter.run(async () => void started.push('order'), { shared: true }));
    runs.push(limiter.run(async () => void started.push('list3')));
    runs.push(limiter.run(async () => void started.push('poll'), { shared: true }));
    await settle();
    expect(limiter.state().queued).toBe(5);
    first.resolve();
    await Promise.all(runs);
    expect(started).toEqual(['running', 'order', 'poll', 'list1', 'list2', 'list3']);
  });

  it('halves both limits on a 429, once per burst, and raises them back a tenth per quiet second', () => {
    let now = 0;
    const limiter = new RequestLimiter({ maxConcurrency: 8, requestsPerSecond: 20 }, () => now);
    limiter.throttled();
    limiter.throttled();
    expect(limiter.state()).toMatchObject({ maxConcurrency: 4, requestsPerSecond: 10 });
    now += 1000;
    limiter.throttled();
    expect(limiter.state()).toMatchObject({ maxConcurrency: 2, requestsPerSecond: 5 });
    now += 1000;
    expect(limiter.state()).toMatchObject({ maxConcurrency: 3, requestsPerSecond: 7 });
    now += 60_000;
    expect(limiter.state()).toMatchObject({ maxConcurrency: 8, requestsPerSecond: 20 });
  });

  it('without configured limits, a 429 caps the rate at half of what was running, until it recovers', async () => {
    let now = 0;
    const limiter = new RequestLimiter({ maxConcurrency: Infinity, requestsPerSecond: Infinity }, () => now);
    for (let i = 0; i < 50; i++) {
      await limiter.run(async () => undefined);
      now += 10;
    }
    limiter.throttled();
    const lowered = limiter.state().requestsPerSecond;
    expect(lowered).toBeGreaterThan(0);
    expect(lowered).toBeLessThan(100);
    now += 60_000;
    expect(limiter.state().requestsPerSecond).toBe(Infinity);
  });
});

describe('interconnect limits against the sandbox', () => {
  let sandbox: Awaited<ReturnType<typeof testSandbox>>;
  let proxy: Server;
  let proxyUrl: string;
  let inFlight = 0;
  let peak = 0;

  beforeAll(async () => {
    sandbox = await testSandbox();
    // Counts the calls in flight between client and sandbox, independently of the client.
    proxy = createServer((req, res) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      const target = new URL(req.url ?? '/', sandbox.url);
      const forward = request(target, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => inFlight--);
      });
      req.pipe(forward);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise((r) => proxy.close(r));
    await sandbox.close();
  });

  const admin = (path: string, method: string, body?: unknown) =>
    fetch(`${sandbox.url}/_sandbox/${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

  async function client(settings: Record<string, unknown>): Promise<InterconnectClient> {
    const parsed = interconnectProvider.settings.parse(settings);
    return interconnectProvider.connect(parsed, { sandboxUrl: async () => proxyUrl, log: pino({ level: 'silent' }), env: {} });
  }

  it('interconnect:maxConcurrency caps the calls in flight, with 100 ms per call', async () => {
    await admin('faults', 'POST', { provider: 'interconnect', latencyMs: 100 });
    try {
      const c = await client({ maxConcurrency: 3 });
      await c.get('/v3/locations');
      peak = 0;
      const answers = await Promise.all(Array.from({ length: 12 }, () => c.get('/v2/networkRegions')));
      expect(answers).toHaveLength(12);
      expect(peak).toBe(3);
      expect(c.limiter.state().peakInFlight).toBe(3);
    } finally {
      await admin('faults', 'DELETE');
    }
  });

  it('a burst of 429s lowers the request rate, and every call still succeeds after Retry-After', async () => {
    await admin('limits', 'POST', { limits: [{ provider: 'interconnect', max: 4, windowMs: 1000 }] });
    try {
      const c = await client({ requestsPerSecond: 100, maxConcurrency: 10 });
      await sandbox.clearCalls();
      const answers = await Promise.all(Array.from({ length: 10 }, () => c.get('/v2/networkRegions')));
      expect(answers).toHaveLength(10);
      expect((await sandbox.calls('interconnect')).some((call) => call.status === 429)).toBe(true);
      expect(c.limiter.state().requestsPerSecond).toBeLessThan(100);
    } finally {
      await admin('limits', 'DELETE');
    }
  });
});
