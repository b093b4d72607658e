/**
 * Unknown properties are refused before any call, where they are written, with the field meant:
 * a plan never shows a key that apply would not send (issue 32, finding 1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadResourceTypes } from '../../src/cli/catalog.js';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { sampleValues } from '../support/sample-inputs.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

const config = 'config:\n  cloud:region: cn-bj2\n  cloud:projectId: org-sandbox\n';

/** `plumb COMMAND` of the manifest in `dir`, and every call the sandbox received meanwhile. */
async function run(dir: string, ...args: string[]) {
  await sandbox.clearCalls();
  const result = await plumb(args, { cwd: dir, env: sandbox.env });
  return { ...result, calls: await sandbox.calls() };
}

describe('a security group rule written with the API’s names', () => {
  const manifest = `name: firewall
${config}resources:
  ssh:
    type: cloud:index/securityGroup:SecurityGroup
    properties:
      name: ssh-from-office
      rules:
        - { protocol: tcp, port: "22", srcIp: 10.0.0.0/8, action: ACCEPT }
`;

  for (const command of [['validate'], ['plan'], ['apply', '--yes']]) {
    it(`${command[0]} refuses srcIp and action where they are written, naming cidrBlock and policy, and calls nothing`, async () => {
      const dir = workdir('plumb-unknown-keys-');
      writeManifest(dir, 'plumb.yaml', manifest);
      const result = await run(dir, ...command);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'plumb.yaml:11:40: error: unknown property "rules[0].srcIp" for cloud:index/securityGroup:SecurityGroup\n  11 |         - { protocol: tcp, port: "22", srcIp: 10.0.0.0/8, action: ACCEPT }\n     |                                        ^~~~~\n    valid properties: protocol, port, cidrBlock, policy, priority, description; did you mean "cidrBlock"?',
      );
      expect(result.stderr).toContain('plumb.yaml:11:59: error: unknown property "rules[0].action" for cloud:index/securityGroup:SecurityGroup');
      expect(result.stderr).toContain('did you mean "policy"?');
      expect(result.stdout).not.toContain('srcIp');
      expect(result.calls).toEqual([]);
    });
  }
});

/** The types the finding named, each given valid inputs made from its schema and one key it does not have. */
const NAMED = [
  'cloud:index/vpc:Vpc',
  'cloud:index/subnet:Subnet',
  'cloud:index/securityGroup:SecurityGroup',
  'cloud:index/eip:Eip',
  'cloud:index/instance:Instance',
  'cloud:index/lb:Lb',
  'cloud:index/lbListener:LbListener',
  'cloud:index/lbAttachment:LbAttachment',
  'cloud:index/natGateway:NatGateway',
  'cloud:index/disk:Disk',
  'cloud:index/antiDdosInstance:AntiDdosInstance',
  'pipeline:index/group:Group',
  'pipeline:index/connection:Connection',
];

const types = await loadResourceTypes();

describe('bogusProp: 1 on each type the finding named', () => {
  const resources = (extra: Record<string, unknown>) =>
    Object.fromEntries(NAMED.map((token, i) => [`r${i}`, { type: token, properties: { ...(sampleValues(types.get(token)!.inputs)[0] as object), ...extra } }]));
  const text = (extra: Record<string, unknown>) => `name: bogus\n${config}${stringify({ resources: resources(extra) })}`;

  it('without it, the manifest is valid', async () => {
    const dir = workdir('plumb-unknown-keys-');
    writeManifest(dir, 'plumb.yaml', text({}));
    const result = await run(dir, 'validate');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  for (const command of ['validate', 'plan']) {
    it(`${command} refuses it on every one of them, at its line, and calls nothing`, async () => {
      const dir = workdir('plumb-unknown-keys-');
      const written = text({ bogusProp: 1 });
      writeManifest(dir, 'plumb.yaml', written);
      const result = await run(dir, command);
      expect(result.code).toBe(1);
      const lines = written.split('\n');
      const refused = NAMED.map((token, i) => {
        const start = lines.indexOf(`  r${i}:`);
        const line = lines.findIndex((l, at) => at > start && l.trim() === 'bogusProp: 1') + 1;
        return `plumb.yaml:${line}:7: error: unknown property "bogusProp" for ${token}`;
      });
      expect(result.stderr.split('\n').filter((l) => l.includes('bogusProp') && !l.includes(' | '))).toEqual(refused);
      expect(result.calls).toEqual([]);
    });
  }
});
