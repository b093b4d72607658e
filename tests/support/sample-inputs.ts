/**
 * Values made from a zod schema alone, for tests derived from the registries: every optional
 * field given, one item per list, one entry per map, and each choice of a union taken in one of
 * the values. Leaves take the first of a few plausible values the leaf's own schema accepts (its
 * allowed values first), so refinements on a leaf hold; what a whole object's refinement refuses
 * (two fields that exclude each other) is left out until the value passes.
 */
import * as z from 'zod';
import { strict } from '../../src/engine/contracts/strict.js';

type Def = Record<string, any>;

/** Plausible texts, the first a leaf accepts is taken. */
const TEXTS = [
  'a1',
  'Default',
  '1',
  '22',
  '10.0.0.0/16',
  '10.0.0.1',
  '192.168.1.0/24',
  'https://example.com/hook',
  'a@example.com',
  '2030-01-01T00:00:00Z',
  '2030-01-01',
  '123e4567-e89b-42d3-a456-426614174000',
  '123456789012',
  'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC example',
  'abcdefgh',
  'a'.repeat(32),
  'example.com',
  '00:11:22:33:44:55',
  '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
  '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----',
];
/** Plausible numbers, the first a leaf accepts is taken. */
const NUMBERS = [1, 10, 100, 1000, 2, 20, 64, 65000, 4, 30, 12, 0, 10000, 100000, 4200000000];

/** Which option each union takes (by default its first). */
type Choices = Map<Def, number>;

/**
 * Values the schema accepts: the first with every union's first option, then one for each
 * other option of each union (so every variant's objects appear in some value).
 */
export function sampleValues(schema: z.core.$ZodType): unknown[] {
  const unions: Def[] = [];
  const first = sample(schema, new Map(), unions, 0);
  const out = [settle(schema, first)];
  for (const union of new Set(unions)) {
    for (let i = 1; i < union.options.length; i++) out.push(settle(schema, sample(schema, new Map([[union, i]]), [], 0)));
  }
  return out;
}

function sample(schema: z.core.$ZodType, choices: Choices, unions: Def[], depth: number): unknown {
  const def = schema._zod.def as Def;
  if (depth > 12) return undefined;
  const next = (s: z.core.$ZodType) => sample(s, choices, unions, depth + 1);
  switch (def.type) {
    case 'object':
      return Object.fromEntries(Object.entries(def.shape as Record<string, z.core.$ZodType>).map(([key, field]) => [key, next(field)]));
    case 'array':
      return Array.from({ length: Math.max(1, minimum(def, 'min_length')) }, () => next(def.element));
    case 'record':
      return { [String(leaf(def.keyType, TEXTS) ?? 'k')]: next(def.valueType) };
    case 'union': {
      unions.push(def);
      return next(def.options[choices.get(def) ?? 0]);
    }
    case 'pipe':
      return next(def.in._zod.def.type === 'transform' ? def.out : def.in);
    case 'lazy':
      return next(def.getter());
    case 'intersection':
      return { ...(next(def.left) as object), ...(next(def.right) as object) };
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return next(def.innerType);
    case 'enum':
      return Object.values(def.entries)[0];
    case 'literal':
      return def.values[0];
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'number':
    case 'int':
      return leaf(schema, NUMBERS);
    case 'string':
      return leaf(schema, TEXTS);
    default:
      return 'x';
  }
}

/** The least of a check's bounds on the schema (`min_length`), 0 without one. */
function minimum(def: Def, check: string): number {
  const found = (def.checks ?? []).map((c: any) => c._zod.def).find((d: Def) => d.check === check);
  return found?.minimum ?? 0;
}

/** The first of the schema's allowed values, its examples, then the candidates, that it accepts; undefined when none. */
function leaf(schema: z.core.$ZodType, candidates: readonly unknown[]): unknown {
  return [...examples(schema, candidates === NUMBERS), ...candidates].find((candidate) => z.safeParse(schema, candidate).success);
}

