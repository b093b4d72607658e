import { describe, expect, it } from 'vitest';
import { walk, type WalkNode } from '../../src/engine/graph/walk.js';

const node = (key: string, needs: string[] = []): WalkNode => ({ key, needs, priority: 0 });

describe('walking steps', () => {
  it('never reports done a step that did not run: steps waiting on each other are skipped, saying why', async () => {
    const ran: string[] = [];
    const skipped: string[] = [];
    const results = await walk([node('a'), node('b', ['c']), node('c', ['b']), node('d', ['c'])], async (n) => void ran.push(n.key), {
      concurrency: 4,
      skipped: (n, cause) => skipped.push(`${n.key}: ${cause}`),
    });
    expect(ran).toEqual(['a']);
    expect(Object.fromEntries([...results].map(([k, r]) => [k, r.status]))).toEqual({ a: 'done', b: 'skipped', c: 'skipped', d: 'skipped' });
    expect(skipped.sort()).toEqual(['b: it waits on steps that wait on it', 'c: it waits on steps that wait on it', 'd: it waits on steps that wait on it']);
  });

  it('skips what a failure stops, and goes on with the rest', async () => {
    const results = await walk(
      [node('a'), node('b', ['a']), node('c')],
      async (n) => {
        if (n.key === 'a') throw new Error('refused');
      },
      { concurrency: 1 },
    );
    expect(results.get('b')).toEqual({ status: 'skipped', cause: 'a' });
    expect(results.get('c')).toEqual({ status: 'done' });
  });
});
