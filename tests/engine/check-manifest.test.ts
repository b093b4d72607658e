import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkManifest, checkResources, checkSettings, checksBeforeRemoteCalls, usedProviders } from '../../src/engine/check-manifest.js';
import type { CatalogFunction, CatalogProvider, CatalogResourceType, EngineCatalog } from '../../src/engine/contracts/catalog.js';
import type { Manifest } from '../../src/manifest/ast.js';
import { parseManifest } from '../../src/manifest/parse.js';
import { maskSecrets } from '../../src/secret-mask.js';

/** A catalog of one fake provider with one type and one function, and a log of what was asked of it. */
function fakeCatalog() {
  const calls = { functions: 0, checks: [] as unknown[] };
  const thing: CatalogResourceType = {
    token: 'fake:index/thing:Thing',
    inputs: z.object({ name: z.string(), size: z.number().optional() }).strict(),
    outputs: z.object({ name: z.string(), uid: z.string() }),
    warnings: (inputs) => ((inputs as { size?: number }).size === 1 ? ['size 1 is deprecated'] : []),
  };
  const fake: CatalogProvider = {
    name: 'fake',
    settings: z.object({ region: z.string().default('north'), token: z.string().optional(), termsAccepted: z.boolean().default(true) }).strict(),
    envVars: { FAKE_REGION: 'region', FAKE_TOKEN: 'token' },
    secretSettings: ['token'],
    check(settings) {
      calls.checks.push(settings);
      return (settings as { termsAccepted: boolean }).termsAccepted ? [] : ['fake: the terms must be accepted (fake:termsAccepted: true)'];
    },
  };
  const other: CatalogProvider = { name: 'other', settings: z.object({ depth: z.number().default(1) }), envVars: { OTHER_DEPTH: 'depth' }, secretSettings: [] };
  const getThing: CatalogFunction = { args: z.object({ id: z.number() }).strict() };
  const catalog: EngineCatalog = {
    resourceTypes: new Map([[thing.token, thing]]),
    providers: [fake, other],
    async functions() {
      calls.functions++;
      return new Map([['fake:index/getThing:getThing', getThing]]);
    },
  };
  return { catalog, calls };
}

