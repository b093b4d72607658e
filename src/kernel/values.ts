/**
 * The two special values that flow through evaluation: Unknown (not known until apply) and
 * Secret (never shown, encrypted at rest). Both serialize to plain JSON markers.
 */

import { anySecretKnown, maskSecrets, notePlainText, noteSecretText } from './secret-mask.js';

/** A value that is not known until apply; `source` says where it will come from (for display). */
export class Unknown {
  constructor(readonly source?: string) {}
  toJSON(): { $unknown: string } {
    return { $unknown: this.source ?? '' };
  }
}

/** A value that must never be shown; `value` is the plaintext, only for handlers. */
export class Secret<T = unknown> {
  constructor(readonly value: T) {
    // Its text is masked in whatever plumb writes, should it escape this wrapper.
    noteSecret(value);
  }
  toJSON(): string {
    return '[secret]';
  }
  toString(): string {
    return '[secret]';
  }
}

/** Every string and number in a secret value, for the output mask (an Unknown's source is not a value). */
export function noteSecret(value: unknown): void {
  if (typeof value === 'string' || typeof value === 'number') noteSecretText(value);
  else if (Array.isArray(value)) for (const item of value) noteSecret(item);
  else if (value && typeof value === 'object' && !(value instanceof Unknown)) for (const item of Object.values(value)) noteSecret(item);
}

/**
 * fn::unsecret: the value with every Secret unwrapped, and the text of each made plain for the
 * output mask too (secret-mask.ts), so that it prints and is recorded as the author chose.
 */
export function unsecret<T>(value: T): T {
  const plain = reveal(value);
  if (holdsSecret(value)) notePlain(plain);
  return plain;
}

function notePlain(value: unknown): void {
  if (typeof value === 'string' || typeof value === 'number') notePlainText(value);
  else if (Array.isArray(value)) for (const item of value) notePlain(item);
  else if (value && typeof value === 'object' && !(value instanceof Unknown)) for (const item of Object.values(value)) notePlain(item);
}

/** Whether a value is the Unknown marker. */
export function isUnknown(value: unknown): value is Unknown {
  return value instanceof Unknown;
}

/** Whether a value, or anything inside it, is Unknown. */
export function containsUnknown(value: unknown): boolean {
  if (value instanceof Unknown) return true;
  if (value instanceof Secret) return containsUnknown(value.value);
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === 'object') return Object.values(value).some(containsUnknown);
  return false;
}

/** The value with every Secret unwrapped (for handlers and remote calls). */
export function reveal<T>(value: T): T {
  if (value instanceof Secret) return reveal(value.value) as T;
  if (Array.isArray(value)) return value.map(reveal) as T;
  if (value && typeof value === 'object' && !(value instanceof Unknown)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      put(out, key, reveal((value as Record<string, unknown>)[key]));
    }
    return out as T;
  }
  return value;
}

/** Sets a copied property, a key named `__proto__` included (as JSON.parse would keep it). */
function put(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** Whether a value, or anything inside it, is a Secret. */
export function holdsSecret(value: unknown): boolean {
  if (value instanceof Secret) return true;
  if (Array.isArray(value)) return value.some(holdsSecret);
  if (value && typeof value === 'object' && !(value instanceof Unknown)) {
    for (const key of Object.keys(value)) if (holdsSecret((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** The value as plain JSON for output: every Secret as `[secret]`, every Unknown as its marker, undefined as null. */
export function mask(value: unknown): unknown {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value) ?? 'null') as unknown);
}

/**
 * Whether two values are exactly equal: plain JSON data compared deeply, Secrets by their values.
 * Unknown equals nothing, not even itself: it is not known yet.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== 'object' || !(a instanceof Unknown);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Unknown || b instanceof Unknown) return false;
  if (a instanceof Secret || b instanceof Secret) return a instanceof Secret && b instanceof Secret && sameValue(a.value, b.value);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/**
 * A copy of `obj` with the values at these paths wrapped as Secret (Unknown stays Unknown).
 * A path is dotted, and `[*]` stands for every item of a list: `peers[*].sharedKey`.
 */
export function wrapSecrets<T extends Record<string, unknown>>(obj: T, paths: string[] | undefined): T {
  if (!paths?.length) return obj;
  let out: unknown = obj;
  for (const path of paths) out = wrapAt(out, path.split('.'), 0);
  return out as T;
}

function wrapAt(value: unknown, segments: string[], at: number): unknown {
  if (at === segments.length) {
    return value === undefined || value === null || value instanceof Secret || value instanceof Unknown ? value : new Secret(value);
  }
  if (!value || typeof value !== 'object' || value instanceof Secret || value instanceof Unknown) return value;
  const head = segments[at];
  const each = head.endsWith('[*]');
  const key = each ? head.slice(0, -3) : head;
  const current = (value as Record<string, unknown>)[key];
  if (current === undefined) return value;
  const next = each ? (Array.isArray(current) ? current.map((item) => wrapAt(item, segments, at + 1)) : current) : wrapAt(current, segments, at + 1);
  return next === current ? value : { ...(value as Record<string, unknown>), [key]: next };
}

/**
 * The value with every string that holds the text of a secret this process has held (a name the
 * API echoes back in another field) wrapped as Secret, as state keeps it (state/secrets.ts): what
 * is read back then compares equal to what state recorded. Only what is on the way is copied.
 */
export function secretTexts<T>(value: T): T {
  if (!anySecretKnown()) return value;
  if (typeof value === 'string') return (maskSecrets(value) === value ? value : new Secret(value)) as T;
  if (!value || typeof value !== 'object' || value instanceof Secret || value instanceof Unknown) return value;
  if (Array.isArray(value)) {
    const items = value.map(secretTexts);
    return (items.some((item, i) => item !== value[i]) ? items : value) as T;
  }
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const sealed = secretTexts(item);
    if (sealed !== item) put((out ??= { ...(value as Record<string, unknown>) }), key, sealed);
  }
  return (out ?? value) as T;
}

/**
 * Paths (`config.password`, `certificates[*].encodedCert`) of the values that are, or hold, a
 * Secret: the same outputs are secret too. A path goes down through plain maps, and through
 * lists with `[*]`, so a map with one secret field keeps its other fields readable and a list
 * stays a list: sealed whole, an output list read back as one Secret is no longer a list to
 * whatever compares it item by item.
 */
export function secretKeys(obj: Record<string, unknown>): string[] {
  const holds = (v: unknown): boolean => v instanceof Secret || (Array.isArray(v) ? v.some(holds) : v !== null && typeof v === 'object' && !(v instanceof Unknown) && Object.values(v).some(holds));
  // A key with a dot could not be told from a path: the map that holds it is secret whole.
  const plainMap = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Secret) && !(v instanceof Unknown) && !Object.keys(v).some((k) => k.includes('.'));
  const paths = new Set<string>();
  const walk = (value: unknown, at: string) => {
    if (!holds(value)) return;
    if (value instanceof Secret) paths.add(at);
    else if (plainMap(value)) for (const key of Object.keys(value as object)) walk((value as Record<string, unknown>)[key], at ? `${at}.${key}` : key);
    // The items of a list are one path: a field secret in one item is sealed in every item.
    else if (Array.isArray(value) && value.every((item) => !holds(item) || item instanceof Secret || plainMap(item))) for (const item of value) walk(item, `${at}[*]`);
    else paths.add(at);
  };
  for (const key of Object.keys(obj)) walk(obj[key], key);
  return [...paths];
}
