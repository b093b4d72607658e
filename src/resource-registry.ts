import { cloudProvider } from './providers/cloud/index.js';
import { interconnectProvider } from './providers/interconnect/index.js';
import { pipelineProvider } from './providers/pipeline/index.js';
import type { ProviderDef } from './providers/provider.js';
import { cloudResources } from './resources/cloud/index.js';
import type { ResourceType } from './resources/handler.js';
import { interconnectResources } from './resources/interconnect/index.js';
import { pipelineResources } from './resources/pipeline/index.js';

/*
 * Providers and resource types, apart from the lookup functions (function-registry.ts): commands
 * that read a manifest load the functions only when it calls one, since they are most of the
 * code there is to load.
 */

/** Every provider plumb knows. */
export const providers: ProviderDef[] = [interconnectProvider, cloudProvider, pipelineProvider];

/** Every resource type, by canonical token. */
export const resourceTypes = new Map<string, ResourceType>(
  [...interconnectResources, ...cloudResources, ...pipelineResources].map((r) => [r.token, r]),
);

/** The provider named by a token's first segment. */
export function providerFor(token: string): ProviderDef | undefined {
  const name = token.split(':')[0];
  return providers.find((p) => p.name === name);
}
