/**
 * The lifecycle spec of every interconnect resource type, run by tests/resources/lifecycle.test.ts:
 * a type the registry holds without a spec here fails that suite, naming this file.
 */
import { interconnectProvider } from '../../../src/providers/interconnect/index.js';
import type { ProviderLifecycleSpecs } from '../../support/lifecycle.js';
import { ipsecSpec, ixSpec, prefixListSpec, serviceKeySpec } from './attached-specs.js';
import { lagPortSpec, mcrSpec, mveSpec, portSpec } from './product-specs.js';
import { vxcSpec } from './vxc-spec.js';

/** The interconnect resource types' lifecycle specs. */
export const interconnectLifecycle: ProviderLifecycleSpecs = {
  provider: interconnectProvider,
  specs: [portSpec, lagPortSpec, ixSpec, serviceKeySpec, mveSpec, mcrSpec, prefixListSpec, ipsecSpec, vxcSpec],
};
