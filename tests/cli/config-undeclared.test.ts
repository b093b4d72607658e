/**
 * A config key the manifest does not declare is never taken silently: `plumb config set` writes
 * it with a warning naming the closest declared key and the declared keys (a provider setting
 * that does not exist, the closest setting), and plan and validate warn of a stack settings file
 * key the manifest does not declare, at its place in that file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plumb, workdir, writeManifest } from '../support/cli.js';

const manifest = 'name: cfg\nconfig:\n  portSpeed: { type: integer }\n  productName: { type: string, default: edge }\nresources: {}\noutputs:\n  speed: ${portSpeed}\n';

describe('config keys the manifest does not declare', () => {
  it('plumb config set takes one with a warning naming the closest declared key and the declared keys', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    const set = await plumb(['config', 'set', 'portSped', '10', '--stack', 'dev'], { cwd: dir });
    expect(set.code).toBe(0);
    expect(set.stdout).toBe('Set cfg:portSped in plumb.dev.yaml.\n');
    expect(set.stderr).toBe('Warning: portSped is not read: plumb.yaml does not declare it; did you mean portSpeed? declared keys: portSpeed, productName\n');
    const declared = await plumb(['config', 'set', 'portSpeed', '10', '--stack', 'dev'], { cwd: dir });
    expect(declared.stderr).toBe('');
    expect(readFileSync(join(dir, 'plumb.dev.yaml'), 'utf8')).toBe('config:\n  cfg:portSped: "10"\n  cfg:portSpeed: 10\n');
  });

  it('plumb config set takes a provider setting that does not exist with a warning naming the closest setting', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    const set = await plumb(['config', 'set', 'interconnect:waitTme', '20'], { cwd: dir });
    expect(set.code).toBe(0);
    expect(set.stderr).toMatch(/^Warning: interconnect has no setting waitTme, so plan and validate will refuse it; did you mean interconnect:waitTime\? settings: .*waitTime/);
    expect((await plumb(['config', 'set', 'interconnect:waitTime', '20'], { cwd: dir })).stderr).toBe('');
  });

  it('validate and plan warn of a stack file key the manifest does not declare, at its place', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    writeManifest(dir, 'plumb.dev.yaml', 'config:\n  cfg:portSpeed: 10\n  cfg:portSped: 100\n');
    const summary = 'portSped is set for stack "dev" but plumb.yaml does not declare it; did you mean portSpeed? declared keys: portSpeed, productName';
    const warning = `plumb.dev.yaml:3:17: warning: ${summary}\n   3 |   cfg:portSped: 100\n     |                 ^~~\n`;
    const validated = await plumb(['validate', '--stack', 'dev'], { cwd: dir });
    expect(validated.code).toBe(0);
    expect(validated.stderr).toBe(warning);
    const json = JSON.parse((await plumb(['validate', '--stack', 'dev', '--json'], { cwd: dir })).stdout);
    expect(json.diagnostics).toEqual([{ severity: 'warning', summary, file: 'plumb.dev.yaml', line: 3, column: 17, lineText: '  cfg:portSped: 100' }]);
    const planned = await plumb(['plan', '--stack', 'dev', '--state', join(dir, 'state')], { cwd: dir });
    expect(planned.stdout + planned.stderr).toContain(warning);
  });

  it('in a Pulumi project the warning names both files a key could be declared in', async () => {
    const dir = workdir();
    writeManifest(dir, 'Pulumi.yaml', 'name: cfg\nruntime: yaml\nconfig:\n  portSpeed: { type: integer, default: 10 }\n');
    writeManifest(dir, 'Main.yaml', 'resources: {}\noutputs:\n  speed: ${portSpeed}\n');
    const set = await plumb(['config', 'set', 'portSped', '10', '--stack', 'dev'], { cwd: dir });
    expect(set.stdout).toBe('Set cfg:portSped in Pulumi.dev.yaml.\n');
    expect(set.stderr).toBe('Warning: portSped is not read: neither Pulumi.yaml nor Main.yaml declares it; did you mean portSpeed? declared keys: portSpeed\n');
  });

  it('a key the manifest refers to without declaring it is read, as in Pulumi, without a warning', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', `${manifest}  region: \${region}\n`);
    const set = await plumb(['config', 'set', 'region', 'eu', '--stack', 'dev'], { cwd: dir });
    expect(set.stderr).toBe('');
    const validated = await plumb(['validate', '--stack', 'dev', '--config', 'portSpeed=10'], { cwd: dir });
    expect(validated.stderr).toBe('');
    expect(validated.code).toBe(0);
  });
});
