import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const port = (props: string) => `name: errors
resources:
  port:
    type: interconnect:index/port:Port
    properties:
${props}
`;
const validProps = `      productName: p
      portSpeed: 10000
      locationId: 2
      contractTermMonths: 12
      marketplaceVisibility: false`;

/** Each bad manifest, the position and the text its error must carry. */
const cases: Array<{ name: string; yaml: string; expect: RegExp[] }> = [
  { name: 'YAML syntax error', yaml: 'name: x\nresources:\n  port: [unclosed\n', expect: [/m\.yaml:4:1: error: YAML syntax error/] },
  {
    name: 'an unquoted reference in a flow mapping is one error, at its line, saying to quote it',
    yaml: 'name: x\nresources:\n  vxc:\n    type: interconnect:Vxc\n    properties:\n      aEnd: { requestedProductUid: ${port.productUid} }\n',
    expect: [/m\.yaml:6:37: error: YAML syntax error/, /a reference inside \{ \} or \[ \] must be quoted/, /\n1 error; nothing was changed/],
  },
  {
    name: 'lists nested deeper than the reader can go',
    yaml: `name: x\nvariables:\n  a: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`,
    expect: [/m\.yaml:3:\d+: error: the YAML nests too deeply to be read/, /\n1 error; nothing was changed/],
  },
  { name: 'unknown top-level key', yaml: 'name: x\nresorces: {}\n', expect: [/m\.yaml:2:1: error: unknown top-level key "resorces"/, /did you mean "resources"\?/] },
  {
    name: 'unknown resource type suggests the closest token',
    yaml: 'resources:\n  p:\n    type: interconnect:index/prot:Prot\n',
    expect: [/m\.yaml:3:11: error: unknown resource type "interconnect:index\/prot:Prot"/, /did you mean "interconnect:index\/port:Port"\?/],
  },
  {
    // Only cloud's types are needed for what the text names; the misspelt provider's answer is still an interconnect type.
    name: 'a misspelt provider is answered from every provider, whatever else the manifest names',
    yaml: 'resources:\n  p:\n    type: interconect:Port\n  ip:\n    type: cloud:AntiDdosIp\n',
    expect: [/m\.yaml:3:11: error: unknown resource type "interconect:Port"/, /did you mean "interconnect:index\/port:Port"\?/],
  },
  { name: 'unknown property', yaml: port(`${validProps}\n      prodName: x`), expect: [/m\.yaml:11:7: error: unknown property "prodName"/, /did you mean "productName"\?/] },
  { name: 'wrong type', yaml: port(validProps.replace('locationId: 2', 'locationId: "two"')), expect: [/m\.yaml:8:19: error: locationId must be a number, not a string \("two"\)/] },
  {
    name: 'value outside the allowed set names the allowed speeds',
    yaml: port(validProps.replace('portSpeed: 10000', 'portSpeed: 2000')),
    expect: [/m\.yaml:7:18: error: portSpeed 2000 is not valid: must be one of 1000, 10000, 100000, 400000/],
  },
  { name: 'missing required property', yaml: port(validProps.replace('      productName: p\n', '')), expect: [/m\.yaml:\d+:\d+: error: missing required property "productName"/] },
  { name: 'reference to an unknown name', yaml: port(`${validProps}\n      costCentre: \${nowhere.x}`), expect: [/m\.yaml:11:19: error: reference "nowhere" is not defined/] },
  { name: 'reference cycle prints the path', yaml: 'variables:\n  a: ${b}\n  b: ${a}\n', expect: [/error: reference cycle: a -> b -> a/] },
  {
    name: 'unsupported fn::',
    yaml: 'variables:\n  a:\n    fn::sha2: x\n',
    expect: [/m\.yaml:3:5: error: "fn::sha2" is not supported/, /supported functions: fn::invoke/, /did you mean "fn::sha1"\?/],
  },
  { name: 'an asset', yaml: 'variables:\n  a:\n    fn::fileAsset: ./x.txt\n', expect: [/m\.yaml:3:5: error: "fn::fileAsset" is not supported/, /assets and archives are not supported/] },
  {
    name: 'a field its resource type does not have',
    yaml: `${port(validProps)}  other:\n    type: interconnect:Port\n    properties:\n${validProps}\n      costCentre: \${port.nonexistent}\n`,
    expect: [/m\.yaml:\d+:19: error: \$\{port\.nonexistent\}: port \(interconnect:index\/port:Port\) has no field "nonexistent"/, /fields: id, productName/],
  },
  {
    name: 'an unknown property beside a value known only after apply',
    yaml: `${port(validProps)}  vxc:\n    type: interconnect:Vxc\n    properties:\n      productName: v\n      rateLimit: 100\n      contractTermMonths: 1\n      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 100, bogus: 1 }\n`,
    expect: [/m\.yaml:\d+:\d+: error: unknown property "aEnd\.bogus"/, /valid properties: requestedProductUid, vlan/],
  },
  {
    name: 'a lookup given an argument it does not take',
    yaml: `name: x\nvariables:\n  loc:\n    fn::invoke:\n      function: interconnect:getLocation\n      arguments: { idx: 2 }\n${port(validProps.replace('locationId: 2', 'locationId: \${loc.id}')).replace('name: errors\n', '')}`,
    expect: [/m\.yaml:6:20: error: invalid arguments for interconnect:index\/getLocation:getLocation/, /unknown argument "idx" \(valid arguments: id, name, siteCode; did you mean "id"\?\)/],
  },
  {
    name: 'a mistake in a variable only an output uses',
    yaml: `name: x\nvariables:\n  picked:\n    fn::select: [5, [a, b]]\n${port(validProps).replace('name: errors\n', '')}outputs:\n  o: \${picked}\n`,
    expect: [/m\.yaml:4:5: error: fn::select index 5 is out of range \(the list has 2 items\)/],
  },
  {
    name: 'a misspelt provider setting is not dropped in silence',
    yaml: `name: x\nconfig:\n  interconnect:cancelAtEndofTerm: true\n${port(validProps).replace('name: errors\n', '')}`,
    expect: [/m\.yaml:3:3: error: config interconnect:cancelAtEndofTerm: unknown setting/, /did you mean interconnect:cancelAtEndOfTerm\?/],
  },
  {
    name: 'unsupported option',
    yaml: port(validProps).replace('    properties:', '    options:\n      protected: true\n    properties:'),
    expect: [/m\.yaml:6:7: error: option "protected" is not supported/, /supported options: dependsOn, protect/, /did you mean "protect"\?/],
  },
  {
    name: 'a parent',
    yaml: port(validProps).replace('    properties:', '    options:\n      parent: x\n    properties:'),
    expect: [/m\.yaml:6:15: error: option parent takes one resource reference like \$\{router\}/],
  },
];

