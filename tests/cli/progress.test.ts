import { execFile, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLUMB, plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  // Slow enough provisioning that progress has something to show.
  sandbox = await testSandbox(2500);
});
afterAll(async () => sandbox.close());

const manifest = `name: progress
resources:
  a:
    type: interconnect:Port
    properties: { productName: live-a, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
  b:
    type: interconnect:Port
    properties: { productName: live-b, portSpeed: 1000, locationId: 3, contractTermMonths: 1, marketplaceVisibility: false }
    # After a: every count from none done to both is on the screen for a while.
    options: { dependsOn: ["\${a}"] }
`;

/** Runs the CLI inside a real pseudo-terminal (util-linux `script`) and returns what the terminal received. */
function inTerminal(args: string[], cwd: string, env: Record<string, string>): Promise<string> {
  const command = [process.execPath, PLUMB, ...args].map((a) => `'${a}'`).join(' ');
  return new Promise((resolve, reject) => {
    execFile('script', ['-qec', command, '/dev/null'], { cwd, env: { ...process.env, ...env, TERM: 'xterm' } }, (err, stdout) =>
      err ? reject(new Error(`${err.message}\n${stdout}`)) : resolve(stdout),
    );
  });
}

describe('apply progress', () => {
  it('on a terminal, a live view redraws running resources with status and elapsed time, then ends with the report', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    const screen = await inTerminal(['apply', '--yes'], dir, sandbox.env);
    const redraws = screen.split('\x1b[J').length - 1;
    expect(redraws).toBeGreaterThan(3);
    expect(screen).toMatch(/creating a \[DEPLOYABLE\]/);
    expect(screen).toMatch(/creating b \[DEPLOYABLE\].*\x1b\[2m[12]s/);
    expect(screen).toMatch(/0\/2 done, 1 running, 1 waiting/);
    expect(screen).toMatch(/1\/2 done, 1 running, 0 waiting/);
    expect(screen).toContain('\x1b[32m');
    const end = screen.slice(screen.lastIndexOf('2/2 done'));
    expect(end).toMatch(/Apply complete! Resources: 2 added, 0 changed, 0 replaced, 0 destroyed\./);
  });

  it('without a terminal, one timestamped line per event and "still creating" at a steady interval', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest.replace(/live-/g, 'lines-'));
    const { stdout } = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, PLUMB_PROGRESS_INTERVAL_MS: '700' } });
    expect(stdout).not.toContain('\x1b[');
    expect(stdout).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z a: Creating\.\.\.$/m);
    expect(stdout).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z a: still creating\.\.\. \[DEPLOYABLE\] \(\d+s elapsed\)$/m);
    expect(stdout).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z b: Creation complete after [\d.]+s \[id=[0-9a-f-]+\]$/m);
  });

  it('a reader that goes away ends the output, not the apply: no stack trace, every product made and recorded', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest.replace(/live-/g, 'gone-'));
    // As `plumb apply --yes | head -1`: the reader leaves after the first output, while the
    // products are still provisioning and there is more to print.
    const child = spawn(process.execPath, [PLUMB, 'apply', '--yes'], { cwd: dir, env: { ...process.env, ...sandbox.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise((done) => child.on('close', done));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const after = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(after.stdout).toContain('No changes.');
    expect(after.code).toBe(0);
  });
});
