/**
 * Creates whose answer may be lost: a prefix filter list, a service key and an IPsec add-on are
 * each sent once, looked for after a failure that may have made them, and sent again only when
 * nothing was made. Each case gives the sandbox one exact fault and counts the calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeUnknown } from '../../../src/engine/applying/journal.js';
import { isRemote } from '../../../src/kernel/errors.js';
import { InterconnectClient } from '../../../src/providers/interconnect/client.js';
import type { ResourceContext } from '../../../src/engine/contracts/resource-type.js';
import { mcr } from '../../../src/resources/interconnect/mcr.js';
import { mcrIpsecAddon } from '../../../src/resources/interconnect/mcr-ipsec-addon.js';
import { mcrPrefixFilterList } from '../../../src/resources/interconnect/mcr-prefix-filter-list.js';
import { port } from '../../../src/resources/interconnect/port.js';
import { serviceKey } from '../../../src/resources/interconnect/service-key.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';
import { InterconnectApi } from '../../support/interconnect-api.js';
import { interconnectContext } from '../../support/interconnect-context.js';

let sandbox: Sandbox;
let api: InterconnectApi;
beforeAll(async () => {
  sandbox = await startSandbox({ provisioningMs: 0 });
  api = new InterconnectApi(sandbox.url);
});
afterAll(async () => sandbox.close());

const admin = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.url}/_sandbox/${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

/** The interconnect calls of `method` on paths matching `path` since the log was cleared, with their statuses. */
async function statuses(method: string, path: RegExp): Promise<number[]> {
  const calls = (await (await admin('GET', 'calls?provider=interconnect')).json()) as Array<{ method: string; path: string; status: number }>;
  return calls.filter((c) => c.method === method && path.test(c.path)).map((c) => c.status);
}

/** Runs `create` with one scripted fault on the first call matching `match`, then clears the faults. */
async function withFault<T>(fault: Record<string, unknown>, create: () => Promise<T>): Promise<T> {
  await admin('DELETE', 'calls');
  await admin('POST', 'faults', { provider: 'interconnect', next: [fault] });
  try {
    return await create();
  } finally {
    await admin('DELETE', 'faults');
  }
}

async function newMcr(ctx: ResourceContext): Promise<string> {
  return (await mcr.create(ctx, { productName: `lost-${Math.random().toString(36).slice(2, 8)}`, portSpeed: 1000, locationId: 2, contractTermMonths: 1 })).id;
}

async function newPort(ctx: ResourceContext): Promise<string> {
  return (await port.create(ctx, { productName: `lost-${Math.random().toString(36).slice(2, 8)}`, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false })).id;
}

/** The three faults, and how many times each lets the create be sent (once: it was made; twice: it was not). */
const FAULTS: Array<[string, (match: string) => Record<string, unknown>, number[]]> = [
  ['its answer lost after it was carried out', (match) => ({ match, drop: 'reply' }), [0]],
  ['its connection closed before it was handled', (match) => ({ match, drop: 'request' }), [0, 200]],
  ['answered 500 without being handled', (match) => ({ match, status: 500 }), [500, 200]],
];

describe('a prefix filter list create', () => {
  for (const [name, fault, sends] of FAULTS) {
    it(`${name}: makes one list, sent ${sends.length === 1 ? 'once' : 'again only after finding none'}`, async () => {
      const ctx = await interconnectContext(sandbox.url, 'routes');
      const mcrId = await newMcr(ctx);
      const inputs = { mcrId, description: 'customer-routes', addressFamily: 'IPv4', entries: [{ action: 'permit' as const, prefix: '10.0.0.0/8', le: 24 }] };
      const created = await withFault(fault('POST /v2/product/mcr2/'), () => mcrPrefixFilterList.create(ctx, inputs));
      expect(await statuses('POST', /\/prefixList$/)).toEqual(sends);
      const lists = await api.call<Array<{ id: number }>>('GET', `/v2/product/mcr2/${mcrId}/prefixLists`);
      expect(lists.map((l) => `${mcrId}:${l.id}`)).toEqual([created.id]);
      expect(created.outputs).toMatchObject({ description: 'customer-routes', entries: inputs.entries });
    });
  }
});

