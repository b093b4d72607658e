import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/engine/evaluation/evaluate.js';
import { Evaluation } from '../../src/engine/evaluation/scope.js';
import type { Manifest } from '../../src/manifest/ast.js';
import { parseManifest } from '../../src/manifest/parse.js';
import { Secret, Unknown } from '../../src/kernel/values.js';

const catalog = { resources: ['interconnect:index/port:Port'], functions: ['interconnect:index/getLocation:getLocation'] };
const parse = (yaml: string, file = 'm.yaml') => parseManifest(yaml, file, catalog);
const errors = (yaml: string) => parse(yaml).diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}${d.detail ? ` (${d.detail})` : ''}`);

/** The value of each variable, without remote calls (lookups and resources are Unknown). */
async function variables(manifest: Manifest): Promise<Record<string, unknown>> {
  const scope = new Evaluation(manifest, undefined, () => new Unknown()).scope();
  const out: Record<string, unknown> = {};
  for (const [name, expr] of Object.entries(manifest.variables)) out[name] = await evaluate(expr, scope);
  return out;
}

describe('built-in functions', () => {
  it('fn::length counts a list, a mapping and the characters of a string as people see them', async () => {
    const { manifest, diagnostics } = parse(`name: f
variables:
  list: { fn::length: [a, b, c] }
  map: { fn::length: { a: 1, b: 2 } }
  text: { fn::length: "né👍🏽" }
`);
    expect(diagnostics).toEqual([]);
    expect(await variables(manifest)).toEqual({ list: 3, map: 2, text: 3 });
  });

  it('fn::sha1 hashes a string; fn::unsecret gives a secret back as plain; what a secret makes stays secret', async () => {
    const { manifest } = parse(`name: f
variables:
  hidden: { fn::secret: abc }
  hash: { fn::sha1: abc }
  hashedSecret: { fn::sha1: "\${hidden}" }
  revealed: { fn::unsecret: "\${hidden}" }
`);
    const values = await variables(manifest);
    expect(values.hash).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(values.hashedSecret).toBeInstanceOf(Secret);
    expect(values.revealed).toBe('abc');
  });

  it('fn::filebase64 and fn::filebase64sha256 read a file inside the manifest folder, never outside it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plumb-lang-'));
    writeFileSync(join(dir, 'cert.pem'), 'hello');
    const { manifest } = parse(
      `name: f
variables:
  b64: { fn::filebase64: cert.pem }
  digest: { fn::filebase64sha256: cert.pem }
`,
      join(dir, 'm.yaml'),
    );
    expect(await variables(manifest)).toEqual({ b64: 'aGVsbG8=', digest: 'LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=' });
    const outside = parse('name: f\nvariables:\n  x: { fn::filebase64: ../secret }\n', join(dir, 'm.yaml')).manifest;
    await expect(variables(outside)).rejects.toThrow('fn::filebase64: "../secret" is outside the manifest\'s folder');
  });

  it('fn::singleOrNone gives the one item, null for none, and refuses more at its position', async () => {
    const ok = parse('name: f\nvariables:\n  one: { fn::singleOrNone: [x] }\n  none: { fn::singleOrNone: [] }\n').manifest;
    expect(await variables(ok)).toEqual({ one: 'x', none: null });
    const two = parse('name: f\nvariables:\n  two: { fn::singleOrNone: [x, y] }\n').manifest;
    await expect(variables(two)).rejects.toMatchObject({ message: 'fn::singleOrNone takes a list of no or one item; this one has 2', pos: { line: 3, column: 8 } });
  });

  it('assets and archives are refused at their key, saying why; a stack reference takes [stack, output]', () => {
    expect(errors('name: f\nvariables:\n  a: { fn::fileAsset: ./x }\n  r: { fn::stackReference: [other, out] }\n  s: { fn::stackReference: other }\n')).toEqual([
      '3:8 "fn::fileAsset" is not supported (assets and archives are not supported: no plumb resource takes a file or an archive)',
      '5:28 fn::stackReference takes [stack, output] (the stack as project/stack (or stack, of this project), then the output name)',
    ]);
    const ref = 'name: f\nresources:\n  r:\n    type: pulumi:pulumi:StackReference\n    properties: { name: net/prod, other: 1 }\n    options: { protect: true }\n';
    expect(errors(ref)).toEqual([
      '5:35 unknown property "other" of the stack reference "r" (it takes name: project/stack (or stack, of this project))',
      '6:5 "options" means nothing for the stack reference "r" (a pulumi:pulumi:StackReference takes only properties: { name: project/stack })',
    ]);
    expect(parse('name: f\nresources:\n  r:\n    type: pulumi:pulumi:StackReference\n    properties: { name: net/prod }\n').manifest.variables.r).toMatchObject({ kind: 'stackReference' });
  });
});

describe('fn::invoke', () => {
  it('fn::<token> is an invoke of that function with the mapping as its arguments', () => {
    const { manifest, diagnostics } = parse('name: f\nvariables:\n  syd:\n    fn::interconnect:getLocation: { id: 2 }\n  any:\n    fn::interconnect:index/getLocation:getLocation:\n');
    expect(diagnostics).toEqual([]);
    expect(manifest.variables.syd).toMatchObject({ kind: 'invoke', fn: 'interconnect:index/getLocation:getLocation', args: { entries: [{ key: 'id' }] } });
    expect(manifest.variables.any).toMatchObject({ kind: 'invoke', fn: 'interconnect:index/getLocation:getLocation', args: { entries: [] } });
    expect(manifest.invoked).toEqual(['interconnect:index/getLocation:getLocation']);
  });

  it('a shorthand naming no function is an error at its key, with the nearest one', () => {
    expect(errors('name: f\nvariables:\n  syd:\n    fn::interconnect:getLocaton: { id: 2 }\n')).toEqual([
      '4:5 unknown function "interconnect:getLocaton" (did you mean "interconnect:index/getLocation:getLocation"? (plumb schema lists every function))',
    ]);
  });

  it('options: dependsOn and parent name resources; version and pluginDownloadURL are noted once, as ignored', () => {
    const yaml = `name: f
