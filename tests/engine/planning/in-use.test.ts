/**
 * A replacement no order of one run can make (ReplaceRules.usedBy): its new object needs what the
 * old one holds, so the old one must go first, and a dependant the plan keeps still names the old
 * object in a way that makes the API refuse that delete. Refused before any call, with the runs
 * that work; every other case plans as before.
 */
import { describe, expect, it } from 'vitest';
import { applyFake, planFake } from '../../support/engine-run.js';
import { fakeType, MemoryStore } from '../../support/fakes.js';

const writes = (fake: ReturnType<typeof fakeType>) => fake.calls.filter((c) => c.verb !== 'read').map((c) => `${c.verb} ${c.address}`);

const stack = (edge: { name: string; size: number }, ref = '${edge.uid}') => `
resources:
  edge:
    type: fake:Thing
    properties: { name: ${edge.name}, size: ${edge.size} }
  user:
    type: fake:Thing
    properties: { name: user, ref: "${ref}" }
  other:
    type: fake:Thing
    properties: { name: other }
`;

/** A fake thing that holds its name, whose delete the API refuses while another thing's `ref` names its uid. */
function usedThing() {
  const fake = fakeType({ holdNameMs: 0 });
  fake.type.replace.usedBy = [{ token: fake.type.token, path: 'ref', output: 'uid', refusal: 'the API refuses to delete a thing another one refers to (409)' }];
  return fake;
}

describe('a replacement the API refuses in either order', () => {
  it('keeping what it holds while a kept dependant names it: refused before any call, at its address, with the runs that work', async () => {
    for (const replace of [[], ['edge']]) {
      const fake = usedThing();
      const store = new MemoryStore();
      await applyFake(stack({ name: 'edge', size: 1 }), fake, store);
      fake.calls.length = 0;
      const { diagnostics } = await planFake(stack({ name: 'edge', size: replace.length ? 1 : 2 }), fake, store, { replace });
      const why = replace.length ? '--replace' : 'size (size is fixed)';
      expect(diagnostics.map((d) => [d.address, d.summary, d.detail])).toEqual([
        [
          'edge',
          `edge cannot be replaced (${why}) in either order while user uses it (user.ref): created first, the new object would need the thing name (edge) the old one holds; deleted first, the API refuses to delete a thing another one refers to (409), and user moves to the new object only once it exists`,
          'apply in two runs: first take edge out of user.ref, leaving edge as it is; then replace edge and put it back. Or give edge another name, so that its new object is made first and user moves to it before the old one goes',
        ],
      ]);
      expect(writes(fake)).toEqual([]);
    }
  });

  it('plans as before where one order works: another name (create first), a dependant that moves off, goes or is replaced too, or a type that declares no such use', async () => {
    const cases: Array<{ yaml: string; replace?: string[]; declared?: boolean }> = [
      { yaml: stack({ name: 'edge-2', size: 2 }) },
      { yaml: stack({ name: 'edge', size: 2 }, '${other.uid}') },
      { yaml: stack({ name: 'edge', size: 2 }), replace: ['edge', 'user'] },
      { yaml: stack({ name: 'edge', size: 2 }).replace(/ {2}user:\n.*\n.*\n/, '') },
      { yaml: stack({ name: 'edge', size: 2 }), declared: false },
    ];
    for (const { yaml, replace, declared } of cases) {
      const fake = usedThing();
      if (declared === false) delete fake.type.replace.usedBy;
      const store = new MemoryStore();
      await applyFake(stack({ name: 'edge', size: 1 }), fake, store);
      const { diagnostics, plan } = await planFake(yaml, fake, store, { replace });
      expect(diagnostics, yaml).toEqual([]);
      expect(plan.changes.find((c) => c.address === 'edge')?.action).toBe('replace');
    }
  });
});
