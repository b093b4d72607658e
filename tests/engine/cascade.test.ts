import { describe, expect, it } from 'vitest';
import { applyFake, planFake } from '../support/engine-run.js';
import { fakeType, MemoryStore } from '../support/fakes.js';

// `parent` is replaced when its size changes; `child` and `grandchild` hold a replace-forcing
// reference to the one above them, `sibling` an in-place one (name).
const chain = (size: number) => `
resources:
  parent: { type: fake:Thing, properties: { name: parent, size: ${size} } }
  child: { type: fake:Thing, properties: { name: child, ref: "\${parent.uid}" } }
  grandchild: { type: fake:Thing, properties: { name: grandchild, ref: "\${child.uid}" } }
  sibling: { type: fake:Thing, properties: { name: "\${parent.name}" } }
`;

describe('a replacement cascades through replace-forcing references, shown before any call', () => {
  it('plans every dependent whose replace-forcing input refers to a replaced object as a replacement, naming the object', async () => {
    const fake = fakeType({ replaceOn: ['size', 'ref'] });
    const store = new MemoryStore();
    await applyFake(chain(1), fake, store);
    const calls = fake.calls.length;

    const { plan, diagnostics } = await planFake(chain(2), fake, store);
    expect(diagnostics).toEqual([]);
    const byAddress = Object.fromEntries(plan.changes.map((c) => [c.address, c]));
    expect(plan.changes.map((c) => [c.address, c.action])).toEqual([
      ['child', 'replace'],
      ['grandchild', 'replace'],
      ['parent', 'replace'],
      ['sibling', 'noop'],
    ]);
    expect(byAddress.parent.replacePaths).toEqual([{ path: 'size', reason: 'size is fixed' }]);
    expect(byAddress.child.replacePaths).toEqual([{ path: 'ref', reason: 'parent is replaced, so parent.uid changes: ref is fixed' }]);
    expect(byAddress.grandchild.replacePaths).toEqual([{ path: 'ref', reason: 'child is replaced, so child.uid changes: ref is fixed' }]);
    // Planning only read: nothing was created, changed or deleted.
    expect(fake.calls.slice(calls).every((c) => c.verb === 'read')).toBe(true);
  });

  it('applies the cascade: new objects first, then the old ones, dependents before what they use', async () => {
    const fake = fakeType({ replaceOn: ['size', 'ref'] });
    const store = new MemoryStore();
    await applyFake(chain(1), fake, store);
    const before = fake.calls.length;
    const { report } = await applyFake(chain(2), fake, store);
    expect(report.ok).toBe(true);
    const verbs = fake.calls
      .slice(before)
      .filter((c) => c.verb !== 'read')
      .map((c) => `${c.verb}:${c.address}`);
    expect(verbs.filter((v) => v.startsWith('create'))).toEqual(['create:parent', 'create:child', 'create:grandchild']);
    const deleted = verbs.filter((v) => v.startsWith('delete'));
    expect(deleted).toEqual(['delete:grandchild', 'delete:child', 'delete:parent']);
    expect(verbs.indexOf('delete:grandchild')).toBeGreaterThan(verbs.indexOf('create:grandchild'));
    const settled = await planFake(chain(2), fake, store);
    expect(settled.plan.changes.every((c) => c.action === 'noop')).toBe(true);
  });
});
