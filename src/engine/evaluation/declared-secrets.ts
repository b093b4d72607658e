/**
 * Secrets a type names from the declared values themselves (Secrets.pathsFor): which
 * settings are secret may depend on what the object is (a service's catalogue says), so the
 * static `secrets.paths` cannot name them. Planning, applying and refreshing all seal through here,
 * so a value is never clear in one and sealed in another.
 */
import type { ResourceType } from '../contracts/resource-type.js';
import { ReadPass, resourceContext } from '../applying/context.js';
import { wrapSecrets } from '../../kernel/values.js';
import type { EngineDeps } from '../types.js';

/**
 * `values` with the paths the type names for `declared` sealed (values unchanged when the type
 * has no such hook). `pass` shares the hook's remote reads between the resources of one run.
 */
export async function sealDeclared<T extends Record<string, unknown>>(
  type: ResourceType,
  address: string,
  declared: Record<string, unknown>,
  values: T,
  deps: EngineDeps,
  pass: ReadPass,
  provider?: string,
): Promise<T> {
  if (!type.secrets?.pathsFor) return values;
  const ctx = await resourceContext(deps, type, address, { pass, provider });
  const paths = await type.secrets?.pathsFor(declared, ctx);
  return wrapSecrets(values, paths);
}
