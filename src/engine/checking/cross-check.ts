import type { Diagnostic } from '../../kernel/diagnostics.js';
import { posAt, type Manifest } from '../../manifest/ast.js';
import { Unknown } from '../../kernel/values.js';
import { inFileOrder } from './checkable.js';
import type { CatalogResourceType } from '../contracts/catalog.js';
import type { CrossCheckView, StackResource } from '../contracts/resource-type.js';

/*
 * The checks a resource type makes of its desired inputs against the rest of the stack, before
 * any order (see ResourceType.crossCheck). The engine only gathers what the manifest declares and
 * state records, resolves references between them, and places each problem at its input.
 */

/** What the cross-checks of one manifest see. */
export interface CrossCheckInput {
  manifest: Manifest;
  types: ReadonlyMap<string, CatalogResourceType>;
  /** Desired inputs of the declared resources that passed their own checks, by address. */
  desired: ReadonlyMap<string, Record<string, unknown>>;
  /** What state records, by address; undefined when state was not read (validate). */
  recorded?: Record<string, { type: string; id: string; inputs: Record<string, unknown>; outputs: Record<string, unknown>; imported?: boolean }>;
  lookup?: CrossCheckView['lookup'];
}

/** Whether any declared resource's type has a cross-check (none: nothing to gather). */
export function hasCrossChecks(manifest: Manifest, types: ReadonlyMap<string, CatalogResourceType>): boolean {
  for (const address in manifest.resources) if (types.get(manifest.resources[address].token)?.crossCheck) return true;
  return false;
}

/**
 * Runs the cross-check of every declared resource whose type has one; each problem is a
 * diagnostic at its input. The checks that read remotely (`lookup`) do so only once every check has
 * run without reading, and not at all for a manifest with a problem `validate` finds too.
 */
export async function crossCheck(input: CrossCheckInput): Promise<Diagnostic[]> {
  const { manifest, types, desired, recorded } = input;
  const stack = new Map<string, StackResource>();
  for (const [address, value] of desired) stack.set(address, { address, token: manifest.resources[address].token, desired: value });
  for (const [address, r] of Object.entries(recorded ?? {})) {
    const declared = stack.get(address);
    // A record of another type at a declared address is being replaced by the declared one.
    if (declared && declared.token !== r.type) continue;
    stack.set(address, { ...(declared ?? { address, token: r.type }), recorded: { id: r.id, inputs: r.inputs, outputs: r.outputs, imported: r.imported } });
  }
  const byId = new Map<string, StackResource>();
  for (const r of stack.values()) if (r.recorded) byId.set(r.recorded.id, r);
  const resolve = (value: unknown): StackResource | undefined => {
    if (value instanceof Unknown && value.source) return stack.get(value.source.split(/[.[]/)[0]);
    return typeof value === 'string' ? byId.get(value) : undefined;
  };
  const all = [...stack.values()];
  // One remote read per question, however many resources ask it (the lists of one MCR, say).
  const asked = new Map<string, Promise<unknown>>();
  const lookup =
    input.lookup &&
    ((token: string, args: Record<string, unknown>) => {
      const key = `${token} ${JSON.stringify(args)}`;
      if (!asked.has(key)) asked.set(key, input.lookup!(token, args));
      return asked.get(key) as Promise<unknown>;
    });
  const built = new Map<string, unknown>();
  const memo = <T>(key: string, build: () => T): T => {
    if (!built.has(key)) built.set(key, build());
    return built.get(key) as T;
  };
  // Checks first with no remote read; only the checks that asked for a read are run again with it.
  const wanted = new Set<string>();
  const run = async (addresses: Iterable<string>, withLookup: boolean): Promise<Diagnostic[]> => {
    const diagnostics: Diagnostic[] = [];
    for (const address of addresses) {
      const decl = manifest.resources[address];
      const check = types.get(decl.token)?.crossCheck;
      if (!check) continue;
      const view: CrossCheckView = { address, resources: all, memo, resolve, stateRead: recorded !== undefined };
      if (withLookup) view.lookup = lookup;
      else if (lookup) Object.defineProperty(view, 'lookup', { get: () => void wanted.add(address) });
      for (const problem of await check(desired.get(address)!, view)) {
        diagnostics.push({ severity: 'error', summary: problem.message, detail: problem.detail, address, pos: { file: manifest.file, ...posAt(decl.properties, problem.path) } });
      }
    }
    return diagnostics;
  };
  const first = await run(desired.keys(), false);
  if (!wanted.size) return inFileOrder(first);
  // What the manifest shows against itself, which validate finds too, stops before any remote
  // read; what only state shows does not, so that every problem is said in one run.
  if (first.length && recorded && (await crossCheck({ manifest, types, desired })).length) return inFileOrder(first);
  const again = await run(wanted, true);
  return inFileOrder([...first.filter((d) => !wanted.has(d.address!)), ...again]);
}
