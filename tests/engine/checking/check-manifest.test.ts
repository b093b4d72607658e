import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkManifest, checkResources, checkSettings, usedProviders } from '../../../src/engine/checking/check-manifest.js';
import type { CatalogFunction, CatalogProvider, CatalogResourceType, EngineCatalog } from '../../../src/engine/contracts/catalog.js';
import type { Manifest } from '../../../src/manifest/ast.js';
import { parseManifest } from '../../../src/manifest/parse.js';
import { closest } from '../../../src/manifest/tokens.js';
import { closestName } from '../../../src/kernel/did-you-mean.js';
import { maskSecrets } from '../../../src/kernel/secret-mask.js';

/** A catalog of one fake provider with one type and one function, and a log of what was asked of it. */
function fakeCatalog() {
  const calls = { functions: 0, checks: [] as unknown[] };
  const thing: CatalogResourceType = {
    token: 'fake:index/thing:Thing',
    inputs: z.object({ name: z.string(), size: z.number().optional() }).strict(),
    outputs: z.object({ name: z.string(), uid: z.string() }),
    notes: {
      desired: (inputs) => ((inputs as { size?: number }).size === 1 ? ['size 1 is deprecated'] : []),
    },
  };
  const link: CatalogResourceType = {
    token: 'fake:index/link:Link',
    inputs: z
      .object({
        name: z.string().min(1),
        speed: z.number().int().positive().optional(),
        mode: z.enum(['fast', 'slow']).optional(),
        end: z
          .discriminatedUnion('partner', [z.object({ partner: z.literal('cloud'), account: z.string() }).strict(), z.object({ partner: z.literal('router'), asn: z.number() }).strict()])
          .optional(),
      })
      .strict(),
    outputs: z.object({ uid: z.string() }),
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
    resourceTypes: new Map([
      [thing.token, thing],
      [link.token, link],
    ]),
    providers: [fake, other],
    async functions() {
      calls.functions++;
      return new Map([['fake:index/getThing:getThing', getThing]]);
    },
  };
  return { catalog, calls };
}