describe('a service key create', () => {
  for (const [name, fault, sends] of FAULTS) {
    it(`${name}: makes one key, sent ${sends.length === 1 ? 'once' : 'again only after finding none'}`, async () => {
      const ctx = await interconnectContext(sandbox.url, 'key');
      const productUid = await newPort(ctx);
      const created = await withFault(fault('POST /v2/service/key'), () => serviceKey.create(ctx, { productUid, active: true, singleUse: true, vlan: 120, maxSpeed: 1000 }));
      expect(await statuses('POST', /^\/v2\/service\/key$/)).toEqual(sends);
      const keys = (await api.call<Array<{ key: string; productUid: string; active: boolean }>>('GET', '/v2/service/key')).filter((k) => k.productUid === productUid && k.active);
      expect(keys.map((k) => k.key)).toEqual([created.id]);
      expect(created.outputs).toMatchObject({ productUid, vlan: 120, singleUse: true });
    });
  }

  it('with several new keys of its kind after a lost answer, takes none and is not sent again', async () => {
    const ctx = await interconnectContext(sandbox.url, 'key');
    const productUid = await newPort(ctx);
    const other = { productUid, active: true, singleUse: false, maxSpeed: 100 };
    // A client whose order's answer is lost while another order makes a key of the same kind:
    // the check after the loss sees two new keys.
    const posted: unknown[] = [];
    const client = {
      get: ctx.client.get.bind(ctx.client),
      post: async (path: string, body: unknown, query: unknown, opts: { recover: () => Promise<unknown> }) => {
        posted.push(body);
        await ctx.client.post(path, body);
        await ctx.client.post(path, other);
        return (await opts.recover()) ?? Promise.reject(new Error('recover found nothing'));
      },
    };
    const failure = await serviceKey.create({ ...ctx, client: client as unknown as typeof ctx.client }, other).catch((err: unknown) => err);
    expect((failure as Error).message).toMatch(/^2 new active service keys on .* match this order \(created /);
    expect(posted).toHaveLength(1);
  });
});

describe('an IPsec add-on create', () => {
  for (const [name, fault, sends] of FAULTS) {
    it(`${name}: makes one add-on, sent ${sends.length === 1 ? 'once' : 'again only after finding none'}`, async () => {
      const ctx = await interconnectContext(sandbox.url, 'ipsec');
      const mcrId = await newMcr(ctx);
      const created = await withFault(fault('/addon'), () => mcrIpsecAddon.create(ctx, { mcrId, tunnelCount: 20 }));
      expect(await statuses('POST', /\/addon$/)).toEqual(sends);
      const product = await api.call<{ addOns: Array<{ addOnUid: string; tunnelCount: number }> }>('GET', `/v2/product/${mcrId}`);
      expect(product.addOns.map((a) => `${mcrId}:${a.addOnUid}`)).toEqual([created.id]);
      expect(created.outputs).toMatchObject({ mcrId, tunnelCount: 20 });
    });
  }

  it('whose answer is lost and whose check fails too is left unknown, never sent again', async () => {
    const base = await interconnectContext(sandbox.url, 'ipsec');
    // Backoffs of a millisecond: the check's six failed reads need not take seconds.
    const ctx = { ...base, client: new InterconnectClient(base.client.endpoint, base.log, 50, undefined, { baseMs: 1, maxBackoffMs: 1 }) };
    const mcrId = await newMcr(ctx);
    await admin('DELETE', 'calls');
    const read = `GET /v2/product/${mcrId}`;
    // The read before the order passes (a fault of nothing); every read after the loss fails.
    const failing = Array.from({ length: 6 }, () => ({ match: read, status: 503 }));
    await admin('POST', 'faults', { provider: 'interconnect', next: [{ match: read }, { match: '/addon', drop: 'reply' }, ...failing] });
    const failure = await mcrIpsecAddon.create(ctx, { mcrId, tunnelCount: 10 }).catch((err: unknown) => err);
    await admin('DELETE', 'faults');
    // Unavailable: the engine keeps the create pending for the next plan to settle.
    expect(isRemote(failure, 'unavailable')).toBe(true);
    expect((failure as Error).message).toMatch(/it may have been carried out, and checking for its result failed too/);
    expect(await statuses('POST', /\/addon$/)).toEqual([0]);
    expect((await mcrIpsecAddon.findOwned!(ctx, { mcrId, tunnelCount: 10 }, { earliestMs: 0, recorded: () => false }))?.outputs).toMatchObject({ tunnelCount: 10 });
  });
});

describe('an accepted create whose answer does not say what it made', () => {
  // Fakes: the API accepts the order but its answer (and what it lists) names nothing made.
  const accepted = async () => ({ message: 'accepted', data: {} });

  it('a service key answered without its key is left for the next plan to settle, not forgotten', async () => {
    const ctx = await interconnectContext(sandbox.url, 'key');
    const client = { get: async () => ({ message: '', data: [] }), post: accepted };
    const failure = await serviceKey
      .create({ ...ctx, client: client as unknown as typeof ctx.client }, { productUid: 'p', active: true, singleUse: false, maxSpeed: 100 })
      .catch((err: unknown) => err);
    expect((failure as Error).message).toBe('POST /v2/service/key: the answer carried no key, so whether one was made is not known');
    expect(outcomeUnknown(failure)).toBe(true);
  });

  it('an IPsec add-on the MCR does not list after it was accepted is left for the next plan to settle, not forgotten', async () => {
    const ctx = await interconnectContext(sandbox.url, 'ipsec');
    const mcrProduct = { productUid: 'm', productType: 'MCR2', provisioningStatus: 'LIVE', addOns: [] };
    const client = { get: async () => ({ message: '', data: mcrProduct }), post: accepted };
    const failure = await mcrIpsecAddon.create({ ...ctx, client: client as unknown as typeof ctx.client }, { mcrId: 'm', tunnelCount: 10 }).catch((err: unknown) => err);
    expect((failure as Error).message).toBe('the IPsec add-on was accepted but MCR m does not list it');
    expect(outcomeUnknown(failure)).toBe(true);
  });
});
