import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { order } from '../../../src/providers/interconnect/api/orders.js';
import { listAllProducts } from '../../../src/providers/interconnect/api/products.js';
import { carriesToken, readTagList } from '../../../src/providers/interconnect/api/tags.js';
import { lookAt } from '../../../src/providers/interconnect/api/waits.js';
import type { InterconnectClient } from '../../../src/providers/interconnect/client.js';
import { testSandbox } from '../../support/cli.js';
import { interconnectContext } from '../../support/interconnect-context.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
let client: InterconnectClient;
beforeAll(async () => {
  sandbox = await testSandbox();
  client = (await interconnectContext(sandbox.url)).client as InterconnectClient;
  // The token exchange is done once, before the calls each test counts.
  await listAllProducts(client);
});
afterAll(async () => sandbox.close());
beforeEach(async () => sandbox.clearCalls());

const portItem = (productName: string, extra: Record<string, unknown> = {}) => ({
  productName,
  term: 1,
  productType: 'MEGAPORT',
  portSpeed: 10000,
  locationId: 2,
  createDate: 0,
  virtual: false,
  market: '',
  marketplaceVisibility: false,
  config: {},
  resourceTags: [{ key: 'plumb-token', value: `token-${productName}` }],
  ...extra,
});

/** Finds the port an item ordered by the ownership token it was ordered with, as plumb's resources do. */
const byToken = (productName: string) => async () => {
  for (const p of (await listAllProducts(client)).top) {
    if (p.productName === productName && carriesToken(await readTagList(client, p.productUid), `token-${productName}`)) return p.productUid;
  }
  return undefined;
};

async function calls(path: string): Promise<number> {
  return (await sandbox.calls('interconnect')).filter((c) => c.path === path).length;
}

describe('orders placed at the same moment', () => {
  it('are validated and bought as one design, each given its own product', async () => {
    const names = ['together-a', 'together-b', 'together-c'];
    const uids = await Promise.all(names.map((name) => order(client, portItem(name))));
    expect(await calls('/v3/networkdesign/validate')).toBe(1);
    expect(await calls('/v4/networkdesign/buy')).toBe(1);
    const list = await listAllProducts(client);
    expect(uids.map(([uid]) => list.byUid.get(uid)?.productName)).toEqual(names);
  });

  it('when the design is refused, each refusal reaches only the order it is about, and the others are bought together', async () => {
    const results = await Promise.allSettled([order(client, portItem('refused-ok-1')), order(client, portItem('refused-bad', { locationId: 999999 })), order(client, portItem('refused-ok-2'))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason.message)).toMatch(/999999/);
    // The design, then each item alone, then the two valid ones together.
    expect(await calls('/v3/networkdesign/validate')).toBe(4);
    expect(await calls('/v4/networkdesign/buy')).toBe(1);
    const names = (await listAllProducts(client)).top.map((p) => p.productName);
    expect(names).toContain('refused-ok-1');
    expect(names).toContain('refused-ok-2');
    expect(names).not.toContain('refused-bad');
  });

  it('whose buy answer is lost are found by what each made, and not bought again', async () => {
    await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'interconnect', next: [{ match: 'POST /v4/networkdesign/buy', drop: 'reply' }] }),
    });
    try {
      const names = ['lost-a', 'lost-b'];
      const uids = await Promise.all(names.map((name) => order(client, portItem(name), byToken(name))));
      expect(await calls('/v4/networkdesign/buy')).toBe(1);
      const list = await listAllProducts(client);
      expect(uids.map(([uid]) => list.byUid.get(uid)?.productName)).toEqual(names);
      expect(list.top.filter((p) => names.includes(p.productName))).toHaveLength(2);
    } finally {
      await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
    }
  });
});

describe('a design whose buy answer is lost, with an order that cannot say what it made', () => {
  it('is never sent again: every order of it fails as unknown, for the next plan to settle', async () => {
    await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'interconnect', next: [{ match: 'POST /v4/networkdesign/buy', drop: 'reply' }] }),
    });
    try {
      const results = await Promise.allSettled([order(client, portItem('blind-a'), byToken('blind-a')), order(client, portItem('blind-b'))]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      for (const r of results) expect((r as PromiseRejectedResult).reason).toMatchObject({ kind: 'unavailable' });
      expect(await calls('/v4/networkdesign/buy')).toBe(1);
      expect((await listAllProducts(client)).top.filter((p) => String(p.productName).startsWith('blind-'))).toHaveLength(2);
    } finally {
      await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
    }
  });
});

describe('waiting for products', () => {
  it('is one list call per round for every product waiting', async () => {
    const uids = (await Promise.all(['wait-a', 'wait-b', 'wait-c', 'wait-d'].map((name) => order(client, portItem(name))))).map(([uid]) => uid);
    await sandbox.clearCalls();
    const seen = await Promise.all(uids.map((uid) => lookAt(client, uid)));
    expect(seen.map((p) => p?.productUid)).toEqual(uids);
    expect(await calls('/v2/products')).toBe(1);
    expect((await sandbox.calls('interconnect')).filter((c) => c.path.startsWith('/v2/product/'))).toEqual([]);
  });

  it('reads a product the list does not show by id, once in its round', async () => {
    const seen = await lookAt(client, '00000000-0000-4000-8000-000000000000');
    expect(seen).toBeUndefined();
    expect(await calls('/v2/products')).toBe(1);
    expect(await calls('/v2/product/00000000-0000-4000-8000-000000000000')).toBe(1);
  });
});
