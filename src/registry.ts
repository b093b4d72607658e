import type { LookupFunction } from './lookups/function.js';
import { cloudLookups } from './lookups/cloud/index.js';
import { interconnectLookups } from './lookups/interconnect/index.js';
import { pipelineLookups } from './lookups/pipeline/index.js';
import { cloudProvider } from './providers/cloud/index.js';
import { interconnectProvider } from './providers/interconnect/index.js';
import { pipelineProvider } from './providers/pipeline/index.js';
import type { ProviderDef } from './providers/provider.js';
import { cloudResources } from './resources/cloud/index.js';
import type { ResourceType } from './resources/handler.js';
import { interconnectResources } from './resources/interconnect/index.js';

/** Every provider plumb knows. */
export const providers: ProviderDef[] = [interconnectProvider, cloudProvider, pipelineProvider];

/** Every resource type, by canonical token. */
export const resourceTypes = new Map<string, ResourceType>(
  [...interconnectResources, ...cloudResources].map((r) => [r.token, r]),
);

/** Every lookup function (and provider method), by canonical token. */
export const functions = new Map<string, LookupFunction>(
  [...interconnectLookups, ...cloudLookups, ...pipelineLookups].map((f) => [f.token, f]),
);

/** The provider named by a token's first segment. */
export function providerFor(token: string): ProviderDef | undefined {
  const name = token.split(':')[0];
  return providers.find((p) => p.name === name);
}
