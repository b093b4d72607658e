import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest, type CliResult } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';
import { stateFile } from '../support/state-file.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const SECRET_KEY = 'sk-never-show-4f1c9a';
const COST_CENTRE = 'cc-confidential-77e2';
const VARIABLE = 'var-hidden-b91d';
const AUTH_KEY = 'bgp-auth-5c0ffee';

const manifest = (name: string) => `name: secrets
config:
  interconnect:accessKey: someone
variables:
  hidden:
    fn::secret: ${VARIABLE}
  # A secret inside a list or an object keeps the whole result secret.
  joined:
    fn::join: ["-", ["pre", "\${hidden}"]]
  picked:
    fn::select: [0, ["\${hidden}"]]
  encoded:
    fn::toJSON: [["\${hidden}"]]
  aws:
    fn::invoke:
      function: interconnect:getPartner
      arguments: { connectType: AWS, locationId: 2 }
resources:
  port:
    type: interconnect:Port
    properties:
      productName: ${name}
      portSpeed: 1000
      locationId: 2
      contractTermMonths: 1
      marketplaceVisibility: false
      costCentre:
        fn::secret: ${COST_CENTRE}
      resourceTags: { joined: "\${joined}", picked: "\${picked}", encoded: "\${encoded}" }
  toAws:
    type: interconnect:Vxc
    properties:
      productName: secret-aws
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 120 }
      bEnd: { requestedProductUid: "\${aws.productUid}" }
      # The API echoes the auth key back among the connection's details.
      bEndPartnerConfig: { partner: aws, type: private, ownerAccount: "123456789012", asn: 64512, authKey: ${AUTH_KEY} }
  key:
    type: interconnect:ServiceKey
    properties:
      productUid: \${port.productUid}
      active: true
      maxSpeed: 100
      singleUse: false
      description: shared with a partner
outputs:
  hidden: \${hidden}
  joined: \${joined}
  key: \${key.key}
  costCentre: \${port.costCentre}
`;

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? allFiles(full) : [full];
  });
}

