/**
 * Strict by construction (src/engine/contracts/strict.ts), derived from the registries: for every
 * resource type and every lookup function, the values its schema makes (support/sample-inputs.ts)
 * pass validate; `bogusProp`, and a slip of a field's name, added to each object at any depth of
 * them is refused by validate at its position, with what is valid and the field likely meant; a
 * key added to a map declared free-form is not; every map is declared; and the JSON Schema sets
 * `additionalProperties: false` on every object but those maps. A type or function added next is
 * covered without a line here.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { stringify } from 'yaml';
import { editorSchema } from '../../src/cli/schema.js';
import { checkManifest } from '../../src/engine/checking/check-manifest.js';
import { freeForm as declareFreeForm, freeFormReason, hasUnknownKeys, isFreeForm, strict } from '../../src/engine/contracts/strict.js';
import { checkInputsAgainstState } from '../../src/engine/checking/check-inputs-against-state.js';
import type { EngineCatalog } from '../../src/engine/contracts/catalog.js';
import { pathName } from '../../src/engine/checking/messages.js';
import { loadFunctions, loadResourceTypes, providers } from '../../src/cli/catalog.js';
import { sampleValues } from '../support/sample-inputs.js';

const resourceTypes = await loadResourceTypes();
const functions = await loadFunctions();
const catalog: EngineCatalog = { resourceTypes, providers, functions: async () => functions };
const config = { 'cloud:region': 'cn-bj2', 'cloud:projectId': 'org-abc' };

type Path = Array<string | number>;

/** The objects and free-form maps a valid value holds, by path, as its schema declares them. */
interface Places {
  /** Objects that take only the keys they name, with those names. */
  objects: Array<{ path: Path; fields: string[] }>;
  /** Maps whose keys the API defines (records, objects with a catchall). */
  maps: Path[];
}

