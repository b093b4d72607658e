/**
 * The sandbox with `limits: 'real'` enforces the documented limits, each answered as its API
 * answers: interconnect 500 calls per 5 minutes per client address (429, Retry-After, the
 * envelope); pipeline 20 connection creations a minute and the hourly quota in its headers (429,
 * whole-second Retry-After, TooManyRequests); cloud none, as none is published.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/server.js';
import { basic, getToken, http } from '../interconnect/helpers.js';
import { signedCall, smallWindow } from './helpers.js';

describe('sandbox with the real limits', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ provisioningMs: 0, limits: 'real' });
  });
  afterAll(() => sandbox.close());

  it('interconnect: the 501st call within 5 minutes gets 429 with Retry-After in the envelope, counting the token call', async () => {
    const token = await getToken(sandbox.url);
    const get = () => http(`${sandbox.url}/interconnect/v2/networkRegions`, { headers: { authorization: `Bearer ${token}` } });
    const statuses: number[] = [];
    for (let batch = 0; batch < 50; batch++) statuses.push(...(await Promise.all(Array.from({ length: 10 }, get))).map((r) => r.status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(499);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    const over = await get();
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ message: expect.stringMatching(/Too Many Requests/), terms: expect.any(String), data: null });
    const wait = Number(over.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(240);
    expect(wait).toBeLessThanOrEqual(300);
    const admin = (await http(`${sandbox.url}/_sandbox/limits`)).body as Array<{ provider: string; name: string; used: Record<string, number> }>;
    expect(admin.find((r) => r.provider === 'interconnect')?.used).toEqual({ '127.0.0.1': 500 });
  });

  it('pipeline: every answer carries the hourly quota, and the 21st connection creation in a minute gets 429', async () => {
    const auth = { authorization: basic('sandbox-key', 'sandbox-secret'), 'content-type': 'application/json' };
    const list = await http(`${sandbox.url}/pipeline/v1/groups`, { headers: auth });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-rate-limit')).toBe('20000');
    expect(list.headers.get('x-rate-limit-remaining')).toBe('19999');
    const create = () => http(`${sandbox.url}/pipeline/v1/connections`, { method: 'POST', headers: auth, body: JSON.stringify({ group_id: 'none', service: 'none' }) });
    for (let i = 0; i < 20; i++) expect((await create()).status).not.toBe(429);
    const over = await create();
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'TooManyRequests' });
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Other calls still go through: the creation limit covers creations only.
    expect((await http(`${sandbox.url}/pipeline/v1/groups`, { headers: auth })).status).toBe(200);
  });

  it('cloud: no limit is published, so none is enforced', async () => {
    const codes = await Promise.all(Array.from({ length: 30 }, () => signedCall(sandbox.url, { Action: 'DescribeNapServiceInfo', Region: 'cn-bj2', NapType: 1 })));
    expect(codes.map((body) => body.RetCode)).toEqual(Array(30).fill(0));
  });
});

describe('limits set through the admin endpoint', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ provisioningMs: 0 });
  });
  afterAll(() => sandbox.close());

  const post = (body: unknown) => http(`${sandbox.url}/_sandbox/limits`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('cloud: a call over a per-action limit is answered HTTP 200 with RetCode 153 and no Retry-After, as the API throttles', async () => {
    expect((await post({ limits: [{ provider: 'cloud', name: 'describe', match: '^DescribeNapServiceInfo$', max: 2, windowMs: 60_000 }] })).status).toBe(200);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await signedCall(sandbox.url, { Action: 'DescribeNapServiceInfo', Region: 'cn-bj2', NapType: 1 }));
    expect(answers.map((a) => a.RetCode)).toEqual([0, 0, 153]);
    expect(answers[2]).toMatchObject({ Action: 'DescribeNapServiceInfoResponse', Message: expect.any(String) });
    // Another Action is not covered by that rule.
    expect((await signedCall(sandbox.url, { Action: 'GetNapAllowListDomain', Region: 'cn-bj2', ResourceId: 'none' })).RetCode).not.toBe(153);
  });

  it('refuses a table with every problem named, and DELETE leaves only the limits every sandbox enforces', async () => {
    const bad = await post({ limits: [{ provider: '', max: 0, windowMs: -1, match: '(' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/provider.*max.*windowMs.*match/s);
    expect((await post({ limits: 'sometimes' })).status).toBe(400);
    expect((await http(`${sandbox.url}/_sandbox/limits`, { method: 'DELETE' })).status).toBe(204);
    const rules = (await http(`${sandbox.url}/_sandbox/limits`)).body as Array<{ provider: string; name: string }>;
    expect(rules.map((r) => `${r.provider}: ${r.name}`)).toEqual(['pipeline: connection creations per minute']);
  });
});

describe('a sandbox without --limits', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ provisioningMs: 0 });
  });
  afterAll(() => sandbox.close());

  it('enforces the limits every account meets in ordinary use (pipeline: 20 connection creations a minute), not the large budgets', async () => {
    const shown = (await http(`${sandbox.url}/_sandbox/limits`)).body as Array<Record<string, unknown>>;
    expect(shown).toEqual([expect.objectContaining({ provider: 'pipeline', max: 20, windowMs: 60_000, match: '^POST \\/v1\\/(connections|connectors)$', always: true, used: {} })]);
    const auth = { authorization: basic('sandbox-key', 'sandbox-secret'), 'content-type': 'application/json' };
    const list = await http(`${sandbox.url}/pipeline/v1/groups`, { headers: auth });
    expect(list.headers.get('x-rate-limit')).toBeNull();
    const create = () => http(`${sandbox.url}/pipeline/v1/connections`, { method: 'POST', headers: auth, body: JSON.stringify({ group_id: 'none', service: 'none' }) });
    for (let i = 0; i < 20; i++) expect((await create()).status).toBe(400);
    const over = await create();
    expect(over).toMatchObject({ status: 429, body: { code: 'TooManyRequests', message: 'No more than 20 connections can be created per minute' } });
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    const counted = (await http(`${sandbox.url}/_sandbox/limits`)).body as Array<{ used: Record<string, number> }>;
    expect(counted[0].used).toEqual({ account: 20 });
    // Other providers are not limited at all.
    const token = await getToken(sandbox.url);
    const regions = await Promise.all(Array.from({ length: 30 }, () => http(`${sandbox.url}/interconnect/v2/networkRegions`, { headers: { authorization: `Bearer ${token}` } })));
    expect(regions.map((r) => r.status)).toEqual(Array(30).fill(200));
  });
});

describe('the counts of a sandbox with a data folder', () => {
  it('outlive the process, so separate commands share the window as they share it with the real API', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'plumb-limits-world-'));
    const limits = [smallWindow('pipeline', 2, 60_000)];
    const auth = { authorization: basic('sandbox-key', 'sandbox-secret') };
    const first = await startSandbox({ provisioningMs: 0, dataDir, limits });
    const statuses = [];
    for (let i = 0; i < 2; i++) statuses.push((await http(`${first.url}/pipeline/v1/groups`, { headers: auth })).status);
    await first.close();
    const second = await startSandbox({ provisioningMs: 0, dataDir, limits });
    try {
      statuses.push((await http(`${second.url}/pipeline/v1/groups`, { headers: auth })).status);
    } finally {
      await second.close();
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});
