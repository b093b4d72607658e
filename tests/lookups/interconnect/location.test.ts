import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupContext, LookupFunction } from '../../../src/engine/contracts/lookup.js';
import { getLocation } from '../../../src/lookups/interconnect/get-location.js';
import { terraformConfig } from '../../../src/lookups/interconnect/terraform-config.js';
import { interconnectProvider } from '../../../src/providers/interconnect/index.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';

let sandbox: Sandbox;
let client: unknown;
const log = pino({ level: 'silent' });
beforeAll(async () => {
  sandbox = await startSandbox({ provisioningMs: 0 });
  client = await interconnectProvider.connect(interconnectProvider.settings.parse({}), { sandboxUrl: async () => sandbox.url, log, env: {} });
});
afterAll(async () => sandbox.close());

async function run<R = any>(fn: LookupFunction, raw: Record<string, unknown>, settings: Record<string, unknown> = {}): Promise<{ result: R; warnings: string[] }> {
  const warnings: string[] = [];
  const ctx: LookupContext = { client, settings: interconnectProvider.settings.parse(settings), log, warn: (m) => warnings.push(m), workDir: process.cwd() };
  const result = await fn.invoke(ctx, fn.args.parse(raw));
  const checked = fn.result.safeParse(result);
  expect(checked.success, checked.success ? '' : JSON.stringify(checked.error.issues.slice(0, 3))).toBe(true);
  return { result: result as R, warnings };
}

describe('getLocation', () => {
  it('finds a location by id with every field the seed lists', async () => {
    const { result } = await run(getLocation, { id: 2 });
    expect(result).toMatchObject({
      id: 2,
      name: 'Equinix SY1',
      metro: 'Sydney',
      market: 'AU',
      country: 'Australia',
      status: 'Active',
      address: { city: 'Sydney', postcode: '2020' },
      vRouterAvailable: true,
      products: { mcr: true, mve: true, diversityZones: ['red', 'blue'] },
    });
    expect(result.products.portSpeeds).toEqual([1000, 10000, 100000, 400000]);
    expect(typeof result.latitude).toBe('number');
  });

  it('finds one by name', async () => {
    expect((await run(getLocation, { name: 'NEXTDC M1' })).result.id).toBe(7);
  });

  it('siteCode gives the deprecation warning and does not filter', async () => {
    const { result, warnings } = await run(getLocation, { id: 3, siteCode: 'syd-eq3' });
    expect(result.id).toBe(3);
    expect(warnings.join('\n')).toMatch(/siteCode is deprecated/);
  });

  it('every argument and result field is described, deprecated ones say so', () => {
    for (const schema of [getLocation.args, getLocation.result]) {
      const shape = (schema as unknown as { shape: Record<string, { description?: string }> }).shape;
      for (const [name, field] of Object.entries(shape)) expect(field.description, name).toBeTruthy();
    }
    const result = (getLocation.result as unknown as { shape: Record<string, { description?: string }> }).shape;
    for (const name of ['siteCode', 'campus', 'networkRegion', 'liveDate', 'vRouterAvailable']) expect(result[name].description).toMatch(/^DEPRECATED/);
  });
});

describe('terraformConfig', () => {
  it('returns the settings with upstream names and the secret key masked, whatever __self__ is', async () => {
    const settings = { accessKey: 'AK123', secretKey: 'very-secret', acceptPurchaseTerms: true, environment: 'production', waitTime: 5 };
    for (const self of [undefined, 'provider', { urn: 'x' }]) {
      const { result } = await run<{ result: Record<string, unknown> }>(terraformConfig, self === undefined ? {} : { __self__: self }, settings);
      expect(result.result).toEqual({ access_key: 'AK123', secret_key: '[secret]', accept_purchase_terms: true, environment: 'production', cancel_at_end_of_term: false, wait_time: 5 });
      expect(JSON.stringify(result)).not.toContain('very-secret');
    }
  });
});
