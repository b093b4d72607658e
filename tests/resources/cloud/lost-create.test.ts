/**
 * A create whose answer is lost is looked for as the type's findOwned looks for what an
 * interrupted create made: an object made since the order but already recorded (at another
 * address of the stack) is not what this order made, and is never taken for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRemote } from '../../../src/kernel/errors.js';
import { vpc } from '../../../src/resources/cloud/vpc.js';
import { startHarness, type Harness } from '../../support/cloud-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

/** The ids of the VPCs of this name. */
async function named(name: string): Promise<string[]> {
  const body = await h.client.call<{ DataSet?: Array<{ VPCId: string; Name: string }> }>('DescribeVPC', {});
  return (body.DataSet ?? []).filter((v) => v.Name === name).map((v) => v.VPCId);
}

describe('a VPC create whose request is lost', () => {
  it('does not take a twin another address recorded a moment before for what it made', async () => {
    const inputs = { name: 'twin', cidrBlocks: ['10.20.0.0/16'] };
    const first = await vpc.create(h.resourceCtx('first'), inputs);
    await h.admin('faults', 'POST', { provider: 'cloud', next: [{ match: 'Action=CreateVPC', drop: 'request' }] });
    try {
      const ctx = { ...h.resourceCtx('second', 1_000), isRecorded: (id: string) => id === first.id };
      const failure = await vpc.create(ctx, inputs).then(
        (made) => made,
        (err: unknown) => err,
      );
      // Nothing of its own is listed within the wait time: whether it made one is not known yet,
      // so the order stays pending for the next apply; the recorded twin is not its answer.
      expect(failure).not.toMatchObject({ id: first.id });
      expect(isRemote(failure, 'unavailable')).toBe(true);
    } finally {
      await h.admin('faults', 'DELETE');
    }
    expect(await named('twin')).toEqual([first.id]);
  });
});
