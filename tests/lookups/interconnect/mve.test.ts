import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupContext, LookupFunction } from '../../../src/engine/contracts/lookup.js';
import { getMveImages } from '../../../src/lookups/interconnect/get-mve-images.js';
import { getMveSizes } from '../../../src/lookups/interconnect/get-mve-sizes.js';
import { interconnectProvider } from '../../../src/providers/interconnect/index.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';

let sandbox: Sandbox;
let ctx: LookupContext;
beforeAll(async () => {
  sandbox = await startSandbox({ provisioningMs: 0 });
  const settings = interconnectProvider.settings.parse({});
  const log = pino({ level: 'silent' });
  const client = await interconnectProvider.connect(settings, { sandboxUrl: async () => sandbox.url, log, env: {} });
  ctx = { client, settings, log, warn: () => {}, workDir: process.cwd() };
});
afterAll(async () => sandbox.close());

/** Parses the arguments, invokes, and checks the result against the declared schema. */
async function run<R = any>(fn: LookupFunction, raw: Record<string, unknown> = {}): Promise<R> {
  const result = await fn.invoke(ctx, fn.args.parse(raw));
  const checked = fn.result.safeParse(result);
  expect(checked.success, checked.success ? '' : JSON.stringify(checked.error.issues.slice(0, 3))).toBe(true);
  return result as R;
}

type Images = { id: string; mveImages: Array<{ id: number; vendor: string; product: string; productCode: string; version: string; releaseImage: boolean; availableSizes: string[] }> };

describe('getMveImages', () => {
  it('lists every image, flattened with its product and vendor', async () => {
    const all = await run<Images>(getMveImages);
    expect(all.mveImages.length).toBeGreaterThan(10);
    expect(all.mveImages.find((i) => i.id === 83)).toMatchObject({ product: 'Catalyst 8000V', vendor: 'Cisco', productCode: 'c8000v', version: '17.09.04a', releaseImage: true });
  });

  // Each filter alone, with what it must keep; text filters ignore case, and the filter is echoed.
  const cases: Array<{ filter: Record<string, unknown>; ids: number[] }> = [
    { filter: { idFilter: 91 }, ids: [91] },
    { filter: { productCodeFilter: 'C8000V' }, ids: [83, 98] },
    { filter: { productFilter: 'fortigate-vm' }, ids: [72, 91, 101] },
    { filter: { vendorFilter: 'Palo Alto Networks' }, ids: [32, 95, 52] },
    { filter: { versionFilter: '7.2.5' }, ids: [70] },
    { filter: { releaseImageFilter: false }, ids: [101] },
  ];
  for (const c of cases) {
    it(`filters by ${Object.keys(c.filter)[0]}`, async () => {
      const result = await run<Images & Record<string, unknown>>(getMveImages, c.filter);
      expect(result.mveImages.map((i) => i.id)).toEqual(c.ids);
      expect(result).toMatchObject(c.filter);
    });
  }

  it('combines filters (AND) and accepts them as text, as plumb lookup --arg passes them', async () => {
    const result = await run<Images>(getMveImages, { vendorFilter: 'fortinet', releaseImageFilter: 'true', idFilter: '91' });
    expect(result.mveImages.map((i) => i.id)).toEqual([91]);
    expect((await run<Images>(getMveImages, { vendorFilter: 'Cisco', versionFilter: '7.4.3' })).mveImages).toEqual([]);
  });
});

describe('getMveSizes', () => {
  it('lists the four sizes, smallest first', async () => {
    const result = await run<{ mveSizes: Array<{ size: string; label: string; cpuCoreCount: number; ramGB: number }> }>(getMveSizes);
    expect(result.mveSizes.map((s) => s.size)).toEqual(['SMALL', 'MEDIUM', 'LARGE', 'X_LARGE_12']);
    expect(result.mveSizes[0]).toEqual({ size: 'SMALL', label: 'MVE 2/8', cpuCoreCount: 2, ramGB: 8 });
  });
});
