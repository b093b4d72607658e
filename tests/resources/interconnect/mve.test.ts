import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { mve } from '../../../src/resources/interconnect/mve.js';
import { Secret, reveal } from '../../../src/kernel/values.js';
import { mveBase } from './product-specs.js';

type MveInputs = Parameters<typeof mve.create>[1];

const base = mveBase;

describe('MVE replace rules', () => {
  const prior = base;
  const cases: Array<{ name: string; desired: MveInputs; paths: string[] }> = [
    { name: 'a description change is in place', desired: { ...prior, vnics: [{ description: 'x' }, { description: 'Management', vlan: 10 }] }, paths: [] },
    {
      name: 'a vNIC VLAN change replaces',
      desired: {
        ...prior,
        vnics: [
          { description: 'Data Plane', vlan: 20 },
          { description: 'Management', vlan: 10 },
        ],
      },
      paths: ['vnics[0].vlan'],
    },
    { name: 'adding a vNIC replaces', desired: { ...prior, vnics: [...prior.vnics!, { description: 'third' }] }, paths: ['vnics'] },
    { name: 'a recorded write-only vendor field changing replaces', desired: { ...prior, vendorConfig: { ...prior.vendorConfig, cloudInit: 'hostname other' } }, paths: ['vendorConfig.cloudInit'] },
    {
      name: 'a write-only vendor field added to an MVE ordered without it replaces (an import takes it from the manifest first, see asDeclared)',
      desired: { ...prior, vendorConfig: { ...prior.vendorConfig, licenseData: 'LIC' } },
      paths: ['vendorConfig.licenseData'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(mve.replace.when!.rules(prior, c.desired).map((d) => d.path)).toEqual(c.paths);
      // The docs' "on change" column says a change to this field may replace.
      for (const path of c.paths) expect(mve.replace.when?.inputs).toContain(path.split(/[.[]/)[0]);
    });
  }

  it("asDeclared: write-only vendor fields the record lacks (an import) are the manifest's, the vendor in other case is its spelling, SMALL stands for a size left out; the config stays secret", () => {
    const imported = { ...prior, vendorConfig: new Secret({ vendor: 'CISCO', imageId: 83, productSize: 'SMALL' }) };
    const { productSize: _, ...vendorConfig } = prior.vendorConfig;
    const desired = { ...prior, vendorConfig: new Secret(vendorConfig) };
    const declared = mve.diff!.asDeclared!(imported as never, {} as never, desired as never, { imported: true });
    expect(declared.vendorConfig).toBeInstanceOf(Secret);
    expect(reveal(declared.vendorConfig)).toEqual(vendorConfig);
    const other = { ...prior, vendorConfig: new Secret({ ...prior.vendorConfig, imageId: 98 }) };
    expect(reveal(mve.diff!.asDeclared!(imported as never, {} as never, other as never, { imported: true }).vendorConfig)).toMatchObject({ imageId: 83 });
    // An MVE plumb ordered was sent exactly its recorded config: the fields it lacks were not sent.
    const made = reveal(mve.diff!.asDeclared!(imported as never, {} as never, desired as never, { imported: false }).vendorConfig) as Record<string, unknown>;
    expect(made).toEqual({ vendor: 'Cisco', imageId: 83 });
  });

  it('image, size and vendor are static replace rules, so the docs show them', () => {
    expect(mve.replace.on.map((r) => r.path)).toEqual(expect.arrayContaining(['vendorConfig.imageId', 'vendorConfig.productSize', 'vendorConfig.vendor', 'locationId']));
    expect(mve.secrets?.paths).toEqual(['vendorConfig']);
  });
});

describe('MVE inputs', () => {
  it('an empty vNIC description, which the API refuses on an update, is refused at its position', () => {
    const refused = z.safeParse(mve.inputs, { ...base, vnics: [{ description: 'Data Plane' }, { description: '' }] });
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['vnics.1.description', expect.stringMatching(/must not be empty/)]]);
  });
});
