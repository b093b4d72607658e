/**
 * The pipeline client against the sandbox over HTTP: auth and headers, paging, the retry policy
 * (Retry-After on 429, 5xx and lost answers sent again), error classification, and that
 * credentials never reach an error or a log line.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RemoteError } from '../../../src/kernel/errors.js';
import { sendRequest, type Sender } from '../../../src/providers/http.js';
import { PipelineClient } from '../../../src/providers/pipeline/client.js';
import { clientFor, pipelineSandbox, recordingSleep, TEST_KEY, TEST_SECRET, type PipelineSandbox } from '../../support/pipeline-sandbox.js';

let sandbox: PipelineSandbox;
beforeAll(async () => (sandbox = await pipelineSandbox()));
afterAll(async () => sandbox.close());
beforeEach(async () => {
  await sandbox.clearFaults();
  await sandbox.clearCalls();
});

/** A sender that records the headers of every request before sending it. */
function recordingSender(): { send: Sender; requests: Array<{ url: string; headers: Record<string, string> }> } {
  const requests: Array<{ url: string; headers: Record<string, string> }> = [];
  return {
    requests,
    send: async (url, init) => {
      requests.push({ url: String(url), headers: { ...init.headers } });
      return sendRequest(url, init);
    },
  };
}

/** The policy's waits made instant and recorded. */
const instant = () => {
  const { sleep, waits } = recordingSleep();
  return { retry: { sleep, baseMs: 1 }, waits };
};

async function failure(promise: Promise<unknown>): Promise<RemoteError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RemoteError);
  return err as RemoteError;
}

describe('requests', () => {
  it('sends Basic credentials and the version header where the API expects it', async () => {
    const rec = recordingSender();
    const client = clientFor(sandbox, { send: rec.send });
    await client.get('/connections/ample_kitten');
    await client.list('/connections', { group_id: 'brisk_otter' });
    await client.list('/connections/ample_kitten/certificates');
    await client.get('/destinations/decent_dropsy');
    await client.list('/groups');
    const [detail, list, certificates, destination, groups] = rec.requests;
    expect(detail.headers.authorization).toBe(`Basic ${Buffer.from(`${TEST_KEY}:${TEST_SECRET}`).toString('base64')}`);
    expect(detail.headers.accept).toBe('application/json;version=2');
    expect(list.headers.accept).toBe('application/json;version=2');
    expect(certificates.headers.accept).toBe('application/json');
    expect(destination.headers.accept).toBe('application/json;version=2');
    expect(groups.headers.accept).toBe('application/json');
    expect(list.url).toContain('group_id=brisk_otter');
    expect(list.url).toContain('limit=1000');
  });

  it('pages with limit and cursor until next_cursor is absent', async () => {
    const small = await clientFor(sandbox, { pageSize: 2 }).list<{ id: string }>('/groups');
    const whole = await clientFor(sandbox).list<{ id: string }>('/groups');
    expect(small.map((g) => g.id)).toEqual(whole.map((g) => g.id));
    const calls = (await sandbox.calls()).filter((c) => c.path === '/v1/groups');
    expect(calls.length).toBe(Math.ceil(whole.length / 2) + 1);
    expect(calls[0].query).toEqual({ limit: '2' });
    expect(calls[1].query).toMatchObject({ limit: '2', cursor: expect.any(String) });
  });

  it('refuses a page size outside 1..1000', () => {
    expect(() => clientFor(sandbox, { pageSize: 0 })).toThrow(/pageSize/);
    expect(() => clientFor(sandbox, { pageSize: 1001 })).toThrow(/pageSize/);
  });
});

describe('rate limiting', () => {
  it('waits for Retry-After in real time, then succeeds', async () => {
    await sandbox.throttle(1, 1);
    const started = Date.now();
    const groups = await clientFor(sandbox).list('/groups');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(groups.length).toBeGreaterThan(0);
    expect((await sandbox.calls()).map((c) => c.status)).toEqual([429, 200]);
  });

  it('waits exactly as long as each Retry-After says', async () => {
    await sandbox.throttle(2, 4);
    const { retry, waits } = instant();
    await clientFor(sandbox, { retry }).get('/groups/decent_dropsy');
    expect(waits).toEqual([4000, 4000]);
  });

  it('gives up after maxRetries as rate-limited, carrying retryAfterMs', async () => {
    await sandbox.faults({ provider: 'pipeline', rates: { '429': 1 }, retryAfterSeconds: 2 });
    const { retry, waits } = instant();
    const err = await failure(clientFor(sandbox, { retry, maxRetries: 2 }).list('/groups'));
    expect(err.kind).toBe('rate-limited');
    expect(err.details).toMatchObject({ status: 429, retryAfterMs: 2000, provider: 'pipeline' });
    expect(waits).toEqual([2000, 2000]);
    expect((await sandbox.calls()).length).toBe(3);
  });

  it('fails at once when Retry-After is longer than it is worth waiting', async () => {
    await sandbox.throttle(1, 3600);
    const { retry, waits } = instant();
    const err = await failure(clientFor(sandbox, { retry }).list('/groups'));
    expect(err.kind).toBe('rate-limited');
    expect(err.details.retryAfterMs).toBe(3_600_000);
    expect(waits).toEqual([]);
  });
});

