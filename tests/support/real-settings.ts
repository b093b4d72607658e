import type { ProviderDef } from '../../src/engine/contracts/provider.js';

/** Values tried for a setting, in order: the first its provider's schema accepts is used. */
const CANDIDATES: unknown[] = [true, 'production', 'https://api.example.invalid/v1', { roleUrn: 'ucs:iam::1:role/deployer', sessionName: 'plumb' }];

/** A value the provider's schema accepts for one of its settings (its type read from the schema, not written per setting). */
export function valueFor(provider: ProviderDef, name: string): unknown {
  for (const candidate of CANDIDATES) {
    const parsed = provider.settings.safeParse({ [name]: candidate });
    if (parsed.success && (parsed.data as Record<string, unknown>)[name] !== undefined) return candidate;
  }
  throw new Error(`no candidate value fits ${provider.name}:${name}; add one to CANDIDATES`);
}

/** The environment variable of a setting, if it has one. */
export function variableOf(provider: ProviderDef, name: string): string | undefined {
  return Object.entries(provider.envVars).find(([, setting]) => setting === name)?.[0];
}

/** Whether a setting is by itself a whole way to sign in (a cloud profile): given alone, it reaches a real account. */
export function signsInAlone(provider: ProviderDef, name: string): boolean {
  return provider.real.credentials.some((way) => way.length === 1 && way[0] === name);
}
