import PQueue from 'p-queue';
import type { StateSnapshot, ResourceState } from './contracts/state.js';
import { resourceContext } from './context.js';
import { Secret, reveal, secretKeys, secretTexts, wrapSecrets } from '../values.js';
import { realId } from './ids.js';
import type { EngineDeps } from './types.js';

/** The outcome of reading every resource in state. */
export interface Refreshed {
  /** State with observed inputs and outputs; resources gone remotely are removed. */
  resources: Record<string, ResourceState>;
  /** Addresses whose object no longer exists remotely. */
  gone: string[];
}

/**
 * Reads every recorded resource. Observed input fields replace recorded ones; fields the API
 * does not return keep their recorded value (so they are never reported as changes).
 */
export async function refreshState(state: StateSnapshot, deps: EngineDeps, concurrency = 10, warn?: (message: string) => void): Promise<Refreshed> {
  const resources: Record<string, ResourceState> = { ...state.resources };
  const gone: string[] = [];
  const queue = new PQueue({ concurrency });
  const failures: string[] = [];
  for (const prior of Object.values(state.resources)) {
    const type = deps.resourceType(prior.type);
    if (!type) continue;
    void queue.add(async () => {
      try {
        await readOne(prior);
      } catch (err) {
        failures.push(`${prior.address}: ${(err as Error).message}`);
      }
    });
  }
  async function readOne(prior: ResourceState): Promise<void> {
      const type = deps.resourceType(prior.type)!;
      const ctx = await resourceContext(deps, type, prior.address, { warn: warn && ((message) => warn(`${prior.address}: ${message}`)) });
      const observed = await type.read(ctx, realId(prior), { inputs: reveal(prior.inputs), outputs: reveal(prior.outputs) });
      if (observed === undefined) {
        gone.push(prior.address);
        delete resources[prior.address];
        return;
      }
      // An output recorded as secret as a whole (additionalSecretOutputs among them) stays secret.
      const secretOutputs = Object.keys(prior.outputs).filter((key) => prior.outputs[key] instanceof Secret);
      const outputs = secretTexts(wrapSecrets(observed as Record<string, unknown>, [...(type.secretPaths ?? []), ...secretKeys(prior.inputs), ...secretOutputs]));
      resources[prior.address] = { ...prior, inputs: observedInputs(prior.inputs, outputs), outputs };
  }
  await queue.onIdle();
  if (failures.length) throw new Error(`refresh failed:\n  ${failures.join('\n  ')}`);
  return { resources, gone: gone.sort() };
}

/** Recorded inputs updated with the values the remote API reports for the same fields. */
export function observedInputs(recorded: Record<string, unknown>, observed: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...recorded };
  for (const key of Object.keys(recorded)) if (observed[key] !== undefined) out[key] = observed[key];
  return out;
}
