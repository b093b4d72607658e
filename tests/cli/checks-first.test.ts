/**
 * One set of checks: every check that needs no remote call runs, for the whole manifest, before
 * any command calls a remote API, and `validate` runs the same checks with the same messages.
 * Judged at the sandbox: a manifest that does not validate reaches it with no call at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest, type CliResult } from '../support/cli.js';
import { cloudManifest } from '../support/cloud-example.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

/** The diagnostics a run printed (`plumb.yaml:L:C: error: ...` and the lines of detail under each). */
function errors(result: CliResult): string[] {
  return result.stderr
    .split(/\n(?=\S)/)
    .filter((block) => /^plumb\.yaml:\d+:\d+: error: /.test(block))
    .map((block) => block.trim());
}

/** Runs `validate` and then `plan` on `yaml`; both must refuse it with the same diagnostics, and the plan must call nothing. */
async function refusedWithoutCalls(yaml: string, expected: RegExp): Promise<void> {
  const dir = workdir();
  writeManifest(dir, 'plumb.yaml', yaml);
  const validated = await plumb(['validate'], { cwd: dir, env: sandbox.env });
  expect(validated.code).toBe(1);
  expect(errors(validated).join('\n')).toMatch(expected);
  await sandbox.clearCalls();
  const planned = await plumb(['plan'], { cwd: dir, env: sandbox.env });
  expect((await sandbox.calls()).map((c) => `${c.method} ${c.path}`)).toEqual([]);
  expect(planned.code).toBe(1);
  expect(errors(planned)).toEqual(errors(validated));
}

/** A pipeline with a valid connection, then one whose properties are `payments`. */
const pipeline = (payments: string) => `name: checks-first
resources:
  grp:
    type: pipeline:index/group:Group
    properties: { name: checks_first }
  orders:
    type: pipeline:index/connection:Connection
    properties:
      service: postgres
      groupId: \${grp.id}
      destinationSchema: { prefix: pg_orders }
      config: { host: db.example.com, port: 5432 }
  payments:
    type: pipeline:index/connection:Connection
    properties:
${payments.replace(/^/gm, '      ')}
`;

const interconnect = (port: string) => `name: checks-first
resources:
  port:
    type: interconnect:index/port:Port
    properties:
      productName: syd-port-1
      portSpeed: 10000
      locationId: 2
      contractTermMonths: 12
      marketplaceVisibility: false
  vxc:
    type: interconnect:index/vxc:Vxc
    properties:
${port.replace(/^/gm, '      ')}
`;

const cloud = (subnet: string) =>
  cloudManifest(
    'checks-first',
    { name: 'shop-vpc', cidr: '10.20.0.0/16' },
    `  web:
    type: cloud:index/subnet:Subnet
    properties:
${subnet.replace(/^/gm, '      ')}
`,
  );

describe('a manifest that does not validate makes no remote call', () => {
  it.each([
    ['an unknown property', 'service: stripe\ngroupId: ${grp.id}\ndestinationSchema: { name: stripe, shema: x }', /unknown property "destinationSchema\.shema"/],
    ['a value of the wrong type', 'service: stripe\ngroupId: ${grp.id}\ndestinationSchema: { name: stripe }\npaused: "yes"', /paused/],
    ['a required property left out', 'service: stripe\ndestinationSchema: { name: stripe }', /groupId/],
    ['a value outside its enum', 'service: stripe\ngroupId: ${grp.id}\ndestinationSchema: { name: stripe }\nnetworkingMethod: Carrier', /networkingMethod "Carrier" is not valid/],
    ['a reference to nothing', 'service: stripe\ngroupId: ${grup.id}\ndestinationSchema: { name: stripe }', /reference "grup" is not defined/],
  ])('pipeline: plan refuses a connection with %s as validate does, before reading any service metadata', async (_, payments, expected) => {
    await refusedWithoutCalls(pipeline(payments), expected);
  });

  it.each([
    ['an unknown property', 'productName: v\nrateLimit: 100\ncontractTermMonths: 1\naEnd: { requestedProductUid: "${port.productUid}", vlan: 100, vlna: 1 }', /unknown property "aEnd\.vlna"/],
    ['a required property left out', 'productName: v\ncontractTermMonths: 1\naEnd: { requestedProductUid: "${port.productUid}" }', /rateLimit/],
  ])('interconnect: plan refuses a VXC with %s as validate does', async (_, vxc, expected) => {
    await refusedWithoutCalls(interconnect(vxc), expected);
  });

  it.each([
    ['a value of the wrong type', 'vpcId: ${network.vpcId}\ncidrBlock: 10.20.1.0/24\nname: [shop-web]', /name/],
    ['a required property left out', 'vpcId: ${network.vpcId}\nname: shop-web', /cidrBlock/],
  ])('cloud: plan refuses a subnet with %s as validate does', async (_, subnet, expected) => {
    await refusedWithoutCalls(cloud(subnet), expected);
  });

  it('no command calls the API for a broken manifest whose stack records objects', async () => {
    const dir = workdir();
    const valid = 'service: stripe\ngroupId: ${grp.id}\ndestinationSchema: { name: stripe }\nconfig: { secret_key: sk_test_1 }';
    writeManifest(dir, 'plumb.yaml', pipeline(valid));
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    writeManifest(dir, 'plumb.yaml', pipeline(`${valid}\nnetworkingMethod: Carrier`));
    const runs = [
      ['plan', '--no-refresh'],
      ['plan'],
      ['apply', '--yes', '--no-refresh'],
      ['destroy', '--yes', '--no-refresh'],
      ['refresh', '--yes'],
      ['drift'],
      ['import', 'extra', 'pipeline:index/group:Group', 'g_1'],
      ['lookup', 'pipeline:index/getGroups:getGroups', '-f', 'plumb.yaml'],
    ];
    for (const args of runs) {
      await sandbox.clearCalls();
      const result = await plumb(args, { cwd: dir, env: sandbox.env });
      expect({ args, calls: (await sandbox.calls()).map((c) => `${c.method} ${c.path}`) }).toEqual({ args, calls: [] });
      expect({ args, code: result.code }).toEqual({ args, code: 1 });
      expect(errors(result).join('\n')).toMatch(/networkingMethod "Carrier" is not valid/);
    }
  });
});

