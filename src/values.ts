/**
 * The two special values that flow through evaluation: Unknown (not known until apply) and
 * Secret (never shown, encrypted at rest). Both serialize to plain JSON markers.
 */

/** A value that is not known until apply; `source` says where it will come from (for display). */
export class Unknown {
  constructor(readonly source?: string) {}
  toJSON(): { $unknown: string } {
    return { $unknown: this.source ?? '' };
  }
}

/** A value that must never be shown; `value` is the plaintext, only for handlers. */
export class Secret<T = unknown> {
  constructor(readonly value: T) {}
  toJSON(): string {
    return '[secret]';
  }
  toString(): string {
    return '[secret]';
  }
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
    // A plain loop: this copies every input and output of every resource a plan looks at.
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const v = reveal((value as Record<string, unknown>)[key]);
      if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      else out[key] = v;
    }
    return out as T;
  }
  return value;
}

/**
 * For reading only: the value itself when nothing in it is a Secret, else `reveal(value)`. A plan
 * reads every resource's inputs several times, and most hold no secret to unwrap.
 */
export function revealed<T>(value: T): T {
  return holdsSecret(value) ? reveal(value) : value;
}

function holdsSecret(value: unknown): boolean {
  if (value instanceof Secret) return true;
  if (Array.isArray(value)) return value.some(holdsSecret);
  if (value && typeof value === 'object' && !(value instanceof Unknown)) {
    for (const key of Object.keys(value)) if (holdsSecret((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** The value with every Secret replaced by `[secret]` and Unknown by its marker (for output). */
export function mask(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null));
}

/**
 * A copy of `obj` with the values at these paths wrapped as Secret (Unknown stays Unknown).
 * A path is dotted, and `[*]` stands for every item of a list: `peers[*].sharedKey`.
 */
export function wrapSecrets<T extends Record<string, unknown>>(obj: T, paths: string[] | undefined): T {
  if (!paths?.length) return obj;
  let out: unknown = obj;
  for (const path of paths) out = wrapAt(out, path.split('.'));
  return out as T;
}

function wrapAt(value: unknown, segments: string[]): unknown {
  if (segments.length === 0) {
    return value === undefined || value === null || value instanceof Secret || value instanceof Unknown ? value : new Secret(value);
  }
  if (!value || typeof value !== 'object' || value instanceof Secret || value instanceof Unknown) return value;
  const [head, ...rest] = segments;
  const each = head.endsWith('[*]');
  const key = each ? head.slice(0, -3) : head;
  const current = (value as Record<string, unknown>)[key];
  if (current === undefined) return value;
  const next = each ? (Array.isArray(current) ? current.map((item) => wrapAt(item, rest)) : current) : wrapAt(current, rest);
  return next === current ? value : { ...(value as Record<string, unknown>), [key]: next };
}

/** Top-level keys whose value is, or holds, a Secret: the same outputs are secret too. */
export function secretKeys(obj: Record<string, unknown>): string[] {
  const holds = (v: unknown): boolean =>
    v instanceof Secret || (Array.isArray(v) ? v.some(holds) : v !== null && typeof v === 'object' && !(v instanceof Unknown) && Object.values(v).some(holds));
  return Object.keys(obj).filter((k) => holds(obj[k]));
}
