/**
 * An object plumb made was sent exactly the inputs it records: one it lacks was not sent, so
 * writing it into the manifest later is a change to make (an update, a replace, or a change
 * only recorded, as the type's rules say), never taken as the object's already. Only for an
 * object `plumb import` read, whose inputs are what the API reports, may the manifest's value of
 * an input the API never reports be adopted. For every registered type (of every provider) and
 * every field of its inputs, nested objects' fields included, an object recorded with all inputs
 * but that one, whose API reports nothing, is planned against a manifest giving it a value
 * other than its documented default.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { loadResourceTypes } from '../../src/cli/catalog.js';
import { classify } from '../../src/engine/planning/classify.js';
import type { ResourceType } from '../../src/engine/contracts/resource-type.js';
import type { ResourceState } from '../../src/engine/contracts/state.js';

const resourceTypes = await loadResourceTypes();

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema with its optional, nullable, default and pipe wrappers taken off. */
function bare(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type)) return bare(def.innerType as z.ZodType);
  if (def.type === 'pipe') return bare(def.in as z.ZodType);
  if (def.type === 'lazy') return bare((def.getter as () => z.ZodType)());
  return schema;
}

/** A value of the schema's kind; variants differ in every scalar they hold (an enum's options in turn). */
function sample(schema: z.ZodType, variant = 0): unknown {
  const inner = bare(schema);
  const def = defOf(inner);
  switch (def.type) {
    case 'string':
      return ['sample-value', 'other-value'][variant % 2];
    case 'number':
    case 'int':
    case 'bigint':
      return 7 + (variant % 2);
    case 'boolean':
      return variant % 2 === 0;
    case 'enum': {
      const options = Object.values(def.entries as Record<string, unknown>);
      return options[variant % options.length];
    }
    case 'literal':
      return (def.values as unknown[])[0];
    case 'object':
      return Object.fromEntries(Object.entries((inner as unknown as z.ZodObject<z.ZodRawShape>).shape).map(([k, s]) => [k, sample(s as z.ZodType, variant)]));
    case 'array':
      return [sample(def.element as z.ZodType, variant)];
    case 'record':
      return { key: sample(def.valueType as z.ZodType, variant) };
    case 'union':
      return sample((def.options as z.ZodType[])[0], variant);
    default:
      return ['sample-value', 'other-value'][variant % 2];
  }
}

/** How many distinct values a field can be given: two, or an enum's options (one for a single-valued enum or a literal). */
function variants(schema: z.ZodType): number {
  const def = defOf(bare(schema));
  if (def.type === 'enum') return Object.keys(def.entries as object).length;
  return def.type === 'literal' ? 1 : 2;
}

/** Every field path of an object schema, through nested objects (not through lists or maps). */
function fieldPaths(schema: z.ZodType, prefix: string[] = []): { path: string[]; schema: z.ZodType }[] {
  const inner = bare(schema);
  if (defOf(inner).type !== 'object') return [];
  return Object.entries((inner as unknown as z.ZodObject<z.ZodRawShape>).shape).flatMap(([key, s]) => [
    { path: [...prefix, key], schema: s as z.ZodType },
    ...fieldPaths(s as z.ZodType, [...prefix, key]),
  ]);
}

/** A copy of `value` without the field at `path`. */
function without(value: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const [head, ...rest] = path;
  const out = { ...value };
  if (!rest.length) delete out[head];
  else out[head] = without(out[head] as Record<string, unknown>, rest);
  return out;
}

const context = { gone: false, replaceRequested: false, options: { ignoreChanges: [], replaceOnChanges: [] }, dependsOn: [] };

function plan(type: ResourceType, recorded: Record<string, unknown>, desired: Record<string, unknown>, imported: boolean) {
  const prior: ResourceState = { address: 'thing', type: type.token, id: 'thing-1', inputs: recorded, outputs: {}, dependencies: [], status: 'ok', ...(imported ? { imported: true } : {}) };
  return classify('thing', type, desired, prior, false, context);
}

/** `value` with the field at `path` set to `field`. */
function withField(value: Record<string, unknown>, path: string[], field: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  return { ...value, [head]: rest.length ? withField(value[head] as Record<string, unknown>, rest, field) : field };
}

const cases = [...resourceTypes].flatMap(([token, type]) => {
  const full = sample(type.inputs as z.ZodType) as Record<string, unknown>;
  return fieldPaths(type.inputs as z.ZodType).map(({ path, schema }) => [`${token} ${path.join('.')}`, type, path, schema, full] as const);
});

describe('an input an object plumb made lacks, written into the manifest later, is a change', () => {
  it('covers every provider', () => expect(new Set(cases.map(([, type]) => type.provider))).toEqual(new Set(['interconnect', 'cloud', 'pipeline'])));

  // Of the values a field can be given, one (its default) may stand for the field left out;
  // every other is a change.
  it.each(cases)('%s', (_, type, path, schema, full) => {
    const values = [...new Map(Array.from({ length: variants(schema) }, (__, i) => sample(schema, i)).map((v) => [JSON.stringify(v), v])).values()];
    const recorded = without(full, path);
    const taken = values.filter((value) => plan(type, recorded, withField(full, path, value), false).action === 'noop');
    expect(taken.length, `${path.join('.')} added to an object made without it plans no change for ${JSON.stringify(taken)}: the object never gets it`).toBeLessThanOrEqual(1);
  });
});
