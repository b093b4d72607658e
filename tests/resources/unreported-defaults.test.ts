/**
 * An input whose documentation gives a default, absent from the record of an object plumb made
 * without it (and not reported by the API), is that default: writing another value into the
 * manifest is a change to make, never taken as the object's already. For every type the registry
 * holds, of every provider, and every top-level input whose description says `Default <value>.`,
 * the type's asDeclared is asked about an object recorded without the input, whose API reports
 * nothing of it, against a manifest giving another value.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { loadResourceTypes } from '../../src/cli/catalog.js';

const resourceTypes = await loadResourceTypes();

/** The default an input's description documents (`Default false.`, `Default \`AUTO\`.`), if one. */
function documentedDefault(schema: z.ZodType): { value: unknown } | undefined {
  const found = /Default (`?)([A-Za-z0-9_.-]+)\1[.;,]/.exec(schema.description ?? '');
  if (!found || found[2] === 'empty' || found[2] === 'none') return undefined;
  const text = found[2];
  if (text === 'true' || text === 'false') return { value: text === 'true' };
  if (!found[1] && /^-?\d+(\.\d+)?$/.test(text)) return { value: Number(text) };
  return { value: text };
}

/** A value other than the default, of its type. */
function another(value: unknown): unknown {
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value + 1;
  return `${String(value)}_other`;
}

const cases = [...resourceTypes]
  .filter(([, type]) => type.diff?.asDeclared)
  .flatMap(([token, type]) => {
    const shape = (type.inputs as unknown as z.ZodObject<z.ZodRawShape>).shape ?? {};
    return Object.entries(shape).flatMap(([field, schema]) => {
      const documented = documentedDefault(schema as z.ZodType);
      return documented ? [[`${token} ${field}`, type, field, documented.value] as const] : [];
    });
  });

describe('an input with a documented default, unknown for an object, is its default', () => {
  it('finds inputs to check, of every provider', () => expect(new Set(cases.map(([, type]) => type.provider))).toEqual(new Set(['interconnect', 'cloud', 'pipeline'])));

  it.each(cases)('%s', (_, type, field, value) => {
    const desired = { [field]: another(value) };
    const declared = type.diff!.asDeclared!({}, { id: 'lucky_otter' }, desired, { imported: false }) as Record<string, unknown>;
    expect(declared[field] ?? value, `the object is taken to have ${field} ${JSON.stringify(desired[field])}, as the manifest says, though nothing says it has`).toEqual(value);
  });
});
