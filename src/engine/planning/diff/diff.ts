import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { Secret, Unknown, mask } from '../../../kernel/values.js';

/** What a comparison of prior and desired inputs found. */
export interface InputDiff {
  /** Dotted paths that differ (`aEnd.vlan`, `resourceTags.env`). */
  changed: string[];
  /** RFC 6902 patch from prior to desired, with secrets masked and unknowns marked. */
  patch: Operation[];
  /** Dotted paths whose desired value is not known until apply. */
  unknown: string[];
}

/** Rules that shape a comparison. */
export interface DiffRules {
  /** Inputs the remote API fills in when omitted: leaving them out is not a change. */
  computed?: string[];
  /** ignoreChanges paths: the prior value is kept. */
  ignore?: string[];
}

/**
 * The desired inputs as they will be sent: omitted computed inputs and ignored paths take the
 * prior value, so neither shows as a change nor is sent.
 */
export function effectiveInputs(prior: Record<string, unknown> | undefined, desired: Record<string, unknown>, rules: DiffRules): Record<string, unknown> {
  if (!prior) return desired;
  const out: Record<string, unknown> = { ...desired };
  for (const key of rules.computed ?? []) if (out[key] === undefined && prior[key] !== undefined) out[key] = prior[key];
  for (const path of rules.ignore ?? []) copyPath(prior, out, splitPath(path));
  return out;
}

/**
 * Recorded inputs with each computed input state never had (left out, so the API chose it)
 * taken from the recorded outputs, for the keys `wanted` accepts: what the product has is what
 * a value written later, or a change made out of band, is compared with.
 */
export function withChosenInputs(
  inputs: Record<string, unknown>,
  outputs: Record<string, unknown>,
  computed: string[] | undefined,
  wanted: (key: string) => boolean = () => true,
): Record<string, unknown> {
  let out = inputs;
  for (const key of computed ?? []) {
    if (inputs[key] !== undefined || !wanted(key)) continue;
    const observed = outputs[key];
    if (observed === undefined || observed === null) continue;
    if (out === inputs) out = { ...inputs };
    out[key] = observed;
  }
  return out;
}

/** Compares prior and desired inputs (secrets compared by value, never shown); `shownDesired` is `mask(desired)` if the caller has it. */
export function diffInputs(prior: Record<string, unknown>, desired: Record<string, unknown>, shownDesired?: Record<string, unknown>): InputDiff {
  const seen = { unknown: false };
  const before = normalized(prior, false, seen) as Record<string, unknown>;
  const after = normalized(desired, true, seen) as Record<string, unknown>;
  const unknown = new Set<string>();
  // Most inputs hold no Unknown and most plans change little: skip the walks that would find nothing.
  if (seen.unknown) collectUnknown(desired, [], unknown);
  const unknownPaths = [...unknown].sort();
  const shown = () => shownDesired ?? (mask(desired) as Record<string, unknown>);
  if (!Object.keys(before).length) {
    // From nothing (a new object) the patch adds each top-level input, as jsonpatch would,
    // without its deep copies: a first apply diffs every resource this way.
    const keys = Object.keys(after);
    if (!keys.length) return { changed: [], patch: [], unknown: unknownPaths };
    const values = shown();
    const patch = keys.map((key): Operation => ({ op: 'add', path: `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, value: values[key] }));
    return { changed: keys.map((key) => (/^\d+$/.test(key) ? `[${key}]` : key)).sort(), patch, unknown: unknownPaths };
  }
  const ops = jsonpatch.compare(before, after);
  if (!ops.length) return { changed: [], patch: [], unknown: unknownPaths };
  const changed = new Set(ops.map((op) => pointerToPath(op.path)));
  const values = shown();
  const patch = ops.map((op) => (op.op === 'remove' ? op : ({ ...op, value: valueAt(values, op.path) } as Operation)));
  return { changed: [...changed].sort(), patch, unknown: unknownPaths };
}

/** Whether `path` equals `rule` or lies beneath it (`aEnd.vlan` under `aEnd`). */
export function pathMatches(path: string, rule: string): boolean {
  return path === rule || path.startsWith(`${rule}.`) || path.startsWith(`${rule}[`);
}

/** `/aEnd/vlan` → `aEnd.vlan`; `/entries/0/prefix` → `entries[0].prefix`. */
export function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

function splitPath(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const m of path.matchAll(/([^.[\]"]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g)) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(m[3]);
  }
  return out;
}

function copyPath(from: unknown, to: Record<string, unknown>, path: Array<string | number>): void {
  let src: any = from;
  let dst: any = to;
  for (let i = 0; i < path.length - 1; i++) {
    src = src?.[path[i]];
    if (src === undefined) return;
    if (dst[path[i]] === undefined || typeof dst[path[i]] !== 'object') dst[path[i]] = Array.isArray(src) ? [] : {};
    else dst[path[i]] = Array.isArray(dst[path[i]]) ? [...dst[path[i]]] : { ...dst[path[i]] };
    dst = dst[path[i]];
  }
  const last = path[path.length - 1];
  if (src?.[last] === undefined) delete dst[last];
  else dst[last] = src[last];
}

/**
 * Secrets unwrapped (and with `keepUnknown`, Unknown as its `{"$unknown": source}` marker), then
 * undefined, null, empty maps and empty lists dropped, so `{}` and an absent map compare equal.
 * One pass instead of a reveal copy and then a normalize copy; `seen.unknown` notes any Unknown.
 */
function normalized(value: unknown, keepUnknown: boolean, seen: { unknown: boolean }): unknown {
  if (value instanceof Secret) return normalized(value.value, keepUnknown, seen);
  if (value instanceof Unknown) {
    seen.unknown = true;
    return keepUnknown ? { $unknown: value.source ?? '' } : value;
  }
  if (Array.isArray(value)) return value.map((v) => normalized(v, keepUnknown, seen));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) {
      const n = normalized((value as Record<string, unknown>)[k], keepUnknown, seen);
      if (n === undefined || n === null) continue;
      if (Array.isArray(n) && n.length === 0) continue;
      if (typeof n === 'object' && !Array.isArray(n) && Object.keys(n).length === 0) continue;
      out[k] = n;
    }
    return out;
  }
  return value;
}

function collectUnknown(value: unknown, path: Array<string | number>, into: Set<string>): void {
  if (value instanceof Unknown) {
    into.add(path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), ''));
  } else if (Array.isArray(value)) value.forEach((v, i) => collectUnknown(v, [...path, i], into));
  else if (value && typeof value === 'object' && !(value instanceof Secret)) {
    for (const [k, v] of Object.entries(value)) collectUnknown(v, [...path, k], into);
  }
}

function valueAt(obj: unknown, pointer: string): unknown {
  let cur: any = obj;
  for (const seg of pointer.split('/').slice(1)) cur = cur?.[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
  return cur;
}
