/**
 * What plumb sends the interconnect API is what the vendor's Go SDK (megaportgo) sends: no field
 * its request types lack. Fields the SDK's order has no room for reach the world through the
 * update the API documents for them, and the world shows them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ix } from '../../../src/resources/interconnect/ix.js';
import { mve } from '../../../src/resources/interconnect/mve.js';
import { port } from '../../../src/resources/interconnect/port.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';
import { InterconnectApi } from '../../support/interconnect-api.js';
import { interconnectContext } from '../../support/interconnect-context.js';
import { SDK_REQUESTS, type RequestFields } from '@plumb/sandbox/testing/interconnect-sdk-facts';
import type { LifecycleContext } from '../../support/lifecycle.js';
import { interconnectLifecycle } from './specs.js';
import { ixBase } from './attached-specs.js';
import { mveBase } from './product-specs.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ provisioningMs: 0 });
});
afterAll(() => sandbox.close());

type Sent = { method: string; path: string; body: unknown };

/** A handler context whose client notes every request it sends. */
async function recording(address: string): Promise<{ ctx: Awaited<ReturnType<typeof interconnectContext>>; sent: Sent[] }> {
  const ctx = await interconnectContext(sandbox.url, address);
  const sent: Sent[] = [];
  const send = ctx.client.request.bind(ctx.client);
  ctx.client.request = ((method: string, path: string, body?: unknown, ...rest: unknown[]) => {
    sent.push({ method, path, body });
    return (send as (...args: unknown[]) => ReturnType<typeof send>)(method, path, body, ...rest);
  }) as typeof ctx.client.request;
  return { ctx, sent };
}

/** The keys of `value` the SDK's request type does not declare, as paths. */
function undeclared(value: unknown, declared: Record<string, unknown>, at = ''): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => {
    if (!(key in declared)) return [`${at}${key}`];
    const inner = declared[key];
    if (inner && typeof inner === 'object') return (Array.isArray(v) ? v : [v]).flatMap((item) => undeclared(item, inner as Record<string, unknown>, `${at}${key}.`));
    return [];
  });
}

describe('plumb sends only what the SDK declares', () => {
  it('an IX order carries the fields of the SDK order; cost centre, public graph and reverse DNS reach the IX through its update', async () => {
    const { ctx, sent } = await recording('ix');
    const portUid = (await port.create(ctx, { productName: 'sdk-ix-port', portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false })).id;
    sent.length = 0;
    const created = await ix.create(ctx, { ...ixBase, requestedProductUid: portUid, costCentre: 'cc-ix', publicGraph: false, reverseDns: 'peer.example.net', promoCode: 'PROMO' });
    const orders = sent.filter((s) => s.method === 'POST' && /\/networkdesign\/(validate|buy)$/.test(s.path));
    expect(orders.map((s) => s.path)).toEqual(['/v3/networkdesign/validate', '/v4/networkdesign/buy']);
    const items = orders.flatMap((s) => (Array.isArray(s.body) ? s.body : (s.body as { networkDesign: unknown[] }).networkDesign));
    expect(items).toHaveLength(2);
    for (const item of items) expect(undeclared(item, SDK_REQUESTS.ixOrder)).toEqual([]);
    for (const s of sent.filter((c) => c.method === 'PUT')) expect(undeclared(s.body, SDK_REQUESTS.ixUpdate)).toEqual([]);
    // The world: the IX as the API reports it.
    const world = await new InterconnectApi(sandbox.url).call('GET', `/v2/product/${created.id}`);
    expect(world).toMatchObject({ costCentre: 'cc-ix', publicGraph: false });
    expect(world.resources.ip_address.map((a: { reverse_dns: string }) => a.reverse_dns)).toContain('peer.example.net');
  });

  it('an MVE update renames its vNICs by description alone; their VLANs stay as ordered', async () => {
    const { ctx, sent } = await recording('mve');
    const inputs = { ...mveBase, productName: 'sdk-mve' };
    const created = await mve.create(ctx, inputs);
    sent.length = 0;
    const desired = { ...inputs, vnics: [{ description: 'Inside' }, { description: 'Outside', vlan: 10 }] };
    await mve.update(ctx, created.id, { inputs, outputs: created.outputs }, desired);
    const puts = sent.filter((s) => s.method === 'PUT' && s.path.startsWith('/v2/product/mve/'));
    expect(puts).toHaveLength(1);
    expect(undeclared(puts[0].body, SDK_REQUESTS.productModify)).toEqual([]);
    expect((await new InterconnectApi(sandbox.url).call('GET', `/v2/product/${created.id}`)).vnics).toEqual([
      { description: 'Inside', vlan: 0 },
      { description: 'Outside', vlan: 10 },
    ]);
  });
});

