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
    // The status is polled every few hundred milliseconds; the log has a line when it changes.
    for (const address of ['a', 'b']) expect(stdout.match(new RegExp(`Z ${address}: DEPLOYABLE$`, 'gm'))).toHaveLength(1);
  });

  it('--json carries each status change once, not every poll', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest.replace(/live-/g, 'json-'));
    const { stdout } = await plumb(['apply', '--yes', '--json'], { cwd: dir, env: sandbox.env });
    const statuses = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === 'step-progress')
      .map((e) => `${e.address} ${e.status}`);
    expect(statuses).toEqual([...new Set(statuses)]);
    expect(statuses).toContain('a DEPLOYABLE');
  });

  it('a call retried after a rate limit, and the refresh, each get a line', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest.replace(/live-/g, 'limited-'));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'interconnect', rates: { '429': 1 }, retryAfterSeconds: 1 }),
    });
    // Every call is limited: each is sent six times, then the plan gives up, having said why it waited.
    const limited = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
    expect(limited.stdout).toMatch(/^\S+Z Refreshing state: reading 2 recorded objects from the remote APIs\.\.\.$/m);
    expect(limited.stdout).toMatch(/^\S+Z rate limited by interconnect, retrying in 1 s$/m);
    expect(limited.stdout).toMatch(/^\S+Z rate limited by interconnect: \d+ more times$/m);
    expect(limited.stdout.match(/retrying in/g)).toHaveLength(1);
  });

  it('an API that cannot be reached: the same connection error of every read and retry is said once, with a count', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest.replace(/live-/g, 'unreachable-'));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    // Nothing listens on the discard port of the loopback address: every connection is refused.
    const down = await plumb(['plan'], { cwd: dir, env: { PLUMB_SANDBOX_URL: 'http://127.0.0.1:9' } });
    expect(down.code).toBe(1);
    expect(down.stdout.match(/did not answer \(token exchange failed: connect ECONNREFUSED 127\.0\.0\.1:9\), retrying in/g)).toHaveLength(1);
    expect(down.stdout).toMatch(/did not answer \(token exchange failed: connect ECONNREFUSED 127\.0\.0\.1:9\): \d+ more times$/m);
    expect(down.stderr).toMatch(/^Error: refresh failed:\n  2 resources \(a, b\): token exchange failed: connect ECONNREFUSED 127\.0\.0\.1:9 \(gave up after 6 attempts\)\n$/);
  });

  it('Ctrl-C says which steps were in flight and that the next run settles them; the next plan does', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest.replace(/live-/g, 'interrupted-'));
    const child = spawn(process.execPath, [PLUMB, 'apply', '--yes'], { cwd: dir, env: { ...process.env, ...sandbox.env, NO_COLOR: '1' } });
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      if (/a: DEPLOYABLE/.test(stdout) && !child.killed) child.kill('SIGINT');
    });
    const signal = await new Promise((done) => child.on('close', (_code, sig) => done(sig)));
    expect(signal).toBe('SIGINT');
    expect(stdout).toContain('Interrupted with 1 step in flight:\n  a: creating [DEPLOYABLE]\n');
    expect(stdout).toContain('The next plumb plan or apply asks the API what became of it and settles it first');
    const next = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(next.stdout).toMatch(/Settled: a: an interrupted create had ordered/);
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

  it('a reader that falls behind (a slow CI log) has the whole plan before anything is ordered, so the plan never waits in memory', async () => {
    const dir = workdir();
    // 600 ports, every value listed (--verbose): a plan of about 800 KB, far more than a pipe and its reader hold.
    const ports = Array.from(
      { length: 600 },
      (_, i) => `  p${i}:\n    type: interconnect:Port\n    properties: { productName: behind-${i}, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }`,
    );
    writeManifest(dir, 'plumb.yaml', ['name: behind', 'resources:', ...ports].join('\n'));
    await sandbox.clearCalls();
    const child = spawn(process.execPath, [PLUMB, 'apply', '--yes', '--verbose'], { cwd: dir, env: { ...process.env, ...sandbox.env, NO_COLOR: '1' } });
    let stdout = '';
    // The reader takes the plan's first piece, then nothing for a second.
    await new Promise<void>((started) =>
      child.stdout.once('data', (d) => {
        stdout += d;
        child.stdout.pause();
        started();
      }),
    );
    await new Promise((wait) => setTimeout(wait, 1000));
    expect((await sandbox.calls('interconnect')).filter((c) => c.path === '/v4/networkdesign/buy')).toEqual([]);
    child.stdout.on('data', (d) => (stdout += d));
    child.stdout.resume();
    const code = await new Promise((done) => child.on('close', done));
    expect(code).toBe(0);
    expect(stdout).toContain('Apply complete! Resources: 600 added');
  });
});
