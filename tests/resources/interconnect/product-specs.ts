/** Lifecycle specs of the interconnect products ordered on their own: ports, LAG ports, MVEs and MCRs. */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { lagPort } from '../../../src/resources/interconnect/lag-port.js';
import { mcr } from '../../../src/resources/interconnect/mcr.js';
import { mve } from '../../../src/resources/interconnect/mve.js';
import { port } from '../../../src/resources/interconnect/port.js';
import { lifecycleSpec } from '../../support/lifecycle.js';
import { BUY, reflectsProduct, topLevel } from './fixtures.js';

/** A port's fixture. */
export const portBase = { productName: 'life-port', portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false };

/** The lifecycle spec of Port. */
export const portSpec = lifecycleSpec({
  type: port,
  create: () => ({ ...portBase, resourceTags: { env: 'test' } }),
  update: () => ({ ...portBase, productName: 'life-port-renamed', contractTermMonths: 24, costCentre: 'cc-42', marketplaceVisibility: true, resourceTags: { env: 'prod' } }),
  replace: () => ({ ...portBase, portSpeed: 100000 }),
  reflects(outputs, inputs) {
    reflectsProduct(outputs, inputs);
    expect(outputs).toMatchObject({ portSpeed: inputs.portSpeed, locationId: inputs.locationId, marketplaceVisibility: inputs.marketplaceVisibility });
  },
  badImportId: 'x',
  ghostId: () => randomUUID(),
  createCall: BUY,
  census: (world) => topLevel(world, 'MEGAPORT', (p) => !p.aggregationId),
});

const lagBase = { productName: 'life-lag', portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false, lagCount: 2 };

/** The lifecycle spec of LagPort. */
export const lagPortSpec = lifecycleSpec({
  type: lagPort,
  create: () => ({ ...lagBase, resourceTags: { env: 'test' } }),
  update: () => ({ ...lagBase, productName: 'life-lag-renamed', contractTermMonths: 24, costCentre: 'cc-7', marketplaceVisibility: true, resourceTags: { env: 'prod' } }),
  replace: () => ({ ...lagBase, lagCount: 3 }),
  reflects(outputs, inputs) {
    reflectsProduct(outputs, inputs);
    expect(outputs).toMatchObject({ portSpeed: inputs.portSpeed, locationId: inputs.locationId, marketplaceVisibility: inputs.marketplaceVisibility, lagCount: inputs.lagCount });
    expect(outputs.lagPortUids).toHaveLength(inputs.lagCount);
    expect((outputs.lagPortUids as string[])[0]).toBe(outputs.productUid);
    expect(outputs.createDate).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  },
  badImportId: 'x',
  ghostId: () => randomUUID(),
  createCall: BUY,
  // A LAG is counted by its primary member: that is its id.
  census: (world) => topLevel(world, 'MEGAPORT', (p) => Boolean(p.aggregationId && p.lagPrimary)),
});

type MveInputs = Parameters<typeof mve.create>[1];

/** An MVE's fixture. */
export const mveBase: MveInputs = {
  productName: 'life-mve',
  locationId: 2,
  contractTermMonths: 1,
  vendorConfig: { vendor: 'Cisco', imageId: 83, productSize: 'SMALL', adminSshPublicKey: 'ssh-ed25519 AAAAC3Nza admin', cloudInit: 'hostname edge' },
  vnics: [{ description: 'Data Plane' }, { description: 'Management', vlan: 10 }],
};

/** The lifecycle spec of Mve. */
export const mveSpec = lifecycleSpec({
  type: mve,
  create: () => ({ ...mveBase, resourceTags: { env: 'test' } }),
  update: () => ({
    ...mveBase,
    productName: 'life-mve-renamed',
    contractTermMonths: 12,
    costCentre: 'cc-mve',
    vnics: [{ description: 'Inside' }, { description: 'Outside', vlan: 10 }],
    resourceTags: { env: 'prod' },
  }),
  replace: () => ({ ...mveBase, vendorConfig: { ...mveBase.vendorConfig, imageId: 98 } }),
  reflects(outputs, inputs) {
    reflectsProduct(outputs, inputs);
    expect(outputs.locationId).toBe(inputs.locationId);
    expect(outputs.vendorConfig).toMatchObject({ vendor: inputs.vendorConfig.vendor, imageId: inputs.vendorConfig.imageId, productSize: inputs.vendorConfig.productSize });
    expect(outputs).toMatchObject({ vendor: 'CISCO', imageId: inputs.vendorConfig.imageId, mveSize: 'SMALL', mveLabel: 'MVE 2/8' });
    expect(outputs.vnics).toEqual(inputs.vnics);
  },
  badImportId: 'x',
  ghostId: () => randomUUID(),
  createCall: BUY,
  census: (world) => topLevel(world, 'MVE'),
});

/** An MCR's fixture, and an inline prefix list (deprecated, still accepted). */
export const mcrBase = { productName: 'life-mcr', portSpeed: 1000, locationId: 2, contractTermMonths: 1 };
export const inlineList = { description: 'inline-v4', addressFamily: 'IPv4', entries: [{ action: 'permit', prefix: '10.0.0.0/8', le: 24 }] };

/** The lifecycle spec of Mcr. */
export const mcrSpec = lifecycleSpec({
  type: mcr,
  create: () => ({ ...mcrBase, resourceTags: { env: 'test' }, prefixFilterLists: [inlineList] }),
  update: () => ({
    ...mcrBase,
    productName: 'life-mcr-renamed',
    contractTermMonths: 12,
    asn: 65010,
    costCentre: 'cc-7',
    marketplaceVisibility: false,
    resourceTags: { env: 'prod' },
    prefixFilterLists: [{ ...inlineList, entries: [{ action: 'deny', prefix: '192.168.0.0/16', ge: 24, le: 32 }] }],
  }),
  replace: () => ({ ...mcrBase, portSpeed: 2500 }),
  reflects(outputs, inputs) {
    reflectsProduct(outputs, inputs);
    expect(outputs).toMatchObject({ portSpeed: inputs.portSpeed, locationId: inputs.locationId });
    expect(outputs.asn).toBe(inputs.asn ?? 133937);
    if (inputs.marketplaceVisibility !== undefined) expect(outputs.marketplaceVisibility).toBe(inputs.marketplaceVisibility);
    expect(outputs.createDate).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Inline lists are reported when the prior named them (not on a bare import read).
    if (outputs.prefixFilterLists) expect(outputs.prefixFilterLists).toEqual(inputs.prefixFilterLists);
  },
  badImportId: 'x',
  ghostId: () => randomUUID(),
  createCall: BUY,
  census: (world) => topLevel(world, 'MCR2'),
});
