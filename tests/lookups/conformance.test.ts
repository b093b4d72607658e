/**
 * The lookup conformance suite (tests/support/lookup-conformance.ts) for every function the
 * registry holds, each against the sandbox. A function without a spec fails here, naming the file
 * its spec belongs in, so a new lookup cannot skip the suite.
 */
import { describe, expect, it } from 'vitest';
import { loadFunctions } from '../../src/cli/catalog.js';
import { describeLookups, type LookupSpec, type ProviderLookupSpecs } from '../support/lookup-conformance.js';
import { cloudLookupSpecs } from './cloud/specs.js';
import { interconnectLookupSpecs } from './interconnect/specs.js';
import { pipelineLookupSpecs } from './pipeline/specs.js';

const functions = await loadFunctions();

const owners: ProviderLookupSpecs[] = [interconnectLookupSpecs, cloudLookupSpecs, pipelineLookupSpecs];
const specs = new Map(owners.flatMap((owner) => owner.specs.map((spec) => [spec.fn.token, { owner, spec }] as const)));

describe('every lookup function has a conformance spec', () => {
  for (const [token, fn] of functions) {
    it(token, () => {
      const file = owners.find((owner) => owner.provider === fn.provider)?.file ?? `tests/lookups/${fn.provider}/specs.ts`;
      expect(specs.has(token), `${token} has no lookup spec: add one to ${file}`).toBe(true);
    });
  }

  it('every spec is of a function the registry holds, and of its provider, once', () => {
    for (const { owner, spec } of specs.values()) {
      expect(functions.get(spec.fn.token), `${spec.fn.token} has a spec but is not in src/cli/catalog.ts`).toBe(spec.fn);
      expect(spec.fn.provider).toBe(owner.provider);
    }
    expect(specs.size).toBe(owners.reduce((n, owner) => n + owner.specs.length, 0));
  });
});

for (const owner of owners) {
  const mine: LookupSpec[] = [];
  for (const [token, fn] of functions) {
    const found = specs.get(token);
    if (found?.owner === owner && fn.provider === owner.provider) mine.push(found.spec);
  }
  describeLookups(owner, mine);
}
