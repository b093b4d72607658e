/**
 * The simulated pipeline API over raw HTTP: auth, envelope, paging, error bodies, faults and
 * throttling, and the invariants its seed data must keep to be a believable account.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pipelineSandbox, rawGet, type PipelineSandbox } from '../support/pipeline.js';

let sandbox: PipelineSandbox;
beforeAll(async () => (sandbox = await pipelineSandbox()));
afterAll(async () => sandbox.close());
beforeEach(async () => {
  await sandbox.clearFaults();
});

const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

/** Every item of a collection, following next_cursor with the given limit. */
async function all(path: string, limit: number): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await rawGet(sandbox, `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    items.push(...res.body.data.items);
    cursor = res.body.data.next_cursor;
    pages++;
  } while (cursor);
  return { items, pages };
}

describe('authentication', () => {
  it.each([
    ['no header', {}],
    ['another scheme', { authorization: 'Bearer abc' }],
    ['an empty secret', { authorization: basic('key:') }],
    ['no colon', { authorization: basic('keyonly') }],
  ])('answers 401 with a JSON body for %s', async (_, headers) => {
    const res = await rawGet(sandbox, '/v1/groups', headers as Record<string, string>);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'Unauthorized', message: expect.any(String) });
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it("accepts the sandbox account's documented key and secret", async () => {
    const res = await rawGet(sandbox, '/v1/groups', { authorization: basic('sandbox-key:sandbox-secret') });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('Success');
  });

  it.each([
    ['a wrong secret', 'sandbox-key:sandbox-secreT'],
    ['another key', 'anything:sandbox-secret'],
  ])('answers %s with 401 and a JSON body, as the API refuses a pair it does not know', async (_, pair) => {
    const res = await rawGet(sandbox, '/v1/groups', { authorization: basic(pair) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'Unauthorized', message: 'Invalid API key or secret.' });
  });
});

describe('config value types', () => {
  // The OpenAPI document types a destination's port an integer; the real API answers it as text
  // (go-fivetran's e2e tests, tests/e2e/destination_details_test.go), as the SDK's typed
  // destination response declares it, and a connection's port as a number (its typed
  // ConnectionConfigResponse, connections/connection_config.go).
  it('serves them as the real API answers them: a destination port as text, a connection port a number, MongoDB hosts a list of strings', async () => {
    const destination = (await rawGet(sandbox, '/v1/destinations/decent_dropsy')).body.data;
    expect(destination.config.port).toEqual(expect.any(String));
    expect((await rawGet(sandbox, '/v1/connections/ample_kitten')).body.data.config.port).toEqual(expect.any(Number));
    const mongo = (await rawGet(sandbox, '/v1/connections/bright_comet')).body.data;
    expect(mongo.service).toBe('mongo');
    expect(mongo.config.hosts).toEqual(['events-shard-00-00.acme-data.io:27017', 'events-shard-00-01.acme-data.io:27017']);
  });
});

describe('content negotiation', () => {
  it.each(['application/json', 'application/json;version=2', 'application/json; version=2', '*/*'])('serves Accept: %s', async (accept) => {
    const res = await rawGet(sandbox, '/v1/destinations/decent_dropsy', { authorization: basic('sandbox-key:sandbox-secret'), accept });
    expect(res.status).toBe(200);
  });

  it('answers 406 for a media type it cannot produce', async () => {
    const res = await rawGet(sandbox, '/v1/groups', { authorization: basic('sandbox-key:sandbox-secret'), accept: 'text/html' });
    expect(res.status).toBe(406);
    expect(res.body.code).toBe('NotAcceptable');
  });
});

describe('cursor paging', () => {
  it('pages through every connection with a small limit and omits next_cursor on the last page', async () => {
    const paged = await all('/v1/connections', 5);
    const whole = await all('/v1/connections', 1000);
    expect(whole.pages).toBe(1);
    expect(paged.pages).toBe(Math.ceil(whole.items.length / 5));
    expect(paged.items.map((c) => c.id)).toEqual(whole.items.map((c) => c.id));
  });

  it('uses the documented cursor encoding, base64url of {"skip":N}', async () => {
    const res = await rawGet(sandbox, '/v1/groups?limit=2');
    expect(JSON.parse(Buffer.from(res.body.data.next_cursor, 'base64url').toString())).toEqual({ skip: 2 });
  });

  it('defaults to 100 items per page', async () => {
    const res = await rawGet(sandbox, '/v1/connections');
    expect(res.body.data.items.length).toBeLessThanOrEqual(100);
  });

  it.each(['0', '1001', 'ten', '2.5'])('rejects limit=%s with 400 InvalidInput', async (limit) => {
    const res = await rawGet(sandbox, `/v1/groups?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('InvalidInput');
  });

  it('rejects an unreadable cursor with 400 InvalidInput', async () => {
    const res = await rawGet(sandbox, '/v1/groups?cursor=not-a-cursor');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('InvalidInput');
  });

  it('filters connections by group_id and schema', async () => {
    const byGroup = await all('/v1/connections?group_id=sharp_heron', 3);
    expect(byGroup.items.length).toBeGreaterThan(3);
    expect(byGroup.items.every((c) => c.group_id === 'sharp_heron')).toBe(true);
    const bySchema = await all('/v1/connections?schema=pg_orders', 10);
    expect(bySchema.items.map((c) => c.id)).toEqual(['ample_kitten']);
  });
});

