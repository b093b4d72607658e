/**
 * One set of checks, derived from the examples: every manifest under examples/, broken in ways
 * generated from its own resources and their types, is refused by `validate` and by `plan` with
 * the same diagnostics (summaries, details, positions, addresses), and `plan` reaches no API for
 * it. The next example added is covered as it is.
 *
 * The two commands run in this process, as the CLI runs them, for every variant; the built CLI
 * runs once per provider, so what the binary does is judged too.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isMap, isScalar, parseDocument, type Pair, type Scalar, type YAMLMap } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { planCommand } from '../../src/cli/run.js';
import { validateCommand } from '../../src/cli/validate.js';
import { DiagnosticsError, diagnosticJson, type Diagnostic } from '../../src/kernel/diagnostics.js';
import type { ResourceType } from '../../src/engine/contracts/resource-type.js';
import { resolveToken } from '../../src/manifest/tokens.js';
import { loadResourceTypes } from '../../src/cli/catalog.js';
import { plumb, testSandbox, workdir } from '../support/cli.js';
import { EXAMPLES, exampleManifests } from '../support/examples.js';

/** Every example manifest, as `provider/file.yaml`. */
const examples = exampleManifests();

const UNKNOWN_PROPERTY = 'plumbNoSuchProperty';

/** The fields of a type's input object, by name (through the wrappers zod puts around an object). */
function inputFields(type: ResourceType): Record<string, z.ZodType> {
  let schema: any = type.inputs;
  for (let i = 0; i < 10 && schema && !schema.shape; i++) schema = schema.def?.innerType ?? schema.def?.in ?? schema.def?.schema;
  return (schema?.shape ?? {}) as Record<string, z.ZodType>;
}

/** The last of the properties written whose value its field `refuses` (a field's own test); undefined when there is none. */
function lastRefusing(properties: YAMLMap, type: ResourceType, refuses: (field: z.ZodType, value: unknown) => boolean): Pair<Scalar, unknown> | undefined {
  const fields = inputFields(type);
  const pairs = (properties.items as Array<Pair<Scalar, unknown>>).filter((p) => isScalar(p.key) && fields[String(p.key.value)] && refuses(fields[String(p.key.value)], p.value));
  return pairs.at(-1);
}

/** A way to break one resource whose properties are a mapping, in place; true when its type must refuse what it did. */
type Breakage = (properties: YAMLMap, type: ResourceType) => boolean;

