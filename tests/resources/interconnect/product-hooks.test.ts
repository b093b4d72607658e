/**
 * What a product's status says to the engine: ready, failed (the only evidence that taints a
 * product for replacement), or still on its way (waited for, never bought again).
 */
import { describe, expect, it } from 'vitest';
import { productFailed, productReady } from '../../../src/resources/interconnect/product-hooks.js';

const LIVE_SINCE = '2026-10-01T00:00:00.000Z';

describe('a product as its status reads', () => {
  it.each([
    ['DEPLOYABLE: ordered, on its way', { provisioningStatus: 'DEPLOYABLE' }, 'on its way'],
    ['NEW: a pre-ordered port waiting for infrastructure, however long', { provisioningStatus: 'NEW' }, 'on its way'],
    ['CONFIGURED: deployed (a port stays there until light is seen)', { provisioningStatus: 'CONFIGURED', liveDate: LIVE_SINCE }, 'ready'],
    ['LIVE', { provisioningStatus: 'LIVE', liveDate: LIVE_SINCE }, 'ready'],
    ['no status at all (a type that reports none)', {}, 'ready'],
    ['FAILED: the API could not deploy it', { provisioningStatus: 'FAILED' }, 'FAILED'],
    ['CANCELLED before it ever went live: its termination was requested on its way', { provisioningStatus: 'CANCELLED' }, 'CANCELLED before it was ever live'],
    ['CANCELLED after it went live: in service until its term ends, and replacing it would cut it now', { provisioningStatus: 'CANCELLED', liveDate: LIVE_SINCE }, 'ready'],
    ['an IX CANCELLED after it was deployed (an IX dates that as deployDate)', { provisioningStatus: 'CANCELLED', deployDate: LIVE_SINCE }, 'ready'],
  ])('%s', (_why, outputs, expected) => {
    const failed = productFailed(outputs);
    const seen = failed ?? (productReady(outputs) ? 'ready' : 'on its way');
    expect(seen).toBe(expected);
    // Never both: a failed product is not ready.
    if (failed) expect(productReady(outputs)).toBe(false);
  });
});