describe('failures the API may not have seen', () => {
  it('sends a lookup answered 500 again until it succeeds', async () => {
    await sandbox.faults({
      provider: 'pipeline',
      next: [
        { match: 'GET /v1/groups', status: 500 },
        { match: 'GET /v1/groups', status: 502 },
      ],
    });
    const { retry, waits } = instant();
    const groups = await clientFor(sandbox, { retry }).list('/groups');
    expect(groups.length).toBeGreaterThan(0);
    expect((await sandbox.calls()).map((c) => c.status)).toEqual([500, 502, 200]);
    expect(waits).toHaveLength(2);
  });

  it('sends a lookup whose answer was lost again', async () => {
    await sandbox.faults({ provider: 'pipeline', next: [{ match: 'GET /v1/groups', drop: 'reply' }] });
    const { retry } = instant();
    expect((await clientFor(sandbox, { retry }).list('/groups')).length).toBeGreaterThan(0);
    expect((await sandbox.calls()).map((c) => c.status)).toEqual([0, 200]);
  });

  it('gives up after maxRetries as unavailable', async () => {
    await sandbox.faults({ provider: 'pipeline', rates: { '503': 1 } });
    const { retry } = instant();
    const err = await failure(clientFor(sandbox, { retry, maxRetries: 2 }).list('/groups'));
    expect(err.kind).toBe('unavailable');
    expect(err.message).toContain('ServiceUnavailable');
    expect((await sandbox.calls()).length).toBe(3);
  });
});

describe('classification', () => {
  it('classifies a missing object as not-found with the API code', async () => {
    const err = await failure(clientFor(sandbox).get('/connections/ghost'));
    expect(err.kind).toBe('not-found');
    expect(err.message).toContain('NotFound_Connection');
    expect(err.details).toMatchObject({ status: 404, method: 'GET', path: '/connections/ghost' });
  });

  it('classifies rejected credentials as unauthorized', async () => {
    const stripAuth: Sender = (url, init) => sendRequest(url, { ...init, headers: { accept: 'application/json' } });
    const err = await failure(clientFor(sandbox, { send: stripAuth }).list('/groups'));
    expect(err.kind).toBe('unauthorized');
    expect(err.details.status).toBe(401);
  });

  it('classifies a bad request (Accept) as invalid, sent once', async () => {
    const badAccept: Sender = (url, init) => sendRequest(url, { ...init, headers: { ...init.headers, accept: 'text/csv' } });
    expect((await failure(clientFor(sandbox, { send: badAccept }).list('/groups'))).kind).toBe('invalid');
    expect((await sandbox.calls()).length).toBe(1);
  });

  it('classifies a wrong API secret as unauthorized, and never shows the secret', async () => {
    const err = await failure(clientFor(sandbox, { apiSecret: 'not-the-secret-9f3e' }).list('/groups'));
    expect(err.kind).toBe('unauthorized');
    expect(err.details.status).toBe(401);
    expect(`${err.message} ${JSON.stringify(err.details)}`).not.toContain('not-the-secret-9f3e');
  });

  it('classifies a refused connection as unavailable', async () => {
    const client = new PipelineClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', apiSecret: 's', retry: instant().retry });
    const err = await failure(client.get('/groups'));
    expect(err.kind).toBe('unavailable');
    expect(err.message).toContain('127.0.0.1:9');
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('treats a 2xx answer that is not the JSON envelope as unavailable', async () => {
    const html: Sender = async () => ({ status: 200, ok: true, headers: { get: () => null }, text: '<html>maintenance</html>' });
    const err = await failure(clientFor(sandbox, { send: html, retry: instant().retry }).get('/groups'));
    expect(err.kind).toBe('unavailable');
  });
});

describe('secrecy', () => {
  it('keeps the secret and the Authorization value out of errors, logs and inspection', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'debug' }, new Writable({ write: (chunk, _, done) => void (lines.push(String(chunk)), done()) }));
    await sandbox.throttle(1, 0);
    const client = clientFor(sandbox, { log });
    await client.list('/groups');
    const err = await failure(client.get('/connections/ghost'));
    const encoded = Buffer.from(`${TEST_KEY}:${TEST_SECRET}`).toString('base64');
    const exposed = [lines.join('\n'), err.message, JSON.stringify(err.details), JSON.stringify(client), (await import('node:util')).inspect(client)].join('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(exposed).not.toContain(TEST_SECRET);
    expect(exposed).not.toContain(encoded);
  });
});
