import type { Manifest } from '../../manifest/ast.js';
import type { ResourceType } from '../contracts/resource-type.js';
import type { ResourceState, StateSnapshot } from '../contracts/state.js';
import { mask, secretKeys, wrapSecrets } from '../../kernel/values.js';
import { ReadPass } from '../applying/context.js';
import { readObjects, readRequests } from './refresh.js';
import { withChosenInputs } from './diff/diff.js';
import { compareWithRecord } from './classify.js';
import type { EngineDeps } from '../types.js';
import { compareAddresses } from '../order.js';

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
 * Compares every recorded resource with what the remote API reports, changing nothing. Each type
 * is read in bulk where it can (see readObjects); `pass` lets the checks of several stacks share
 * their reads. Only input fields the API returns are compared; fields it sets itself (dates,
 * status) and ignoreChanges paths are never drift.
 */
export async function detectDrift(state: StateSnapshot, manifest: Manifest | undefined, deps: EngineDeps, concurrency = 10, pass = new ReadPass()): Promise<DriftReport> {
  const results: DriftResult[] = [];
  const recorded = Object.values(state.resources);
  for (const r of recorded) {
    if (!deps.resourceType(r.type)) results.push({ address: r.address, type: r.type, id: r.id, status: 'error', fields: [], error: `unknown type ${r.type}` });
  }
  const requests = readRequests(recorded, deps);
  const read = await readObjects(requests, deps, { pass, concurrency });
  for (const request of requests) {
    const r = state.resources[request.address];
    const base = { address: r.address, type: r.type, id: r.id };
    const outcome = read.get(request)!;
    if ('error' in outcome) results.push({ ...base, status: 'error', fields: [], error: outcome.error.message });
    else if (!outcome.observed) results.push({ ...base, status: 'deleted', fields: [] });
    else {
      const fields = driftedFields(r, request.type, outcome.observed, manifest?.resources[r.address]?.options.ignoreChanges ?? []);
      results.push({ ...base, status: fields.length ? 'drifted' : 'in-sync', fields });
    }
  }
  results.sort((a, b) => compareAddresses(a.address, b.address));
  const count = (s: DriftResult['status']) => results.filter((r) => r.status === s).length;
  return {
    stack: state.stack,
    checkedAt: new Date().toISOString(),
    resources: results,
    summary: { inSync: count('in-sync'), drifted: count('drifted'), deleted: count('deleted'), errors: count('error') },
  };
}

/**
 * The input fields whose recorded value differs from the observed one: the change the plan of
 * the manifest as applied would show (compareWithRecord, the comparison plan makes), so a default
 * the API filled in is never drift, and ignoreChanges paths are left out. The inputs compared are
 * those the API reports: each recorded input, and each one left to the API, compared with what
 * it reported when recorded; outputs the API sets itself are not compared.
 */
function driftedFields(recorded: ResourceState, type: ResourceType, observed: Record<string, unknown>, ignore: string[]): DriftedField[] {
  const applied: Record<string, unknown> = {};
  const remote: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(withChosenInputs(recorded.inputs, recorded.outputs, type.diff?.computedInputs))) {
    if (observed[key] === undefined || (type.diff?.remoteManaged ?? []).includes(key)) continue;
    applied[key] = value;
    // What is secret in state stays secret in the report.
    remote[key] = wrapSecrets({ [key]: observed[key] }, secretKeys({ [key]: value }))[key];
  }
  const compared = compareWithRecord(type, { ...recorded, inputs: remote, outputs: observed }, applied, ignore);
  return compared.diff.changed.map((path) => ({ path, state: valueAt(mask(compared.effective), path), remote: valueAt(mask(compared.recorded), path) }));
}

function valueAt(obj: unknown, path: string): unknown {
  let cur: any = obj;
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) cur = cur?.[m[1] ?? Number(m[2])];
  return cur;
}