/** The values a schema's own words give: its allowed values, and what its description and messages quote (`x`, 'x', e.g. x, such as x). */
function examples(schema: z.core.$ZodType, numbers: boolean): unknown[] {
  const meta = z.globalRegistry.get(schema) ?? {};
  const words: string[] = [String(meta.description ?? '')];
  for (let cur: any = schema, i = 0; cur && i < 10; cur = cur._zod.def.innerType ?? cur._zod.def.in, i++) {
    words.push(String(z.globalRegistry.get(cur)?.description ?? ''));
    for (const check of cur._zod.def.checks ?? []) words.push(String(check._zod.def.error?.() ?? check._zod.def.message ?? ''));
  }
  const quoted = words.flatMap((text) =>
    [...text.matchAll(/(?:(?:e\.g\.|such as)\s+)?(?:`([^`]+)`|'([^']+)'|([^\s,;)`']+))/g)]
      .filter((m) => m[1] ?? m[2] ?? /^(e\.g\.|such as)/.test(m[0]))
      .map((m) => (m[1] ?? m[2] ?? m[3]).replace(/[.…]+$/, '')),
  );
  const allowed = Array.isArray(meta.allowed) ? meta.allowed : [];
  return [...allowed, ...(numbers ? quoted.map(Number).filter((n) => !Number.isNaN(n)) : quoted)];
}

/**
 * The value with what a refinement of an enclosing object refuses left out: each issue's field,
 * where it is optional, else the deepest optional field above it; the value as it is when that
 * does not make it pass.
 */
function settle(schema: z.core.$ZodType, value: unknown): unknown {
  const checked = strict(schema);
  let current = structuredClone(value);
  for (let round = 0; round < 100; round++) {
    const result = z.safeParse(checked, current);
    if (result.success) return current;
    const fixed = result.error.issues.some((issue) => {
      const path = issue.path as Array<string | number>;
      return otherLeaf(schema, current, path) || dropOptional(schema, current, path) || dropOneField(schema, current, path);
    });
    if (!fixed) return current;
  }
  return current;
}

/** Tries the next candidate at a leaf an enclosing object's refinement refused; whether there was one. */
function otherLeaf(schema: z.core.$ZodType, value: unknown, path: Array<string | number>): boolean {
  const key = path[path.length - 1];
  const parent = path.slice(0, -1).reduce<any>((v, step) => v?.[step], value);
  const given = parent?.[key];
  if (key === undefined || (typeof given !== 'string' && typeof given !== 'number')) return false;
  const field = fieldAt(schema, path, value);
  const pool = typeof given === 'number' ? NUMBERS : TEXTS;
  const tried = (triedAt.get(parent) ?? new Map<PropertyKey, Set<unknown>>().set(key, new Set())) as Map<PropertyKey, Set<unknown>>;
  triedAt.set(parent, tried);
  const seen = tried.get(key) ?? new Set<unknown>();
  tried.set(key, seen.add(given));
  const next = [...(field ? examples(field, typeof given === 'number') : []), ...pool].find((c) => !seen.has(c) && (!field || z.safeParse(field, c).success));
  if (next === undefined) return false;
  parent[key] = next;
  return true;
}

/** The candidates tried at each leaf, by the object holding it. */
const triedAt = new WeakMap<object, Map<PropertyKey, Set<unknown>>>();

/** Removes one optional field of the object at `path` (a refinement of the whole object refused it); whether one was. */
function dropOneField(schema: z.core.$ZodType, value: unknown, path: Array<string | number>): boolean {
  const target = path.reduce<any>((v, step) => v?.[step], value);
  if (!target || typeof target !== 'object' || Array.isArray(target)) return false;
  const key = Object.keys(target)
    .reverse()
    .find((k) => optionalAt(schema, [...path, k], value));
  if (key === undefined) return false;
  delete target[key];
  return true;
}

/** Removes the deepest optional field on `path` (or above it) from `value`; whether one was. */
function dropOptional(schema: z.core.$ZodType, value: unknown, path: Array<string | number>): boolean {
  for (let end = path.length; end > 0; end--) {
    const at = path.slice(0, end);
    const key = at[at.length - 1];
    const parent = at.slice(0, -1).reduce<any>((v, step) => v?.[step], value);
    if (typeof key !== 'string' || !parent || typeof parent !== 'object' || !(key in parent)) continue;
    if (!optionalAt(schema, at, value)) continue;
    delete parent[key];
    return true;
  }
  return false;
}

/** Whether the field at `path` may be left out. */
function optionalAt(schema: z.core.$ZodType, path: Array<string | number>, value: unknown): boolean {
  return fieldAt(schema, path, value)?._zod.optin === 'optional';
}

/** The schema of the field at `path`. */
function fieldAt(schema: z.core.$ZodType, path: Array<string | number>, value: unknown): any {
  let cur: any = schema;
  let at: any = value;
  for (const step of path) {
    cur = bare(cur, at);
    at = at?.[step];
    cur = typeof step === 'number' ? cur?._zod.def.element : (cur?._zod.def.shape?.[step] ?? cur?._zod.def.valueType);
  }
  return cur;
}

/** The object, list or map beneath wrappers, and the option of a union the value fits best. */
function bare(schema: any, value: unknown): any {
  let cur = schema;
  for (let i = 0; i < 20 && cur; i++) {
    const def = cur._zod.def as Def;
    if (def.type === 'object' || def.type === 'array' || def.type === 'record') return cur;
    if (def.type === 'union') cur = def.options.find((o: any) => z.safeParse(o, value).success) ?? def.options[0];
    else if (def.type === 'pipe') cur = def.in._zod.def.type === 'transform' ? def.out : def.in;
    else if (def.type === 'lazy') cur = def.getter();
    else cur = def.innerType;
  }
  return cur;
}
