import { UserError } from '../errors.js';
import type { ResourceType } from '../resources/handler.js';
import type { ResourceState } from '../state/types.js';
import { resourceContext } from './context.js';
import { recordedId } from './ids.js';
import { wrapSecrets } from '../values.js';
import type { EngineDeps } from './types.js';

/**
 * Reads an existing object for adoption. The id is checked against the type's import format
 * first, so a malformed id is an error naming the format, before any call.
 */
export async function readForImport(type: ResourceType, address: string, rawId: string, deps: EngineDeps): Promise<ResourceState> {
  const id = type.importId ? type.importId.parse(rawId) : rawId;
  const ctx = await resourceContext(deps, type, address);
  const read = (await type.read(ctx, id)) as Record<string, unknown> | undefined;
  const outputs = read && wrapSecrets(read, type.secretPaths);
  if (!outputs) throw new UserError(`${address}: there is no ${type.token} with id "${id}" to import`);
  return { address, type: type.token, ...recordedId(type, id), inputs: inputFields(type, outputs), outputs, dependencies: [], status: 'ok' };
}

/** The recorded inputs of an imported object: what the API reports, plus manifest values for fields it does not return. */
export function importedInputs(observed: Record<string, unknown>, desired: Record<string, unknown> | undefined): Record<string, unknown> {
  const out = { ...observed };
  for (const [k, v] of Object.entries(desired ?? {})) if (out[k] === undefined && v !== undefined) out[k] = v;
  return out;
}

/** The fields of `outputs` that are inputs of the type. */
export function inputFields(type: ResourceType, outputs: Record<string, unknown>): Record<string, unknown> {
  const shape = (type.inputs as { shape?: Record<string, unknown> }).shape ?? {};
  return Object.fromEntries(Object.keys(shape).filter((k) => outputs[k] !== undefined).map((k) => [k, outputs[k]]));
}
