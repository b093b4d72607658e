/** The interconnect client when the sandbox's token endpoint refuses its key or secret. */
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isRemote } from '../../../src/kernel/errors.js';
import { InterconnectClient } from '../../../src/providers/interconnect/client.js';
import { testSandbox } from '../../support/cli.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

it("plumb's client says a refused key or secret is unauthorized, naming the settings, and never sends the exchange again", async () => {
  const base = `${sandbox.url}/interconnect`;
  const client = new InterconnectClient({ baseUrl: base, tokenUrl: `${base}/oauth2/token`, accessKey: 'sandbox-key', secretKey: 'mistyped', sandbox: true }, pino({ level: 'silent' }));
  await sandbox.clearCalls();
  const err = await client.get('/v3/locations').catch((e: unknown) => e);
  expect(isRemote(err, 'unauthorized')).toBe(true);
  expect((err as Error).message).toMatch(/invalid_client.*interconnect:accessKey and interconnect:secretKey/);
  const calls = await sandbox.calls('interconnect');
  expect(calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual(['POST /oauth2/token 400']);
});
