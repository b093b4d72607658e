import type { z } from 'zod';

/*
 * What checking a manifest needs to know of the types, providers and functions there are, and
 * nothing more: the engine knows no provider, so whoever wires it (the CLI, from its registries;
 * a test, from fakes) hands it these. A resource type, provider or lookup function satisfies the
 * matching interface as it is.
 */

/** A resource type as far as its inputs can be checked and its fields named without a call. */
export interface CatalogResourceType {
  token: string;
  inputs: z.ZodType;
  outputs: z.ZodType;
  /** Input paths holding secrets: a problem with one never shows its value. */
  secretPaths?: string[];
  /** Deprecation and usage warnings for inputs that passed the check. */
  warnings?(inputs: unknown): string[];
}

/** A provider as far as its settings can be read from config and the environment, and checked. */
export interface CatalogProvider {
  /** The token prefix and config namespace (`interconnect` in `interconnect:waitTime`). */
  name: string;
  settings: z.ZodType;
  /** environment variable → setting name; a variable that is set wins over config. */
  envVars: Record<string, string>;
  /** Settings whose text is masked in every output once read. */
  secretSettings: string[];
  /** Problems with parsed settings that need no remote call (terms not accepted), as text. */
  check?(settings: unknown): string[];
}

/** A lookup function as far as arguments already known can be checked. */
export interface CatalogFunction {
  args: z.ZodType;
}

/** Every resource type, provider and lookup function a manifest may name. */
export interface EngineCatalog {
  /** Resource types by canonical token. */
  resourceTypes: ReadonlyMap<string, CatalogResourceType>;
  providers: readonly CatalogProvider[];
  /** Lookup functions by canonical token; asked for only when a manifest invokes one (they are costly to load). */
  functions(): Promise<ReadonlyMap<string, CatalogFunction>>;
}
