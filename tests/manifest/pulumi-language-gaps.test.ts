import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/engine/evaluation/evaluate.js';
import { formatValue } from '../../src/engine/evaluation/format-value.js';
import { optionValues } from '../../src/engine/evaluation/option-values.js';
import { Evaluation } from '../../src/engine/evaluation/scope.js';
import { buildGraph } from '../../src/engine/graph/graph.js';
import { Secret, Unknown } from '../../src/kernel/values.js';
import { parseManifest } from '../../src/manifest/parse.js';
import { urnOf } from '../../src/manifest/urn.js';

/**
 * Pulumi YAML features programs written for Pulumi use, read as Pulumi reads them: logical names,
 * parents, URNs, provider resources as values, expressions in customTimeouts, values written into
 * strings, and a misspelt function said once.
 */
const catalog = { resources: ['interconnect:index/port:Port', 'interconnect:index/mcr:Mcr'], functions: ['interconnect:index/getLocation:getLocation'] };
const parse = (yaml: string) => parseManifest(yaml, 'm.yaml', catalog);
const errors = (yaml: string) => parse(yaml).diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}${d.detail ? ` (${d.detail})` : ''}`);

const program = `name: gaps
resources:
  east:
    type: pulumi:providers:interconnect
    name: east-connection
  router:
    type: interconnect:Mcr
    name: edge-router
  port:
    type: interconnect:Port
    options:
      parent: \${router}
      dependsOn: ["\${east}"]
variables:
  portUrn: \${port.urn}
  routerUrn: \${router.urn}
  connection: \${east}
