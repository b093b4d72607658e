import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const producer = `name: network
resources:
  port:
    type: interconnect:Port
    properties: { productName: shared-port, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false }
outputs:
  portId: \${port.productUid}
  token:
    fn::secret: s3cret-token-value
`;

const consumer = (output = 'portId') => `name: services
resources:
  network:
    type: pulumi:pulumi:StackReference
    properties:
      name: network/prod
outputs:
  fromResource: \${network.outputs.portId}
  fromFunction:
    fn::stackReference: [network/prod, ${output}]
  token: \${network.outputs.token}
`;

describe('stack references', () => {
  it("stack B reads stack A's outputs from the same folder, secrets staying secret, without locking or writing A", async () => {
    const dir = workdir();
    const env = sandbox.env;
    writeManifest(dir, 'network.yaml', producer);
    expect((await plumb(['apply', '--yes', '-f', 'network.yaml', '--stack', 'prod'], { cwd: dir, env })).code).toBe(0);
    const producerState = join(dir, '.plumb', 'network', 'prod', 'state.json');
    const uid = JSON.parse(readFileSync(producerState, 'utf8')).resources.port.id as string;
    // A's secret output is stored sealed, never as its text.
    expect(readFileSync(producerState, 'utf8')).not.toContain('s3cret-token-value');
    const before = { text: readFileSync(producerState, 'utf8'), mtime: statSync(producerState).mtimeMs, files: readdirSync(join(dir, '.plumb', 'network', 'prod')) };

    writeManifest(dir, 'services.yaml', consumer());
    const applied = await plumb(['apply', '--yes', '-f', 'services.yaml', '--stack', 'dev'], { cwd: dir, env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(`fromResource = "${uid}"`);
    expect(applied.stdout).toContain(`fromFunction = "${uid}"`);
    expect(applied.stdout).toContain('token = "[secret]"');
    expect(applied.stdout).not.toContain('s3cret-token-value');
    const consumerState = readFileSync(join(dir, '.plumb', 'services', 'dev', 'state.json'), 'utf8');
    expect(consumerState).toContain(uid);
    expect(consumerState).not.toContain('s3cret-token-value');
    // The secret came through as a secret, and is stored sealed (not as the text "[secret]").
    expect(JSON.parse(consumerState).outputs.token).toHaveProperty('$secret');
    expect({ text: readFileSync(producerState, 'utf8'), mtime: statSync(producerState).mtimeMs, files: readdirSync(join(dir, '.plumb', 'network', 'prod')) }).toEqual(before);
  });

  it('a missing stack or output is an error naming it, before any change', async () => {
    const dir = workdir();
    const env = sandbox.env;
    writeManifest(dir, 'services.yaml', consumer());
    const noStack = await plumb(['plan', '-f', 'services.yaml'], { cwd: dir, env });
    expect(noStack.code).not.toBe(0);
    expect(noStack.stderr).toContain('stack reference "network/prod": project network has no stack prod');
    writeManifest(dir, 'network.yaml', 'name: network\noutputs:\n  portId: abc\n  token: t\n');
    expect((await plumb(['apply', '--yes', '-f', 'network.yaml', '--stack', 'prod'], { cwd: dir, env })).code).toBe(0);
    writeManifest(dir, 'services.yaml', consumer('nope'));
    const noOutput = await plumb(['plan', '-f', 'services.yaml'], { cwd: dir, env });
    expect(noOutput.code).not.toBe(0);
    expect(noOutput.stderr).toContain('services.yaml:10:40: error: stack network/prod has no output "nope"');
    expect(noOutput.stderr).not.toMatch(/\n\s+at /);
  });
});