resources:
  port: { type: interconnect:Port, properties: { productName: p } }
variables:
  syd:
    fn::invoke:
      function: interconnect:getLocation
      arguments: { id: 2 }
      options:
        dependsOn: ["\${port}"]
        parent: \${port}
`;
    const { manifest, diagnostics } = parse(yaml);
    expect(diagnostics).toEqual([]);
    expect(manifest.variables.syd).toMatchObject({ dependsOn: [{ root: 'port' }], parent: { root: 'port' } });
    expect(errors(`${yaml}        version: 1.2.3\n        pluginDownloadURL: https://example.com\n        retries: 3\n`)).toEqual([
      '14:9 fn::invoke has no option "retries" (valid options: dependsOn, parent, provider, version, pluginDownloadURL)',
    ]);
    expect(parse(`${yaml}        version: 1.2.3\n`).manifest.warnings.map((w) => `${w.pos?.line}:${w.pos?.column} ${w.summary}`)).toEqual([
      "12:9 options.version (a call of getLocation) ignored: plumb's providers are built in, so there is no plugin to pin or download",
    ]);
  });

  it('a call that depends on a resource not known yet is not known either; its known arguments are still checked', async () => {
    const { manifest } = parse(`name: f
resources:
  port: { type: interconnect:Port, properties: { productName: p } }
variables:
  syd:
    fn::invoke: { function: interconnect:getLocation, arguments: { id: 2 }, options: { dependsOn: ["\${port}"] } }
`);
    const calls: unknown[] = [];
    const scope = { dir: '/', resolve: async () => ({ id: new Unknown('port.id') }), invoke: async (...args: unknown[]) => (calls.push(args), args[3] ? new Unknown('x') : { id: 2 }) };
    expect(await evaluate(manifest.variables.syd, scope)).toBeInstanceOf(Unknown);
    expect(calls).toEqual([['interconnect:index/getLocation:getLocation', { id: 2 }, { line: 6, column: 5 }, true, undefined, expect.objectContaining({ kind: 'object' })]]);
  });
});

describe('built-in variables', () => {
  it('${pulumi.stack}, ${pulumi.project}, ${pulumi.cwd} and plumb.* name the stack, the project and the manifest folder', async () => {
    const { manifest, diagnostics } = parse(
      'name: edge\nvariables:\n  s: ${pulumi.stack}\n  p: ${plumb.project}\n  label: "${pulumi.project}-${pulumi.stack}"\n  cwd: ${pulumi.cwd}\n',
      '/srv/edge/m.yaml',
    );
    expect(diagnostics).toEqual([]);
    manifest.stack = 'prod';
    expect(await variables(manifest)).toEqual({ s: 'prod', p: 'edge', label: 'edge-prod', cwd: '/srv/edge' });
  });

  it('an unknown field of pulumi, and a name that takes pulumi or plumb, are errors at their place', () => {
    expect(errors('name: f\nvariables:\n  s: ${pulumi.stak}\n  pulumi: 1\n')).toEqual([
      '3:6 ${pulumi.stak}: pulumi has the fields stack, project, cwd, rootDirectory, organization (did you mean ${pulumi.stack}?)',
      '4:11 "pulumi" is a reserved name: ${pulumi.stack} and the like are built in (name the variable otherwise)',
    ]);
  });
});

describe('resources', () => {
  it('properties may be one expression whose value is a mapping', async () => {
    const { manifest, diagnostics } = parse('name: f\nconfig:\n  settings: { productName: p, portSpeed: 1000 }\nresources:\n  port:\n    type: interconnect:Port\n    properties: ${settings}\n');
    expect(diagnostics).toEqual([]);
    expect(manifest.resources.port.properties.kind).toBe('mapping');
    const scope = new Evaluation(manifest, undefined, () => new Unknown()).scope();
    expect(await evaluate(manifest.resources.port.properties, scope)).toEqual({ productName: 'p', portSpeed: 1000 });
    expect(errors('name: f\nresources:\n  port:\n    type: interconnect:Port\n    properties: 5\n')).toEqual([
      '5:17 properties of "port" must be a mapping, or one expression whose value is a mapping (${settings})',
    ]);
  });

  it('what the Pulumi CLI reads from a project file (runtime as a mapping, template) is accepted and left alone; a compiler is not', () => {
    expect(errors('name: f\nruntime:\n  name: yaml\ntemplate:\n  description: a template\nauthor: ops\n')).toEqual([]);
    expect(errors('name: f\nruntime:\n  name: yaml\n  options: { compiler: cue export }\n')).toEqual([
      '4:12 runtime options are not supported (a YAML program is read as it is written; remove options:)',
    ]);
    expect(errors('name: f\nruntime: nodejs\n')).toEqual(['2:10 runtime "nodejs" is not one plumb runs (plumb runs Pulumi YAML programs: runtime: yaml)']);
    expect(errors('name: f\nplugins: { providers: [] }\n')).toEqual(['2:1 "plugins" is not supported (plumb\'s providers are built in)']);
  });

  it('Pulumi keys that mean nothing here are refused at their key, saying why', () => {
    expect(errors('name: f\ncomponents: {}\nresources:\n  port:\n    type: interconnect:Port\n    get: { id: abc }\n')).toEqual([
      '2:1 "components" is not supported (components are not supported: declare each resource under resources:)',
    ]);
  });
});
