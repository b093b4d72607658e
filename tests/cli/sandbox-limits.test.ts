/** `plumb sandbox start --limits`: the mode is checked, and a sandbox started so enforces the documented limits. */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PLUMB, plumb, workdir } from '../support/cli.js';

describe('plumb sandbox start --limits', () => {
  it('refuses a mode that is not real or off, naming the flag and the environment variable', async () => {
    const result = await plumb(['sandbox', 'start', '--port', '0', '--data', workdir(), '--limits', 'strict'], { cwd: workdir() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/rate limits "strict": expected real .* or off .*--limits or PLUMB_SANDBOX_LIMITS/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('with PLUMB_SANDBOX_LIMITS=real serves the documented limits and says how plumb keeps to them', async () => {
    const server = spawn(process.execPath, [PLUMB, 'sandbox', 'start', '--port', '0', '--data', workdir()], {
      env: { ...process.env, PLUMB_SANDBOX_LIMITS: 'real' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        server.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('PLUMB_SANDBOX_LIMITS')) resolve(text);
        });
        server.on('exit', (code) => reject(new Error(`sandbox exited (${code}): ${text}`)));
      });
      expect(out).toContain('export PLUMB_SANDBOX_LIMITS=real');
      const url = /export PLUMB_SANDBOX_URL=(\S+)/.exec(out)?.[1];
      const rules = (await (await fetch(`${url}/_sandbox/limits`)).json()) as Array<{ provider: string; max: number; windowMs: number }>;
      expect(rules).toContainEqual(expect.objectContaining({ provider: 'interconnect', max: 500, windowMs: 300_000 }));
      expect(rules).toContainEqual(expect.objectContaining({ provider: 'pipeline', max: 20, windowMs: 60_000 }));
      expect(rules.some((r) => r.provider === 'cloud')).toBe(false);
    } finally {
      server.kill('SIGTERM');
    }
  });
});
