/**
 * The variations of one input field the generated lifecycle suite applies, made from the type's
 * schema and a valid base input: another enum member, a number within bounds, a flipped boolean,
 * a string of the field's shape, a list grown or shrunk, an optional field added or removed, and
 * the same for every field of a nested object, list item or map; where asked, an input left out
 * written down with the value the API already has. A field naming another object of
 * the world (an id) is pointed at a second one, as the type's lifecycle spec made it; what cannot
 * be varied is a gap, said with its reason, never dropped.
 */
import * as z from 'zod';
import type { ResourceType } from '../../src/engine/contracts/resource-type.js';
import { defOf, fits, listed, otherValues, same, shapeOf, unwrap } from './generated-values.js';

type Schema = z.core.$ZodType;
type Path = Array<string | number>;

/** What a variation does to its field. */
export type VariationKind = 'change' | 'add' | 'adopt' | 'remove' | 'grow' | 'shrink' | 'point' | 'clear' | 'replace';

/** One change of the base input, as the manifest will declare it. */
export interface Variation {
  /** The dotted path varied (`aEnd.vlan`, `rules[0].port`). */
  path: string;
  kind: VariationKind;
  inputs: Record<string, unknown>;
  /** What the object is made with first, where not the base input: for a `clear`, the base with the field added. */
  from?: Record<string, unknown>;
  /** Where the new value comes from: the schema, another object of the world, or the spec's own inputs. */
  source: 'schema' | 'world' | 'spec';
}

/** A path the suite could not vary, and why. */
export interface Gap {
  path: string;
  why: string;
}

/** What variations of a type's fields are made from. */
export interface VaryContext {
  type: ResourceType;
  /** The base input, as its lifecycle spec's `create` declares it. */
  base: Record<string, unknown>;
  /** Ids of the objects made for it first (its spec's setup): a value among them names another object. */
  refs: Set<string>;
  /** The spec's other inputs (update, replace, another): where a second object is named, and values of last resort. */
  alternates: Array<Record<string, unknown>>;
  /** What the API reports of the base object: a value added must differ from what it has already. */
  observed: Record<string, unknown>;
  /**
   * Also write into the manifest, for each input the base leaves out, the value the API reports
   * for it (`adopt`): no change to make, so the plan must show none (an update would send
   * nothing, or what is there already).
   */
  adopt?: boolean;
}

/** Why a proposal of each kind found nothing. */
const GAP_WHY: Record<VariationKind, string> = {
  point: 'it names an object of the world, and its spec made no second one to point at',
  add: 'no value its schema and the whole input accept (nor one its spec gives)',
  adopt: '',
  change: 'no other value its schema and the whole input accept',
  remove: 'the whole input is not valid without it',
  grow: 'no further item its schema and the whole input accept',
  shrink: 'the whole input is not valid with fewer items',
  clear: 'no value its schema and the whole input accept to add first',
  replace: '',
};

/** A field named so names objects of the world: an id, or a list of them. */
const ID_NAME = /(Id|Ids|Uid|Uids)$/;

/** How deep nested objects, lists and maps are varied. */
const DEPTH = 3;
/** How many keys of one map are varied. */
const KEYS = 4;

interface Proposal {
  path: Path;
  kind: VariationKind;
  candidates: unknown[];
  /** The spec's own values go first: its schema says only a text's shape, or names objects of the world. */
  specFirst?: boolean;
  /** A variation already made (a reference moved with the others it goes with). */
  inputs?: Record<string, unknown>;
}

/** Every variation of one top-level field, and the paths under it that could not be varied. */
export function fieldVariations(field: string, ctx: VaryContext): { variations: Variation[]; gaps: Gap[] } {
  const schema = shapeOf(ctx.type.inputs)![field];
  const variations: Variation[] = [];
  const gaps: Gap[] = [];
  for (const p of proposals([field], schema, ctx.base[field], ctx, 0)) {
    const path = dotted(p.path);
    if (p.inputs) {
      variations.push({ path, kind: p.kind, inputs: p.inputs, source: 'world' });
      continue;
    }
    const picked = pick(p, ctx);
    if (picked) variations.push({ path, kind: p.kind, ...picked });
    // What the API reports in a shape the input does not take is no value to write down: the path is varied by its `add`.
    else if (p.kind !== 'adopt') gaps.push({ path, why: GAP_WHY[p.kind] });
    // A field whose rules replace the object only sometimes (clearing a remark no call clears)
    // is also set first and then left out again.
    if (picked && p.kind === 'add' && (ctx.type.replace.when?.inputs ?? []).includes(path)) variations.push({ path, kind: 'clear', from: picked.inputs, inputs: ctx.base, source: picked.source });
  }
  return { variations, gaps };
}

