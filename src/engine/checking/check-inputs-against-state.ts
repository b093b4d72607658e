import type { Diagnostic } from '../../kernel/diagnostics.js';
import type { Manifest } from '../../manifest/ast.js';
import { Secret, Unknown } from '../../kernel/values.js';
import { resourceInputProblems } from './check-manifest.js';
import type { EngineCatalog } from '../contracts/catalog.js';
import { hasUnknownKeys } from '../contracts/strict.js';

/**
 * The inputs a planning command's manifest check left for when state is read (see
 * CheckOptions.againstState), checked before its first remote call: every resource's, but for
 * those state shows applied as they are — they passed when they were applied, and a reference not
 * known yet is resolved by the plan, which checks what it resolves to. Returns the problems, and
 * the inputs that passed, for the cross-checks. Inputs applied as they are that hold a key their
 * type does not declare (applied before inputs were strict) are checked all the same.
 */
export function checkInputsAgainstState(
  manifest: Manifest,
  catalog: EngineCatalog,
  inputs: Map<string, Record<string, unknown>>,
  recorded: Record<string, { type: string; inputs: Record<string, unknown> }>,
): { diagnostics: Diagnostic[]; valid: Map<string, Record<string, unknown>> } {
  const diagnostics: Diagnostic[] = [];
  const valid = new Map<string, Record<string, unknown>>();
  for (const [address, desired] of inputs) {
    const decl = manifest.resources[address];
    const was = recorded[address];
    const type = catalog.resourceTypes.get(decl.token)!;
    // Applied as it is, but with a key the type does not declare: applied before inputs were
    // strict, so the key was never sent. It is refused here as validate refuses it.
    if (!(was?.type === decl.token && appliedAsIs(desired, was.inputs) && !hasUnknownKeys(type.inputs, desired))) {
      const problems = resourceInputProblems(decl, type, desired, manifest.file);
      diagnostics.push(...problems);
      if (problems.length) continue;
    }
    valid.set(address, desired);
  }
  return { diagnostics, valid };
}

/** Whether what is known of the desired inputs is what was applied (a value not known yet matches anything). */
function appliedAsIs(desired: unknown, applied: unknown): boolean {
  if (desired instanceof Unknown) return true;
  if (desired instanceof Secret) desired = desired.value;
  if (applied instanceof Secret) applied = applied.value;
  if (desired === applied) return true;
  if (desired === null || applied === null || typeof desired !== 'object' || typeof applied !== 'object' || Array.isArray(desired) !== Array.isArray(applied)) return false;
  const keys = Object.keys(desired);
  if (keys.length !== Object.keys(applied).length) return false;
  return keys.every((key) => Object.hasOwn(applied, key) && appliedAsIs((desired as Record<string, unknown>)[key], (applied as Record<string, unknown>)[key]));
}
