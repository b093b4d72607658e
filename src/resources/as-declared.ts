/**
 * Building blocks for a type's `asDeclared` rule: recorded inputs re-expressed in the manifest's
 * terms, so that an object whose product matches the manifest plans no change, whether it was
 * made by plumb or imported. Each helper returns a copy and leaves what it was given alone;
 * Secret and Unknown values pass through as they are (an Unknown is never equal to anything).
 */
import type { RecordOrigin } from '../engine/contracts/resource-type.js';
import { Unknown, reveal, sameValue } from '../kernel/values.js';

type Inputs = Record<string, unknown>;

/** Whether a value is set: neither undefined nor null. */
function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Whether two values are the same, secrets compared by their content; an Unknown equals nothing. */
export function sameInput(a: unknown, b: unknown): boolean {
  return sameValue(reveal(a), reveal(b));
}

/**
 * Inputs the remote API never reports (a promo code, a purchase's duration): where the record of
 * an object `plumb import` read has none, the manifest's value is taken as the object's. An
 * object plumb made was sent exactly its recorded inputs: one it lacks was not sent, and writing
 * it into the manifest later is a change, so its record is left as it is. Only for inputs a
 * type's documentation says so of.
 */
export function unreportedFromManifest<T extends object>(recordedIn: T, desiredIn: T, keys: readonly string[], origin: RecordOrigin | undefined): T {
  const recorded = recordedIn as Inputs;
  const desired = desiredIn as Inputs;
  if (!origin?.imported) return recordedIn;
  let out = recorded;
  for (const key of keys) {
    if (given(recorded[key]) || !given(desired[key]) || desired[key] instanceof Unknown) continue;
    if (out === recorded) out = { ...recorded };
    out[key] = desired[key];
  }
  return out as T;
}

/**
 * Inputs with a documented default: the default recorded where the manifest leaves the input
 * out is the same as leaving it out, and the default written where state has none (an import
 * that read nothing for it) is the same as what is recorded.
 */
export function defaultsAsDeclared<T extends object>(recordedIn: T, desiredIn: T, defaults: Readonly<Record<string, unknown>>): T {
  const recorded = recordedIn as Inputs;
  const desired = desiredIn as Inputs;
  let out = recorded;
  for (const [key, value] of Object.entries(defaults)) {
    const was = recorded[key];
    const want = desired[key];
    let next: unknown = was;
    if (!given(want) && given(was) && sameInput(was, value)) next = undefined;
    else if (given(want) && !given(was) && sameInput(want, value)) next = want;
    if (next === was) continue;
    if (out === recorded) out = { ...recorded };
    if (next === undefined) delete out[key];
    else out[key] = next;
  }
  return out as T;
}

/**
 * Fields of a nested object the API fills in when the manifest leaves them out (a VXC end's
 * VLAN): a recorded value the manifest does not give is whatever the API chose, so it is left
 * out; `allocate` values written in the manifest (VLAN 0) ask the API to choose, and match any
 * recorded value.
 */
export function leftToApi(recorded: Inputs | undefined, desired: Inputs | undefined, fields: Readonly<Record<string, readonly unknown[]>>): Inputs | undefined {
  if (!recorded || !desired) return recorded;
  let out = recorded;
  for (const [field, allocate] of Object.entries(fields)) {
    const want = desired[field];
    if (!given(recorded[field])) continue;
    const chosen = !given(want) ? undefined : allocate.some((a) => sameInput(a, want)) ? want : recorded[field];
    if (chosen === recorded[field]) continue;
    if (out === recorded) out = { ...recorded };
    if (chosen === undefined) delete out[field];
    else out[field] = chosen;
  }
  return out;
}
