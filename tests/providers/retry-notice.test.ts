import { describe, expect, it } from 'vitest';
import type { RetryNotice } from '../../src/engine/contracts/provider.js';
import { RemoteError } from '../../src/kernel/errors.js';
import { withRetry } from '../../src/providers/retry.js';

describe('the retry policy tells the user why a call waits', () => {
  it('each retry is told, with its kind and wait and what failed without the call path; a final failure is not', async () => {
    const notices: RetryNotice[] = [];
    const failures = [
      new RemoteError('rate-limited', 'GET /v2/product/p-1: 429 Too Many Requests', { method: 'GET', path: '/v2/product/p-1', retryAfterMs: 12_000 }),
      new RemoteError('unavailable', 'GET /v2/product/p-1: connect ECONNREFUSED 203.0.113.7:443', { method: 'GET', path: '/v2/product/p-1' }),
    ];
    const answer = await withRetry({
      send: async () => {
        const next = failures.shift();
        if (next) throw next;
        return 'ok';
      },
      safe: true,
      settings: { sleep: async () => {}, random: () => 0, retrying: (n) => notices.push(n) },
    });
    expect(answer).toBe('ok');
    expect(notices).toEqual([
      { kind: 'rate-limited', waitMs: 12_000, attempt: 1, reason: '429 Too Many Requests' },
      { kind: 'unavailable', waitMs: 250, attempt: 2, reason: 'connect ECONNREFUSED 203.0.113.7:443' },
    ]);
  });
});
