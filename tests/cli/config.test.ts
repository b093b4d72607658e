import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const PASSWORD = 'pw-never-shown-7c41e9';

/** One manifest for every stack: the port's name, speed and a secret come from each stack's config. */
const manifest = `name: edge
config:
  portName: { type: string }
  speed: { type: integer, default: 1000 }
  token: { type: string, secret: true }
resources:
  port:
    type: interconnect:Port
    properties:
      productName: \${portName}
      portSpeed: \${speed}
      locationId: 2
      contractTermMonths: 1
      marketplaceVisibility: false
      costCentre: \${token}
outputs:
  name: "\${pulumi.project}-\${pulumi.stack}: \${port.productName}"
  token: \${token}
`;

describe('plumb config', () => {
  it('sets, lists, gets and removes a stack value; a secret is kept encrypted and never printed unasked', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    const run = (...args: string[]) => plumb(args, { cwd: dir, env: { ...sandbox.env, PLUMB_PASSPHRASE: undefined } });
    expect((await run('config', 'set', 'portName', 'syd-dev', '--stack', 'dev')).stdout).toBe('Set edge:portName in plumb.dev.yaml.\n');
    // Declared secret: encrypted without --secret being said.
    expect((await run('config', 'set', 'token', PASSWORD, '--stack', 'dev')).stdout).toBe('Set edge:token in plumb.dev.yaml (encrypted: token is declared secret).\n');
    const file = readFileSync(join(dir, 'plumb.dev.yaml'), 'utf8');
    expect(file).toMatch(/edge:token:\n {4}secure: v1:/);
    expect(file).not.toContain(PASSWORD);

    const listed = await run('config', 'list', '--stack', 'dev');
    expect(listed.stdout).toBe("KEY            VALUE\nedge:portName  syd-dev\nedge:speed     (not set; the manifest's default)\nedge:token     [secret]\n");
    const refused = await run('config', 'get', 'token', '--stack', 'dev');
    expect([refused.code, refused.stderr]).toEqual([1, 'Error: edge:token is a secret\n  pass --show-secrets to print it\n']);
    expect((await run('config', 'get', 'token', '--stack', 'dev', '--show-secrets')).stdout).toBe(`${PASSWORD}\n`);

    const planned = await run('plan', '--stack', 'dev');
    expect(planned.code).toBe(0);
    expect(planned.stdout).toMatch(/productName +\= "syd-dev"/);
    expect(planned.stdout).toMatch(/costCentre +\= \[secret\]/);
    expect(planned.stdout + planned.stderr).not.toContain(PASSWORD);

    expect((await run('config', 'rm', 'portName', '--stack', 'dev')).stdout).toBe('Removed edge:portName from plumb.dev.yaml.\n');
    expect(readFileSync(join(dir, 'plumb.dev.yaml'), 'utf8')).not.toContain('portName');
  });

  it('one manifest, two stacks: each applies with its own config', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    const run = (...args: string[]) => plumb(args, { cwd: dir, env: sandbox.env });
    writeFileSync(join(dir, 'plumb.dev.yaml'), `config:\n  edge:portName: cfg-dev-port\n  edge:token: t1\n`);
    await run('config', 'set', 'portName', 'cfg-prod-port', '--stack', 'prod');
    await run('config', 'set', 'speed', '10000', '--stack', 'prod');
    await run('config', 'set', 'token', 'prod-token-value', '--stack', 'prod');
    const dev = await run('apply', '--yes', '--stack', 'dev');
    const prod = await run('apply', '--yes', '--stack', 'prod');
    expect([dev.code, prod.code]).toEqual([0, 0]);
    expect(dev.stdout).toContain('name = "edge-dev: cfg-dev-port"');
    expect(prod.stdout).toContain('name = "edge-prod: cfg-prod-port"');
    const live = await new InterconnectApi(sandbox.url).liveProducts('cfg-');
    expect(live.map((p) => [p.productName, p.portSpeed]).sort()).toEqual([
      ['cfg-dev-port', 1000],
      ['cfg-prod-port', 10000],
    ]);
    await run('destroy', '--yes', '--stack', 'dev');
    await run('destroy', '--yes', '--stack', 'prod');
  });

  it('a required value with no setting stops the plan before any remote call, naming how to set it', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    await sandbox.clearCalls();
    const planned = await plumb(['plan', '--stack', 'staging', '--config', 'token=x'], { cwd: dir, env: sandbox.env });
    expect(planned.code).toBe(1);
    expect(planned.stderr).toBe(
      'plumb.yaml:3:3: error: config portName has no value for stack "staging" and no default\n   3 |   portName: { type: string }\n     |   ^~~~~~~~\n    set it: plumb config set portName VALUE --stack staging (or --config portName=VALUE, or PLUMB_CONFIG_portName)\n1 error; nothing was changed.\n',
    );
    expect(await sandbox.calls()).toEqual([]);
  });

  it('provider settings per stack: a wrong one is an error at its place in the stack file; --config wins over the environment', async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      'name: edge\nresources:\n  port: { type: interconnect:Port, properties: { productName: p, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false } }\n',
    );
    writeFileSync(join(dir, 'plumb.dev.yaml'), 'config:\n  interconnect:waitTime: soon\n  interconnect:cancelAtEndofTerm: true\n');
    const checked = await plumb(['validate', '--stack', 'dev'], { cwd: dir, env: sandbox.env });
    expect(checked.stderr).toBe(
      [
        'plumb.dev.yaml:2:26: error: config interconnect:waitTime must be a number, not a string ("soon")',
        '   2 |   interconnect:waitTime: soon',
        '     |                          ^~~~',
        'plumb.dev.yaml:3:35: error: config interconnect:cancelAtEndofTerm: unknown setting',
        '   3 |   interconnect:cancelAtEndofTerm: true',
        '     |                                   ^~~~',
        '    did you mean interconnect:cancelAtEndOfTerm? settings: accessKey, secretKey, acceptPurchaseTerms, environment, cancelAtEndOfTerm, waitTime, maxConcurrency, rateLimit, requestsPerSecond',
        '2 errors; nothing was changed.',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'plumb.dev.yaml'), 'config:\n  interconnect:environment: production\n');
    const flagged = await plumb(['validate', '--stack', 'dev', '--config', 'interconnect:environment=nowhere'], { cwd: dir, env: { ...sandbox.env, INTERCONNECT_ENVIRONMENT: 'development' } });
    expect(flagged.stderr).toContain('--config interconnect:environment: error: config interconnect:environment "nowhere" is not valid: must be one of production, staging, development');
  });

  it('with the key file gone, a new secret is refused while a stack file holds secrets sealed with the old key', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    const env = { ...sandbox.env, PLUMB_PASSPHRASE: undefined };
    await plumb(['config', 'set', 'token', PASSWORD, '--stack', 'dev'], { cwd: dir, env });
    renameSync(join(dir, '.plumb', 'secret.key'), join(dir, 'secret.key.bak'));
    const refused = await plumb(['config', 'set', 'other', 'x', '--secret', '--stack', 'prod'], { cwd: dir, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`the key file ${join(dir, '.plumb', 'secret.key')} is missing, and ${join(dir, 'plumb.dev.yaml')} holds secrets sealed with it`);
    expect(existsSync(join(dir, '.plumb', 'secret.key'))).toBe(false);
    expect(existsSync(join(dir, 'plumb.prod.yaml'))).toBe(false);
  });
});
