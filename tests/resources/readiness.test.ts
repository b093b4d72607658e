/**
 * Readiness as each type's API reports it, for every type the registry holds: a type that says
 * when its objects are ready (provisioning.ready) also says when the API has given up on one (failed), or
 * why its API has no such state. Without `failed`, an object that will never be ready is waited
 * for by every apply, and never replaced.
 */
import { describe, expect, it } from 'vitest';
import { loadResourceTypes } from '../../src/cli/catalog.js';

const resourceTypes = await loadResourceTypes();

/** Types whose objects are waited for until ready, and whose API has no word for a failed one: why. */
const NO_FAILURE_STATE: Record<string, string> = {
  'cloud:index/eip:Eip': 'an EIP is allocated (free), bound (used) or frozen for arrears, which is still allocated; none says it will never be',
};

describe('every type waited for until ready says when its API reports it failed', () => {
  for (const [token, type] of resourceTypes) {
    if (!type.provisioning?.ready) continue;
    it(token, () => {
      if (NO_FAILURE_STATE[token]) return expect(type.provisioning?.failed).toBeUndefined();
      expect(
        type.provisioning?.failed,
        `${token} has provisioning.ready but no failed: add one beside it in src/resources/${type.provider}/ (the API's word for an object that will never be ready), or say in NO_FAILURE_STATE why its API has none`,
      ).toBeTypeOf('function');
    });
  }

  it('every type named above is in the registry, and waited for until ready', () => {
    for (const token of Object.keys(NO_FAILURE_STATE)) expect(resourceTypes.get(token)?.provisioning?.ready, token).toBeTypeOf('function');
  });
});
