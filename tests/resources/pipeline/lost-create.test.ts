/**
 * A pipeline create whose answer is lost is looked for as the type's findOwned looks for what an
 * interrupted create made: an object made since the order but already recorded (at another
 * address of the stack) is not what this order made, and is never taken for it; of several
 * candidates none is taken, as after a crash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRemote } from '../../../src/kernel/errors.js';
import { webhook } from '../../../src/resources/pipeline/webhook.js';
import { pipelineSandbox, recordingSleep, type PipelineSandbox } from '../../support/pipeline-sandbox.js';
import { ctxFor } from './harness.js';

let sandbox: PipelineSandbox;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
});
afterAll(async () => sandbox.close());

/** The ids of the account webhooks to this url. */
async function hooksTo(url: string): Promise<string[]> {
  const hooks = await ctxFor(sandbox).client.list<{ id: string; url: string }>('/webhooks');
  return hooks.filter((w) => w.url === url).map((w) => w.id);
}

describe('a webhook create whose answer is lost', () => {
  it('takes what it made, not a twin another address recorded a moment before', async () => {
    const inputs = { url: 'https://hooks.acme.test/twin', events: ['sync_end'] };
    const first = await webhook.create(ctxFor(sandbox), inputs);
    await sandbox.faults({ provider: 'pipeline', next: [{ match: 'POST /v1/webhooks/account', drop: 'reply' }] });
    const ctx = { ...ctxFor(sandbox, { retry: { sleep: recordingSleep().sleep } }), isRecorded: (id: string) => id === first.id };
    const second = await webhook.create(ctx, inputs);
    expect(second.id).not.toBe(first.id);
    expect(await hooksTo(inputs.url)).toEqual([first.id, second.id]);
  });

  it('takes none of several it may have made: the order stays pending, naming them', async () => {
    const inputs = { url: 'https://hooks.acme.test/triplet', events: ['sync_end'] };
    await webhook.create(ctxFor(sandbox), inputs);
    await webhook.create(ctxFor(sandbox), inputs);
    await sandbox.faults({ provider: 'pipeline', next: [{ match: 'POST /v1/webhooks/account', drop: 'reply' }] });
    const ctx = { ...ctxFor(sandbox, { retry: { sleep: recordingSleep().sleep } }), isRecorded: () => false };
    // The check's AmbiguousOrder says the send may have gone through: the order is not sent again.
    const failure = await webhook.create(ctx, inputs).then(
      (made) => made,
      (err: unknown) => err,
    );
    expect(isRemote(failure, 'unavailable')).toBe(true);
    expect((failure as Error).message).toMatch(/may have made any of 3 webhook to https:\/\/hooks\.acme\.test\/triplets/);
    expect(await hooksTo(inputs.url)).toHaveLength(3);
  });
});
