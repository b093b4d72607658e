import PQueue from 'p-queue';
import type { Manifest } from '../manifest/ast.js';
import type { StateSnapshot } from './contracts/state.js';
import { Secret, mask, reveal, secretKeys } from '../values.js';
import { realId } from './ids.js';
import { resourceContext } from './context.js';
import { diffInputs, pathMatches, withChosenInputs } from './diff/diff.js';
import type { EngineDeps } from './types.js';
import { compareAddresses } from './order.js';

/** One field that differs between the record and the remote object. */
export interface DriftedField {
  path: string;
  /** Value recorded in state (what plumb last applied). */
  state: unknown;
  /** Value the remote API reports now. */
  remote: unknown;
}

/** What drift detection found for one resource. */
export interface DriftResult {
  address: string;
  type: string;
  id: string;
  status: 'in-sync' | 'drifted' | 'deleted' | 'error';
  fields: DriftedField[];
  error?: string;
}

/** A drift report: the `plumb drift --json` contract. */
export interface DriftReport {
  stack: string;
  checkedAt: string;
  resources: DriftResult[];
  summary: { inSync: number; drifted: number; deleted: number; errors: number };
}

/**
 * Compares every recorded resource with what the remote API reports, changing nothing. Only
 * input fields the API returns are compared; fields it sets itself (dates, status) and
 * ignoreChanges paths are never drift.
 */
export async function detectDrift(state: StateSnapshot, manifest: Manifest | undefined, deps: EngineDeps, concurrency = 10): Promise<DriftReport> {
  const queue = new PQueue({ concurrency });
  const results: DriftResult[] = [];
  for (const recorded of Object.values(state.resources)) {
    void queue.add(async () => {
      const base = { address: recorded.address, type: recorded.type, id: recorded.id };
      const type = deps.resourceType(recorded.type);
      if (!type) {
        results.push({ ...base, status: 'error', fields: [], error: `unknown type ${recorded.type}` });
        return;
      }
      try {
        const ctx = await resourceContext(deps, type, recorded.address);
        const observed = (await type.read(ctx, realId(recorded), { inputs: reveal(recorded.inputs), outputs: reveal(recorded.outputs) })) as Record<string, unknown> | undefined;
        if (!observed) {
          results.push({ ...base, status: 'deleted', fields: [] });
          return;
        }
        const ignore = manifest?.resources[recorded.address]?.options.ignoreChanges ?? [];
        const compared: Record<string, unknown> = {};
        const remote: Record<string, unknown> = {};
        // Inputs the API chose count too: their recorded value is what it reported then.
        for (const [key, value] of Object.entries(withChosenInputs(recorded.inputs, recorded.outputs, type.computedInputs))) {
          if (observed[key] === undefined || (type.remoteManaged ?? []).includes(key)) continue;
          compared[key] = value;
          // What is secret in state stays secret in the report.
          remote[key] = secretKeys({ [key]: value }).length ? new Secret(observed[key]) : observed[key];
        }
        const diff = diffInputs(compared, remote);
        const fields = diff.changed
          .filter((path) => !ignore.some((rule) => pathMatches(path, rule)))
          .map((path) => ({ path, state: valueAt(mask(compared), path), remote: valueAt(mask(remote), path) }));
        results.push({ ...base, status: fields.length ? 'drifted' : 'in-sync', fields });
      } catch (err) {
        results.push({ ...base, status: 'error', fields: [], error: (err as Error).message });
      }
    });
  }
  await queue.onIdle();
  results.sort((a, b) => compareAddresses(a.address, b.address));
  const count = (s: DriftResult['status']) => results.filter((r) => r.status === s).length;
  return {
    stack: state.stack,
    checkedAt: new Date().toISOString(),
    resources: results,
    summary: { inSync: count('in-sync'), drifted: count('drifted'), deleted: count('deleted'), errors: count('error') },
  };
}

function valueAt(obj: unknown, path: string): unknown {
  let cur: any = obj;
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) cur = cur?.[m[1] ?? Number(m[2])];
  return cur;
}