const check = (yaml: string, options: { resources?: boolean; env?: Record<string, string> } = {}) => {
  const { catalog, calls } = fakeCatalog();
  return checkManifest(yaml, 'm.yaml', catalog, { resources: options.resources, env: options.env ?? {} }).then((result) => ({ ...result, calls }));
};
const lines = (result: { diagnostics: Array<{ summary: string; pos?: { line: number; column: number } }> }) => result.diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}`);

describe('checkManifest with a fake catalog', () => {
  it('a valid manifest gives its graph, the used provider settings with defaults, and warnings named by address', async () => {
    const result = await check('name: x\nresources:\n  a: { type: fake:Thing, properties: { name: a, size: 1 } }\n  b: { type: fake:Thing, properties: { name: "${a.uid}" } }\n');
    expect(result.diagnostics).toEqual([]);
    expect(result.value!.graph.resourceDependencies('b')).toEqual(['a']);
    expect(result.value!.warnings).toEqual(['a: size 1 is deprecated']);
    expect(Object.fromEntries(result.value!.settings)).toEqual({ fake: { region: 'north', termsAccepted: true } });
  });

  it('an input of the wrong type is an error at its position, naming the type', async () => {
    const result = await check('name: x\nresources:\n  a:\n    type: fake:Thing\n    properties:\n      name: a\n      size: big\n');
    expect(result.value).toBeUndefined();
    expect(lines(result)).toEqual(['7:13 size must be a number, not a string ("big")']);
  });

  it('a reference to a field the type lacks is an error at the reference, suggesting the closest field', async () => {
    const result = await check('name: x\nresources:\n  a: { type: fake:Thing, properties: { name: a } }\n  b: { type: fake:Thing, properties: { name: "${a.uidd}" } }\n');
    expect(lines(result)).toEqual(['4:46 ${a.uidd}: a (fake:index/thing:Thing) has no field "uidd"']);
    expect(result.diagnostics[0].detail).toBe('did you mean "uid"? fields: id, name, uid, size');
  });

  it('problems with the text end the check before inputs are checked', async () => {
    const result = await check('name: x\nresorces: {}\nresources:\n  a: { type: fake:Thing, properties: { name: 1 } }\n');
    expect(lines(result)).toEqual(['2:1 unknown top-level key "resorces"']);
  });

  it('input and setting problems are reported together', async () => {
    const result = await check('name: x\nconfig:\n  fake:regoin: south\nresources:\n  a: { type: fake:Thing, properties: { name: 1 } }\n');
    expect(lines(result)).toEqual(['5:46 name must be a string, not a number (1)', '3:3 config fake:regoin: unknown setting']);
  });

  it('with resources: false inputs are left to the plan, settings are still checked', async () => {
    const ok = await check('name: x\nresources:\n  a: { type: fake:Thing, properties: { name: 1 } }\n', { resources: false });
    expect(ok.diagnostics).toEqual([]);
    const bad = await check('name: x\nconfig:\n  fake:termsAccepted: false\nresources:\n  a: { type: fake:Thing, properties: { name: 1 } }\n', { resources: false });
    expect(lines(bad)).toEqual(['3:3 fake: the terms must be accepted (fake:termsAccepted: true)']);
  });

  it('lookup functions are asked for only when the manifest invokes one, and known arguments are checked', async () => {
    const plain = await check('name: x\nresources:\n  a: { type: fake:Thing, properties: { name: a } }\n');
    expect(plain.calls.functions).toBe(0);
    const invoking = await check('name: x\nvariables:\n  t:\n    fn::invoke:\n      function: fake:getThing\n      arguments: { idd: 2 }\n');
    expect(invoking.calls.functions).toBeGreaterThan(0);
    expect(invoking.diagnostics.map((d) => `${d.pos?.line} ${d.summary}: ${d.detail}`).join('\n')).toMatch(/^4 invalid arguments for fake:index\/getThing:getThing: [^]*Unrecognized key: "idd"/);
  });
});

describe('checkSettings', () => {
  const manifest = (yaml: string): Manifest => {
    const { manifest, diagnostics } = parseManifest(yaml, 'm.yaml', { resources: ['fake:index/thing:Thing'], functions: [] });
    expect(diagnostics).toEqual([]);
    return manifest;
  };
  const used = 'resources:\n  a: { type: fake:Thing, properties: { name: a } }\n';

  it('an environment variable overrides config, and a secret setting is masked from then on', async () => {
    const { catalog } = fakeCatalog();
    const { settings, diagnostics } = await checkSettings(manifest(`config:\n  fake:region: south\n${used}`), catalog, { FAKE_REGION: 'east', FAKE_TOKEN: 'tok-4f9a1c77' });
    expect(diagnostics).toEqual([]);
    expect(settings.get('fake')).toEqual({ region: 'east', token: 'tok-4f9a1c77', termsAccepted: true });
    expect(maskSecrets('sent tok-4f9a1c77')).toBe('sent [secret]');
  });

  it('a provider neither used nor configured is left alone; one only configured is parsed but not checked', async () => {
    const { catalog, calls } = fakeCatalog();
    const none = await checkSettings(manifest('variables:\n  v: 1\n'), catalog, {});
    expect([...none.settings.keys()]).toEqual([]);
    expect(calls.checks).toEqual([]);
    const configured = await checkSettings(manifest('config:\n  fake:termsAccepted: false\n  other:depth: 3\n'), catalog, {});
    expect(configured.diagnostics).toEqual([]);
    expect(Object.fromEntries(configured.settings)).toEqual({ fake: { region: 'north', termsAccepted: false }, other: { depth: 3 } });
    expect(calls.checks).toEqual([]);
  });

  it('an unknown setting suggests the closest; a wrong value and an unknown provider are named at their keys', async () => {
    const { catalog } = fakeCatalog();
    const { diagnostics } = await checkSettings(manifest(`config:\n  fake:regoin: south\n  other:depth: deep\n  nowhere:x: 1\n${used}`), catalog, {});
    expect(diagnostics.map((d) => [d.pos?.line, d.summary, d.detail])).toEqual([
      [2, 'config fake:regoin: unknown setting', 'did you mean fake:region? settings: region, token, termsAccepted'],
      [3, 'config other:depth: Invalid input: expected number, received string', undefined],
      [4, 'config nowhere:x: unknown provider "nowhere"', 'providers: fake, other'],
    ]);
  });
});

describe('checkResources', () => {
  it('a variable no resource uses is checked too', async () => {
    const { catalog } = fakeCatalog();
    const { manifest } = parseManifest('variables:\n  v: ${missing}\n', 'm.yaml', { resources: [], functions: [] });
    const { diagnostics } = await checkResources(manifest, catalog);
    expect(diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}`)).toEqual(['2:6 "missing" is not defined']);
  });
});

describe('checksBeforeRemoteCalls', () => {
  const parse = (yaml: string) => parseManifest(yaml, 'm.yaml', { resources: ['fake:index/thing:Thing'], functions: ['fake:index/getThing:getThing'] }).manifest;
  const plain = parse('resources:\n  a: { type: fake:Thing, properties: { name: a } }\n');
  const empty = { resources: {}, pending: [] };
  const recorded = { resources: { a: {} }, pending: [] };
  const cases: Array<[string, Manifest, { resources: Record<string, unknown>; pending: unknown[] }, boolean, boolean]> = [
    ['nothing recorded and nothing to look up: the plan checks first', plain, empty, true, false],
    ['recorded objects are refreshed before the plan checks', plain, recorded, true, true],
    ['recorded objects without refresh are not read', plain, recorded, false, false],
    ['interrupted operations are settled first', plain, { resources: {}, pending: [{}] }, false, true],
    ['options.import reads the object first', parse('resources:\n  a: { type: fake:Thing, properties: { name: a }, options: { import: x-1 } }\n'), empty, false, true],
    ['a lookup is called first', parse('variables:\n  t:\n    fn::invoke: { function: fake:getThing, arguments: { id: 1 } }\n'), empty, false, true],
  ];
  it.each(cases)('%s', (_name, manifest, state, refresh, expected) => {
    expect(checksBeforeRemoteCalls(manifest, state, refresh)).toBe(expected);
  });
});

describe('usedProviders', () => {
  it('names the providers of resources and of invoked functions, not of config', () => {
    const { manifest } = parseManifest(
      'config:\n  other:depth: 2\nvariables:\n  t:\n    fn::invoke: { function: more:index/getIt:getIt, arguments: {} }\nresources:\n  a: { type: fake:Thing, properties: { name: a } }\n',
      'm.yaml',
      { resources: ['fake:index/thing:Thing'], functions: ['more:index/getIt:getIt'] },
    );
    expect([...usedProviders(manifest)].sort()).toEqual(['fake', 'more']);
  });
});
