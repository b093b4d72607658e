/**
 * What an interrupted create made, once found and adopted (by settling, or by the create step
 * that looks for it), is recorded as the finished create would have recorded it: what it
 * depends on included, so that what it uses is deleted only after it.
 */
import { describe, expect, it } from 'vitest';
import { applyFake } from '../support/engine-run.js';
import { fakeType, MemoryStore } from '../support/fakes.js';

const withUser = `
resources:
  a: { type: fake:Thing, properties: { name: a } }
  b: { type: fake:Thing, properties: { name: b, ref: "\${a.uid}" } }
`;
const deletes = (fake: ReturnType<typeof fakeType>) => fake.calls.filter((c) => c.verb === 'delete').map((c) => c.address);

describe('an object an interrupted create made, adopted', () => {
  it('records what it depends on: a destroy deletes it before what it uses', async () => {
    let lose = true;
    const fake = fakeType({ loseCreateReply: (inputs) => lose && inputs.name === 'b' });
    const store = new MemoryStore();
    await applyFake(withUser, fake, store);
    expect((await store.read()).pending).toMatchObject([{ address: 'b', action: 'create', id: 'thing-2' }]);
    lose = false;
    const gone = await applyFake(withUser, fake, store, { destroy: true });
    expect(gone.plan.settled).toEqual(['b: an interrupted create had ordered thing-2; it is adopted']);
    expect(gone.report.ok).toBe(true);
    expect(deletes(fake)).toEqual(['b', 'a']);
  });

  it('without an id, found by its order: the same', async () => {
    let lose = true;
    const fake = fakeType({ findable: true, loseOrderReply: (inputs) => lose && inputs.name === 'b' });
    const store = new MemoryStore();
    await applyFake(withUser, fake, store);
    lose = false;
    const gone = await applyFake(withUser, fake, store, { destroy: true });
    expect(gone.plan.settled).toEqual(['b: an interrupted create had ordered thing-2; it is adopted']);
    expect(deletes(fake)).toEqual(['b', 'a']);
  });
});
