import { UserError } from './errors.js';
import { cloudProvider } from './providers/cloud/index.js';
import { interconnectProvider } from './providers/interconnect/index.js';
import { pipelineProvider } from './providers/pipeline/index.js';
import type { ProviderDef } from './engine/contracts/provider.js';
import { cloudResources } from './resources/cloud/index.js';
import type { ResourceType } from './engine/contracts/resource-type.js';
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
export const resourceTypes = new Map<string, ResourceType>([...interconnectResources, ...cloudResources, ...pipelineResources].map((r) => [r.token, r]));

/** The provider named by a token's first segment. */
export function providerFor(token: string): ProviderDef | undefined {
  const name = token.split(':')[0];
  return providers.find((p) => p.name === name);
}

/** How resource types read: in bulk where their API lists (the default), or each object alone. */
export type ReadsMode = 'bulk' | 'one-by-one';

/** `PLUMB_READS`: `bulk` (the default) or `one-by-one`; another value is a UserError naming both. */
export function readsMode(env: Record<string, string | undefined>): ReadsMode {
  const value = env.PLUMB_READS?.trim().toLowerCase();
  if (!value || value === 'bulk') return 'bulk';
  if (value === 'one-by-one') return 'one-by-one';
  throw new UserError(`PLUMB_READS=${env.PLUMB_READS}: expected bulk (the default) or one-by-one (a diagnostic: every object read alone)`);
}

/**
 * The type as a command uses it. With `one-by-one` (a diagnostic: how plumb fares reading as
 * Terraform's providers do, or whether a bulk read is at fault) it reads every object alone. The
 * type is its prototype, so its schemas are still built only when first used.
 */
export function typeFor(type: ResourceType | undefined, mode: ReadsMode): ResourceType | undefined {
  if (!type || mode === 'bulk' || !type.readMany) return type;
  let alone = readingAlone.get(type);
  if (!alone) readingAlone.set(type, (alone = Object.create(type, { readMany: { value: undefined } }) as ResourceType));
  return alone;
}

/** One object per type, so a type compares equal to itself wherever the engine meets it. */
const readingAlone = new WeakMap<ResourceType, ResourceType>();
