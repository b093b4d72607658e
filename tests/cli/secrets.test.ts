import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest, type CliResult } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const SECRET_KEY = 'sk-never-show-4f1c9a';
const COST_CENTRE = 'cc-confidential-77e2';
const VARIABLE = 'var-hidden-b91d';

const manifest = (name: string) => `name: secrets
config:
  interconnect:accessKey: someone
variables:
  hidden:
    fn::secret: ${VARIABLE}
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
    const port = JSON.parse(readFileSync(join(dir, '.plumb/default/state.json'), 'utf8')).resources.port.id;
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
    for (const secret of [SECRET_KEY, COST_CENTRE, VARIABLE, serviceKey]) {
      const leaks = texts.filter((t) => t.includes(secret)).map((t) => t.slice(Math.max(0, t.indexOf(secret) - 300), t.indexOf(secret) + 40));
      expect(leaks, `${secret} leaked`).toEqual([]);
    }
    for (const file of allFiles(join(dir, '.plumb')).filter((f) => !f.includes('sandbox'))) {
      expect(statSync(file).mode & 0o077, `${file} is readable by others`).toBe(0);
    }
  });
});
