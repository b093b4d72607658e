/**
 * Values for the generated lifecycle suite, read off a type's zod input schema: what a field is
 * (an enum, a bounded number, a string of some pattern, a list, a map, an object), and values of
 * it other than the one it has, each one the field's own schema accepts. Whether a value fits
 * the whole input (rules across fields) is checked where the variation is made.
 */
import * as z from 'zod';

type Schema = z.core.$ZodType;
type Def = Record<string, any> & { type: string };

/** Wrappers that hold one schema inside (optional, default...), and where they keep it. */
const WRAPPERS: Record<string, (def: Def) => Schema> = {
  optional: (d) => d.innerType,
  nullable: (d) => d.innerType,
  default: (d) => d.innerType,
  prefault: (d) => d.innerType,
  readonly: (d) => d.innerType,
  catch: (d) => d.innerType,
  nonoptional: (d) => d.innerType,
  pipe: (d) => d.in,
  lazy: (d) => d.getter(),
};

/** A schema's definition. */
export function defOf(schema: Schema): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The schema under its wrappers, and whether one of them lets the value be left out. */
export function unwrap(schema: Schema): { inner: Schema; optional: boolean } {
  let inner = schema;
  let optional = false;
  for (let def = defOf(inner); WRAPPERS[def.type]; def = defOf(inner)) {
    if (def.type === 'optional' || def.type === 'default' || def.type === 'prefault') optional = true;
    inner = WRAPPERS[def.type](def);
  }
  return { inner, optional };
}

/** The fields of an object schema (under its wrappers), or undefined for another kind. */
export function shapeOf(schema: Schema): Record<string, Schema> | undefined {
  const def = defOf(unwrap(schema).inner);
  return def.type === 'object' ? (def.shape as Record<string, Schema>) : undefined;
}

/** The values a field may take when its schema lists them: enum members, literals, or the `allowed` a refined field declares. */
export function listed(inner: Schema): unknown[] | undefined {
  const def = defOf(inner);
  if (def.type === 'enum') return Object.values(def.entries as Record<string, unknown>);
  if (def.type === 'literal') return [...(def.values as unknown[])];
  const meta = z.globalRegistry.get(inner) as { allowed?: unknown[] } | undefined;
  return meta?.allowed;
}

/** Whether the field's own schema accepts a value. */
export function fits(schema: Schema, value: unknown): boolean {
  return z.safeParse(schema, value).success;
}

/** Whether two values are the same JSON. */
export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Values of the field other than `current` (the first ones likeliest to be accepted by the API
 * too), each accepted by the field's schema; `current` undefined asks for any value of it.
 */
export function otherValues(schema: Schema, current: unknown): unknown[] {
  const { inner } = unwrap(schema);
  const out: unknown[] = [];
  for (const value of rawCandidates(inner, current)) {
    if (value === undefined || same(value, current) || out.some((o) => same(o, value))) continue;
    if (fits(inner, value)) out.push(value);
  }
  return out;
}

/** Candidates by kind, not yet checked against the schema. */
function rawCandidates(inner: Schema, current: unknown): unknown[] {
  const values = listed(inner);
  if (values) return values;
  const def = defOf(inner);
  switch (def.type) {
    case 'boolean':
      return typeof current === 'boolean' ? [!current] : [true, false];
    case 'number':
    case 'int':
      return numbers(inner, current);
    case 'string':
      return strings(current);
    case 'array':
      return [[otherValues(def.element, undefined)[0]]];
    case 'record':
      return [{ generated: otherValues(def.valueType, undefined)[0] }];
    case 'object':
      return [madeObject(def.shape as Record<string, Schema>)];
    case 'union':
      return (def.options as Schema[]).flatMap((option) => (fits(option, current) ? [] : otherValues(option, undefined)));
    case 'unknown':
    case 'any':
      return typeof current === 'number' ? [current + 1] : typeof current === 'boolean' ? [!current] : strings(current);
    default:
      return [];
  }
}

/** An object with each required field given a value; undefined when one cannot be. */
function madeObject(shape: Record<string, Schema>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    if (unwrap(field).optional) continue;
    const value = otherValues(field, undefined)[0];
    if (value === undefined) return undefined;
    out[key] = value;
  }
  return out;
}

/** Numbers near the current one, then the bounds and round numbers between them. */
function numbers(inner: Schema, current: unknown): number[] {
  const bag = (inner as unknown as { _zod: { bag: { minimum?: number; maximum?: number } } })._zod.bag;
  const min = Number.isFinite(bag.minimum) ? bag.minimum! : undefined;
  const max = Number.isFinite(bag.maximum) ? bag.maximum! : undefined;
  // Doubled first: a value that moves in steps (sizes in tens, speeds) most often stays on one.
  const near = typeof current === 'number' ? [current * 2, current + 1, current - 1, current + 10, Math.floor(current / 2)] : [];
  const spread = min !== undefined && max !== undefined ? [Math.floor((min + max) / 2), max, min] : [];
  return [...near, ...spread, min, max, 1, 2, 10, 30, 100, 1000].filter((n): n is number => n !== undefined && Number.isFinite(n));
}

/** Strings made from the current one (a number in it moved on, a suffix), then common shapes. */
function strings(current: unknown): string[] {
  const made: string[] = [];
  if (typeof current === 'string' && current !== '') {
    // The last run of digits moved on keeps an address, a time or a version of its own shape.
    const last = /(\d+)(?!.*\d)/.exec(current);
    if (last) {
      const bumped = (n: number) => `${current.slice(0, last.index)}${String(n).padStart(last[1].length, '0')}${current.slice(last.index + last[1].length)}`;
      made.push(bumped(Number(last[1]) + 1), bumped(Math.max(0, Number(last[1]) - 1)));
    }
    made.push(`${current}-gen`, `${current}2`, `${current.slice(0, -1)}x`);
  }
  return [...made, 'plumb-generated', 'Generated', '10.9.9.9', '10.9.9.0/24', 'generated@example.test', 'https://generated.example.test/hook', '00:11:22:33:44:66', '12:00', '2031-01-01T00:00:00Z'];
}
