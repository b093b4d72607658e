import { describe, expect, it } from 'vitest';
import { applyFake, planFake } from '../../support/engine-run.js';
import { fakeType, MemoryStore } from '../../support/fakes.js';

const two = `
resources:
  keep: { type: fake:Thing, properties: { name: keep }, options: { protect: true } }
  key: { type: fake:Thing, properties: { name: key } }
`;

describe('protection', () => {
  it('destroy --target of one resource is not blocked by another that is protected', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await applyFake(two, fake, store);
    const { plan, diagnostics } = await planFake(two, fake, store, { destroy: true, targets: ['key'] });
    expect(diagnostics).toEqual([]);
    expect(plan.changes.map((c) => [c.address, c.action])).toEqual([['key', 'delete']]);
  });

  it('destroying everything still refuses the protected resource, naming it', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    await applyFake(two, fake, store);
    const { diagnostics } = await planFake(two, fake, store, { destroy: true });
    expect(diagnostics.map((d) => d.summary)).toEqual(['keep is protected and cannot be destroyed']);
  });
});