describe('bad manifests', () => {
  it('a misspelt function, by fn:: key or by token, is one error each: nothing is said of the value it stood for', async () => {
    const dir = workdir();
    const props = validProps.replace('productName: p', 'productName:\n        fn::joinn: ["-", [a, b]]').replace('locationId: 2', 'locationId: ${loc.id}');
    writeManifest(dir, 'm.yaml', `${port(props)}variables:\n  loc:\n    fn::interconnect:getLocaton: { id: 2 }\n`);
    const result = await plumb(['validate', 'm.yaml'], { cwd: dir, env: sandbox.env });
    expect(result.stderr).toMatch(/m\.yaml:7:9: error: "fn::joinn" is not supported\n[\s\S]*?did you mean "fn::join"\?/);
    expect(result.stderr).toMatch(/error: unknown function "interconnect:getLocaton"\n[\s\S]*?did you mean "interconnect:index\/getLocation:getLocation"\?/);
    expect(result.stderr).toMatch(/^2 errors; nothing was changed\.$/m);
  });

  for (const c of cases) {
    it(`${c.name}: positioned error, exit 1, no remote call`, async () => {
      const dir = workdir();
      writeManifest(dir, 'm.yaml', c.yaml);
      await sandbox.clearCalls();
      for (const command of [
        ['validate', 'm.yaml'],
        ['plan', 'm.yaml'],
      ]) {
        const result = await plumb(command, { cwd: dir, env: sandbox.env });
        expect(result.code).toBe(1);
        for (const pattern of c.expect) expect(result.stderr).toMatch(pattern);
        expect(result.stderr).not.toMatch(/\n\s+at /);
      }
      expect(await sandbox.calls()).toEqual([]);
    });
  }

  it('reports every error of a manifest together', async () => {
    const dir = workdir();
    writeManifest(dir, 'm.yaml', port(validProps.replace('portSpeed: 10000', 'portSpeed: 2000').replace('locationId: 2', 'locationId: "two"')));
    const result = await plumb(['validate', 'm.yaml'], { cwd: dir, env: sandbox.env });
    expect(result.stderr).toMatch(/portSpeed 2000/);
    expect(result.stderr).toMatch(/locationId must be a number/);
    expect(result.stderr).toMatch(/2 errors; nothing was changed/);
  });

  it('a real environment without accepted purchase terms is refused before any call', async () => {
    const dir = workdir();
    writeManifest(dir, 'm.yaml', port(validProps));
    await sandbox.clearCalls();
    const result = await plumb(['plan', 'm.yaml'], { cwd: dir, env: { ...sandbox.env, INTERCONNECT_ACCESS_KEY: 'ak', INTERCONNECT_SECRET_KEY: 'sk' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/interconnect:acceptPurchaseTerms must be true/);
    expect(await sandbox.calls()).toEqual([]);
  });
});

describe('bad flags and plan files', () => {
  it('an unknown --replace address, a bad --parallelism or --log-level, a plan for another stack or none at all: a clear error, exit 1, nothing done', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', port(validProps));
    writeManifest(dir, 'imports.yaml', '- { address: a, type: interconnect:Port }\n');
    mkdirSync(join(dir, 'folder'));
    const cases: Array<[string[], RegExp]> = [
      [['validate', 'folder'], /Error: folder is a folder, not a manifest/],
      [['--state', 'plumb.yaml', 'plan'], /plumb\.yaml is a file, where a folder is needed/],
      [['import', '--file', 'imports.yaml'], /imports\.yaml:1:3: item 0 has no "id"/],
      [['plan', '--replace', 'prot'], /--replace prot: no such resource in the manifest or state\n\s+did you mean port\? resources: port/],
      [['apply', '--yes', '--parallelism', 'abc'], /--parallelism <n>' argument 'abc' is invalid. expected a whole number, 1 or more/],
      [['apply', '--yes', '--parallelism', '0'], /expected a whole number, 1 or more/],
      [['--log-level', 'loud', 'validate'], /argument 'loud' is invalid. Allowed choices are trace, debug/],
      [['apply', 'missing.json'], /plan file missing.json not found/],
    ];
    for (const [args, message] of cases) {
      const result = await plumb(args, { cwd: dir, env: sandbox.env });
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at |EISDIR|EEXIST/);
    }
    expect((await plumb(['plan', '--out', 'plan.json'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const other = await plumb(['--stack', 'other', 'apply', 'plan.json', '--yes'], { cwd: dir, env: sandbox.env });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('plan.json is a plan for stack "default", not "other"');
    expect((await plumb(['--stack', 'other', 'state', 'list'], { cwd: dir, env: sandbox.env })).stdout).toBe('');
  });
});
