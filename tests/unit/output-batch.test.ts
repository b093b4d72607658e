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
});
