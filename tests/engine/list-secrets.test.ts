/**
 * A list input whose items hold a secret field (a set of certificates, each `{hash, encodedCert}`
 * with the certificate sealed): state keeps it a list, its other fields readable, in inputs and
 * outputs alike, so a type that compares it item by item (asDeclared) plans, applies and destroys
 * it. Before, the output list was sealed whole, read back into the inputs as one Secret, and every
 * later plan failed on it (`recorded.map is not a function`); a state recorded that way still plans.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ResourceType } from '../../src/engine/contracts/resource-type.js';
import { Secret, reveal, secretKeys } from '../../src/kernel/values.js';
import { replay } from '../../src/state/store.js';
import type { JournalEntry, StateSnapshot } from '../../src/engine/contracts/state.js';
import { applyFake, planFake } from '../support/engine-run.js';
import { fakeClock, MemoryStore, type fakeType } from '../support/fakes.js';

/** A copy through JSON that keeps each Secret a Secret, as the file store keeps it sealed. */
function sealedCopy<T>(value: T): T {
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key, shown) {
    const raw = this[key];
    return raw instanceof Secret ? { $sealed: raw.value } : shown;
  });
  return JSON.parse(text, (_key, v) => (v && typeof v === 'object' && '$sealed' in v ? new Secret(v.$sealed) : v)) as T;
}

/** A memory store that keeps secrets sealed, where MemoryStore's clones drop the Secret wrapper. */
class SealingStore extends MemoryStore {
  override async read(): Promise<StateSnapshot> {
    return replay(sealedCopy(this.snapshot), this.journal.map(sealedCopy));
  }
  override async record(entry: JournalEntry): Promise<void> {
    this.journal.push(sealedCopy(entry));
  }
  override async write(snapshot: StateSnapshot): Promise<void> {
    this.snapshot = sealedCopy({ ...snapshot, serial: snapshot.serial + 1 });
    this.journal = [];
  }
}

type Item = { hash: string; cert: unknown };

/** A set of items by hash, its certificates secret, kept in memory; asDeclared orders the recorded items as declared. */
function setType(): ReturnType<typeof fakeType> {
  const objects = new Map<string, Record<string, unknown>>();
  const item = z.object({ hash: z.string(), cert: z.string() }).strict();
  const type: ResourceType = {
    token: 'fake:index/thing:Thing',
    provider: 'fake',
    description: 'a set of certificates',
    inputs: z.object({ name: z.string(), items: z.array(item) }).strict(),
    outputs: z.object({ name: z.string(), items: z.array(item) }),
    secrets: {
      paths: ['items[*].cert'],
    },
    diff: {
      asDeclared(recorded, _outputs, desired) {
        const order = new Map((desired.items as Item[]).map((x, i) => [x.hash, i]));
        return { ...recorded, items: [...(recorded.items as Item[])].sort((a, b) => (order.get(a.hash) ?? 0) - (order.get(b.hash) ?? 0)) };
      },
    },
    replace: {
      on: [],
    },
    async create(ctx, inputs) {
      ctx.recordId(String(inputs.name));
      objects.set(String(inputs.name), reveal(inputs));
      return { id: String(inputs.name), outputs: reveal(inputs) };
    },
    async read(_ctx, id) {
      return objects.get(id);
    },
    async update(_ctx, id, _prior, desired) {
      objects.set(id, reveal(desired));
      return reveal(desired);
    },
    async delete(_ctx, id) {
      objects.delete(id);
    },
  };
  return { type, objects, calls: [], clock: fakeClock() };
}

const manifest = (items: string[]) => `
resources:
  trust:
    type: fake:Thing
    properties:
      name: trust
      items: [${items.map((h) => `{ hash: ${h}, cert: cert-of-${h} }`).join(', ')}]
`;

describe('a list whose items hold a secret', () => {
  it('is recorded as a list, its certificates sealed and its hashes readable, and plans, changes and destroys', async () => {
    const fake = setType();
    const store = new SealingStore();
    await applyFake(manifest(['a', 'b']), fake, store);
    const recorded = (await store.read()).resources.trust;
    for (const values of [recorded.inputs, recorded.outputs]) {
      const items = values.items as Array<Record<string, unknown>>;
      expect(Array.isArray(items)).toBe(true);
      expect(items.map((x) => x.hash)).toEqual(['a', 'b']);
      expect(items.every((x) => x.cert instanceof Secret)).toBe(true);
    }
    expect((await planFake(manifest(['b', 'a']), fake, store)).plan.changes.map((c) => c.action)).toEqual(['noop']);

    await applyFake(manifest(['b', 'c']), fake, store);
    expect(fake.objects.get('trust')).toEqual({
      name: 'trust',
      items: [
        { hash: 'b', cert: 'cert-of-b' },
        { hash: 'c', cert: 'cert-of-c' },
      ],
    });
    await applyFake(manifest(['b', 'c']), fake, store, { destroy: true });
    expect(fake.objects.size).toBe(0);
  });

  it('recorded sealed whole, as an earlier plumb recorded it, still plans no change', async () => {
    const fake = setType();
    const store = new SealingStore();
    await applyFake(manifest(['a']), fake, store);
    const state = await store.read();
    const trust = state.resources.trust;
    await store.write({ ...state, resources: { trust: { ...trust, outputs: { ...trust.outputs, items: new Secret(reveal(trust.outputs.items)) } } } });
    const { plan, diagnostics } = await planFake(manifest(['a']), fake, store);
    expect(diagnostics).toEqual([]);
    expect(plan.changes.map((c) => c.action)).toEqual(['noop']);
  });

  it('names each secret field of a list item by [*], and a list of secrets item by item', () => {
    expect(secretKeys({ items: [{ hash: 'a', cert: new Secret('x') }, { hash: 'b' }], keys: [new Secret('k')], plain: [1, 2] })).toEqual(['items[*].cert', 'keys[*]']);
    expect(secretKeys({ nested: [[new Secret('x')]] })).toEqual(['nested']);
  });
});
