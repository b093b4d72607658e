/**
 * The conformance spec of every interconnect lookup function, run by tests/lookups/conformance.test.ts:
 * a function the registry holds without a spec here fails that suite, naming this file.
 */
import pino from 'pino';
import { expect } from 'vitest';
import { getLocation } from '../../../src/lookups/interconnect/get-location.js';
import { getLocations } from '../../../src/lookups/interconnect/get-locations.js';
import { getMcrPrefixFilterLists } from '../../../src/lookups/interconnect/get-mcr-prefix-filter-lists.js';
import { getMcrs } from '../../../src/lookups/interconnect/get-mcrs.js';
import { getIxPoints } from '../../../src/lookups/interconnect/get-ix-points.js';
import { getMveImages } from '../../../src/lookups/interconnect/get-mve-images.js';
import { getMveSizes } from '../../../src/lookups/interconnect/get-mve-sizes.js';
import { getPartner } from '../../../src/lookups/interconnect/get-partner.js';
import { getProduct } from '../../../src/lookups/interconnect/get-product.js';
import { getVxcs } from '../../../src/lookups/interconnect/get-vxcs.js';
import { terraformConfig } from '../../../src/lookups/interconnect/terraform-config.js';
import { interconnectProvider } from '../../../src/providers/interconnect/index.js';
import { mcrPrefixFilterList } from '../../../src/resources/interconnect/mcr-prefix-filter-list.js';
import { mcr } from '../../../src/resources/interconnect/mcr.js';
import { port } from '../../../src/resources/interconnect/port.js';
import { vxc } from '../../../src/resources/interconnect/vxc.js';
import { interconnectContext } from '../../support/interconnect-context.js';
import type { ProviderLookupSpecs } from '../../support/lookup-conformance.js';

/** The interconnect lookups' conformance specs, on an MCR with a prefix list and a VXC to a port. */
export const interconnectLookupSpecs: ProviderLookupSpecs = {
  provider: 'interconnect',
  file: 'tests/lookups/interconnect/specs.ts',
  async connect(url) {
    const settings = interconnectProvider.settings.parse({});
    return { settings, client: await interconnectProvider.connect(settings, { sandboxUrl: async () => url, log: pino({ level: 'silent' }), env: {} }) };
  },
  async seed(url) {
    const ctx = await interconnectContext(url);
    const router = (await mcr.create(ctx, { productName: 'spec-mcr', portSpeed: 1000, locationId: 2, contractTermMonths: 1 })).id;
    const end = (await port.create(ctx, { productName: 'spec-port', portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false })).id;
    await mcrPrefixFilterList.create(ctx, { mcrId: router, description: 'spec-in', addressFamily: 'IPv4', entries: [{ action: 'permit', prefix: '10.0.0.0/8' }] });
    const link = (await vxc.create(ctx, { productName: 'spec-vxc', rateLimit: 100, contractTermMonths: 1, aEnd: { requestedProductUid: end, vlan: 700 }, bEnd: { requestedProductUid: router } })).id;
    return { router, link };
  },
  specs: [
    { fn: getLocation, args: { id: 2 }, check: (r) => expect(r).toMatchObject({ id: 2, name: 'Equinix SY1', metro: 'Sydney' }) },
    {
      fn: getLocations,
      args: { metro: 'sydney', siteCode: 'SY1' },
      check: (r) => expect(r.locations.map((l: { id: number; name: string }) => [l.id, l.name])).toEqual([[2, 'Equinix SY1']]),
    },
    { fn: getMveImages, args: {}, check: (r) => expect(r.mveImages.find((i: { id: number }) => i.id === 83)).toMatchObject({ vendor: 'Cisco', productCode: 'c8000v' }) },
    { fn: getIxPoints, args: { metro: 'sydney' }, check: (r) => expect(r.ixPoints).toEqual([expect.objectContaining({ name: 'Sydney IX', metro: 'Sydney' })]) },
    { fn: getMveSizes, args: {}, check: (r) => expect(r.mveSizes.map((s: { size: string }) => s.size)).toEqual(['SMALL', 'MEDIUM', 'LARGE', 'X_LARGE_12']) },
    { fn: terraformConfig, args: {}, check: (r) => expect(r.result).toMatchObject({ cancel_at_end_of_term: false }) },
    {
      fn: getMcrPrefixFilterLists,
      args: (seeded) => ({ mcrId: seeded.router }),
      check: (r) => expect(r.prefixFilterLists).toEqual([expect.objectContaining({ description: 'spec-in', addressFamily: 'IPv4' })]),
    },
    { fn: getMcrs, args: (seeded) => ({ productUid: seeded.router }), check: (r) => expect(r.mcrs).toEqual([expect.objectContaining({ productName: 'spec-mcr' })]) },
    { fn: getVxcs, args: {}, check: (r) => expect(r.vxcs.map((v: { productName: string }) => v.productName)).toEqual(['spec-vxc']) },
    {
      fn: getProduct,
      args: (seeded) => ({ productUid: seeded.router }),
      check: (r) => expect(r).toMatchObject({ productName: 'spec-mcr', productType: 'MCR2', locationId: 2, portSpeed: 1000, provisioningStatus: expect.any(String) }),
    },
    { fn: getPartner, args: { connectType: 'AWS', locationId: 2, diversityZone: 'blue' }, check: (r) => expect(r).toMatchObject({ connectType: 'AWS', locationId: 2, vxcPermitted: true }) },
  ],
};
