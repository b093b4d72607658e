import { UserError } from '../../kernel/errors.js';
import type { ResourceContext, ResourceType } from '../contracts/resource-type.js';
import type { ResourceState } from '../contracts/state.js';
import { resourceContext } from '../applying/context.js';
import { recordedId } from '../applying/ids.js';
import { wrapSecrets } from '../../kernel/values.js';
import type { EngineDeps } from '../types.js';

/** How an import treats an object whose ownership marks name another project or stack. */
export interface ImportOptions {
  /** Import it anyway (`plumb import --force`), telling `warn` whose it was. */
  force?: boolean;
  warn?(message: string): void;
  /** The provider resource whose connection reads it (and that it is recorded under); the default when absent. */
  provider?: string;
}

/**
 * The problem with `rawId` as an id of `type`, by its import format (`<group_id>`...), or
 * undefined: known without a call, so the checks made before any find it too.
 */
export function idFormatProblem(type: Pick<ResourceType, 'importId'>, rawId: string): { summary: string; detail: string } | undefined {
  if (!type.importId) return undefined;
  try {
    type.importId.parse(rawId);
    return undefined;
  } catch (err) {
    return { summary: (err as Error).message, detail: `import id format: ${type.importId.format}` };
  }
}

/**
 * Reads an existing object for adoption. The id is checked against the type's import format
 * first, so a malformed id is an error naming the format, before any call. An object another
 * project or stack manages (its ownership marks say so) is refused unless `options.force`.
 */
export async function readForImport(type: ResourceType, address: string, rawId: string, deps: EngineDeps, options: ImportOptions = {}): Promise<ResourceState> {
  const id = type.importId ? type.importId.parse(rawId) : rawId;
  const ctx = await resourceContext(deps, type, address, { provider: options.provider });
  const read = (await type.read(ctx, id)) as Record<string, unknown> | undefined;
  const outputs = read && wrapSecrets(read, type.secrets?.paths);
  if (!outputs) throw new UserError(`${address}: there is no ${type.token} with id "${id}" to import`);
  const foreign = await managedElsewhere(type, ctx, id, deps);
  if (foreign && !options.force) throw new UserError(foreign);
  if (foreign) options.warn?.(`${address}: ${foreign}`);
  const provider = options.provider === undefined ? {} : { provider: options.provider };
  return { address, type: type.token, ...recordedId(type, id), inputs: inputFields(type, outputs), outputs, dependencies: [], status: 'ok', imported: true, ...provider };
}

/**
 * What makes an object another state's, when its ownership marks name another project or stack
 * than `deps` (marks of older plumbs name no project: their stack alone decides); undefined for
 * one without marks, or with this project's and stack's.
 */
export async function managedElsewhere(type: ResourceType, ctx: ResourceContext, id: string, deps: EngineDeps): Promise<string | undefined> {
  const owner = await type.owner?.(ctx, id);
  if (!owner) return undefined;
  if ((owner.project ?? deps.project) === deps.project && (owner.stack ?? deps.stack) === deps.stack) return undefined;
  const project = owner.project === undefined ? 'a plumb project it does not name' : `plumb project "${owner.project}"`;
  return (
    `${id} is managed by ${project}, stack "${owner.stack ?? '?'}"${owner.address ? ` (address ${owner.address})` : ''}: imported here too, two states would change and ` +
    'delete it; remove it from that state first (plumb state rm), or import it anyway with plumb import --force'
  );
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
  return Object.fromEntries(
    Object.keys(shape)
      .filter((k) => outputs[k] !== undefined)
      .map((k) => [k, outputs[k]]),
  );
}