// The last property of a kind is the one changed: the first ones (a connection's service, say)
// are often what the plan would read remote facts by, which is what must not happen first.
const breakages: Record<string, Breakage> = {
  'an unknown property': (properties, type) => {
    properties.set(UNKNOWN_PROPERTY, 1);
    // A type whose schema keeps unknown keys out silently takes it.
    const issues = z.safeParse(type.inputs, { [UNKNOWN_PROPERTY]: 1 }).error?.issues ?? [];
    return issues.some((issue) => issue.code === 'unrecognized_keys');
  },
  'a required property left out': (properties, type) => {
    const pair = lastRefusing(properties, type, (field) => !z.safeParse(field, undefined).success);
    if (pair) properties.delete(pair.key);
    return pair !== undefined;
  },
  'a mapping where a plain value goes': (properties, type) => {
    const pair = lastRefusing(properties, type, (field, value) => isScalar(value) && !/\$\{/.test(String(value.value)) && !z.safeParse(field, { [UNKNOWN_PROPERTY]: 1 }).success);
    if (pair) properties.set(pair.key, { [UNKNOWN_PROPERTY]: 1 });
    return pair !== undefined;
  },
};

/**
 * The example's text broken in `ways`, and the addresses of the resources that must then be
 * named by a diagnostic. With `output`, an output that reads nothing defined is added too: a
 * manifest with no resource to break is broken then.
 */
function broken(text: string, types: Map<string, ResourceType>, ways: Breakage[], output = false): { text: string; refused: string[] } {
  const doc = parseDocument(text);
  const resources = doc.get('resources');
  const refused = new Set<string>();
  for (const pair of isMap(resources) ? (resources.items as Pair[]) : []) {
    const decl = pair.value;
    const token = isMap(decl) ? decl.get('type') : undefined;
    const type = typeof token === 'string' ? types.get(resolveToken(token, types.keys()) ?? '') : undefined;
    const properties = isMap(decl) ? decl.get('properties') : undefined;
    if (!type || !isMap(properties)) continue;
    for (const way of ways) if (way(properties, type)) refused.add(String((pair.key as { value: unknown }).value));
  }
  if (output && !isMap(doc.get('outputs'))) doc.set('outputs', doc.createNode({}));
  if (output) (doc.get('outputs') as YAMLMap).set('plumbBroken', '${plumbNoSuchName}');
  return { text: doc.toString(), refused: [...refused] };
}

/** The diagnostics a command refused the manifest with, as `--json` prints them; undefined when it was not refused. */
async function refusal(run: () => Promise<number>): Promise<Array<Record<string, unknown>> | undefined> {
  try {
    await run();
    return undefined;
  } catch (err) {
    if (err instanceof DiagnosticsError) return err.diagnostics.map(diagnosticJson);
    throw err;
  }
}

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
let types: Map<string, ResourceType>;
const sandboxUrl = process.env.PLUMB_SANDBOX_URL;
beforeAll(async () => {
  sandbox = await testSandbox();
  types = await loadResourceTypes();
  process.env.PLUMB_SANDBOX_URL = sandbox.url;
});
afterAll(async () => {
  if (sandboxUrl === undefined) delete process.env.PLUMB_SANDBOX_URL;
  else process.env.PLUMB_SANDBOX_URL = sandboxUrl;
  await sandbox.close();
});

/** Writes `text` as `example`'s file name in a folder of its own; returns its path. */
function written(example: string, text: string): string {
  const dir = join(workdir(), example.split('/')[0]);
  mkdirSync(dir);
  const file = join(dir, example.split('/')[1]);
  writeFileSync(file, text);
  return file;
}

/** Each breakage alone, then every one at once with an output that reads nothing defined. */
const variants: Array<[string, Breakage[], boolean]> = [
  ...Object.entries(breakages).map(([name, way]): [string, Breakage[], boolean] => [name, [way], false]),
  ['all at once', Object.values(breakages), true],
];
const planOptions = { stack: 'default', refresh: true, parallelism: Infinity, replace: [], target: [], exclude: [] };

describe('every example, broken, is refused by validate and plan alike, with no remote call', () => {
  it('there are examples of every provider to break', () => {
    expect(new Set(examples.map((e) => e.split('/')[0]))).toEqual(new Set(['cloud', 'interconnect', 'pipeline']));
  });

  it.each(examples)('%s', async (example) => {
    const text = readFileSync(join(EXAMPLES, example), 'utf8');
    await sandbox.clearCalls();
    for (const [variant, ways, output] of variants) {
      const { text: yaml, refused } = broken(text, types, ways, output);
      const file = written(example, yaml);
      const validated = await refusal(() => validateCommand(file, { stack: 'default' }));
      // A variant that breaks nothing its types refuse (no resource, or none strict) validates: then
      // there is nothing to compare, and a plan would rightly call the API.
      if (!validated) {
        expect({ variant, refused }).toEqual({ variant, refused: [] });
        continue;
      }
      const planned = await refusal(() => planCommand(file, planOptions));
      expect({ variant, diagnostics: planned }).toEqual({ variant, diagnostics: validated });
      const named = new Set(validated.map((d) => d.address));
      expect({ variant, unnamed: refused.filter((address) => !named.has(address)) }).toEqual({ variant, unnamed: [] });
    }
    expect((await sandbox.calls()).map((c) => `${c.method} ${c.path}`)).toEqual([]);
  });

  it.each(['cloud', 'interconnect', 'pipeline'])('the built CLI: %s', async (provider) => {
    // The provider's example with the most resources.
    const resources = (e: string) => readFileSync(join(EXAMPLES, e), 'utf8').split(/^\s+type:/m).length;
    const example = examples.filter((e) => e.startsWith(`${provider}/`)).sort((a, b) => resources(b) - resources(a))[0];
    const file = written(example, broken(readFileSync(join(EXAMPLES, example), 'utf8'), types, Object.values(breakages)).text);
    const cwd = resolve(file, '..');
    await sandbox.clearCalls();
    const validated = await plumb(['validate', '--json', file], { cwd, env: sandbox.env });
    const planned = await plumb(['plan', '--json', file], { cwd, env: sandbox.env });
    expect((await sandbox.calls()).map((c) => `${c.method} ${c.path}`)).toEqual([]);
    expect([validated.code, planned.code]).toEqual([1, 1]);
    const diagnostics = (result: { stdout: string }) => (JSON.parse(result.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
    expect(diagnostics(validated).length).toBeGreaterThan(1);
    expect(diagnostics(planned)).toEqual(diagnostics(validated));
  });
});
