/**
 * What a type's own rules say a change of its inputs is, for the generated lifecycle suite to hold
 * the plan to: the fields the manifest changes (with the schema's defaults; inputs the API
 * chooses, left out, are no change, as its diff.computedInputs say), then replace.on and
 * replace.when for whether it replaces the object, deletesFirst for the order, and
 * diff.recordOnly for a change recorded without a call.
 */
import * as z from 'zod';
import { deletesFirst } from '../../src/engine/planning/classify.js';
import type { ResourceType } from '../../src/engine/contracts/resource-type.js';
import type { ResourceState } from '../../src/engine/contracts/state.js';
import { diffInputs, effectiveInputs, pathMatches, withChosenInputs } from '../../src/engine/planning/diff/diff.js';
import { reveal } from '../../src/kernel/values.js';

/** What the plan must say of the change. */
export interface Expected {
  action: 'noop' | 'update' | 'replace';
  order?: 'delete-first' | 'create-first';
  /** An update of inputs sent only with an order: recorded, with no call. */
  recordOnly: boolean;
  /** The input paths that change. */
  changed: string[];
  /** The paths that force the replacement, with the rule's reason. */
  forced: string[];
}

/**
 * The change the type's rules make of going from what state records to the inputs a manifest
 * declares. `documented`: with the type's asDeclared applied to the record first, where a
 * documented default stands for an input left out; it alone may make the removal of an input no
 * change (a value added or changed, the API does not have yet).
 */
export function expectedChange(type: ResourceType, recorded: ResourceState, declared: Record<string, unknown>, documented = false): Expected {
  const desired = z.parse(type.inputs, declared) as Record<string, unknown>;
  const chosen = withChosenInputs(reveal(recorded.inputs), reveal(recorded.outputs), type.diff?.computedInputs, (key) => desired[key] !== undefined);
  const prior = documented && type.diff?.asDeclared ? (type.diff!.asDeclared(chosen, reveal(recorded.outputs), desired) as Record<string, unknown>) : chosen;
  const effective = effectiveInputs(prior, desired, { computed: type.diff?.computedInputs });
  const changed = diffInputs(prior, effective).changed;
  if (!changed.length) return { action: 'noop', recordOnly: false, changed, forced: [] };
  const forced = [...changed.filter((path) => type.replace.on.some((rule) => pathMatches(path, rule.path))), ...(type.replace.when?.rules(prior, effective) ?? []).map((rule) => rule.path)];
  if (forced.length) return { action: 'replace', order: deletesFirst(type, prior, effective) ? 'delete-first' : 'create-first', recordOnly: false, changed, forced };
  const onlyRecorded = changed.every((path) => (type.diff?.recordOnly ?? []).some((field) => pathMatches(path, field)));
  return { action: 'update', recordOnly: onlyRecorded, changed, forced };
}

/** What the plan says of an expectation, in the words `planned` gives a change. */
export function said(expected: Expected): string {
  if (expected.action === 'replace') return `replace ${expected.order}`;
  return expected.recordOnly ? 'update (recorded only)' : expected.action;
}

/** The values a value is made of (its leaves), as text. */
export function leavesOf(value: unknown): string[] {
  if (value === undefined) return [];
  if (value === null || typeof value !== 'object') return [String(value)];
  return Object.values(value).flatMap(leavesOf);
}

/** Whether a world's value stands for a value of the manifest: the same text, ignoring case and separators (`cloud_ssd`, `CLOUD-SSD`). */
export function standsFor(world: unknown, declared: string): boolean {
  const plain = (v: unknown) =>
    String(v)
      .toLowerCase()
      .replace(/[\s_-]/g, '');
  return world !== null && typeof world !== 'object' && plain(world) === plain(declared);
}
