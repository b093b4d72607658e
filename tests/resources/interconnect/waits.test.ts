/**
 * The waits of interconnect handlers, over ResourceContext.wait against the sandbox: a product
 * still provisioning when the time runs out is a WaitTimedOut (it is on its way: kept, waited for
 * again); one the API says will never be ready is a plain error (the create's product is then
 * tainted). A refusal retried until the time runs out is thrown as the refusal itself: nothing
 * was ordered, so nothing is on its way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteError, WaitTimedOut } from '../../../src/kernel/errors.js';
import { retryWithin, waitReady } from '../../../src/resources/interconnect/kit.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';
import { InterconnectApi } from '../../support/interconnect-api.js';
import { interconnectContext } from '../../support/interconnect-context.js';

let sandbox: Sandbox;
let api: InterconnectApi;
beforeAll(async () => {
  sandbox = await startSandbox({ provisioningMs: 60_000 });
  api = new InterconnectApi(sandbox.url);
});
afterAll(async () => sandbox.close());

const settings = (body: Record<string, unknown>) => fetch(`${sandbox.url}/_sandbox/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('waitReady', () => {
  it('a product still DEPLOYABLE when the time runs out: WaitTimedOut naming it and its last status, each status reported', async () => {
    const uid = await api.orderPort('waits-slow');
    const ctx = await interconnectContext(sandbox.url, 'slow', 600);
    const statuses: string[] = [];
    ctx.progress = (status) => void statuses.push(status);
    const waited = waitReady(ctx, uid, 'port');
    await expect(waited).rejects.toThrow(WaitTimedOut);
    await expect(waited).rejects.toThrow(new RegExp(`timed out after 0\\.\\d s waiting for port ${uid} to be ready \\(last status: DEPLOYABLE\\)`));
    expect(statuses).toEqual(['DEPLOYABLE']);
  });

  it('a product that becomes ready is returned, its ready status reported', async () => {
    const uid = await api.orderPort('waits-ready');
    const ctx = await interconnectContext(sandbox.url, 'ready', 10_000);
    const statuses: string[] = [];
    ctx.progress = (status) => void statuses.push(status);
    await settings({ provisioningMs: 300 });
    try {
      expect((await waitReady(ctx, uid, 'port')).provisioningStatus).toBe('CONFIGURED');
    } finally {
      await settings({ provisioningMs: 60_000 });
    }
    expect(statuses.at(-1)).toBe('CONFIGURED');
  });

  it('a product cancelled before it was ready, or not known at all, is a plain error at once: it will never be ready', async () => {
    const uid = await api.orderPort('waits-cancelled');
    await settings({ refuseEndOfTermCancel: false });
    try {
      await api.call('POST', `/v3/product/${uid}/action/CANCEL`);
    } finally {
      await settings({ refuseEndOfTermCancel: true });
    }
    const ctx = await interconnectContext(sandbox.url, 'cancelled', 30_000);
    const started = Date.now();
    const cancelled = waitReady(ctx, uid, 'port');
    await expect(cancelled).rejects.toThrow(`port ${uid} is CANCELLED instead of ready`);
    await expect(cancelled).rejects.not.toThrow(WaitTimedOut);
    const unknown = waitReady(ctx, '00000000-0000-4000-8000-00000000dead', 'port');
    await expect(unknown).rejects.toThrow('port 00000000-0000-4000-8000-00000000dead is no longer listed by the API');
    await expect(unknown).rejects.not.toThrow(WaitTimedOut);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('retryWithin', () => {
  const held = () => new RemoteError('conflict', 'VLAN 100 is still held', { provider: 'interconnect' });

  it('tries again while the refusal is temporary, and returns what the attempt that went through returns', async () => {
    const ctx = await interconnectContext(sandbox.url, 'retried', 10_000);
    let tries = 0;
    const made = await retryWithin(
      ctx,
      'waiting for the VLAN to be released',
      async () => {
        if (++tries < 3) throw held();
        return 'vxc-1';
      },
      (err) => err instanceof RemoteError && err.kind === 'conflict',
    );
    expect([made, tries]).toEqual(['vxc-1', 3]);
  });

  it('once the time runs out, throws the last refusal itself, not a WaitTimedOut: nothing was ordered', async () => {
    const ctx = await interconnectContext(sandbox.url, 'refused', 500);
    let tries = 0;
    const refused = retryWithin(
      ctx,
      'waiting for the VLAN to be released',
      async () => {
        tries++;
        throw held();
      },
      () => true,
    );
    await expect(refused).rejects.toThrow('VLAN 100 is still held');
    await expect(refused).rejects.toBeInstanceOf(RemoteError);
    expect(tries).toBeGreaterThan(1);
  });

  it('a refusal that is not temporary is thrown at once', async () => {
    const ctx = await interconnectContext(sandbox.url, 'final', 10_000);
    let tries = 0;
    const final = retryWithin(
      ctx,
      'waiting for the VLAN to be released',
      async () => {
        tries++;
        throw new RemoteError('invalid', 'Valid B-End is required', { provider: 'interconnect' });
      },
      (err) => err instanceof RemoteError && err.kind === 'conflict',
    );
    await expect(final).rejects.toThrow('Valid B-End is required');
    expect(tries).toBe(1);
  });
});
