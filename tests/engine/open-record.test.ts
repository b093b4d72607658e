import { describe, expect, it, vi } from 'vitest';
import { buildGraph } from '../../src/engine/graph/graph.js';
import { makePlan } from '../../src/engine/planning/plan.js';
import type { ResourceState, StateSnapshot } from '../../src/engine/contracts/state.js';
import { parseManifest } from '../../src/manifest/parse.js';
import { Secret, reveal } from '../../src/kernel/values.js';
import { fakeDeps, fakeType } from '../support/fakes.js';

// Every reveal in the engine goes through this spy, so what opens a recorded secret can be counted.
vi.mock('../../src/kernel/values.js', async (importOriginal) => {
  const values = await importOriginal<typeof import('../../src/kernel/values.js')>();
  return { ...values, reveal: vi.fn(values.reveal) };
});

/** Whether a value holds a Secret of this text anywhere. */
function holdsSecretOf(value: unknown, text: string): boolean {
  if (value instanceof Secret) return value.value === text;
  if (value && typeof value === 'object') return Object.values(value).some((v) => holdsSecretOf(v, text));
  return false;
}

describe('the recorded state of one plan', () => {
  it('has its secrets opened once for each object, through settle, refresh and plan', async () => {
    const fake = fakeType();
    // The uid is a secret output: only the recorded outputs hold it, never the manifest.
    const type = { ...fake.type, secrets: { paths: ['uid'] }, notes: { update: () => ['changed in place'], delete: () => ['deleted'] } };
    const record = (address: string, id: string): ResourceState => {
      fake.objects.set(id, { name: address, size: 1, uid: id, readyAt: 0, fails: false });
      return { address, type: type.token, id, inputs: { name: address, size: 1 }, outputs: { name: address, size: 1, uid: new Secret(id), state: 'READY' }, dependencies: [], status: 'ok' };
    };
    // a is changed in place; b has left the manifest and is deleted.
    const state: StateSnapshot = { version: 1, stack: 'test', lineage: 'l-1', serial: 1, resources: { a: record('a', 'thing-1'), b: record('b', 'thing-2') }, outputs: {}, pending: [] };
    const yaml = 'resources:\n  a: { type: fake:Thing, properties: { name: a, size: 1, ref: r } }\n';
    const { manifest } = parseManifest(yaml, 'm.yaml', { resources: [type.token], functions: [] });
    const opened = vi.mocked(reveal);
    opened.mockClear();

    const { plan } = await makePlan(manifest, buildGraph(manifest).graph, state, fakeDeps(type), { refresh: true, destroy: false, replace: [] });

    expect(plan.changes.map((c) => [c.address, c.action, c.notes])).toEqual([
      ['a', 'update', ['changed in place']],
      ['b', 'delete', ['deleted']],
    ]);
    for (const id of ['thing-1', 'thing-2'])
      expect(
        opened.mock.calls.filter(([value]) => holdsSecretOf(value, id)),
        id,
      ).toHaveLength(1);
  });
});
