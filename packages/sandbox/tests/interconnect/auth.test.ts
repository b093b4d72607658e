import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server.js';
import { Api, SANDBOX_KEY, SANDBOX_SECRET, basic, getToken, http, sleep, startWithClient } from './helpers.js';

let sandbox: Sandbox;
let api: Api;
let tokenUrl: string;

beforeAll(async () => {
  ({ sandbox, api } = await startWithClient());
  tokenUrl = `${sandbox.url}/interconnect/oauth2/token`;
});
afterAll(() => sandbox.close());

describe('token endpoint', () => {
  const sandboxPair = basic(SANDBOX_KEY, SANDBOX_SECRET);

  it("issues a Bearer token for the sandbox account's key and secret, with grant_type in the query", async () => {
    const r = await http(`${tokenUrl}?grant_type=client_credentials`, { method: 'POST', headers: { authorization: sandboxPair } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(typeof r.body.access_token).toBe('string');
  });

  it('accepts grant_type in a form body, as scripts send it', async () => {
    const r = await http(tokenUrl, {
      method: 'POST',
      headers: { authorization: sandboxPair, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(r.status).toBe(200);
  });

  it.each([
    ['a mistyped secret', basic(SANDBOX_KEY, `${SANDBOX_SECRET}x`)],
    ['another key with the right secret', basic('someone-else', SANDBOX_SECRET)],
    ['any other pair', basic('anything', 'at-all')],
    ['no Authorization header', undefined],
    ['a Bearer header instead of Basic', 'Bearer abc'],
    ['Basic without a colon', `Basic ${Buffer.from('justakey').toString('base64')}`],
    ['an empty secret', basic(SANDBOX_KEY, '')],
    ['an empty key', basic('', SANDBOX_SECRET)],
  ])('answers 400 invalid_client, as the token server does, for %s', async (_why, header) => {
    const headers: Record<string, string> = header ? { authorization: header } : {};
    const r = await http(`${tokenUrl}?grant_type=client_credentials`, { method: 'POST', headers });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid_client' });
  });

  it('refuses a missing or unknown grant type with OAuth2 errors', async () => {
    const missing = await http(tokenUrl, { method: 'POST', headers: { authorization: sandboxPair } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
    const wrong = await http(`${tokenUrl}?grant_type=password`, { method: 'POST', headers: { authorization: sandboxPair } });
    expect(wrong.body.error).toBe('unsupported_grant_type');
  });
});

describe('bearer tokens on API calls', () => {
  it('answers a valid token with the {message, terms, data} envelope', async () => {
    const r = await api.get('/v3/locations');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['data', 'message', 'terms']);
    expect(r.body.terms).toMatch(/Acceptable Use Policy/);
  });

  it('answers 401 without a token, with a forged one, and with a Basic header', async () => {
    const none = await http(`${sandbox.url}/interconnect/v3/locations`);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ message: expect.stringMatching(/Unauthorized/), data: null });
    const forged = new Api(sandbox.url, `${api.token.split('.')[0]}.AAAA`);
    expect((await forged.get('/v2/products')).status).toBe(401);
    const basicOnly = await http(`${sandbox.url}/interconnect/v2/products`, { headers: { authorization: basic('k', 's') } });
    expect(basicOnly.status).toBe(401);
  });

  it('expires tokens after expires_in, which the token-settings admin action sets', async () => {
    const set = await api.admin('token-settings', { expiresIn: 1 });
    expect(set).toMatchObject({ status: 200, body: { expiresIn: 1 } });
    const shortLived = new Api(sandbox.url, await getToken(sandbox.url));
    expect((await shortLived.get('/v2/products')).status).toBe(200);
    await sleep(1100);
    const expired = await shortLived.get('/v2/products');
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired/);
    await api.admin('token-settings', { expiresIn: 3600 });
    const fresh = await http(`${tokenUrl}?grant_type=client_credentials`, { method: 'POST', headers: { authorization: basic(SANDBOX_KEY, SANDBOX_SECRET) } });
    expect(fresh.body.expires_in).toBe(3600);
  });

  it('rejects a bad token-settings body', async () => {
    expect((await api.admin('token-settings', { expiresIn: 'soon' })).status).toBe(400);
  });
});

describe('faults and limits', () => {
  it('shapes injected faults as the API envelope', async () => {
    await http(`${sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'interconnect', rates: { '429': 1 }, retryAfterSeconds: 7 }),
    });
    const r = await api.get('/v2/products');
    await http(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('7');
    expect(r.body).toMatchObject({ message: expect.stringMatching(/Too Many Requests/), terms: expect.any(String), data: null });
  });

  it('limits calls per window when the limits admin endpoint sets a limit', async () => {
    expect((await api.admin('limits', { limits: [{ provider: 'interconnect', max: 2, windowMs: 60_000 }] })).status).toBe(200);
    const replies = [await api.get('/v2/ixp'), await api.get('/v2/ixp'), await api.get('/v2/ixp')];
    await http(`${sandbox.url}/_sandbox/limits`, { method: 'DELETE' });
    expect(replies.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(Number(replies[2].headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api.get('/v2/ixp')).status).toBe(200);
  });

  it('answers unknown paths 404 and wrong methods 405 in the envelope', async () => {
    const missing = await api.get('/v9/nothing');
    expect(missing.status).toBe(404);
    expect(missing.body.terms).toBeDefined();
    expect((await api.call('DELETE', '/v3/locations')).status).toBe(405);
  });
});