/** Walks a valid value with its schema: which option of a union it takes is the one it passes. */
function places(schema: z.core.$ZodType, value: unknown, path: Path = [], out: Places = { objects: [], maps: [] }): Places {
  const def = schema._zod.def as Record<string, any>;
  switch (def.type) {
    case 'object':
      if (isFreeForm(schema)) out.maps.push(path);
      else out.objects.push({ path, fields: Object.keys(def.shape) });
      for (const [key, field] of Object.entries(def.shape as Record<string, z.core.$ZodType>)) if (isObject(value) && key in value) places(field, value[key], [...path, key], out);
      return out;
    case 'record':
      out.maps.push(path);
      if (isObject(value)) for (const [key, item] of Object.entries(value)) places(def.valueType, item, [...path, key], out);
      return out;
    case 'array':
      if (Array.isArray(value)) value.forEach((item, i) => places(def.element, item, [...path, i], out));
      return out;
    case 'union':
      return places(def.options.find((o: z.core.$ZodType) => z.safeParse(o, value).success) ?? def.options[0], value, path, out);
    case 'pipe':
      return places(def.in._zod.def.type === 'transform' ? def.out : def.in, value, path, out);
    case 'lazy':
      return places(def.getter(), value, path, out);
    default:
      return def.innerType ? places(def.innerType, value, path, out) : out;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of `value` with `key: extra` added to the object at `path`. */
function withKey(value: unknown, path: Path, key: string, extra: unknown): Record<string, unknown> {
  const copy = structuredClone(value) as Record<string, unknown>;
  const target = path.reduce<any>((v, step) => v[step], copy);
  target[key] = extra;
  return copy;
}

/** A slip of a field's name that the hint names: its first letter's case changed (`Name` for `name`), as an API's own spelling would. */
function slipOf(field: string): string {
  const first = field[0];
  return (first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase()) + field.slice(1);
}

/**
 * The unknown keys to add to an object with these fields: `bogusProp`, and a slip of one of its
 * fields with the field a hint must name.
 */
function unknownKeys(fields: string[]): Array<{ key: string; meant?: string }> {
  const meant = fields.find((f) => /^[A-Za-z]/.test(f) && !fields.includes(slipOf(f)));
  return [{ key: 'bogusProp' }, ...(meant ? [{ key: slipOf(meant), meant }] : [])];
}

const resourceManifest = (token: string, properties: unknown) => stringify({ name: 'strict', config, resources: { r: { type: token, properties } } });
const functionManifest = (token: string, args: unknown) => stringify({ name: 'strict', config, variables: { v: { 'fn::invoke': { function: token, arguments: args } } } });

/** The 1-based line of the only line that writes `key:` as a key. */
function lineOf(text: string, key: string): number {
  const lines = text.split('\n');
  const found = lines.flatMap((line, i) => (new RegExp(`^\\s*(- )?${key}:`).test(line) ? [i + 1] : []));
  expect(found, `"${key}:" is written once in\n${text}`).toHaveLength(1);
  return found[0];
}

const cases = (schema: z.core.$ZodType) => sampleValues(schema).map((value) => ({ value, found: places(strict(schema), value) }));

/**
 * What a type's rule across its fields needs beyond what its schema shows a value generator (the
 * config keys a service needs), added to each value made from the schema; a type with such a rule
 * that is not here fails the test below until it is.
 */
const COMPLETE: Record<string, (value: Record<string, unknown>) => Record<string, unknown>> = {
  'pipeline:index/privateLink:PrivateLink': (value) => ({ ...value, config: { ...(value.config as object), workspace_url: 'https://example.com' } }),
  'pipeline:index/externalLogging:ExternalLogging': (value) => ({ ...value, config: { ...(value.config as object), workspace_id: 'a1', primary_key: 'a1' } }),
};

describe('every resource type refuses an unknown key at every depth, and takes any key of a free-form map', () => {
  for (const type of resourceTypes.values()) {
    it(type.token, async () => {
      for (const { value: made, found } of cases(type.inputs)) {
        const value = COMPLETE[type.token]?.(made as Record<string, unknown>) ?? made;
        const base = await checkManifest(resourceManifest(type.token, value), 'm.yaml', catalog, { env: {} });
        expect(base.diagnostics, `a value made from the schema passes: ${JSON.stringify(value)}`).toEqual([]);
        expect(hasUnknownKeys(type.inputs, value)).toBe(false);
        for (const { path, fields } of found.objects)
          for (const { key, meant } of unknownKeys(fields)) {
            // The walk that finds such a key in inputs applied as they are finds it too.
            expect(hasUnknownKeys(type.inputs, withKey(value, path, key, 1)), pathName([...path, key])).toBe(true);
            const text = resourceManifest(type.token, withKey(value, path, key, 1));
            const { diagnostics } = await checkManifest(text, 'm.yaml', catalog, { env: {} });
            const name = pathName([...path, key]);
            expect(diagnostics.map((d) => d.summary)).toEqual([`unknown property "${name}" for ${type.token}`]);
            expect(diagnostics[0].detail).toContain(expectedHint(fields, meant, 'property', 'properties'));
            expect(diagnostics[0].pos).toEqual({ file: 'm.yaml', line: lineOf(text, key), column: expect.any(Number) });
          }
        for (const path of found.maps) {
          const text = resourceManifest(type.token, withKey(value, path, 'any_key', mapValue(value, path)));
          expect((await checkManifest(text, 'm.yaml', catalog, { env: {} })).diagnostics, `${pathName(path)} is free-form`).toEqual([]);
        }
      }
    });
  }
});

describe('every lookup function refuses an unknown argument at every depth', () => {
  for (const fn of functions.values()) {
    it(fn.token, async () => {
      for (const { value, found } of cases(fn.args)) {
        const base = await checkManifest(functionManifest(fn.token, value), 'm.yaml', catalog, { env: {} });
        expect(base.diagnostics, `arguments made from the schema pass: ${JSON.stringify(value)}`).toEqual([]);
        for (const { path, fields } of found.objects)
          for (const { key, meant } of unknownKeys(fields)) {
            const text = functionManifest(fn.token, withKey(value, path, key, 1));
            const { diagnostics } = await checkManifest(text, 'm.yaml', catalog, { env: {} });
            expect(diagnostics.map((d) => d.summary)).toEqual([`invalid arguments for ${fn.token}`]);
            expect(diagnostics[0].detail).toContain(`unknown argument "${pathName([...path, key])}"`);
            expect(diagnostics[0].detail).toContain(expectedHint(fields, meant, 'argument', 'arguments'));
            expect(diagnostics[0].pos).toEqual({ file: 'm.yaml', line: lineOf(text, key), column: expect.any(Number) });
          }
        for (const path of found.maps) {
          const text = functionManifest(fn.token, withKey(value, path, 'any_key', mapValue(value, path)));
          expect((await checkManifest(text, 'm.yaml', catalog, { env: {} })).diagnostics, `${pathName(path)} is free-form`).toEqual([]);
        }
      }
    });
  }
});

/** What the message must say of an unknown key: the field meant, else what is valid, else that nothing is. */
function expectedHint(fields: string[], meant: string | undefined, noun: string, nouns: string): string {
  if (meant) return `did you mean "${meant}"?`;
  return fields.length ? `valid ${nouns}: ${fields.join(', ')}` : `no ${noun} is expected here`;
}

/** A value for another key of the map at `path`: a copy of one it holds. */
function mapValue(value: unknown, path: Path): unknown {
  const map = path.reduce<any>((v, step) => v[step], value) as Record<string, unknown>;
  const first = Object.values(map)[0];
  return first === undefined ? 'x' : structuredClone(first);
}

/**
 * The maps of a schema that take any key (see isFreeForm), by path (`.a.b[]{}`: a field, a list's
 * items, a map's values), with the reason each is declared free-form for.
 */
function mapsOf(schema: z.core.$ZodType, path = '', out: Array<{ path: string; reason?: string }> = [], seen = new Set<z.core.$ZodType>()): Array<{ path: string; reason?: string }> {
  if (seen.has(schema)) return out;
  seen.add(schema);
  const def = schema._zod.def as Record<string, any>;
  const inner = (s: z.core.$ZodType, at: string) => mapsOf(s, at, out, new Set(seen));
  if (isFreeForm(schema) && !out.some((m) => m.path === (path || '.'))) out.push({ path: path || '.', reason: freeFormReason(schema) });
  if (def.type === 'object') {
    for (const [key, field] of Object.entries(def.shape as Record<string, z.core.$ZodType>)) inner(field, `${path}.${key}`);
    if (def.catchall && def.catchall._zod.def.type !== 'never') inner(def.catchall, `${path}{}`);
  } else if (def.type === 'record') inner(def.valueType, `${path}{}`);
  else if (def.type === 'array') inner(def.element, `${path}[]`);
  else if (def.type === 'union') for (const option of def.options) inner(option, path);
  else if (def.type === 'pipe') inner(def.in._zod.def.type === 'transform' ? def.out : def.in, path);
  else if (def.type === 'lazy') inner(def.getter(), path);
  else if (def.innerType) inner(def.innerType, path);
  return out;
}

/** Whether a schema holds one of `type` at any depth. */
function holds(schema: z.core.$ZodType, type: string, seen = new Set<z.core.$ZodType>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  const def = schema._zod.def as Record<string, any>;
  if (def.type === type) return true;
  const parts: z.core.$ZodType[] = [
    ...Object.values((def.type === 'object' ? def.shape : {}) as Record<string, z.core.$ZodType>),
    ...[def.catchall, def.element, def.valueType, def.keyType, def.innerType, def.in, def.out, def.left, def.right].filter(Boolean),
    ...(def.options ?? []),
    ...(def.items ?? []),
    ...(def.type === 'lazy' ? [def.getter()] : []),
  ];
  return parts.some((part) => holds(part, type, seen));
}

/** A looseObject declared free-form. */
function freeFormOf<T extends z.ZodType>(schema: T): T {
  return declareFreeForm(schema, 'a test map');
}

const contracts = [...[...resourceTypes.values()].map((t) => ({ token: t.token, schema: t.inputs })), ...[...functions.values()].map((f) => ({ token: f.token, schema: f.args }))];

describe('free-form maps are declared, and the JSON Schema is as strict as the checks', () => {
  it('a map takes any key only where its type declares it free-form, with the reason', () => {
    const maps = contracts.flatMap(({ token, schema }) => mapsOf(strict(schema)).map((at) => ({ token, ...at })));
    // Tags and a service's config are among them: the walk reaches the maps.
    expect(maps.map((m) => `${m.token} ${m.path}`)).toEqual(expect.arrayContaining(['interconnect:index/port:Port .resourceTags', 'pipeline:index/connection:Connection .config']));
    const undeclared = maps.filter((m) => !m.reason).map((m) => `${m.token} ${m.path}`);
    expect(undeclared, "a map not declared with freeForm(map, reason): declare it, with the API's reason, or give it the fields the API knows").toEqual([]);
  });

  it("no contract holds an intersection, whose two objects strictness cannot close without refusing each other's keys", () => {
    // The walk reaches nested maps (a Port's tags), so it would reach an intersection.
    expect(holds(resourceTypes.get('interconnect:index/port:Port')!.inputs, 'record')).toBe(true);
    const found = contracts.filter(({ schema }) => holds(schema, 'intersection')).map(({ token }) => token);
    expect(found, 'write the intersection as one object (a.extend(b.shape))').toEqual([]);
  });

  it('an object with a catchall that is not declared free-form is closed, one that is stays open', () => {
    const loose = z.object({ open: freeFormOf(z.looseObject({ a: z.string() })), closed: z.looseObject({ a: z.string() }) });
    const result = strict(loose).safeParse({ open: { a: 'x', b: 'y' }, closed: { a: 'x', b: 'y' } });
    expect(result.success ? [] : result.error.issues.map((i) => ({ code: i.code, path: i.path }))).toEqual([{ code: 'unrecognized_keys', path: ['closed'] }]);
  });

  it('every object of every type and function has additionalProperties: false but those maps, whose values are typed', () => {
    const schema = editorSchema(resourceTypes, functions) as { definitions: Record<string, Json> };
    for (const { token, schema: declared } of contracts) {
      const json = schema.definitions[token.replace(/\//g, '.')];
      const { open, maps } = jsonObjects(json);
      expect(open, `${token}: objects the JSON Schema leaves open`).toEqual([]);
      expect(maps.sort(), token).toEqual(
        mapsOf(strict(declared))
          .map((m) => m.path)
          .sort(),
      );
    }
  });
});

type Json = Record<string, any>;

/** A JSON Schema's objects: those that take keys they do not name (`open`), and its maps (additionalProperties a schema), by path as freeForm writes them. */
function jsonObjects(node: Json, path = '', out = { open: [] as string[], maps: [] as string[] }): { open: string[]; maps: string[] } {
  const at = path || '.';
  const isObject = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object')) || node.properties;
  if (isObject) {
    if (typeof node.additionalProperties === 'object') out.maps.push(at);
    else if (node.additionalProperties !== false) out.open.push(at);
  }
  for (const [key, value] of Object.entries((node.properties ?? {}) as Record<string, Json>)) jsonObjects(value, `${path}.${key}`, out);
  if (node.items && typeof node.items === 'object') jsonObjects(node.items as Json, `${path}[]`, out);
  if (typeof node.additionalProperties === 'object') jsonObjects(node.additionalProperties as Json, `${path}{}`, out);
  for (const key of ['anyOf', 'oneOf', 'allOf']) for (const option of (node[key] ?? []) as Json[]) jsonObjects(option, path, out);
  out.maps = [...new Set(out.maps)];
  return out;
}

describe('inputs applied as they are, before inputs were strict', () => {
  it('a planning command refuses a key the type does not declare though state shows it applied, as validate does', async () => {
    const text = resourceManifest('cloud:index/securityGroup:SecurityGroup', { name: 'ssh', rules: [{ protocol: 'tcp', port: '22', srcIp: '10.0.0.0/8', policy: 'accept' }] });
    const checked = await checkManifest(text, 'm.yaml', catalog, { env: {}, againstState: true });
    expect(checked.value?.deferred).toBe(true);
    const { manifest, inputs } = checked.value!;
    const recorded = { r: { type: 'cloud:index/securityGroup:SecurityGroup', inputs: structuredClone(inputs.get('r')!) } };
    const { diagnostics, valid } = checkInputsAgainstState(manifest, catalog, inputs, recorded);
    expect(diagnostics.map((d) => [d.summary, d.pos?.line])).toEqual([['unknown property "rules[0].srcIp" for cloud:index/securityGroup:SecurityGroup', lineOf(text, 'srcIp')]]);
    expect([...valid.keys()]).toEqual([]);
  });
});
