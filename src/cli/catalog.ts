import { UserError } from '../kernel/errors.js';
import { cloudProvider } from '../providers/cloud/index.js';
import { interconnectProvider } from '../providers/interconnect/index.js';
import { pipelineProvider } from '../providers/pipeline/index.js';
import type { LookupFunction } from '../engine/contracts/lookup.js';
import type { ProviderDef } from '../engine/contracts/provider.js';
import type { ResourceType } from '../engine/contracts/resource-type.js';

/*
 * Every provider, resource type and lookup function plumb knows. Commands that read a manifest
 * load the functions only when it calls one, and each provider's resource types only when the
 * command may meet them, since building their schemas is most of what a short command does
 * before it reads its manifest.
 */

/** Every provider plumb knows. */
export const providers: ProviderDef[] = [interconnectProvider, cloudProvider, pipelineProvider];

/** Each provider's resource types, loaded on first use. */
const typesOf: Record<string, () => Promise<ResourceType[]>> = {
  interconnect: async () => (await import('../resources/interconnect/index.js')).interconnectResources,
  cloud: async () => (await import('../resources/cloud/index.js')).cloudResources,
  pipeline: async () => (await import('../resources/pipeline/index.js')).pipelineResources,
};

/** The resource types of the providers named (of every provider when none are), by canonical token. */
export async function loadResourceTypes(names: Iterable<string> = Object.keys(typesOf)): Promise<Map<string, ResourceType>> {
  const wanted = new Set(names);
  const lists = await Promise.all(Object.entries(typesOf).map(([name, load]) => (wanted.has(name) ? load() : [])));
  return new Map(lists.flat().map((r) => [r.token, r]));
}

let functions: Promise<Map<string, LookupFunction>> | undefined;

/** Every lookup function (and provider method), by canonical token, loaded on first use (one map for the process). */
export function loadFunctions(): Promise<Map<string, LookupFunction>> {
  functions ??= Promise.all([import('../lookups/interconnect/index.js'), import('../lookups/cloud/index.js'), import('../lookups/pipeline/index.js')]).then(
    ([{ interconnectLookups }, { cloudLookups }, { pipelineLookups }]) => new Map([...interconnectLookups, ...cloudLookups, ...pipelineLookups].map((f) => [f.token, f])),
  );
  return functions;
}

/**
 * The providers a manifest's text names (`interconnect:` anywhere, in any case, as type tokens are
 * matched): every type token it holds is of one of them, so their types are enough to check it.
 */
export function providersNamedIn(text: string): string[] {
  return Object.keys(typesOf).filter((name) => new RegExp(`${name}:`, 'i').test(text));
}

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
 * type is its prototype: everything else is the type's own.
 */
export function typeFor(type: ResourceType | undefined, mode: ReadsMode): ResourceType | undefined {
  if (!type || mode === 'bulk' || !type.readMany) return type;
  let alone = readingAlone.get(type);
  if (!alone) readingAlone.set(type, (alone = Object.create(type, { readMany: { value: undefined } }) as ResourceType));
  return alone;
}

/** One object per type, so a type compares equal to itself wherever the engine meets it. */
const readingAlone = new WeakMap<ResourceType, ResourceType>();