describe('validate and plan run the same checks, with the same messages', () => {
  /** Runs validate and plan on `yaml` (with `args` before the command); both must refuse it with the same diagnostics. */
  async function sameRefusal(yaml: string, args: string[] = [], file = 'plumb.yaml'): Promise<string> {
    const dir = workdir();
    writeManifest(dir, file, yaml);
    const [validated, planned] = [await plumb([...args, 'validate', file], { cwd: dir, env: sandbox.env }), await plumb([...args, 'plan', file], { cwd: dir, env: sandbox.env })];
    expect([validated.code, planned.code]).toEqual([1, 1]);
    expect(planned.stderr).toBe(validated.stderr);
    return validated.stderr;
  }
  const group = 'resources:\n  grp:\n    type: pipeline:index/group:Group\n    properties: { name: g }\n';

  it("a project name that would reach outside the state location is refused at the manifest's name", async () => {
    const stderr = await sameRefusal(`name: ../../etc\n${group}`);
    expect(stderr).toContain('plumb.yaml:1:7: error: the manifest\'s name "../../etc" cannot name the folder its state is kept in');
  });

  it('a manifest without a name, whose file name cannot name its state, is refused by validate too', async () => {
    const stderr = await sameRefusal(group, [], 'my stack.yaml');
    expect(stderr).toContain('my stack.yaml:1:1: error: a manifest without a name keeps its state under its file name, and "my stack" cannot name it');
  });

  const aliased = (aliases: string, variables = '') => `name: aliases\n${variables}${group}    options:\n      aliases: [${aliases}]\n`;

  it('a reference to nothing in an alias is an error at its place', async () => {
    const stderr = await sameRefusal(aliased("'${nosuch}'"));
    expect(stderr).toMatch(/^plumb\.yaml:7:\d+: error: reference "nosuch" is not defined$/m);
  });

  it('an alias that reads what a resource makes is refused: an alias must be known when planning', async () => {
    const stderr = await sameRefusal(
      aliased("'${oldName}'", 'variables:\n  oldName: ${other.name}\n').replace('resources:\n', 'resources:\n  other:\n    type: pipeline:index/group:Group\n    properties: { name: o }\n'),
    );
    expect(stderr).toContain('error: alias "${oldName}" of grp is known only after apply: it reads other');
  });

  it('an alias naming a resource the manifest declares is refused by validate too', async () => {
    const stderr = await sameRefusal(aliased('grp2, old').replace('resources:\n', 'resources:\n  grp2:\n    type: pipeline:index/group:Group\n    properties: { name: g2 }\n'));
    expect(stderr).toContain('error: alias "grp2" of grp names a resource the manifest declares: grp2');
  });

  const withOptions = (options: string) => `name: options\nvariables:\n  prod: 'yes'\n${group}    options: { ${options} }\n`;

  it.each([
    ['protect must be true or false when known', 'protect: "${prod}"', 'option protect of grp must be true or false when planning; it is "yes"'],
    ['a replacementTrigger that cannot be evaluated', 'replacementTrigger: { fn::select: [3, [a, b]] }', 'fn::select index 3 is out of range (the list has 2 items)'],
    ["an import id not in the type's format", 'import: "no such id"', 'invalid group id "no such id"'],
  ])('%s is checked by validate as by plan', async (_, options, expected) => {
    expect(await sameRefusal(withOptions(options))).toContain(expected);
  });

  it.each([
    ['an id that is not a string', '5', 'the id in get of grp must be a string, not 5'],
    ["an id not in the type's format", '"no such id"', 'invalid group id "no such id"'],
  ])('get: with %s is refused by validate as by plan', async (_, id, expected) => {
    expect(await sameRefusal(`name: gets\nresources:\n  grp:\n    type: pipeline:index/group:Group\n    get: { id: ${id} }\n`)).toContain(expected);
  });

  it('a stack name that would reach outside the state location is refused by validate too', async () => {
    const stderr = await sameRefusal(`name: stacks\n${group}`, ['--stack', '../../escaped']);
    expect(stderr).toContain('error: invalid stack name "../../escaped"');
  });
});
