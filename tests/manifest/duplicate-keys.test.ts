import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/parse.js';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

const catalog = { resources: ['interconnect:index/port:Port'], functions: [] };

/** The errors of a manifest as `line:column summary`. */
function errorsOf(yaml: string): string[] {
  return parseManifest(yaml, 'm.yaml', catalog).diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}`);
}

/**
 * Pairs of keys that YAML's core schema reads as one value, or that plumb names alike: the
 * second of each is a duplicate of the first. Why each holds is its name.
 */
const pairs: Array<[string, string, string]> = [
  ['the same text', 'port', 'port'],
  ['a leading zero does not change an integer', '1', '01'],
  ['hexadecimal is an integer too', '0x10', '16'],
  ['octal is an integer too', '0o20', '16'],
  ['1.0 is the number 1', '1', '1.0'],
  ['booleans in three spellings', 'true', 'True'],
  ['booleans in capitals', 'TRUE', 'true'],
  ['false in capitals', 'false', 'FALSE'],
  ['null spelt ~', 'null', '~'],
  ['null spelt Null', 'NULL', 'Null'],
  ['a quoted number names the same key as the number', '"1"', '1'],
];

/** The four places whose keys are names plumb keeps, and the lines of the two keys: a repeated key there would silently lose one. */
const places: Array<[string, (a: string, b: string) => string, number, number]> = [
  ['resources', (a, b) => `name: d\nresources:\n  ${a}:\n    type: interconnect:Port\n  ${b}:\n    type: interconnect:Port\n`, 3, 5],
  ['variables', (a, b) => `name: d\nvariables:\n  ${a}: one\n  ${b}: two\n`, 3, 4],
  ['config', (a, b) => `name: d\nconfig:\n  ${a}: one\n  ${b}: two\n`, 3, 4],
  ['properties', (a, b) => `name: d\nresources:\n  port:\n    type: interconnect:Port\n    properties:\n      tags:\n        ${a}: one\n        ${b}: two\n`, 7, 8],
];

describe('duplicate keys are compared by value', () => {
  for (const [where, manifest, firstLine, secondLine] of places) {
    for (const [why, first, second] of pairs) {
      it(`under ${where}: ${first} and ${second} (${why}) is an error at the second, naming the first's line`, () => {
        const errors = errorsOf(manifest(first, second));
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatch(new RegExp(`^${secondLine}:\\d+ duplicate key .*(the first is at line ${firstLine}$| at line ${firstLine} \\()`));
      });
    }
  }

  it('names how the two keys are one', () => {
    expect(errorsOf('a: 1\n0x10: x\n16: y\n')).toContain('3:1 duplicate key "16": the same key as "0x10" at line 2 (both are the number 16)');
    expect(errorsOf('a: 1\n"1": x\n1: y\n')).toContain('3:1 duplicate key "1": the same key as "1" at line 2 (the text "1" and the number 1 are one name here)');
    expect(errorsOf('a: 1\n~: x\n: y\n')).toContain('3:1 duplicate key "": the same key as "~" at line 2 (both are null)');
  });

  it('keys that differ in value are not duplicates, nor the same key in two mappings', () => {
    const yaml = 'name: d\nvariables:\n  "01": a\n  1: b\n  "true": c\n  yes: d\n  x:\n    k: 1\n  y:\n    k: 2\n';
    expect(errorsOf(yaml)).toEqual([]);
  });

  it('every duplicate of a manifest is reported in one pass', () => {
    const yaml = 'name: d\nvariables:\n  a: 1\n  a: 2\nresources:\n  p:\n    type: interconnect:Port\n  p:\n    type: interconnect:Port\n';
    expect(errorsOf(yaml)).toEqual(['4:3 duplicate key "a": the first is at line 3', '8:3 duplicate key "p": the first is at line 6']);
  });
});

describe('duplicate keys through the CLI', () => {
  let sandbox: Awaited<ReturnType<typeof testSandbox>>;
  beforeAll(async () => {
    sandbox = await testSandbox();
  });
  afterAll(async () => sandbox.close());

  it('a resource repeated as 01 after 1 stops plan before any remote call, at its line', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', 'name: d\nresources:\n  1:\n    type: interconnect:Port\n  01:\n    type: interconnect:Port\n');
    await sandbox.clearCalls();
    const result = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('plumb.yaml:5:3: error: duplicate key "01": the same key as "1" at line 3 (both are the number 1)');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(await sandbox.calls()).toEqual([]);
  });

  it('an import file with a key written twice is refused at that key, importing nothing', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', 'name: d\n');
    writeManifest(dir, 'imports.yaml', '- address: a\n  type: interconnect:Port\n  id: one\n  id: two\n');
    await sandbox.clearCalls();
    const result = await plumb(['import', '--file', 'imports.yaml'], { cwd: dir, env: sandbox.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('imports.yaml:4:3: error: duplicate key "id": the first is at line 3');
    expect(await sandbox.calls()).toEqual([]);
    expect((await plumb(['state', 'list'], { cwd: dir, env: sandbox.env })).stdout).toBe('');
  });
});