describe('secrets never leave in plaintext', () => {
  it('no command prints, logs, saves or stores a secret', async () => {
    const dir = workdir();
    const env = { ...sandbox.env, INTERCONNECT_ACCESS_KEY: 'someone', INTERCONNECT_SECRET_KEY: SECRET_KEY, INTERCONNECT_ACCEPT_PURCHASE_TERMS: 'true' };
    const log = join(dir, 'plumb.log');
    const outputs: CliResult[] = [];
    const run = async (args: string[]) => {
      const result = await plumb(['--log-level', 'debug', '--log-file', log, ...args], { cwd: dir, env });
      outputs.push(result);
      return result;
    };
    writeManifest(dir, 'plumb.yaml', manifest('secret-port'));
    expect((await run(['validate'])).code).toBe(0);
    expect((await run(['plan', '--out', 'plan.json'])).code).toBe(0);
    expect((await run(['plan', '--json'])).code).toBe(0);
    const applied = await run(['apply', '--yes']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('costCentre = "[secret]"');
    expect((await run(['apply', '--yes', '--json'])).code).toBe(0);
    expect((await run(['state', 'show', 'port'])).code).toBe(0);
    expect((await run(['state', 'show', 'port', '--json'])).code).toBe(0);
    expect((await run(['state', 'pull'])).code).toBe(0);
    const driftJson = await run(['drift', '--json']);
    expect(driftJson.code, driftJson.stdout + driftJson.stderr).toBe(0);
    expect((await run(['drift', '--format', 'markdown'])).code).toBe(0);
    expect((await run(['refresh', '--yes'])).code).toBe(0);
    expect((await run(['graph', '--format', 'json'])).code).toBe(0);
    expect((await run(['lookup', 'interconnect:index/getLocation:getLocation', '--arg', 'id=2'])).code).toBe(0);
    const port = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources.port.id;
    const keys = await new InterconnectApi(sandbox.url).call<Array<{ key: string }>>('GET', `/v2/service/key?productIdOrUid=${port}`);
    expect(keys).toHaveLength(1);
    const serviceKey = keys[0].key;
    writeManifest(dir, 'plumb.yaml', manifest('secret-port-renamed'));
    expect((await run(['apply', '--yes'])).code).toBe(0);
    expect((await run(['destroy', '--yes'])).code).toBe(0);

    const texts = [
      ...outputs.flatMap((o) => [o.stdout, o.stderr]),
      // Everything plumb wrote: the manifest is the user's own file and holds the secrets by design.
      ...allFiles(dir)
        .filter((f) => !f.endsWith('plumb.yaml'))
        .map((f) => readFileSync(f, 'latin1')),
    ];
    expect(readFileSync(log, 'utf8').length).toBeGreaterThan(0);
    for (const secret of [SECRET_KEY, COST_CENTRE, VARIABLE, AUTH_KEY, serviceKey]) {
      const leaks = texts.filter((t) => t.includes(secret)).map((t) => t.slice(Math.max(0, t.indexOf(secret) - 300), t.indexOf(secret) + 40));
      expect(leaks, `${secret} leaked`).toEqual([]);
    }
    for (const file of allFiles(join(dir, '.plumb')).filter((f) => !f.includes('sandbox'))) {
      expect(statSync(file).mode & 0o077, `${file} is readable by others`).toBe(0);
    }
  });
});

describe('a secret that turns up in a message', () => {
  const header = `name: secret-messages
variables:
  hidden:
    fn::secret: ${VARIABLE}
`;
  const port = (speed: string) => `  port:
    type: interconnect:Port
    properties: { productName: message-port, portSpeed: ${speed}, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
`;

  it('is not shown: a check of a secret input, a remote error about a secret, a lookup asked with a secret', async () => {
    const dir = workdir();
    const texts: string[] = [];
    const run = async (args: string[]) => {
      const result = await plumb(args, { cwd: dir, env: sandbox.env });
      texts.push(result.stdout, result.stderr);
      return result;
    };

    writeManifest(dir, 'plumb.yaml', `${header}resources:\n${port('"${hidden}"')}`);
    const checked = await run(['validate']);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain('portSpeed must be a number, not a string (secret)');

    // The API names the service key it could not find; a nested secret in MVE settings is checked too.
    const missingKey = '1b2329a5-56dc-45d0-8a0d-87b706297777';
    writeManifest(
      dir,
      'plumb.yaml',
      `${header}resources:
${port('1000')}  toPartner:
    type: interconnect:Vxc
    properties:
      productName: message-vxc
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 130 }
      serviceKey: ${missingKey}
`,
    );
    const failed = await run(['apply', '--yes']);
    expect(failed.code).toBe(1);
    expect(failed.stdout + failed.stderr).toContain('[secret]');

    writeManifest(
      dir,
      'plumb.yaml',
      `${header}  where:
    fn::invoke:
      function: interconnect:getLocation
      arguments: { name: "\${hidden}" }
resources:
  located:
    type: interconnect:Port
    properties: { productName: message-port-2, portSpeed: 1000, locationId: "\${where.id}", contractTermMonths: 1, marketplaceVisibility: false }
`,
    );
    const looked = await run(['plan']);
    expect(looked.code).toBe(1);

    for (const secret of [VARIABLE, missingKey]) {
      const leaks = texts.filter((t) => t.includes(secret)).map((t) => t.slice(Math.max(0, t.indexOf(secret) - 200), t.indexOf(secret) + 40));
      expect(leaks, `${secret} leaked`).toEqual([]);
    }
  });
});

describe('importing into an input marked secret', () => {
  it('shows what the object has there as [secret] too', async () => {
    const dir = workdir();
    const api = new InterconnectApi(sandbox.url);
    const uid = await api.orderPort('secret-import');
    await api.call('PUT', `/v2/product/megaport/${uid}`, { name: 'secret-import', costCentre: 'cc-remote-9f3a77' });
    writeManifest(
      dir,
      'plumb.yaml',
      `name: secret-import
resources:
  port:
    type: interconnect:Port
    properties:
      productName: secret-import
      portSpeed: 10000
      locationId: 2
      contractTermMonths: 12
      marketplaceVisibility: false
      costCentre: { fn::secret: cc-manifest-51d0 }
    options:
      import: ${uid}
`,
    );
    const plan = await plumb(['plan', '--json'], { cwd: dir, env: sandbox.env });
    expect(plan.code).toBe(0);
    const change = JSON.parse(plan.stdout).changes[0];
    expect(change.action).toBe('import');
    expect(change.before.costCentre).toBe('[secret]');
    expect(plan.stdout).not.toContain('cc-remote-9f3a77');
    expect(plan.stdout).not.toContain('cc-manifest-51d0');
  });
});
