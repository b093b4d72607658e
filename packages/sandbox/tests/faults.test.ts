/**
 * The sandbox's fault injection: with a seed, the random faults of a run can be had again; the
 * nth call of one shape gets the same fault whatever ids it carries and whatever else comes
 * between.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/server.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ provisioningMs: 0 });
});
afterAll(async () => sandbox.close());

const admin = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.url}/_sandbox/${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

/** The status of one call, or 0 when its connection closed without an answer. */
function status(path: string): Promise<number> {
  return new Promise((resolve) => {
    // A fresh connection per call: a dropped one must not take the next call with it.
    const req = request(`${sandbox.url}${path}`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

const FAULTS = { rates: { '429': 0.2, '500': 0.1 }, dropRate: 0.05, dropReplyRate: 0.05, retryAfterSeconds: 0 };

/** Statuses of 40 reads of products whose ids differ from run to run, in order. */
async function run(seed: number | undefined, ids: string[]): Promise<number[]> {
  await admin('POST', 'faults', { ...FAULTS, seed });
  const seen: number[] = [];
  for (const id of ids) seen.push(await status(`/interconnect/v2/product/${id}`));
  await admin('DELETE', 'faults');
  return seen;
}

const uids = (n: number) => Array.from({ length: n }, () => randomUUID());

describe('seeded faults', () => {
  it('a seed gives the same faults again to calls of the same shape, whatever their ids', async () => {
    const first = await run(7, uids(40));
    const again = await run(7, uids(40));
    expect(again).toEqual(first);
    // Faults of every kind were drawn: errors, and closed connections (0).
    expect(first.filter((s) => s === 429 || s === 500 || s === 0).length).toBeGreaterThan(0);
    expect(first.some((s) => s === 401 || s === 404)).toBe(true);
  });

  it('another seed draws other faults', async () => {
    const ids = uids(40);
    const seven = await run(7, ids);
    expect(await run(8, ids)).not.toEqual(seven);
  });

  it('calls of another shape in between do not shift the faults of a shape', async () => {
    const ids = uids(40);
    const alone = await run(11, ids);
    await admin('POST', 'faults', { ...FAULTS, seed: 11 });
    const mixed: number[] = [];
    for (const id of ids) {
      await status('/interconnect/v2/locations');
      mixed.push(await status(`/interconnect/v2/product/${id}`));
    }
    await admin('DELETE', 'faults');
    expect(mixed).toEqual(alone);
  });

  it('refuses a seed that is not a number and injects nothing', async () => {
    const res = await admin('POST', 'faults', { ...FAULTS, seed: 'abc' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'seed must be a number' });
    expect(await status('/interconnect/v2/locations')).toBe(401);
  });
});