/** The first candidate (then the spec's own value at the path) that makes a valid whole input, and changes what the API has. */
function pick(p: Proposal, ctx: VaryContext): Pick<Variation, 'inputs' | 'source'> | undefined {
  const current = at(ctx.base, p.path);
  const observed = at(ctx.observed, p.path);
  const spec = p.kind === 'remove' || p.kind === 'adopt' ? [] : ctx.alternates.map((a) => at(a, p.path)).filter((v) => v !== undefined && !same(v, current));
  const generated = p.candidates.map((v): [unknown, Variation['source']] => [v, 'schema']);
  const given = spec.map((v): [unknown, Variation['source']] => [v, 'spec']);
  // A whole object its spec gives is tried before one made of the schema alone.
  const first = p.specFirst || (p.kind === 'add' && typeof given[0]?.[0] === 'object');
  const tries = first ? [...given, ...generated] : [...generated, ...given];
  for (const [value, source] of tries) {
    if (p.kind === 'add' && observed !== undefined && looselySame(value, observed)) continue;
    const inputs = withValue(ctx.base, p.path, value);
    if (fits(ctx.type.inputs, inputs)) return { inputs, source };
  }
  return undefined;
}

/** What to try at one path, and under it. */
function proposals(path: Path, schema: Schema, value: unknown, ctx: VaryContext, depth: number): Proposal[] {
  const { inner, optional } = unwrap(schema);
  const named = namesObjects(path, inner);
  // A text's shape is all its schema says (a service's or a region's name is the API's to know),
  // and an id names what the API has: a value the spec gives is tried first.
  const specFirst = named || ID_NAME.test(String(path[path.length - 1])) || (defOf(inner).type === 'string' && !listed(inner));
  if (value === undefined) {
    const held = at(ctx.observed, path);
    const adopt: Proposal[] = ctx.adopt && held !== undefined && held !== null ? [{ path, kind: 'adopt', candidates: [held] }] : [];
    return [{ path, kind: 'add', candidates: named ? [] : otherValues(schema, undefined), specFirst }, ...adopt];
  }
  const remove: Proposal[] = optional ? [{ path, kind: 'remove', candidates: [undefined] }] : [];
  if (named || isReference(value, ctx)) return [pointed(path, value, ctx), ...remove];
  const def = defOf(inner);
  const deeper = depth < DEPTH;
  if (def.type === 'object' && deeper) return [...fieldsOf(path, def.shape as Record<string, Schema>, value as Record<string, unknown>, ctx, depth), ...remove];
  if (def.type === 'array' && deeper) return [...listProposals(path, def.element as Schema, value as unknown[], ctx, depth), ...remove];
  if (def.type === 'record' && deeper) return [...mapProposals(path, def.valueType as Schema, value as Record<string, unknown>, ctx, depth), ...remove];
  if (def.type === 'array' || def.type === 'record' || def.type === 'object') return remove;
  if (def.type === 'union' && deeper) {
    const option = (def.options as Schema[]).find((o) => fits(o, value));
    const shape = option && shapeOf(option);
    if (shape) return [...fieldsOf(path, shape, value as Record<string, unknown>, ctx, depth), ...remove];
  }
  return [{ path, kind: 'change', candidates: otherValues(schema, value), specFirst }, ...remove];
}

function fieldsOf(path: Path, shape: Record<string, Schema>, value: Record<string, unknown>, ctx: VaryContext, depth: number): Proposal[] {
  return Object.entries(shape).flatMap(([key, s]) => proposals([...path, key], s, value[key], ctx, depth + 1));
}