/** The SDK's request type of one order item, told by its kind. */
function orderItemFields(item: Record<string, unknown>): RequestFields | undefined {
  if ('associatedVxcs' in item) return SDK_REQUESTS.vxcOrder;
  if ('associatedIxs' in item) return SDK_REQUESTS.ixOrder;
  const type = String(item.productType).toUpperCase();
  return type === 'MEGAPORT' ? SDK_REQUESTS.portOrder : type === 'MCR2' ? SDK_REQUESTS.mcrOrder : type === 'MVE' ? SDK_REQUESTS.mveOrder : undefined;
}

/** What of one request the SDK would not send: each field its request type lacks, or the request itself when the SDK sends no such body. */
function notSdk({ method, path, body }: Sent): string[] {
  if (body === undefined) return [];
  const at = `${method} ${path}`;
  const items = (list: unknown) =>
    (list as Array<Record<string, unknown>>).flatMap((item) => {
      const fields = orderItemFields(item);
      return fields ? undeclared(item, fields) : [`an order item the SDK does not make: ${JSON.stringify(item)}`];
    });
  const route: Array<[RegExp, (b: any) => string[]]> = [
    [/^POST \/v3\/networkdesign\/validate$/, (b) => items(b)],
    [/^POST \/v4\/networkdesign\/buy$/, (b) => [...undeclared(b, SDK_REQUESTS.buy), ...items(b.networkDesign)]],
    [/^PUT \/v2\/product\/ix\/[^/]+$/, (b) => undeclared(b, SDK_REQUESTS.ixUpdate)],
    [/^PUT \/v2\/product\/[^/]+\/tags$/, (b) => undeclared(b, SDK_REQUESTS.tags)],
    [/^PUT \/v2\/product\/(megaport|mcr2|mve)\/[^/]+$/, (b) => undeclared(b, SDK_REQUESTS.productModify)],
    [/^PUT \/v3\/product\/vxc\/[^/]+$/, (b) => undeclared(b, SDK_REQUESTS.vxcUpdate)],
    [/^(POST|PUT) \/v2\/product\/mcr2\/[^/]+\/prefixList(\/\d+)?$/, (b) => undeclared(b, SDK_REQUESTS.prefixList)],
    [/^(POST|PUT) \/v3\/product\/[^/]+\/addon(\/[^/]+)?$/, (b) => undeclared(b, SDK_REQUESTS.addOn)],
    [/^POST \/v2\/service\/key$/, (b) => undeclared(b, SDK_REQUESTS.serviceKeyCreate)],
    [/^PUT \/v2\/service\/key$/, (b) => undeclared(b, SDK_REQUESTS.serviceKeyUpdate)],
  ];
  const found = route.find(([pattern]) => pattern.test(at));
  return (found ? found[1](body) : ['a body the SDK never sends']).map((problem) => `${at}: ${problem}`);
}

describe('every interconnect type, created and updated as its lifecycle spec says, sends only what the SDK declares', () => {
  it.each(interconnectLifecycle.specs.map((spec) => [spec.type.token, spec] as const))('%s', async (_token, spec) => {
    const sent: Sent[] = [];
    const ctx = async (address: string): Promise<LifecycleContext> => {
      const made = await recording(address);
      sent.push(...made.sent);
      // The requests of this context land in `sent` as they are made.
      made.sent.push = (...more: Sent[]) => sent.push(...more);
      return { ...made.ctx, recorded: [] };
    };
    const env = await spec.setup?.(ctx);
    const c = await ctx('subject');
    const inputs = spec.create(env as never) as Record<string, unknown>;
    const created = await spec.type.create(c, inputs as never);
    await spec.type.update(c, created.id, { inputs, outputs: created.outputs } as never, spec.update(env as never) as never);
    expect(sent.filter((s) => s.body !== undefined).length).toBeGreaterThan(0);
    expect(sent.flatMap(notSdk)).toEqual([]);
  });
});
