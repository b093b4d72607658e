import type { ResourceState, StateSnapshot } from '../state/types.js';
import { resourceContext } from './context.js';
import { wrapSecrets } from '../values.js';
import type { EngineDeps } from './types.js';

/** The state after settling, and a line per settled operation for the plan. */
export interface Settled {
  resources: Record<string, ResourceState>;
  notes: string[];
}

/**
 * Settles operations a crash interrupted between intent and outcome. A pending create is
 * looked up remotely — by the id recorded once the order was accepted, else by the ownership
 * tags carrying its operation token — and adopted if found (tainted if not ready), or left
 * for the plan to create. A pending delete or update is read again: gone means gone.
 */
export async function settlePending(state: StateSnapshot, deps: EngineDeps): Promise<Settled> {
  const resources = { ...state.resources };
  const notes: string[] = [];
  for (const op of state.pending) {
    const type = deps.resourceType(op.type);
    if (!type) continue;
    const ctx = await resourceContext(deps, type, op.address, { operationToken: op.token });
    if (op.action === 'create') {
      let found: { id: string; outputs: Record<string, unknown> } | undefined;
      if (op.id) {
        const outputs = (await type.read(ctx, op.id)) as Record<string, unknown> | undefined;
        if (outputs) found = { id: op.id, outputs };
      } else if (type.findOwned) {
        found = (await type.findOwned(ctx)) as typeof found;
      }
      if (found) found = { ...found, outputs: wrapSecrets(found.outputs, type.secretPaths) };
      if (found && resources[op.address]?.id !== found.id) {
        const status = isReady(found.outputs) ? 'ok' : 'tainted';
        resources[op.address] = { address: op.address, type: op.type, id: found.id, inputs: inputsOf(type.inputs, found.outputs), outputs: found.outputs, dependencies: [], status };
        notes.push(`${op.address}: an interrupted create had ordered ${found.id}; it is adopted${status === 'tainted' ? ' (not ready, so it will be replaced)' : ''}`);
      } else if (!found) {
        notes.push(`${op.address}: an interrupted create left nothing behind; it will be created`);
      }
    } else {
      const recorded = resources[op.address];
      const id = op.id ?? recorded?.id;
      if (!id) continue;
      const outputs = await type.read(ctx, id, recorded && { inputs: recorded.inputs, outputs: recorded.outputs });
      if (outputs === undefined) {
        if (resources[op.address]?.id === id) delete resources[op.address];
        notes.push(`${op.address}: an interrupted ${op.action} finished remotely (${id} is gone)`);
      } else {
        notes.push(`${op.address}: an interrupted ${op.action} was checked against the remote object ${id}`);
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
