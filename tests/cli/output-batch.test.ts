import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { OutputBatch, ProgressView } from '../../src/cli/progress.js';
import { paint } from '../../src/cli/render-plan.js';

describe('apply output', () => {
  it('writes the text gathered within its window in one call, in order', async () => {
    const writes: string[] = [];
    const batch = new OutputBatch((text) => writes.push(text), 20);
    batch.write('a\n');
    await nextTurn();
    batch.write('b\n');
    expect(writes).toEqual([]);
    await sleep(40);
    batch.write('c\n');
    await sleep(40);
    expect(writes).toEqual(['a\nb\n', 'c\n']);
    batch.close();
  });

  it('writes at once when a lot of text waits', () => {
    const writes: string[] = [];
    const batch = new OutputBatch((text) => writes.push(text));
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) batch.write(line);
    expect(writes).toEqual([line.repeat(64)]);
    batch.close();
  });

  it('writes what waits when closed, and what comes after at once', () => {
    const writes: string[] = [];
    const batch = new OutputBatch((text) => writes.push(text));
    batch.write('pending\n');
    batch.close();
    batch.write('report\n');
    expect(writes).toEqual(['pending\n', 'report\n']);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`writes what waits when the process gets ${signal}, then ends by that signal`, () => {
      // A process of its own: the signal ends it. The text waits in its window when the signal comes.
      const progress = resolve(import.meta.dirname, '../../dist/cli/progress.js');
      const script = `const { OutputBatch } = await import(${JSON.stringify(progress)});
        const batch = new OutputBatch((text) => process.stdout.write(text), 10000);
        batch.write('step one done\\n');
        batch.write('step two done\\n');
        setTimeout(() => {}, 10000);
        process.kill(process.pid, '${signal}');`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20000 });
      expect(child.stdout).toBe('step one done\nstep two done\n');
      expect(child.signal).toBe(signal);
    });
  }

  it('on a terminal, redraws the footer once for the events of one turn', async () => {
    const writes: string[] = [];
    const view = new ProgressView({ write: (text) => writes.push(text), paint: paint(false), live: true, total: 3 });
    for (const address of ['a', 'b', 'c']) view.handle({ type: 'step-start', address, action: 'create', at: '2026-01-01T00:00:00.000Z' });
    await nextTurn();
    view.finish();
    const footers = writes.filter((w) => /done, \d+ running/.test(w));
    expect(footers).toHaveLength(1);
    expect(footers[0]).toContain('0/3 done, 3 running, 0 waiting');
  });

  it('on a terminal, a footer of more running steps than lines shows the oldest and counts the rest', async () => {
    const writes: string[] = [];
    const view = new ProgressView({ write: (text) => writes.push(text), paint: paint(false), live: true, total: 300, rows: () => 10 });
    for (let i = 0; i < 300; i++) view.handle({ type: 'step-start', address: `port${i}`, action: 'create', at: '2026-01-01T00:00:00.000Z' });
    await nextTurn();
    view.finish();
    const footer = writes
      .find((w) => /done, \d+ running/.test(w))!
      .trimEnd()
      .split('\n');
    expect(footer.length).toBeLessThan(10);
    expect(footer[0]).toMatch(/creating port0\b/);
    expect(footer.at(-2)).toBe(`  … and ${300 - (footer.length - 2)} more running`);
    expect(footer.at(-1)).toBe('0/300 done, 300 running, 0 waiting');
  });
});