describe('errors', () => {
  it.each([
    ['/v1/connections/nope', 'NotFound_Connection'],
    ['/v1/connections/nope/certificates', 'NotFound_Connection'],
    ['/v1/destinations/nope', 'NotFound_Destination'],
    ['/v1/groups/nope/users', 'NotFound_Group'],
    ['/v1/users/nope', 'NotFound_User'],
    ['/v1/teams/nope/groups', 'NotFound_Team'],
    ['/v1/hybrid-deployment-agents/nope', 'NotFound_RemoteExecutionAgent'],
    ['/v1/proxy/nope', 'NotFound'],
    ['/v1/nothing-here', 'NotFound'],
  ])('GET %s answers 404 %s', async (path, code) => {
    const res = await rawGet(sandbox, path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code, message: expect.any(String) });
  });

  it('names the missing id in the 404 message', async () => {
    const res = await rawGet(sandbox, '/v1/connections/ghost_conn');
    expect(res.body.message).toContain("'ghost_conn'");
  });

  it('answers 405 for another method on a known path', async () => {
    const res = await fetch(`${sandbox.baseUrl}/groups`, { method: 'PUT', headers: { authorization: basic('sandbox-key:sandbox-secret') } });
    expect(res.status).toBe(405);
    expect((await res.json()).code).toBe('MethodNotAllowed');
  });
});

describe('faults and throttling', () => {
  it('answers injected 429s with Retry-After and the API error body', async () => {
    await sandbox.faults({ provider: 'pipeline', rates: { '429': 1 }, retryAfterSeconds: 7 });
    const res = await rawGet(sandbox, '/v1/groups');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.body).toEqual({ code: 'TooManyRequests', message: expect.any(String) });
  });

  it('throttles exactly the next N calls, then serves again', async () => {
    await sandbox.throttle(2, 3);
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await rawGet(sandbox, '/v1/groups');
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get('retry-after')).toBe('3');
    }
    expect(statuses).toEqual([429, 429, 200]);
  });

  it("has no admin endpoints of its own: throttling is the faults' and the limits'", async () => {
    for (const name of ['pipeline-throttle', 'pipeline-limits']) {
      const res = await fetch(`${sandbox.url}/_sandbox/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"count":1}' });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: `unknown admin endpoint /_sandbox/${name}` });
    }
    expect((await rawGet(sandbox, '/v1/groups')).status).toBe(200);
  });
});

describe('secrets', () => {
  it('masks config secrets in details and leaves config out of list items', async () => {
    const detail = await rawGet(sandbox, '/v1/connections/ample_kitten');
    expect(detail.body.data.config.password).toBe('******');
    expect(detail.body.data.config.host).toBe('orders-db.internal.acme-data.io');
    const list = await rawGet(sandbox, '/v1/connections?limit=3');
    expect(list.body.data.items.every((c: object) => !('config' in c))).toBe(true);
    const destination = await rawGet(sandbox, '/v1/destinations/quiet_badger');
    expect(destination.body.data.config.personal_access_token).toBe('******');
    const hooks = await all('/v1/webhooks', 10);
    expect(hooks.items.every((w) => w.secret === '******')).toBe(true);
  });
});