/** A list: its first item's fields varied, an item added, the last one removed. */
function listProposals(path: Path, element: Schema, list: unknown[], ctx: VaryContext, depth: number): Proposal[] {
  const first = list.length ? proposals([...path, 0], element, list[0], ctx, depth + 1).filter((p) => p.kind !== 'remove') : [];
  // An item changed into one the list has already is no item of its own.
  const out = first.map((p) => (p.path.length === path.length + 1 ? { ...p, candidates: p.candidates.filter((c) => !list.some((l) => same(l, c))) } : p));
  const fresh = list.length && defOf(unwrap(element).inner).type === 'object' ? variedItems(element, list, ctx, depth) : otherValues(element, undefined);
  out.push({ path, kind: 'grow', candidates: fresh.filter((item) => !list.some((l) => same(l, item))).map((item) => [...list, item]) });
  if (list.length > 1) out.push({ path, kind: 'shrink', candidates: [list.slice(0, -1)] });
  return out;
}

/** Items like the last one with one of its fields varied: a second item of the same kind. */
function variedItems(element: Schema, list: unknown[], ctx: VaryContext, depth: number): unknown[] {
  const last = list[list.length - 1];
  return proposals([], element, last, ctx, depth + 1)
    .filter((p) => p.kind !== 'adopt')
    .flatMap((p) => p.candidates.map((c) => withValue(last as Record<string, unknown>, p.path, c)));
}

/** A map: the value of each of its first keys varied, a key added, the last one removed. */
function mapProposals(path: Path, valueType: Schema, map: Record<string, unknown>, ctx: VaryContext, depth: number): Proposal[] {
  const keys = Object.keys(map);
  const out = keys.slice(0, KEYS).flatMap((key) => proposals([...path, key], valueType, map[key], ctx, depth + 1).filter((p) => p.kind !== 'remove'));
  // A map of values of any kind is the API's (a service's settings): its keys are the API's to
  // name, so only their values are varied.
  const kind = defOf(unwrap(valueType).inner).type;
  if (kind === 'unknown' || kind === 'any') return out;
  const sample = keys.length ? map[keys[keys.length - 1]] : undefined;
  const fresh = sample === undefined ? otherValues(valueType, undefined) : [sample, ...otherValues(valueType, sample)];
  out.push({ path, kind: 'grow', candidates: fresh.map((v) => ({ ...map, generated: v })) });
  if (keys.length > 1) out.push({ path, kind: 'shrink', candidates: [Object.fromEntries(Object.entries(map).slice(0, -1))] });
  return out;
}

/**
 * A field naming objects of the world, pointed at others as one of the spec's inputs does; the
 * other top-level fields naming objects that input changes go with it (a VPC's subnets move with it).
 */
function pointed(path: Path, value: unknown, ctx: VaryContext): Proposal {
  for (const other of ctx.alternates) {
    const moved = at(other, path);
    if (moved === undefined || same(moved, value)) continue;
    let inputs = withValue(ctx.base, path, moved);
    if (path.length === 1) {
      for (const [key, v] of Object.entries(other)) if (!same(v, ctx.base[key]) && (ID_NAME.test(key) || isReference(v, ctx) || isReference(ctx.base[key], ctx))) inputs = withValue(inputs, [key], v);
    }
    if (fits(ctx.type.inputs, inputs)) return { path, kind: 'point', candidates: [], inputs };
  }
  return { path, kind: 'point', candidates: [] };
}

/** Whether a text field, or a list of them, names objects of the world by its name (`vpcId`, `subnetIds`). */
function namesObjects(path: Path, inner: Schema): boolean {
  const name = [...path].reverse().find((p) => typeof p === 'string');
  const def = defOf(inner);
  const text = def.type === 'string' || (def.type === 'array' && defOf(unwrap(def.element as Schema).inner).type === 'string');
  return text && typeof name === 'string' && ID_NAME.test(name);
}

/** Whether a value names objects made first: one of their ids, or a list of them. */
function isReference(value: unknown, ctx: VaryContext): boolean {
  if (typeof value === 'string') return ctx.refs.has(value);
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && ctx.refs.has(v));
}

/** Loosely the same: as text, ignoring case. */
function looselySame(a: unknown, b: unknown): boolean {
  return typeof a !== 'object' && String(a).toLowerCase() === String(b).toLowerCase();
}

/** The value at a path, or undefined. */
export function at(value: unknown, path: Path): unknown {
  let cur = value;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}

/** A copy with the value at a path set (removed when undefined). */
export function withValue<T>(value: T, path: Path, next: unknown): T {
  if (!path.length) return next as T;
  const [key, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  const child = withValue(copy[key], rest, next);
  if (child === undefined && !Array.isArray(copy)) delete copy[key];
  else copy[key] = child;
  return copy as T;
}

/** `a.b[0].c` for a path. */
export function dotted(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
}
