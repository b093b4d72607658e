import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir } from '../support/cli.js';

/**
 * Pulumi YAML programs in the style of pulumi-yaml's own test programs (its language conformance
 * fixtures and examples), written with plumb's types, each run as it is: it validates, plans,
 * applies against the sandbox, plans again with no change, and is destroyed.
 */
const source = resolve(import.meta.dirname, 'programs');
/** A program is `<name>.yaml`; `<name>.<stack>.yaml` beside it is that stack's settings file. */
const programs = readdirSync(source).filter((name) => /^[^.]+\.yaml$/.test(name));

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
let dir: string;
beforeAll(async () => {
  sandbox = await testSandbox();
  dir = workdir('plumb-programs-');
  cpSync(source, dir, { recursive: true });
});
afterAll(async () => sandbox.close());

const run = (...args: string[]) => plumb([...args, '--stack', 'test'], { cwd: dir, env: sandbox.env });

/** What some programs must give, beyond running: their planned outputs (`plan --json`). */
const outputs: Record<string, Record<string, unknown>> = {
  'l1-output-bool.yaml': { output_true: true, output_false: false },
  'l1-builtin-info.yaml': { stackOutput: 'test', projectOutput: 'l1-builtin-info', organizationOutput: 'organization' },
  'l1-builtin-functions.yaml': {
    encoded: 'aGVsbG8gd29ybGQ=',
    decoded: 'hello world',
    joined: 'hello-world',
    second: 'b',
    asJson: '["a","b","c"]',
    length: 3,
    textLength: 11,
    sha1: '2aae6c35c94fcfb415dbe95f408b9ce91ee846ed',
    single: 'hello world',
    none: null,
    secret: '[secret]',
    escaped: '${notAReference}',
  },
  'l2-invoke-simple.yaml': { same: 'Equinix SY1', name: 'Equinix SY1', fromFull: 'Equinix SY1' },
  'pipeline-lookups.yaml': { group: 'Analytics Warehouse', destination: 'snowflake' },
  'project-config.yaml': { speed: 10000, costCentre: '[secret]' },
  'l2-resource-parent.yaml': {
    routerUrn: 'urn:pulumi:test::resource-parent::interconnect:index/mcr:Mcr::programs-edge-router',
    listUrn: 'urn:pulumi:test::resource-parent::interconnect:index/mcr:Mcr$interconnect:index/mcrPrefixFilterList:McrPrefixFilterList::allowed-prefixes',
    portUrn: 'urn:pulumi:test::resource-parent::interconnect:index/mcr:Mcr$interconnect:index/port:Port::port',
  },
  'l2-provider-pins.yaml': {
    provider: { urn: 'urn:pulumi:test::provider-pins::pulumi:providers:interconnect::programs-connection' },
    providerUrn: 'urn:pulumi:test::provider-pins::pulumi:providers:interconnect::programs-connection',
    location: 2,
  },
  'l1-interpolation-formats.yaml': {
    list: 'speeds [1000 10000]',
    map: 'tags map[area:1 zone:b]',
    nil: 'nothing <nil>',
    float: 'million 1e+06, half 0.5',
    int: 'count 2000000',
    bool: 'yes true',
    name: 'programs-formats-port [1000 10000]',
  },
};

describe('Pulumi YAML programs run unchanged', () => {
  it('there are programs of every kind: no resources, lookups, config per stack, options', () => {
    expect(programs.length).toBeGreaterThanOrEqual(10);
  });

  for (const program of programs) {
    it(program, async () => {
      const validated = await run('validate', program);
      // Warnings only: one at a place comes with its source line and caret.
      expect(validated.stderr.replace(/^(Warning: |\S+:\d+:\d+: warning: ).*\n(?: +\d* \| .*\n)*/gm, '')).toBe('');
      expect(validated.code).toBe(0);
      const planned = await run('plan', program, '--json');
      expect(planned.stderr).toBe('');
      const plan = JSON.parse(planned.stdout);
      expect(plan.outputs).toMatchObject(outputs[program] ?? {});
      const applied = await run('apply', program, '--yes');
      expect([applied.code, applied.stderr]).toEqual([0, '']);
      const again = await run('plan', program, '--detailed-exitcode');
      expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('No changes.')]);
      const destroyed = await run('destroy', program, '--yes');
      expect([destroyed.code, destroyed.stderr]).toEqual([0, '']);
    });
  }

  it('resource options do what Pulumi says: secret outputs stay secret after a refresh, deletedWith sends no delete of its own', async () => {
    const program = 'l2-resource-options.yaml';
    expect((await run('apply', program, '--yes')).code).toBe(0);
    const stateFile = join(dir, '.plumb', 'resource-options', 'test', 'state.json');
    const sealed = () => JSON.parse(readFileSync(stateFile, 'utf8')).resources.port.outputs.companyUid;
    expect(sealed()).toEqual({ $secret: expect.stringMatching(/^v1:/) });
    expect((await run('refresh', program, '--yes')).code).toBe(0);
    expect(sealed()).toEqual({ $secret: expect.stringMatching(/^v1:/) });
    // Only what is secret is masked: the port's name is not.
    const planned = await run('plan', program, '--destroy');
    expect(planned.stdout).toMatch(/productName +\= "programs-options-port"/);
    expect(planned.stdout).toContain('! deletedWith router: deleting router deletes it, so no delete is sent for it');
    await sandbox.clearCalls();
    expect((await run('destroy', program, '--yes')).code).toBe(0);
    const deletes = (await sandbox.calls('interconnect')).filter((c) => c.method === 'DELETE' || c.path.includes('/action/CANCEL'));
    expect(deletes.some((c) => c.path.includes('prefixList'))).toBe(false);
    expect(deletes.length).toBe(3);
  });
});
