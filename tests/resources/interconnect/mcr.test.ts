import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { mcr } from '../../../src/resources/interconnect/mcr.js';
import { mcrBase as base, inlineList as inline } from './product-specs.js';

describe('Mcr rules', () => {
  it('a portSpeed change replaces the MCR, saying the speed is fixed for life', () => {
    const rule = mcr.replace.on.find((r) => r.path === 'portSpeed');
    expect(rule?.reason).toMatch(/fixed for the life/);
  });

  it('asn and marketplaceVisibility change in place; diversityZone and locationId replace', () => {
    const replaced = mcr.replace.on.map((r) => r.path);
    expect(replaced).toEqual(expect.arrayContaining(['diversityZone', 'locationId']));
    expect(replaced).not.toContain('asn');
    expect(mcr.diff?.computedInputs).toEqual(expect.arrayContaining(['asn', 'diversityZone']));
  });

  it('inline prefixFilterLists earn a deprecation warning pointing at McrPrefixFilterList', () => {
    expect(mcr.notes!.desired!({ ...base, prefixFilterLists: [inline] } as never)).toEqual([expect.stringContaining('interconnect:index/mcrPrefixFilterList:McrPrefixFilterList')]);
    expect(mcr.notes!.desired!(base as never)).toEqual([]);
  });

  it('never cancels at the end of the term, whatever the setting', () => {
    const recorded = { inputs: base, outputs: { contractEndDate: '2999-01-31T00:00:00Z' } } as never;
    expect(mcr.notes!.delete!(recorded, { cancelAtEndOfTerm: true } as never)).toEqual(['contract ends 2999-01-31; cancelling now may incur early termination']);
  });

  it('rejects an MCR speed the API does not sell', () => {
    expect(z.safeParse(mcr.inputs, { ...base, portSpeed: 400000 }).success).toBe(false);
    expect(z.safeParse(mcr.inputs, { ...base, portSpeed: 2500 }).success).toBe(true);
  });
});
