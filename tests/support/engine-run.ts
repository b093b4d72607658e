import { expect } from 'vitest';
import { applyPlan } from '../../src/engine/applying/apply.js';
import { buildGraph } from '../../src/engine/graph/graph.js';
import { makePlan } from '../../src/engine/planning/plan.js';
import type { EngineEvent } from '../../src/engine/types.js';
import { parseManifest } from '../../src/manifest/parse.js';
import { fakeDeps, type fakeType, type MemoryStore } from './fakes.js';

/** Plans a manifest of fake things against the store's state. */
export async function planFake(yaml: string, fake: ReturnType<typeof fakeType>, store: MemoryStore, opts: { destroy?: boolean; replace?: string[]; targets?: string[] } = {}) {
  const { manifest, diagnostics } = parseManifest(yaml, 'm.yaml', { resources: [fake.type.token], functions: [] });
  expect(diagnostics).toEqual([]);
  const { graph } = buildGraph(manifest);
  const deps = fakeDeps(fake.type, fake.clock);
  const state = await store.read();
  const planned = await makePlan(manifest, graph, state, deps, { refresh: true, destroy: opts.destroy ?? false, replace: opts.replace ?? [], targets: opts.targets });
  return { manifest, deps, state, ...planned };
}

/** Plans, then applies what was planned, as `plumb apply --yes` does; returns the plan, the report and the events. */
export async function applyFake(yaml: string, fake: ReturnType<typeof fakeType>, store: MemoryStore, opts: { destroy?: boolean; replace?: string[]; targets?: string[] } = {}) {
  const planned = await planFake(yaml, fake, store, opts);
  expect(planned.diagnostics).toEqual([]);
  const events: EngineEvent[] = [];
  const report = await applyPlan({
    manifest: planned.manifest,
    plan: planned.plan,
    prior: planned.prior,
    imported: planned.imported,
    read: planned.read,
    waiting: planned.waiting,
    resolved: planned.resolved,
    state: planned.state,
    store,
    deps: planned.deps,
    parallelism: 4,
    emit: (e) => events.push(e),
  });
  return { plan: planned.plan, report, events };
}
