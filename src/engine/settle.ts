import type { ResourceState, StateSnapshot } from '../state/types.js';
import { resourceContext } from './context.js';
import { reveal, wrapSecrets } from '../values.js';
import { realId, recordedId } from './ids.js';
import type { EngineDeps } from './types.js';

/** How far a remote API's clock may run behind this machine's, when telling what was made since an order. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** The state after settling, and a line per settled operation for the plan. */
export interface Settled {
  resources: Record<string, ResourceState>;
  notes: string[];
}

/**
 * Settles operations a crash interrupted between intent and outcome. A pending create is
 * looked up remotely — by the id recorded once the order was accepted, else by the ownership
 * tags carrying its operation token or by the inputs it was ordered with (see findOwned) — and
 * adopted if found (tainted if not ready), or left for the plan to create. A pending delete or
 * update is read again: gone means gone.
 */
export async function settlePending(state: StateSnapshot, deps: EngineDeps): Promise<Settled> {
  const resources = { ...state.resources };
  const notes: string[] = [];
  let recordedIds: Set<string> | undefined;
  for (const op of state.pending) {
    const type = deps.resourceType(op.type);
    if (!type) continue;
    const ctx = await resourceContext(deps, type, op.address, { operationToken: op.token, warn: (message) => notes.push(`${op.address}: ${message}`) });
    if (op.action === 'create') {
      const noted = notes.length;
      let found: { id: string; outputs: Record<string, unknown> } | undefined;
      if (op.id) {
        const outputs = (await type.read(ctx, realId({ id: op.id, secretId: op.secretId }))) as Record<string, unknown> | undefined;
        if (outputs) found = { id: realId({ id: op.id, secretId: op.secretId }), outputs };
      } else if (type.findOwned) {
        recordedIds ??= new Set(Object.values(resources).map((r) => realId(r)));
        const known = recordedIds;
        found = (await type.findOwned(ctx, op.inputs && (reveal(op.inputs) as never), { earliestMs: Date.parse(op.at) - CLOCK_SKEW_MS, recorded: (id) => known.has(id) })) as typeof found;
      }
      if (found) found = { ...found, outputs: wrapSecrets(found.outputs, type.secretPaths) };
      const alreadyRecorded = found && resources[op.address] && realId(resources[op.address]) === found.id;
      if (found && !alreadyRecorded) {
        const status = isReady(found.outputs) ? 'ok' : 'tainted';
        // The inputs it was ordered with, when the intent kept them (as a finished create records).
        const inputs = op.inputs ?? inputsOf(type.inputs, found.outputs);
        resources[op.address] = { address: op.address, type: op.type, ...recordedId(type, found.id), inputs, outputs: found.outputs, dependencies: [], status };
        recordedIds?.add(found.id);
        notes.push(`${op.address}: an interrupted create had ordered ${recordedId(type, found.id).id}; it is adopted${status === 'tainted' ? ' (not ready, so it will be replaced)' : ''}`);
      } else if (!found && !resources[op.address] && resources[`${op.address}~deposed`]) {
        // An interrupted create-first replacement that made nothing: the old object is current again.
        const deposed = resources[`${op.address}~deposed`];
        resources[op.address] = { ...deposed, address: op.address };
        delete resources[deposed.address];
        notes.push(`${op.address}: an interrupted replacement made nothing; ${deposed.id}, which it was replacing, is current again`);
      } else if (!found && notes.length === noted) {
        notes.push(`${op.address}: an interrupted create left nothing behind; it will be created`);
      }
    } else {
      const recorded = resources[op.address];
      const target = op.id ? { id: op.id, secretId: op.secretId } : recorded;
      if (!target) continue;
      const outputs = await type.read(ctx, realId(target), recorded && { inputs: reveal(recorded.inputs), outputs: reveal(recorded.outputs) });
      if (outputs === undefined) {
        if (resources[op.address]?.id === target.id) delete resources[op.address];
        notes.push(`${op.address}: an interrupted ${op.action} finished remotely (${target.id} is gone)`);
      } else {
        notes.push(`${op.address}: an interrupted ${op.action} was checked against the remote object ${target.id}`);
      }
    }
  }
  return { resources, notes };
}

function isReady(outputs: Record<string, unknown>): boolean {
  const status = outputs.provisioningStatus;
  return status === undefined || status === 'CONFIGURED' || status === 'LIVE';
}

/** The input fields of an adopted object, taken from what the API reports. */
function inputsOf(schema: unknown, outputs: Record<string, unknown>): Record<string, unknown> {
  const shape = (schema as { shape?: Record<string, unknown> }).shape ?? {};
  return Object.fromEntries(Object.keys(shape).filter((k) => outputs[k] !== undefined).map((k) => [k, outputs[k]]));
}