const check = (yaml: string, options: { env?: Record<string, string> } = {}) => {
  const { catalog, calls } = fakeCatalog();
  return checkManifest(yaml, 'm.yaml', catalog, { env: options.env ?? {} }).then((result) => ({ ...result, calls }));
};
const lines = (result: { diagnostics: Array<{ summary: string; pos?: { line: number; column: number } }> }) => result.diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}`);

describe('checkManifest with a fake catalog', () => {
  it('a valid manifest gives its graph, the used provider settings with defaults, and warnings named by address', async () => {
    const result = await check('name: x\nresources:\n  a: { type: fake:Thing, properties: { name: a, size: 1 } }\n  b: { type: fake:Thing, properties: { name: "${a.uid}" } }\n');
    expect(result.diagnostics).toEqual([]);
    expect(result.value!.graph.resourceDependencies('b')).toEqual(['a']);
    expect(result.value!.warnings).toEqual([{ severity: 'warning', summary: 'a: size 1 is deprecated' }]);
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
    expect(result.diagnostics[0].detail).toBe('did you mean "uid"? fields: id, name, uid, size, urn');
  });

  it('one pass reports structure, options, dependsOn, references, inputs and settings together, in the order of the file', async () => {
    const result = await check(
      [
        'name: x',
        'resorces: {}',
        'config:',
        '  fake:regoin: south',
        'variables:',
        '  a: ${b}',
        '  b: ${a}',
        '  c: ${a}',
        'resources:',
        '  lost: { type: fake:Thimg, properties: { name: a } }',
        '  t:',
        '    type: fake:Thing',
        '    properties: { name: "${lost.uid}", size: big }',
        '    options: { dependsOn: ["${nowhere}"], ignoreChanges: [sise] }',
        '',
      ].join('\n'),
    );
    expect(lines(result)).toEqual([
      '2:1 unknown top-level key "resorces"',
      '4:3 config fake:regoin: unknown setting',
      '6:6 reference cycle: a -> b -> a',
      '10:17 unknown resource type "fake:Thimg"',
      '13:46 size must be a number, not a string ("big")',
      '14:28 dependsOn target "nowhere" is not defined',
      '14:59 option ignoreChanges: "sise": fake:index/thing:Thing has no property "sise"',
    ]);
    expect(result.diagnostics.find((d) => d.summary.includes('sise'))?.detail).toBe('did you mean "size"? properties there: name, size');
  });

  it('input and setting problems are reported together, in the order of the file', async () => {
    const result = await check('name: x\nconfig:\n  fake:regoin: south\nresources:\n  a: { type: fake:Thing, properties: { name: 1 } }\n');
    expect(lines(result)).toEqual(['3:3 config fake:regoin: unknown setting', '5:46 name must be a string, not a number (1)']);
  });

  it('inputs are checked beside structure problems and settings', async () => {
    const result = await check('name: x\nconfig:\n  fake:termsAccepted: false\nresources:\n  a: { type: fake:Thing, properties: { name: 1 }, options: { dependsOn: ["${b}"] } }\n');
    expect(lines(result)).toEqual(['3:3 fake: the terms must be accepted (fake:termsAccepted: true)', '5:46 name must be a string, not a number (1)', '5:74 dependsOn target "b" is not defined']);
  });

  it('lookup functions are asked for only when the manifest invokes one, and known arguments are checked', async () => {
    const plain = await check('name: x\nresources:\n  a: { type: fake:Thing, properties: { name: a } }\n');
    expect(plain.calls.functions).toBe(0);
    const invoking = await check('name: x\nvariables:\n  t:\n    fn::invoke:\n      function: fake:getThing\n      arguments: { idd: 2 }\n');
    expect(invoking.calls.functions).toBeGreaterThan(0);
    expect(invoking.diagnostics.map((d) => `${d.pos?.line} ${d.summary}: ${d.detail}`).join('\n')).toMatch(
      /^6 invalid arguments for fake:index\/getThing:getThing: [^]*unknown argument "idd" \(valid arguments: id; did you mean "id", which is required\?\)/,
    );
  });
});

describe('messages in the words of the manifest', () => {
  const link = (props: string) => check(`name: x\nresources:\n  l:\n    type: fake:Link\n    properties:\n${props.includes('name:') ? '' : '      name: l\n'}${props}`);
  const said = async (props: string) => (await link(props)).diagnostics.map((d) => `${d.summary}${d.detail ? ` | ${d.detail}` : ''}`);
  const cases: Array<[string, string, string[]]> = [
    ['a wrong partner names the valid ones and the closest', '      end: { partner: clod, account: a }\n', ['end.partner "clod" is not valid: must be one of cloud, router | did you mean "cloud"?']],
    ['a missing partner says it chooses the kind', '      end: { account: a }\n', ['missing required property "end.partner" | it chooses the kind: one of cloud, router']],
    [
      "an unknown field inside a partner config lists that variant's fields",
      '      end: { partner: router, asn: 1, acount: x }\n',
      ['unknown property "end.acount" for fake:index/link:Link | valid properties: partner, asn'],
    ],
    [
      'the closest field of the variant is suggested, once: a slip of a required field is not also a missing one',
      '      end: { partner: cloud, acount: x }\n',
      ['unknown property "end.acount" for fake:index/link:Link | valid properties: partner, account; did you mean "account", which is required?'],
    ],
    ['NaN is written as YAML writes it, never as null', '      speed: .nan\n', ['speed must be a number, not .nan']],
    ['a bound is said in words', '      speed: -5\n', ['speed -5 is not valid: must be more than 0']],
    ['an empty text', '      name: ""\n', ['name "" is not valid: must not be empty']],
    ['an enum names its values and the closest', '      mode: fsat\n', ['mode "fsat" is not valid: must be one of fast, slow | did you mean "fast"?']],
  ];
  it.each(cases)('%s', async (_name, props, expected) => {
    const got = await said(props);
    expect(got).toEqual(expected);
    for (const text of got) expect(text).not.toMatch(/Invalid|NaN|received|discriminator/);
  });
});

describe('did you mean', () => {
  const tokens = ['interconnect:index/ix:Ix', 'interconnect:index/vxc:Vxc', 'interconnect:index/port:Port', 'cloud:index/vpc:Vpc'];
  it.each([
    ['a swap of two letters is one edit: Vcx is Vxc, not Ix', 'interconnect:Vcx', 'interconnect:index/vxc:Vxc'],
    ["only the named provider's types are candidates", 'cloud:Vxc', 'cloud:index/vpc:Vpc'],
    ['a full token is compared in full', 'interconnect:index/prot:Prot', 'interconnect:index/port:Port'],
  ])('%s', (_name, raw, expected) => {
    expect(closest(raw, tokens)).toBe(expected);
  });
  it('names are compared ignoring case, and nothing far off is suggested', () => {
    expect(closestName('idd', ['id', 'name', 'siteCode'])).toBe('id');
    expect(closestName('PortSped', ['portSpeed', 'productName'])).toBe('portSpeed');
    expect(closestName('zzzzzz', ['id', 'name'])).toBeUndefined();
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
      [3, 'config other:depth must be a number, not a string ("deep")', undefined],
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
