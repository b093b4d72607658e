import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plumb, workdir, writeManifest } from '../support/cli.js';

const SECRET = 'a-secret-value-123';

const MANIFEST = `name: outs
variables:
  token:
    fn::secret: ${SECRET}
resources: {}
outputs:
  token: \${token}
  shown:
    fn::unsecret: \${token}
  both: { count: 2, token: "\${token}" }
  plain: a plain text
`;

/** A stack whose last apply recorded a secret output, its fn::unsecret, a mapping holding it and a plain text. */
async function applied(): Promise<string> {
  const dir = workdir('plumb-outputs-');
  writeManifest(dir, 'plumb.yaml', MANIFEST);
  const apply = await plumb(['apply', '--yes'], { cwd: dir });
  expect(apply.code, apply.stderr).toBe(0);
  // Pulumi shows an fn::unsecret output; the secret itself stays hidden.
  expect(apply.stdout).toContain(`shown = "${SECRET}"`);
  expect(apply.stdout).toContain('token = "[secret]"');
  return dir;
}

describe('plumb output reads secrets back only when asked', () => {
  it('keeps secret outputs sealed in state and shows them as [secret]; an fn::unsecret output is plain', async () => {
    const cwd = await applied();
    const recorded = JSON.parse(readFileSync(join(cwd, '.plumb/outs/default/state.json'), 'utf8')).outputs;
    expect(recorded.token).toEqual({ $secret: expect.stringMatching(/^v1:/) });
    expect(recorded.both.token).toEqual({ $secret: expect.stringMatching(/^v1:/) });
    expect(recorded.shown).toBe(SECRET);
    const all = await plumb(['output'], { cwd });
    expect(all.stdout).toBe(`token = "[secret]"\nshown = "${SECRET}"\nboth = {\n  "count": 2,\n  "token": "[secret]"\n}\nplain = "a plain text"\n`);
    expect((await plumb(['output', 'shown', '--raw'], { cwd })).stdout).toBe(SECRET);
    expect(JSON.parse((await plumb(['output', '--json'], { cwd })).stdout)).toEqual({ token: '[secret]', shown: SECRET, both: { count: 2, token: '[secret]' }, plain: 'a plain text' });
  });

  it('--show-secrets prints them in clear, all, one, as JSON and raw; never in the logs', async () => {
    const cwd = await applied();
    const all = await plumb(['output', '--show-secrets', '--log-level', 'trace'], { cwd });
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toBe(`token = "${SECRET}"\nshown = "${SECRET}"\nboth = {\n  "count": 2,\n  "token": "${SECRET}"\n}\nplain = "a plain text"\n`);
    expect(all.stderr).not.toContain(SECRET);
    expect((await plumb(['output', 'token', '--show-secrets'], { cwd })).stdout).toBe(`"${SECRET}"\n`);
    expect(JSON.parse((await plumb(['output', '--json', '--show-secrets'], { cwd })).stdout)).toEqual({ token: SECRET, shown: SECRET, both: { count: 2, token: SECRET }, plain: 'a plain text' });
    expect(JSON.parse((await plumb(['output', 'both', '--json', '--show-secrets'], { cwd })).stdout)).toEqual({ count: 2, token: SECRET });
    expect((await plumb(['output', 'token', '--raw', '--show-secrets'], { cwd })).stdout).toBe(SECRET);
  });

  it('--raw on a secret says it is secret and how to print it, never "a mapping"', async () => {
    const cwd = await applied();
    const raw = await plumb(['output', 'token', '--raw'], { cwd });
    expect(raw.code).toBe(1);
    expect(raw.stdout).toBe('');
    expect(raw.stderr).toContain('output token is secret');
    expect(raw.stderr).toContain('plumb output token --raw --show-secrets');
    expect(raw.stderr).not.toContain('mapping');
    const mapping = await plumb(['output', 'both', '--raw', '--show-secrets'], { cwd });
    expect(mapping.code).toBe(1);
    expect(mapping.stderr).toContain('output both is a mapping');
    expect(mapping.stderr).not.toContain(SECRET);
  });

  it('an output recorded as [secret] by an older plumb still reads; --show-secrets says an apply records it', async () => {
    const cwd = await applied();
    const file = join(cwd, '.plumb/outs/default/state.json');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    state.outputs.token = '[secret]';
    writeFileSync(file, JSON.stringify(state));
    expect((await plumb(['output', 'token'], { cwd })).stdout).toBe('"[secret]"\n');
    const one = await plumb(['output', 'token', '--show-secrets'], { cwd });
    expect(one.code).toBe(1);
    expect(one.stderr).toContain('output token was recorded as [secret] before plumb kept secret outputs');
    expect(one.stderr).toContain('run plumb apply to record it');
    const all = await plumb(['output', '--show-secrets'], { cwd });
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('token = "[secret]"');
    expect(all.stderr).toContain('output token was recorded as [secret]');
    expect((await plumb(['apply', '--yes'], { cwd })).code).toBe(0);
    expect((await plumb(['output', 'token', '--raw', '--show-secrets'], { cwd })).stdout).toBe(SECRET);
  });
});
