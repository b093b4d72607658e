/**
 * Resources read with `get: { id }`: the object is read by its id (the type's import id format)
 * when planning and its outputs are what references see, at plan and at apply. It is never
 * recorded in state, so no apply step, refresh or destroy ever touches it.
 */
import { UserError, isRemote } from '../../kernel/errors.js';
import type { ResourceDecl } from '../../manifest/ast.js';
import { Unknown, mask, wrapSecrets } from '../../kernel/values.js';
import type { ResourceType } from '../contracts/resource-type.js';
import type { ResourceState } from '../contracts/state.js';
import { resourceContext } from '../applying/context.js';
import { EvalError, evaluate, type Scope } from './evaluate.js';
import { idFormatProblem } from '../planning/import.js';
import { withDeadline } from './option-values.js';
import type { Change, EngineDeps } from '../types.js';

/** What planning a `get:` gives: the object as read and its change, or a problem to report. */
export type Gotten = { read: ResourceState; change: Change } | { problem: { summary: string; detail?: string; pos?: ResourceDecl['pos'] } };

/**
 * Reads the object `decl.get` names. Its id must be known when planning; an address that state
 * records as managed is refused (reading it would orphan that record, deleting it would delete
 * the object), and so is an id with no object, naming the resource and the id.
 */
export async function planGet(decl: ResourceDecl, type: ResourceType, scope: Scope, deps: EngineDeps, recorded: ResourceState | undefined, dependsOn: string[]): Promise<Gotten> {
  const { address } = decl;
  if (recorded) {
    return {
      problem: {
        summary: `${address} is managed (state records ${recorded.id}): it cannot be read with get: instead`,
        detail: `plumb state rm ${address} first, to stop managing it and keep the object`,
      },
    };
  }
  const evaluated = await getId(decl, type, scope, 'refuse');
  if ('problem' in evaluated) return evaluated;
  const id = evaluated.id!;
  try {
    const read = await withDeadline(readById(type, address, id, deps, decl.provider), decl.options.customTimeouts?.read, `reading ${address} (${id})`);
    const change: Change = { address, type: type.token, action: 'read', reason: 'read-requested', id: read.id, after: mask(read.outputs), patch: [], unknownPaths: [], dependsOn, notes: [] };
    return { read, change };
  } catch (err) {
    const missing = isRemote(err, 'not-found') ? `${address}: there is no ${type.token} with id "${id}" to read` : (err as Error).message;
    return { problem: { summary: missing, detail: type.importId ? `import id format: ${type.importId.format}` : undefined } };
  }
}

/**
 * The id `decl.get` gives, or the problem with it: one that cannot be evaluated, is not a string,
 * or is not in the type's import format, at the id. One not known yet is a problem when `unknown`
 * is `refuse` (planning, which reads it); with `wait` (the checks made before any call, where
 * resources and lookups give nothing) it is left to the plan, and `id` is absent.
 */
export async function getId(decl: ResourceDecl, type: Pick<ResourceType, 'importId'>, scope: Scope, unknown: 'wait' | 'refuse'): Promise<{ id?: string } | Extract<Gotten, { problem: unknown }>> {
  const { address } = decl;
  const pos = decl.get!.id.pos;
  let id: unknown;
  try {
    id = await evaluate(decl.get!.id, scope);
  } catch (err) {
    if (!(err instanceof EvalError)) throw err;
    return { problem: { summary: err.message, detail: err.detail, pos: err.pos } };
  }
  if (id instanceof Unknown && unknown === 'wait') return {};
  if (id instanceof Unknown || typeof id !== 'string' || !id) {
    const what = id instanceof Unknown ? 'is known only after apply' : `must be a string, not ${JSON.stringify(mask(id))}`;
    return { problem: { summary: `the id in get of ${address} ${what}`, detail: type.importId ? `import id format: ${type.importId.format}` : undefined, pos } };
  }
  const malformed = idFormatProblem(type, id);
  return malformed ? { problem: { ...malformed, pos } } : { id };
}

/** The object with this id, as other resources see it; a missing one is an error naming the address and the id. */
async function readById(type: ResourceType, address: string, rawId: string, deps: EngineDeps, provider?: string): Promise<ResourceState> {
  const id = type.importId ? type.importId.parse(rawId) : rawId;
  const ctx = await resourceContext(deps, type, address, { provider });
  const found = (await type.read(ctx, id)) as Record<string, unknown> | undefined;
  if (!found) throw new UserError(`${address}: there is no ${type.token} with id "${rawId}" to read`);
  return { address, type: type.token, id, inputs: {}, outputs: wrapSecrets(found, type.secrets?.paths), dependencies: [], status: 'ok' };
}
