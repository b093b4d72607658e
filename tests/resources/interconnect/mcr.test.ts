import { describe, expect, it } from 'vitest';
import { interconnectProvider } from '../../../src/providers/interconnect/index.js';
import { mcr } from '../../../src/resources/interconnect/mcr.js';
import { describeLifecycle } from '../../support/lifecycle.js';

const base = { productName: 'life-mcr', portSpeed: 1000, locationId: 2, contractTermMonths: 1 };
const inline = { description: 'inline-v4', addressFamily: 'IPv4', entries: [{ action: 'permit', prefix: '10.0.0.0/8', le: 24 }] };

describeLifecycle({
  type: mcr,
  provider: interconnectProvider,
  create: () => ({ ...base, resourceTags: { env: 'test' }, prefixFilterLists: [inline] }),
  update: () => ({
    ...base,
    productName: 'life-mcr-renamed',
    contractTermMonths: 12,
    asn: 65010,
    costCentre: 'cc-7',
    marketplaceVisibility: false,
    resourceTags: { env: 'prod' },
    prefixFilterLists: [{ ...inline, entries: [{ action: 'deny', prefix: '192.168.0.0/16', ge: 24, le: 32 }] }],
  }),
  replace: () => ({ ...base, portSpeed: 2500 }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ productName: inputs.productName, portSpeed: inputs.portSpeed, locationId: inputs.locationId, contractTermMonths: inputs.contractTermMonths });
    expect(outputs.asn).toBe(inputs.asn ?? 133937);
    expect(outputs.resourceTags).toEqual(inputs.resourceTags ?? {});
    if (inputs.costCentre) expect(outputs.costCentre).toBe(inputs.costCentre);
    if (inputs.marketplaceVisibility !== undefined) expect(outputs.marketplaceVisibility).toBe(inputs.marketplaceVisibility);
    expect(outputs.provisioningStatus).toMatch(/CONFIGURED|LIVE/);
    expect(outputs.createDate).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Inline lists are reported when the prior named them (not on a bare import read).
    if (outputs.prefixFilterLists) expect(outputs.prefixFilterLists).toEqual(inputs.prefixFilterLists);
  },
  badImportId: 'x',
});

describe('Mcr rules', () => {
  it('a portSpeed change replaces the MCR, saying the speed is fixed for life', () => {
    const rule = mcr.replaceOn.find((r) => r.path === 'portSpeed');
    expect(rule?.reason).toMatch(/fixed for the life/);
  });

  it('asn and marketplaceVisibility change in place; diversityZone and locationId replace', () => {
    const replaced = mcr.replaceOn.map((r) => r.path);
    expect(replaced).toEqual(expect.arrayContaining(['diversityZone', 'locationId']));
    expect(replaced).not.toContain('asn');
    expect(mcr.computedInputs).toEqual(expect.arrayContaining(['asn', 'diversityZone']));
  });

  it('inline prefixFilterLists earn a deprecation warning pointing at McrPrefixFilterList', () => {
    expect(mcr.warnings?.({ ...base, prefixFilterLists: [inline] } as never)).toEqual([expect.stringContaining('interconnect:index/mcrPrefixFilterList:McrPrefixFilterList')]);
    expect(mcr.warnings?.(base as never)).toEqual([]);
  });

  it('never cancels at the end of the term, whatever the setting', () => {
    const recorded = { inputs: base, outputs: { contractEndDate: '2999-01-31T00:00:00Z' } } as never;
    expect(mcr.deleteNotes?.(recorded, { cancelAtEndOfTerm: true } as never)).toEqual(['contract ends 2999-01-31; cancelling now may incur early termination']);
  });

  it('rejects an MCR speed the API does not sell', () => {
    expect(mcr.inputs.safeParse({ ...base, portSpeed: 400000 }).success).toBe(false);
    expect(mcr.inputs.safeParse({ ...base, portSpeed: 2500 }).success).toBe(true);
  });
});