`;

describe('logical names, parents and URNs', () => {
  it('name: is the last part of the URN; a parent puts its type before the child\u2019s; the address stays the key', async () => {
    const { manifest, diagnostics } = parse(program);
    expect(diagnostics).toEqual([]);
    manifest.stack = 'dev';
    expect(Object.keys(manifest.resources)).toEqual(['router', 'port']);
    expect(urnOf(manifest, 'port')).toBe('urn:pulumi:dev::gaps::interconnect:index/mcr:Mcr$interconnect:index/port:Port::port');
    const scope = new Evaluation(manifest, undefined, () => new Unknown()).scope();
    expect(await evaluate(manifest.variables.routerUrn, scope)).toBe('urn:pulumi:dev::gaps::interconnect:index/mcr:Mcr::edge-router');
    expect(await evaluate(manifest.variables.portUrn, scope)).toBe('urn:pulumi:dev::gaps::interconnect:index/mcr:Mcr$interconnect:index/port:Port::port');
    expect(await evaluate(manifest.variables.connection, scope)).toEqual({ urn: 'urn:pulumi:dev::gaps::pulumi:providers:interconnect::east-connection' });
  });

  it('a child is ordered after its parent; a provider resource used as a value or in dependsOn is no missing name', () => {
    const { manifest } = parse(program);
    const { graph, diagnostics } = buildGraph(manifest);
    expect(diagnostics).toEqual([]);
    expect(graph.resourceDependencies('port')).toEqual(['router']);
  });

  it('two resources with one URN, a name that is not text, and a parent that is no resource are errors at their place', () => {
    expect(errors(program.replace('    name: edge-router\n', '    name: port\n'))).toEqual([]);
    const twin = '  twin:\n    type: interconnect:Port\n    name: port\n';
    expect(errors(program.replace('variables:', `${twin}variables:`))).toEqual([]);
    expect(errors(program.replace('      parent: ${router}\n', '').replace('variables:', `${twin}variables:`))).toEqual([
      '13:3 "twin" and "port" have one URN, urn:pulumi:default::gaps::interconnect:index/port:Port::port (give one of them another name: (Pulumi refuses two resources with one URN))',
    ]);
    expect(errors(program.replace('name: edge-router', 'name: [a]'))).toEqual([
      '8:11 name of "router" must be literal text (it is the resource\'s logical name, the last part of its URN (its address stays its key under resources:))',
    ]);
    expect(errors(program.replace('parent: ${router}', 'parent: ${east}'))).toEqual(['12:15 parent ${east} is a provider resource, not a resource (a parent is another resource under resources:)']);
  });
});

describe('customTimeouts written as expressions', () => {
  const yaml = (value: string) => `name: t\nvariables:\n  wait: ${value}\nresources:\n  port:\n    type: interconnect:Port\n    options:\n      customTimeouts: { create: "\${wait}" }\n`;

  it('are durations when planning', async () => {
    const { manifest } = parse(yaml('20m'));
    const options = manifest.resources.port.options;
    await optionValues('port', options, new Evaluation(manifest, undefined, () => new Unknown()).scope());
    expect(options.customTimeouts).toEqual({ create: 1_200_000 });
  });

  it('a value that is no duration is an error at the option', async () => {
    const { manifest } = parse(yaml('soon'));
    const run = optionValues('port', manifest.resources.port.options, new Evaluation(manifest, undefined, () => new Unknown()).scope());
    await expect(run).rejects.toMatchObject({ message: 'option customTimeouts.create of port must be a duration like 90s, 30m or 1h when planning; not "soon"', pos: { line: 8, column: 33 } });
  });
});

describe('values written into a string, as Pulumi writes them (Go %v)', () => {
  const cases: Array<[string, unknown, string]> = [
    ['a list is its items between brackets, by spaces', ['a', 'b'], '[a b]'],
    ['a mapping is map[...] with its keys sorted', { zone: 'b', area: 1 }, 'map[area:1 zone:b]'],
    ['null is <nil>', null, '<nil>'],
    ['a whole number of a million or more takes an exponent', 1000000, '1e+06'],
    ['a smaller whole number does not', 100000, '100000'],
    ['a fraction is its shortest digits', 1.5, '1.5'],
    ['a small fraction takes an exponent below 1e-4', 0.00001, '1e-05'],
    ['a large number keeps its digits in the mantissa', 123456789, '1.23456789e+08'],
    ['a boolean is true or false', true, 'true'],
    ['lists and mappings inside are formatted the same', [{ k: null }, [1, 2]], '[map[k:<nil>] [1 2]]'],
  ];
  for (const [name, value, text] of cases) it(name, () => expect(formatValue(value)).toBe(text));

  it('a config value declared integer stays whole, as Pulumi keeps it an int; a secret part makes the text secret', async () => {
    const { manifest, diagnostics } = parse(
      'name: f\nconfig:\n  count:\n    type: integer\n    default: 1000000\n  size:\n    type: number\n    default: 1000000\nvariables:\n  hidden:\n    fn::secret: [a]\n  text: "${count} ${size} ${hidden}"\n',
    );
    expect(diagnostics).toEqual([]);
    const value = await evaluate(manifest.variables.text, new Evaluation(manifest, undefined, () => new Unknown()).scope());
    expect(value).toEqual(new Secret('1000000 1e+06 [a]'));
  });
});

describe('a call of a function that does not exist', () => {
  it('is one error with did-you-mean, and no type error besides', () => {
    const yaml = 'name: f\nresources:\n  port:\n    type: interconnect:Port\n    properties:\n      productName:\n        fn::joinn: ["-", [a, b]]\n';
    expect(errors(yaml)).toEqual([expect.stringMatching(/^7:9 "fn::joinn" is not supported \(did you mean "fn::join"\? supported functions: .*\)$/)]);
    expect(parse(yaml).manifest.resources.port.properties).toMatchObject({ entries: [{ key: 'productName', value: { kind: 'value', value: expect.any(Unknown) } }] });
  });
});

describe('a provider resource read as a value', () => {
  it('gives only its urn: another field is an error at the reference', () => {
    expect(errors(`${program}  region: \${east.region}\n`)).toEqual(['18:11 ${east.region}: east is a provider resource, which gives only its urn (use ${east.urn}, or ${east} for { urn })']);
  });
});

describe('a long chain of parents', () => {
  it('is read without a deep call stack, each child taking protect from the top', () => {
    const count = 5000;
    const lines = ['name: chain', 'resources:', '  r0:', '    type: interconnect:Port', '    options: { protect: true }'];
    for (let i = 1; i < count; i++) lines.push(`  r${i}:`, '    type: interconnect:Port', `    options: { parent: "\${r${i - 1}}" }`);
    const { manifest, diagnostics } = parse(`${lines.join('\n')}\n`);
    expect(diagnostics).toEqual([]);
    expect(manifest.resources[`r${count - 1}`].options.protect).toBe(true);
    expect(buildGraph(manifest).diagnostics).toEqual([]);
  });
});

describe('a call of a function token that does not exist', () => {
  it('is one error with did-you-mean, and no error about the value it stood for', () => {
    const yaml = 'name: f\nvariables:\n  loc:\n    fn::interconnect:getLocaton: { id: 2 }\nresources:\n  port:\n    type: interconnect:Port\n    properties:\n      locationId: ${loc.id}\n';
    expect(errors(yaml)).toEqual(['4:5 unknown function "interconnect:getLocaton" (did you mean "interconnect:index/getLocation:getLocation"? (plumb schema lists every function))']);
  });
});
