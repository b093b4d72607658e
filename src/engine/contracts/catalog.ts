import type { LookupFunction } from './lookup.js';
import type { ProviderDef } from './provider.js';
import type { ResourceType } from './resource-type.js';

/*
 * What checking a manifest needs to know of the types, providers and functions there are, and
 * nothing more: the engine knows no provider, so whoever wires it (the CLI, from its registries;
 * a test, from fakes) hands it these.
 */

/** A resource type as far as its inputs are checked (alone and against the rest of the stack), its fields named and its ids' format checked. */
export type CatalogResourceType = Pick<ResourceType, 'token' | 'inputs' | 'outputs' | 'secrets' | 'notes' | 'crossCheck' | 'importId'>;

/** A provider as far as its settings are read from config and the environment, and checked. */
export type CatalogProvider = Pick<ProviderDef, 'name' | 'settings' | 'envVars' | 'secretSettings' | 'check'>;

/** A lookup function as far as arguments already known are checked. */
export type CatalogFunction = Pick<LookupFunction, 'args'>;

/** Every resource type, provider and lookup function a manifest may name. */
export interface EngineCatalog {
  /** Resource types by canonical token. */
  resourceTypes: ReadonlyMap<string, CatalogResourceType>;
  providers: readonly CatalogProvider[];
  /** The tool's own config keys (`<name>:<key>`), checked as a provider's settings are though nothing connects with them. */
  own?: CatalogProvider;
  /** Lookup functions by canonical token; asked for only when a manifest invokes one (they are costly to load). */
  functions(): Promise<ReadonlyMap<string, CatalogFunction>>;
}
