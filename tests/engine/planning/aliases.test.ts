import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../src/engine/contracts/state.js';
import { applyFake, planFake } from '../../support/engine-run.js';
import { fakeType, MemoryStore } from '../../support/fakes.js';

const one = (address: string, extra = '', size = 1) => `
resources:
  ${address}:
    type: fake:Thing
    properties: { name: link, size: ${size} }
${extra}
`;

/** A store holding one applied thing at `old`; the fake's calls are cleared. */
async function recorded(old = 'old', fake = fakeType()) {
  const store = new MemoryStore();
  await applyFake(one(old), fake, store);
  fake.calls.length = 0;
  return { fake, store };
}

const remoteChanges = (fake: ReturnType<typeof fakeType>) => fake.calls.filter((c) => c.verb !== 'read');

describe('aliases: renames without replacement', () => {
  it('a renamed resource with its old name as an alias is moved: no create, no delete, no remote change', async () => {
    const { fake, store } = await recorded();
    const id = (await store.read()).resources.old.id;
    const { plan, report } = await applyFake(one('renamed', '    options: { aliases: [old] }'), fake, store);
    expect(plan.changes.map((c) => [c.address, c.action, c.movedFrom])).toEqual([['renamed', 'noop', 'old']]);
    expect(plan.summary).toMatchObject({ move: 1, add: 0, destroy: 0, replace: 0, change: 0 });
    expect(report.ok).toBe(true);
    expect(remoteChanges(fake)).toEqual([]);
    const state = await store.read();
    expect(Object.keys(state.resources)).toEqual(['renamed']);
    expect(state.resources.renamed).toMatchObject({ address: 'renamed', id });
  });

  it('the move is one journal entry written before any step, so a crash cannot leave the id at two addresses', async () => {
    const { fake, store } = await recorded();
    const entries: JournalEntry[] = [];
    const record = store.record.bind(store);
    store.record = async (entry) => {
      entries.push(entry);
      await record(entry);
    };
    await applyFake(one('renamed', '    options: { aliases: [old] }', 2), fake, store);
    expect(entries[0]).toMatchObject({ kind: 'outcome', address: 'renamed', resource: { address: 'renamed' }, also: [{ address: 'old', resource: null }] });
    expect(entries[1]).toMatchObject({ kind: 'intent', address: 'renamed' });
  });

  it('what depends on a moved record is recorded depending on its new address in the same entry: a crash after it keeps the order of deletes', async () => {
    const fake = fakeType();
    const store = new MemoryStore();
    const pair = (address: string, extra = '') => `${one(address, extra)}  user: { type: fake:Thing, properties: { name: user, ref: "\${${address}.uid}" } }\n`;
    await applyFake(pair('old'), fake, store);
    // The process dies once the move is journaled: no other entry, no snapshot.
    const revive = store.dieAfter(store.journal.length + 1);
    await expect(applyFake(pair('renamed', '    options: { aliases: [old] }'), fake, store)).rejects.toThrow('killed');
    revive();
    expect((await store.read()).resources.user.dependencies).toEqual(['renamed']);
    fake.calls.length = 0;
    await applyFake(pair('renamed', '    options: { aliases: [old] }'), fake, store, { destroy: true });
    expect(remoteChanges(fake).map((c) => c.address)).toEqual(['user', 'renamed']);
  });

  it('an object its replacement set aside moves with its address: it goes only once what used it has moved', async () => {
    let lose = false;
    let refuse = false;
    const fake = fakeType({ loseCreateReply: () => lose });
    const update = fake.type.update;
    fake.type.update = async (ctx, id, prior, desired) => {
      if (refuse) throw new Error('the user cannot move now');
      return update(ctx, id, prior, desired);
    };
    const store = new MemoryStore();
    const pair = (address: string, size: number, extra = '') => `${one(address, extra, size)}  user: { type: fake:Thing, properties: { name: user, ref: "\${${address}.uid}" } }\n`;
    await applyFake(pair('old', 1), fake, store);
    lose = true;
    await applyFake(pair('old', 2), fake, store);
    expect((await store.read()).pending).toMatchObject([{ address: 'old', id: 'thing-3', replacing: 'thing-1' }]);
    lose = false;
    refuse = true;
    const { plan, report } = await applyFake(pair('renamed', 2, '    options: { aliases: [old] }'), fake, store);
    expect(plan.changes.map((c) => [c.address, c.action])).toEqual([
      ['renamed', 'noop'],
      ['renamed~thing-1', 'delete'],
      ['user', 'update'],
    ]);
    expect(report.results.find((r) => r.action === 'delete-deposed')).toMatchObject({ status: 'skipped', cause: 'user' });
    expect(Object.keys((await store.read()).resources).sort()).toEqual(['renamed', 'renamed~thing-1', 'user']);
  });

  it('a moved resource whose inputs changed is updated in place on the same object', async () => {
    const fake = fakeType({ replaceOn: [] });
    const { store } = await recorded('old', fake);
    const id = (await store.read()).resources.old.id;
    const { plan } = await applyFake(one('renamed', '    options: { aliases: [old] }', 2), fake, store);
    expect(plan.changes.map((c) => [c.address, c.action, c.movedFrom])).toEqual([['renamed', 'update', 'old']]);
    expect(remoteChanges(fake)).toEqual([expect.objectContaining({ verb: 'update', address: 'renamed', id })]);
    expect((await store.read()).resources.renamed.inputs.size).toBe(2);
  });

  it('takes the object form {name, type} and a URN, and a later plan with the alias left in is a no-op', async () => {
    const { fake, store } = await recorded();
    await applyFake(one('renamed', '    options: { aliases: [{ name: old, type: "fake:index/thing:Thing" }] }'), fake, store);
    expect(Object.keys((await store.read()).resources)).toEqual(['renamed']);
    const again = await applyFake(one('third', '    options: { aliases: ["urn:pulumi:dev::m::fake:index/thing:Thing::renamed"] }'), fake, store);
    expect(again.plan.changes.map((c) => [c.address, c.action, c.movedFrom])).toEqual([['third', 'noop', 'renamed']]);
    const settled = await planFake(one('third', '    options: { aliases: [renamed] }'), fake, store);
    expect(settled.plan.changes.map((c) => [c.action, c.movedFrom])).toEqual([['noop', undefined]]);
    expect(remoteChanges(fake)).toEqual([]);
  });

  it('an alias naming a resource the manifest declares is an error naming both, before any remote change', async () => {
    const { fake, store } = await recorded();
    const yaml = `${one('renamed', '    options: { aliases: [old] }')}  old: { type: fake:Thing, properties: { name: other } }\n`;
    const { diagnostics } = await planFake(yaml, fake, store);
    expect(diagnostics.map((d) => [d.summary, d.pos?.line])).toEqual([['alias "old" of renamed names a resource the manifest declares: old', 6]]);
  });

  it('an alias written with ${...} is what config and variables make of it when planning, in a name or a URN alike', async () => {
    const { fake, store } = await recorded();
    const vars = 'variables:\n  oldName: old\n  kind: fake:index/thing:Thing\n';
    const named = await planFake(`${vars}${one('renamed', "    options: { aliases: ['${oldName}'] }")}`, fake, store);
    expect(named.plan.changes.map((c) => [c.address, c.action, c.movedFrom])).toEqual([['renamed', 'noop', 'old']]);
    const urn = await planFake(`${vars}${one('renamed', "    options: { aliases: [{ urn: 'urn:pulumi:dev::m::${kind}::${oldName}' }] }")}`, fake, store);
    expect(urn.plan.changes.map((c) => [c.address, c.action, c.movedFrom])).toEqual([['renamed', 'noop', 'old']]);
  });

  it('an alias known only after apply, or that is not a name, is an error at the alias', async () => {
    const { fake, store } = await recorded();
    const later = await planFake(
      `variables:\n  oldName: \${other.name}\n${one('renamed', "    options: { aliases: ['${oldName}'] }")}  other: { type: fake:Thing, properties: { name: o } }\n`,
      fake,
      store,
    );
    expect(later.diagnostics.map((d) => [d.summary, d.pos?.line])).toEqual([['alias "${oldName}" of renamed is known only after apply', 8]]);
    const number = await planFake(`variables:\n  oldName: 7\n${one('renamed', "    options: { aliases: ['${oldName}'] }")}`, fake, store);
    expect(number.diagnostics.map((d) => d.summary)).toEqual(['alias "${oldName}" is not a name or a URN: it is 7']);
  });

  it('an alias matching a second record (the current address, or another alias) is an error naming both', async () => {
    const { fake, store } = await recorded();
    await applyFake(`${one('old')}  other: { type: fake:Thing, properties: { name: other } }\n`, fake, store);
    const both = await planFake(`${one('renamed', '    options: { aliases: [old, other] }')}`, fake, store);
    expect(both.diagnostics.map((d) => d.summary)).toEqual(['renamed matches two records: old and other']);
    const current = await planFake(`${one('old', '    options: { aliases: [other] }')}`, fake, store);
    expect(current.diagnostics.map((d) => d.summary)).toEqual(['old matches two records: old and other']);
  });

  it('one record claimed by two resources, or of another type than the alias says, is refused', async () => {
    const { fake, store } = await recorded();
    const twice = `${one('a', '    options: { aliases: [old] }')}  b: { type: fake:Thing, properties: { name: b }, options: { aliases: [old] } }\n`;
    expect((await planFake(twice, fake, store)).diagnostics.map((d) => d.summary)).toEqual(['old is an alias of both a and b']);
    const typed = await planFake(one('a', '    options: { aliases: [{ name: old, type: "fake:index/other:Other" }] }'), fake, store);
    expect(typed.diagnostics.map((d) => d.summary)).toEqual(['alias "old" of a names a fake:index/thing:Thing, not a fake:index/other:Other']);
  });

  it('a --target that leaves out a moved resource is refused, naming it and the --target to add; its record stays where it was', async () => {
    const { fake, store } = await recorded();
    const yaml = `${one('renamed', '    options: { aliases: [old] }')}  other: { type: fake:Thing, properties: { name: other } }\n`;
    const { diagnostics } = await planFake(yaml, fake, store, { targets: ['other'] });
    expect(diagnostics.map((d) => [d.summary, d.detail])).toEqual([
      [
        'renamed moves from old (options.aliases), and --target/--exclude leave it out',
        'a move is made whole or not at all: add --target renamed (and do not --exclude it), or run without --target/--exclude',
      ],
    ]);
    expect(Object.keys((await store.read()).resources)).toEqual(['old']);
    // Included, the move is made with the targeted change.
    const { plan } = await applyFake(yaml, fake, store, { targets: ['other', 'renamed'] });
    expect(plan.changes.map((c) => [c.address, c.action, c.movedFrom])).toEqual([
      ['other', 'create', undefined],
      ['renamed', 'noop', 'old'],
    ]);
    expect(Object.keys((await store.read()).resources).sort()).toEqual(['other', 'renamed']);
  });
});
