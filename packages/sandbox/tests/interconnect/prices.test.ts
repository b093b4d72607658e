/**
 * The pricebook and validate's per-item price. Shapes are checked field by field against
 * megaportgo @ 03f7855: pricing_types.go (PriceBookDTO, PriceBookPriceElement,
 * PriceBookDiscountElement, the *PriceBookRequest types) and nat_gateway_types.go
 * (NATGatewayOrderPrice, NATGatewayValidateResult).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server.js';
import { Api, http, mcrOrder, portOrder, startWithClient, vxcOrder } from './helpers.js';

let sandbox: Sandbox;
let api: Api;

beforeAll(async () => {
  ({ sandbox, api } = await startWithClient());
});
afterAll(() => sandbox.close());

const price = (body: Record<string, unknown>, query = '') => api.post(`/v4/pricebook/product${query}`, body);
const port = (over: Record<string, unknown> = {}) => ({ productType: 'MEGAPORT', locationId: 67, speed: 10000, term: 12, ...over });
const monthly = async (body: Record<string, unknown>) => {
  const r = await price(body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.monthlyRate as number;
};

describe('POST /v4/pricebook/product', () => {
  it('answers a PriceBookDTO in the envelope, field by field as megaportgo declares it', async () => {
    const r = await price(port({ term: 24, addOns: [{ addOnType: 'CROSS_CONNECT', crossConnectRequested: true }] }));
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['data', 'message', 'terms']);
    const dto = r.body.data;
    expect(Object.keys(dto).sort()).toEqual(['currency', 'discounts', 'monthlyRackRate', 'monthlyRate', 'prices', 'productType']);
    expect(dto.productType).toBe('MEGAPORT');
    expect(dto.currency).toBe('USD');
    expect(typeof dto.monthlyRate).toBe('number');
    expect(typeof dto.monthlyRackRate).toBe('number');
    for (const p of dto.prices) {
      expect(['CORE', 'CORE_SURCHARGE', 'ADD_ON_CHARGE']).toContain(p.chargeReason);
      expect(['ONCE', 'MONTHLY', 'YEARLY']).toContain(p.frequency);
      expect(typeof p.amount).toBe('number');
    }
    expect(dto.prices.find((p: any) => p.chargeReason === 'ADD_ON_CHARGE').addOnType).toBe('CROSS_CONNECT');
    expect(dto.discounts).toEqual([{ discountReason: 'TERM', amount: expect.any(Number) }]);
    expect(dto.monthlyRate).toBeCloseTo(dto.monthlyRackRate - dto.discounts[0].amount, 2);
  });

  it('takes 5 % off at 24 months and 10 % at 36, nothing at 1 or 12', async () => {
    const at12 = await monthly(port({ term: 12 }));
    expect(await monthly(port({ term: 1 }))).toBe(at12);
    expect(await monthly(port({ term: 24 }))).toBeCloseTo(at12 * 0.95, 2);
    expect(await monthly(port({ term: 36 }))).toBeCloseTo(at12 * 0.9, 2);
    expect(await monthly({ productType: 'MCR2', locationId: 67, speed: 1000, term: 36 })).toBeCloseTo(0.9 * (await monthly({ productType: 'MCR2', locationId: 67, speed: 1000, term: 12 })), 2);
  });

  it('prices a faster port, MCR and VXC higher', async () => {
    expect(await monthly(port({ speed: 100000 }))).toBeGreaterThan(await monthly(port({ speed: 10000 })));
    expect(await monthly({ productType: 'MCR2', locationId: 67, speed: 5000 })).toBeGreaterThan(await monthly({ productType: 'MCR2', locationId: 67, speed: 1000 }));
    const vxc = (speed: number) => ({ productType: 'VXC', aLocationId: 67, bLocationId: 68, speed });
    expect(await monthly(vxc(1000))).toBeGreaterThan(await monthly(vxc(100)));
  });

  it('prices a VXC by distance band: metro < zone < interzone', async () => {
    const vxc = (b: number) => ({ productType: 'VXC', aLocationId: 67, bLocationId: b, speed: 500 });
    const metro = await monthly(vxc(68)); // Ashburn - Ashburn
    const zone = await monthly(vxc(130)); // Ashburn - Los Angeles
    const interzone = await monthly(vxc(90)); // Ashburn - London
    expect(metro).toBeLessThan(zone);
    expect(zone).toBeLessThan(interzone);
  });

  it('prices a port by location, in the market currency unless one is asked for', async () => {
    const sydney = await price(port({ locationId: 2 }));
    expect(sydney.body.data.currency).toBe('AUD');
    const sydneyUsd = await price(port({ locationId: 2, currency: 'USD' }));
    expect(sydneyUsd.body.data.currency).toBe('USD');
    expect(sydneyUsd.body.data.monthlyRate).toBeGreaterThan(await monthly(port({ locationId: 67 })));
  });

  it('prices each product type the SDK has a request for', async () => {
    const bodies = [
      { productType: 'MVE', locationId: 2, mveLabel: 'MVE_2_8', term: 12 },
      { productType: 'MVE', locationId: 2, size: 'LARGE' },
      { productType: 'IX', portLocationId: 2, ixType: 'Sydney IX', speed: 1000 },
      { productType: 'IX', portLocationId: 2, ixType: 'LINX LON1', speed: 1000 },
      { productType: 'NAT_GATEWAY', locationId: 2, speed: 1000, sessionCount: 4000 },
      { productType: 'IP_ADDRESS', locationId: 2, ipBlock: '/24' },
      { productType: 'MCR2', locationId: 2, speed: 1000, addOns: [{ addOnType: 'IP_SEC', tunnelCount: 20 }] },
    ];
    for (const body of bodies) {
      const r = await price(body);
      expect(r.status, JSON.stringify([body, r.body])).toBe(200);
      expect(r.body.data.productType).toBe(body.productType);
    }
    expect((await price(bodies[2])).body.data.monthlyRate).toBe(0); // a local IX: docs ix-pricing
    expect((await price(bodies[3])).body.data.monthlyRate).toBeGreaterThan(0);
  });

  it.each([
    ['no productType', { locationId: 2, speed: 1000 }, /productType must be one of/],
    ['a port with no location', { productType: 'MEGAPORT', speed: 1000 }, /locationId is required/],
    ['a port with no speed', { productType: 'MEGAPORT', locationId: 2 }, /speed is required/],
    ['an unknown location', port({ locationId: 99999 }), /Location 99999 does not exist/],
    ['an unpriced speed', port({ speed: 7 }), /No price for speed 7 Mbps/],
    ['a bad term', port({ term: 18 }), /Invalid term 18/],
    ['an unknown currency', port({ currency: 'XYZ' }), /Unsupported currency XYZ/],
    ['a VXC without its B end', { productType: 'VXC', aLocationId: 2, speed: 100 }, /bLocationId is required/],
    ['an IX without ixType', { productType: 'IX', portLocationId: 2, speed: 100 }, /ixType \(none\) is not an IX/],
    ['a NAT gateway without sessions', { productType: 'NAT_GATEWAY', locationId: 2, speed: 100 }, /sessionCount is required/],
    ['an IP block of an unknown size', { productType: 'IP_ADDRESS', locationId: 2, ipBlock: '/8' }, /ipBlock must be one of/],
    ['an add-on the product does not take', port({ addOns: [{ addOnType: 'IP_SEC', tunnelCount: 10 }] }), /addOnType must be CROSS_CONNECT/],
    ['an add-on on a VXC', { productType: 'VXC', aLocationId: 2, bLocationId: 3, speed: 100, addOns: [{ addOnType: 'IP_SEC' }] }, /this product takes no add-ons/],
  ])('refuses %s with 400 Validation failed', async (_why, body, message) => {
    const r = await price(body);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Validation failed');
    expect(r.body.data.map((e: any) => e.error).join('\n')).toMatch(message);
  });

  it('refuses companyId and companyUid together, takes either alone', async () => {
    expect((await price(port(), '?companyId=1&companyUid=abc')).status).toBe(400);
    expect((await price(port(), '?companyId=1')).status).toBe(200);
  });

  it('is counted in the call log like any call', async () => {
    await http(`${sandbox.url}/_sandbox/calls`, { method: 'DELETE' });
    await price(port());
    const calls = (await http(`${sandbox.url}/_sandbox/calls?provider=interconnect`)).body;
    expect(calls.map((c: any) => `${c.method} ${c.path}`)).toContain('POST /v4/pricebook/product');
  });
});

describe('validate prices every line item', () => {
  const fields = [
    'hourlySetup',
    'dailySetup',
    'monthlySetup',
    'hourlyRate',
    'dailyRate',
    'monthlyRate',
    'fixedRecurringCharge',
    'longHaulMbpsRate',
    'mbpsRate',
    'currency',
    'productType',
    'monthlyRackRate',
  ];

  it('answers one line item per ordered product with a NATGatewayOrderPrice-shaped price', async () => {
    const r = await api.post('/v3/networkdesign/validate', [portOrder({ term: 24 }), mcrOrder()]);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(2);
    for (const item of r.body.data) {
      expect(Object.keys(item).sort()).toEqual(['price', 'productType', 'productUid', 'string']);
      expect(Object.keys(item.price).sort()).toEqual([...fields].sort());
      for (const f of fields) expect(typeof item.price[f]).toBe(f === 'currency' || f === 'productType' ? 'string' : 'number');
    }
    const [p, m] = r.body.data;
    expect(p.productType).toBe('MEGAPORT');
    expect(p.string).toBe('Sydney');
    expect(p.price.currency).toBe('AUD');
    expect(m.productType).toBe('MCR2');
  });

  it('gives the price the pricebook gives for the same configuration', async () => {
    const v = await api.post('/v3/networkdesign/validate', [portOrder({ term: 36 })]);
    const book = await price({ productType: 'MEGAPORT', locationId: 2, speed: 10000, term: 36 });
    expect(v.body.data[0].price.monthlyRate).toBe(book.body.data.monthlyRate);
    expect(v.body.data[0].price.monthlyRackRate).toBe(book.body.data.monthlyRackRate);
  });

  it('prices a LAG as one line item of its ports together', async () => {
    const one = (await api.post('/v3/networkdesign/validate', [portOrder()])).body.data[0].price.monthlyRate;
    const lag = await api.post('/v3/networkdesign/validate', [portOrder({ lagPortCount: 3 })]);
    expect(lag.body.data).toHaveLength(1);
    expect(lag.body.data[0].price.monthlyRate).toBeCloseTo(3 * one, 2);
  });

  it('prices a VXC by its speed, with the per-Mbps rate', async () => {
    const a = await api.buyPort();
    const b = await api.buyPort({ locationId: 3, config: {} });
    const slow = await api.post('/v3/networkdesign/validate', [vxcOrder(a, b, { rateLimit: 100 })]);
    const fast = await api.post('/v3/networkdesign/validate', [vxcOrder(a, b, { rateLimit: 1000 })]);
    expect(slow.body.data[0].productType).toBe('VXC');
    expect(slow.body.data[0].productUid).toBe(a);
    expect(fast.body.data[0].price.monthlyRate).toBeGreaterThan(slow.body.data[0].price.monthlyRate);
    expect(slow.body.data[0].price.mbpsRate).toBeGreaterThan(0);
  });
});
