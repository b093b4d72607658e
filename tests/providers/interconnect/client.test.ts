/**
 * The interconnect client under the sandbox's fault injection: which calls are sent again, how
 * often, and what an order or a cancel does when its answer is lost. Counts come from the
 * sandbox's call log.
 */
import * as z from 'zod';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isRemote } from '../../../src/kernel/errors.js';
import { InterconnectClient } from '../../../src/providers/interconnect/client.js';
import { port } from '../../../src/resources/interconnect/port.js';
import { testSandbox } from '../../support/cli.js';
import { InterconnectApi } from '../../support/interconnect-api.js';
import { interconnectContext } from '../../support/interconnect-context.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());
beforeEach(async () => {
  await faults(undefined);
  await sandbox.clearCalls();
});

/** Sets the sandbox's faults for the interconnect API (none when undefined). */
async function faults(body: Record<string, unknown> | undefined): Promise<void> {
  const init = body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ provider: 'interconnect', ...body }) } : { method: 'DELETE' };
  await fetch(`${sandbox.url}/_sandbox/faults`, init);
}

/** How many calls of `method` to a path containing `path` the sandbox received. */
async function count(method: string, path: string): Promise<number> {
  return (await sandbox.calls('interconnect')).filter((c) => c.method === method && c.path.includes(path)).length;
}

const portInputs = (productName: string) => z.parse(port.inputs, { productName, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false });

describe('interconnect calls under faults', () => {
  it('sends a read answered 500 again until it succeeds', async () => {
    const client = (await interconnectContext(sandbox.url)).client as InterconnectClient;
    await faults({
      next: [
        { match: 'GET /v3/locations', status: 500 },
        { match: 'GET /v3/locations', status: 503 },
      ],
    });
    const { data } = await client.get<unknown[]>('/v3/locations');
    expect(data.length).toBeGreaterThan(0);
    expect(await count('GET', '/v3/locations')).toBe(3);
  });

  it('gives up on a read after the attempt bound, as unavailable', async () => {
    const log = pino({ level: 'silent' });
    const base = `${sandbox.url}/interconnect`;
    const client = new InterconnectClient({ baseUrl: base, tokenUrl: `${base}/oauth2/token`, accessKey: 'sandbox-key', secretKey: 'sandbox-secret', sandbox: true }, log, 250, undefined, {
      attempts: 4,
      baseMs: 1,
    });
    await client.get('/v3/locations');
    await sandbox.clearCalls();
    await faults({ rates: { '500': 1 } });
    const err = await client.get('/v3/locations').catch((e: unknown) => e);
    expect(isRemote(err, 'unavailable')).toBe(true);
    expect(await count('GET', '/v3/locations')).toBe(4);
  });

  it('sends a buy whose answer is lost once, and adopts the port it ordered', async () => {
    const ctx = await interconnectContext(sandbox.url, 'lost.port');
    await faults({ next: [{ match: 'POST /v4/networkdesign/buy', drop: 'reply' }] });
    const created = await port.create(ctx, portInputs('lost-reply-port'));
    expect(await count('POST', '/v4/networkdesign/buy')).toBe(1);
    const live = await new InterconnectApi(sandbox.url).liveProducts('lost-reply-port');
    expect(live.map((p) => p.productUid)).toEqual([created.id]);
  });

  it('looks for what a buy answered 500 made, and finding nothing sends it once more', async () => {
    const ctx = await interconnectContext(sandbox.url, 'failed.port');
    await faults({ next: [{ match: 'POST /v4/networkdesign/buy', status: 500 }] });
    const created = await port.create(ctx, portInputs('rebought-port'));
    expect(await count('POST', '/v4/networkdesign/buy')).toBe(2);
    expect(await count('GET', '/v2/products')).toBeGreaterThan(0);
    const live = await new InterconnectApi(sandbox.url).liveProducts('rebought-port');
    expect(live.map((p) => p.productUid)).toEqual([created.id]);
  });

  it('sends a buy answered 429 again without looking (nothing was made), at most six times in all', async () => {
    const ctx = await interconnectContext(sandbox.url, 'throttled.port');
    const throttled = { match: 'POST /v4/networkdesign/buy', status: 429, retryAfter: '0.001' };
    await faults({ next: Array(40).fill(throttled) });
    const err = await port.create(ctx, portInputs('throttled-port')).catch((e: unknown) => e);
    expect(isRemote(err, 'rate-limited')).toBe(true);
    expect(await count('POST', '/v4/networkdesign/buy')).toBe(6);
    expect(await count('GET', '/v2/products')).toBe(0);
    expect(await new InterconnectApi(sandbox.url).liveProducts('throttled-port')).toEqual([]);
  });

  it('does not send a cancel again once the product is seen cancelled after its answer was lost', async () => {
    const ctx = await interconnectContext(sandbox.url, 'cancelled.port');
    const inputs = portInputs('lost-cancel-port');
    const created = await port.create(ctx, inputs);
    await sandbox.clearCalls();
    await faults({ next: [{ match: '/action/CANCEL_NOW', drop: 'reply' }] });
    await port.delete(ctx, created.id, { inputs, outputs: created.outputs });
    expect(await count('POST', '/action/CANCEL_NOW')).toBe(1);
    expect(await new InterconnectApi(sandbox.url).liveProducts('lost-cancel-port')).toEqual([]);
  });
});
