/**
 * The lifecycle conformance suite (tests/support/lifecycle.ts) for every resource type the
 * registry holds, each against its sandbox. A type without a spec fails here, naming the file its
 * spec belongs in, so a new type cannot skip the suite.
 */
import { describe, expect, it } from 'vitest';
import { loadResourceTypes } from '../../src/cli/catalog.js';
import { describeLifecycle, type ProviderLifecycleSpecs } from '../support/lifecycle.js';
import { cloudLifecycle } from './cloud/specs.js';
import { interconnectLifecycle } from './interconnect/specs.js';
import { pipelineLifecycle } from './pipeline/specs.js';

const resourceTypes = await loadResourceTypes();
const owners: ProviderLifecycleSpecs[] = [interconnectLifecycle, cloudLifecycle, pipelineLifecycle];
const specs = new Map(owners.flatMap((owner) => owner.specs.map((spec) => [spec.type.token, { owner, spec }] as const)));

describe('every resource type has a lifecycle spec', () => {
  for (const [token, type] of resourceTypes) {
    it(token, () => {
      expect(specs.has(token), `${token} has no lifecycle spec: add one to tests/resources/${type.provider}/specs.ts`).toBe(true);
    });
  }

  it('every spec is of a type the registry holds, and of its provider', () => {
    for (const { owner, spec } of specs.values()) {
      expect(resourceTypes.get(spec.type.token), `${spec.type.token} has a spec but is not in src/cli/catalog.ts`).toBe(spec.type);
      expect(spec.type.provider).toBe(owner.provider.name);
    }
  });
});

describe("every type whose objects carry plumb's ownership marks can remove them", () => {
  // Without it, plumb state rm would leave marks that make every other stack's import refuse the object.
  for (const [token, type] of resourceTypes) {
    if (!type.owner) continue;
    it(token, () => {
      expect(type.disown, `${token} has owner but no disown: add one beside it in src/resources/${type.provider}/`).toBeTypeOf('function');
    });
  }
});

for (const token of resourceTypes.keys()) {
  const found = specs.get(token);
  if (found) describeLifecycle(found.owner, found.spec);
}
