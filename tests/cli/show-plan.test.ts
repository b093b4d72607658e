import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const SECRET = 'tok-4be1-not-for-eyes';

/** A port whose speed and name come from config: a declared integer and a declared secret. */
const manifest = `name: edge
config:
  portSpeed: { type: integer, default: 10000 }
  apiToken: { type: string, secret: true, default: unset }
resources:
  port:
    type: interconnect:Port
    properties:
      productName: edge-\${apiToken}
      portSpeed: \${portSpeed}
      locationId: 2
      contractTermMonths: 1
      marketplaceVisibility: false
`;

/** What plan printed, less what it said of the files it wrote. */
const planText = (stdout: string) => stdout.replace(/\n\nWrote the plan as a page[^\n]*\n/, '\n').replace(/\nSaved the plan to [^\n]*\n$/, '');

describe('plumb show PLANFILE', () => {
  it('prints a saved plan as plan printed it, --compact and --json too, reading only the file', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    const planned = await plumb(['plan', '--out', 'plan.json'], { cwd: dir, env: sandbox.env });
    expect(planned.code).toBe(0);
    const compact = await plumb(['plan', '--compact'], { cwd: dir, env: sandbox.env });
    // No manifest, no state, no sandbox, no credentials: the file alone.
    const elsewhere = workdir();
    writeFileSync(join(elsewhere, 'saved.json'), readFileSync(join(dir, 'plan.json')));
    rmSync(join(dir, 'plumb.yaml'));
    await sandbox.clearCalls();
    const env = { PLUMB_SANDBOX_URL: 'http://127.0.0.1:9', INTERCONNECT_ACCESS_KEY: undefined, INTERCONNECT_SECRET_KEY: undefined };
    const shown = await plumb(['show', 'saved.json'], { cwd: elsewhere, env });
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toBe(planText(planned.stdout));
    expect((await plumb(['show', 'saved.json', '--compact'], { cwd: elsewhere, env })).stdout).toBe(compact.stdout);
    const json = await plumb(['show', 'saved.json', '--json'], { cwd: elsewhere, env });
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(readFileSync(join(elsewhere, 'saved.json'), 'utf8')));
    expect(await sandbox.calls()).toEqual([]);
  });

  it('a file that is not a plan is a clear error', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    writeFileSync(join(dir, 'state.json'), '{"version": 1, "resources": {}}');
    expect(await plumb(['show', 'plumb.yaml'], { cwd: dir })).toMatchObject({ code: 1, stdout: '' });
    expect((await plumb(['show', 'plumb.yaml'], { cwd: dir })).stderr).toBe('Error: plumb.yaml is not a plan file (it is not JSON)\n  make one with plumb plan --out FILE\n');
    expect((await plumb(['show', 'state.json'], { cwd: dir })).stderr).toBe('Error: state.json is not a plumb plan (formatVersion 1)\n  make one with plumb plan --out FILE\n');
    expect((await plumb(['show', 'gone.json'], { cwd: dir })).stderr).toBe('Error: plan file gone.json not found\n  make one with plumb plan --out FILE\n');
  });
});

describe('the config a plan was made with', () => {
  it('is kept in the saved plan, listed on the review page and by show, secrets masked everywhere', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    const env = { ...sandbox.env, PLUMB_CONFIG_apiToken: SECRET };
    const planned = await plumb(['plan', '--config', 'portSpeed=1000', '--out', 'plan.json', '--html', 'plan.html'], { cwd: dir, env });
    expect(planned.code).toBe(0);
    const saved = readFileSync(join(dir, 'plan.json'), 'utf8');
    expect(JSON.parse(saved).configGiven).toEqual([
      { key: 'portSpeed', from: '--config portSpeed', value: 1000 },
      { key: 'apiToken', from: 'PLUMB_CONFIG_apiToken', secret: true },
    ]);
    const page = readFileSync(join(dir, 'plan.html'), 'utf8');
    const text = page.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('Config given for this run key value given by portSpeed 1000 --config portSpeed apiToken [secret] PLUMB_CONFIG_apiToken');
    const shown = await plumb(['show', 'plan.json'], { cwd: dir });
    expect(shown.stdout).toMatch(/\n\nPlanned with config given for the run: --config portSpeed=1000, PLUMB_CONFIG_apiToken=\[secret\]\.\n$/);
    for (const written of [saved, page, shown.stdout, planned.stdout, planned.stderr]) expect(written).not.toContain(SECRET);
    const json = await plumb(['plan', '--config', 'portSpeed=1000', '--json'], { cwd: dir, env });
    expect(JSON.parse(json.stdout).configGiven).toEqual(JSON.parse(saved).configGiven);
  });

  it('a page for a plan made with none says so', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    expect((await plumb(['plan', '--html', 'plan.html', '--out', 'plan.json'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    expect(readFileSync(join(dir, 'plan.html'), 'utf8')).toContain('Config given for this run: none');
    expect(JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8'))).not.toHaveProperty('configGiven');
  });

  it('apply PLANFILE applies the plain --config values it was made with; a secret or variable not given again is named, not "no longer matches"', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    const env = { ...sandbox.env, PLUMB_CONFIG_apiToken: SECRET };
    expect((await plumb(['plan', '--config', 'portSpeed=1000', '--out', 'plan.json'], { cwd: dir, env })).code).toBe(0);
    const bare = await plumb(['apply', 'plan.json'], { cwd: dir, env: sandbox.env });
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain(
      'Error: plan.json was made with config given for the run: --config portSpeed=1000, PLUMB_CONFIG_apiToken=[secret]; this run gives --config portSpeed=1000\n  give the same PLUMB_CONFIG_* variables and secret --config values to apply it (its plain --config values are applied from the file), or make a new plan\n',
    );
    const other = await plumb(['apply', 'plan.json', '--config', 'portSpeed=10000'], { cwd: dir, env });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('this run gives --config portSpeed=10000, PLUMB_CONFIG_apiToken=[secret]');
    const applied = await plumb(['apply', 'plan.json'], { cwd: dir, env });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/^Planned with config given for the run: --config portSpeed=1000, PLUMB_CONFIG_apiToken=\[secret\]\.\n/);
    expect(applied.stdout).not.toContain(SECRET);
  });
});
