/**
 * One error per mistake: a required field written with a slip of its name is reported once, as
 * the unknown key, with the field meant named as the required one, never also as "missing
 * required". Derived from the registry: every resource type with a required top-level input, and
 * each required field of the objects inside its values, is covered without a line here.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { stringify } from 'yaml';
import { checkManifest } from '../../../src/engine/checking/check-manifest.js';
import type { EngineCatalog } from '../../../src/engine/contracts/catalog.js';
import { strict } from '../../../src/engine/contracts/strict.js';
import { pathName } from '../../../src/engine/checking/messages.js';
import { closestName } from '../../../src/kernel/did-you-mean.js';
import { loadFunctions, loadResourceTypes, providers } from '../../../src/cli/catalog.js';
import { sampleValues } from '../../support/sample-inputs.js';

const resourceTypes = await loadResourceTypes();
const functions = await loadFunctions();
const catalog: EngineCatalog = { resourceTypes, providers, functions: async () => functions };
const config = { 'cloud:region': 'cn-bj2', 'cloud:projectId': 'org-abc' };

type Path = Array<string | number>;
type Required = Array<{ path: Path; field: string; fields: string[] }>;

/** The required fields of every closed object a valid value holds, by the object's path. */
function requiredFields(schema: z.core.$ZodType, value: unknown, path: Path = [], out: Required = []): Required {
  const def = schema._zod.def as Record<string, any>;
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, z.core.$ZodType>;
      if (!isObject(value)) return out;
      for (const [key, field] of Object.entries(shape)) {
        if (key in value && !z.safeParse(field, undefined).success) out.push({ path, field: key, fields: Object.keys(shape) });
        if (key in value) requiredFields(field, value[key], [...path, key], out);
      }
      return out;
    }
    case 'array':
      if (Array.isArray(value)) value.forEach((item, i) => requiredFields(def.element, item, [...path, i], out));
      return out;
    case 'union':
      return requiredFields(def.options.find((o: z.core.$ZodType) => z.safeParse(o, value).success) ?? def.options[0], value, path, out);
    case 'pipe':
      return requiredFields(def.in._zod.def.type === 'transform' ? def.out : def.in, value, path, out);
    case 'lazy':
      return requiredFields(def.getter(), value, path, out);
    default:
      return def.innerType ? requiredFields(def.innerType, value, path, out) : out;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A slip of a field's name: its second last letter left out (`portSped` for `portSpeed`); none when that is nearer another field. */
function slipOf(field: string, fields: string[]): string | undefined {
  if (field.length < 5) return undefined;
  const slip = field.slice(0, -2) + field.slice(-1);
  return !fields.includes(slip) && closestName(slip, fields) === field ? slip : undefined;
}

/** `value` with the field at `path` renamed. */
function renamed(value: unknown, path: Path, from: string, to: string): unknown {
  const copy = structuredClone(value);
  const target = path.reduce<any>((v, step) => v[step], copy);
  const entries = Object.entries(target as Record<string, unknown>).map(([k, v]) => [k === from ? to : k, v]);
  for (const k of Object.keys(target)) delete target[k];
  Object.assign(target, Object.fromEntries(entries));
  return copy;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const manifestOf = (token: string, properties: unknown) => stringify({ name: 'slips', config, resources: { r: { type: token, properties } } });

describe('a misspelt required field is one error: the unknown key, naming the required field', () => {
  // The types with a required top-level input whose name a slip of one letter does not make nearer another.
  const types = [...resourceTypes.values()].filter((type) => requiredFields(strict(type.inputs), sampleValues(strict(type.inputs))[0]).some((r) => r.path.length === 0 && slipOf(r.field, r.fields)));
  it('the registry has types with required inputs', () => expect(types.length).toBeGreaterThan(10));
  for (const type of types) {
    it(type.token, async () => {
      const schema = strict(type.inputs);
      const value = sampleValues(schema)[0];
      let checked = 0;
      for (const { path, field, fields } of requiredFields(schema, value)) {
        const slip = slipOf(field, fields);
        if (!slip) continue;
        const { diagnostics } = await checkManifest(manifestOf(type.token, renamed(value, path, field, slip)), 'm.yaml', catalog, { env: {} });
        const where = pathName([...path, slip]);
        const shown = diagnostics.map((d) => `${d.summary} (${d.detail})`);
        expect(shown, `${where} for ${pathName([...path, field])}`).toHaveLength(1);
        expect(shown[0]).toMatch(new RegExp(`^unknown property "${escape(where)}" for ${type.token} \\(valid properties: .*; did you mean "${field}", which is required\\?\\)$`));
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
    });
  }
});
