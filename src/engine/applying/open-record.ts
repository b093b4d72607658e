import type { ResourceState } from '../contracts/state.js';
import { reveal } from '../../kernel/values.js';

/** A recorded object's inputs and outputs with their secrets open, as a type's verbs take them. */
export interface OpenRecord {
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

// Keyed by the record itself: a record is never changed in place (a change makes a new one), so
// what was opened for it stays true for as long as anything holds it.
const opened = new WeakMap<object, OpenRecord>();

/**
 * The record's values with their secrets open, opened once however many phases (settle, refresh,
 * plan, apply) hand them to a type. What it returns is shared: read it, never change it.
 */
export function openRecord(record: Pick<ResourceState, 'inputs' | 'outputs'>): OpenRecord {
  let open = opened.get(record);
  if (!open) opened.set(record, (open = { inputs: reveal(record.inputs), outputs: reveal(record.outputs) }));
  return open;
}

/** `record`, made from values already open (`open`, as read from the API): they are its open values. */
export function openedAs<T extends Pick<ResourceState, 'inputs' | 'outputs'>>(record: T, open: OpenRecord): T {
  opened.set(record, open);
  return record;
}
