import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { editorSchema } from '../../src/cli/schema.js';
import { loadFunctions, loadResourceTypes } from '../../src/cli/catalog.js';

/**
 * The JSON Schema editors check manifests with (`plumb schema --json-schema`) agrees with plumb:
 * every example and test program plumb runs is valid by it, and what plumb refuses that a schema
 * can say (an unknown function, an unknown top-level key) is not. Checked with Ajv (draft 7).
 */
const root = resolve(import.meta.dirname, '../..');
const schema = editorSchema(await loadResourceTypes(), await loadFunctions());
const validate = new Ajv({ allErrors: true, schemaId: 'auto' }).compile(schema);
const problems = (doc: unknown) => (validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.dataPath} ${e.message}`));

/** Manifests under a folder: `<name>.yaml`, not a stack's settings (`<name>.<stack>.yaml`). */
function manifests(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /^[^.]+\.yaml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

const programs = [...manifests(resolve(root, 'examples')), ...manifests(resolve(root, 'tests/manifest/programs'))];
const manifest = (extra: string) =>
  parseYaml(
    `name: s\nresources:\n  port:\n    type: interconnect:Port\n    properties:\n      productName: p\n      portSpeed: 1000\n      locationId: 2\n      contractTermMonths: 1\n      marketplaceVisibility: false\n${extra}`,
  );

describe('the JSON Schema accepts what plumb accepts', () => {
  it('there are examples and programs to check', () => expect(programs.length).toBeGreaterThanOrEqual(25));
  for (const file of programs) {
    it(relative(root, file), () => expect(problems(parseYaml(readFileSync(file, 'utf8')))).toEqual([]));
  }

  it('template: (written by every pulumi new template), name:, parent, provider pins and expressions in customTimeouts', () => {
    const doc = manifest('    name: edge-port\n    options:\n      parent: ${router}\n      version: 1.0.0\n      customTimeouts: { create: "${wait}" }\n');
    expect(problems({ ...doc, template: { description: 'A port', config: { speed: { default: 1000 } } } })).toEqual([]);
  });
});

describe('the JSON Schema flags what plumb refuses', () => {
  it('an unknown fn:: key, wherever a value goes', () => {
    expect(problems(manifest('      costCentre:\n        fn::joinn: ["-", [a]]\n'))).not.toEqual([]);
    expect(problems({ ...manifest(''), outputs: { o: { 'fn::joinn': ['-', ['a']] } } })).not.toEqual([]);
    expect(problems({ ...manifest(''), variables: { v: { nested: [{ 'fn::fileAsset': 'x' }] } } })).not.toEqual([]);
    expect(problems({ ...manifest(''), outputs: { o: { 'fn::join': ['-', ['a']] }, p: { 'FN::TOJSON': [1] } } })).toEqual([]);
  });

  it('an unknown top-level key, and defaultProvider on a resource that is no provider', () => {
    expect(problems({ ...manifest(''), resourcez: {} })).not.toEqual([]);
    expect(problems(manifest('    defaultProvider: true\n'))).not.toEqual([]);
  });
});
