import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/kernel/errors.js';
import { LocalStore, type WriteStep } from '../../src/state/local.js';
import { SecretCodec } from '../../src/state/secrets.js';
import type { JournalEntry, ResourceState, StateSnapshot } from '../../src/engine/contracts/state.js';

const codec = SecretCodec.open('', 'traces passphrase');
const AT = '2026-01-01T00:00:00.000Z';

const thing = (name: string): ResourceState => ({ address: name, type: 'fake:Thing', id: `id-${name}`, inputs: {}, outputs: {}, dependencies: [], status: 'ok' });
const intent = (name: string): JournalEntry => ({ kind: 'intent', address: name, type: 'fake:Thing', action: 'create', token: `t-${name}`, at: AT });
const outcome = (name: string): JournalEntry => ({ kind: 'outcome', address: name, token: `t-${name}`, resource: thing(name), at: AT });

/** A store whose process is killed the `nth` time it reaches `step`: from then on it does nothing more, as a killed process would. */
class KilledAt extends LocalStore {
  readonly killed: Promise<void>;
  private kill!: () => void;
  private left: number;

  constructor(
    root: string,
    private readonly step: WriteStep,
    nth = 1,
  ) {
    super(root, 'web', 'dev', codec);
    this.left = nth;
    this.killed = new Promise((resolve) => (this.kill = resolve));
  }

  protected override async reached(step: WriteStep): Promise<void> {
    if (step !== this.step || --this.left > 0) return;
    this.kill();
    await new Promise(() => {});
  }
}

/**
 * An apply of `a` and `b` over what the stack holds: each intent, then its outcome, in two batches
 * of the journal, then the snapshot. Returns the entries acknowledged, as the engine would have
 * acted on them, until the store is killed.
 */
async function applyUntilKilled(store: KilledAt): Promise<JournalEntry[]> {
  const acknowledged: JournalEntry[] = [];
  const run = async () => {
    const state = await store.read();
    for (const name of ['a', 'b']) {
      for (const entry of [intent(name), outcome(name)]) {
        await store.record(entry);
        acknowledged.push(entry);
      }
    }
    await store.write({ ...state, serial: state.serial + 2, resources: { ...state.resources, a: thing('a'), b: thing('b') } });
  };
  const finished = await Promise.race([store.killed.then(() => false), run().then(() => true)]);
  expect(finished, 'the store was killed before the apply finished').toBe(false);
  return acknowledged;
}

/** Every point where a kill may stop an apply, the ones a journal reaches per batch at their first and second batch. */
const KILL_POINTS: Array<[WriteStep, number]> = [
  ['journal created', 1],
  ['entries synced', 1],
  ['journal marked', 1],
  ['entries synced', 2],
  ['snapshot synced', 1],
  ['snapshot renamed', 1],
  ['backup kept', 1],
  ['folder synced', 1],
  ['journal removed', 1],
];

describe('a kill at any point of recording and writing', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'plumb-traces-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  for (const applied of [false, true]) {
    for (const [step, nth] of KILL_POINTS) {
      it(`${applied ? 'over an applied stack' : 'in a first apply'}, at "${step}"${nth > 1 ? ` (batch ${nth})` : ''}: reads whole, raises no alarm, and the next journal is watched`, async () => {
        if (applied) await new LocalStore(root, 'web', 'dev', codec).write({ ...empty(), resources: { old: thing('old') } });
        const acknowledged = await applyUntilKilled(new KilledAt(root, step, nth));

        const state = await new LocalStore(root, 'web', 'dev', codec).read();
        // What was acknowledged is there: an outcome as made, an intent as pending unless its outcome got to disk.
        for (const e of acknowledged) {
          if (e.kind === 'outcome') expect(state.resources[e.address], `${e.address} made`).toEqual(thing(e.address));
          else expect(state.pending.some((p) => p.token === e.token) || Boolean(state.resources[e.address]), `${e.address} ordered`).toBe(true);
        }
        if (applied) expect(state.resources.old).toEqual(thing('old'));
        // A snapshot that holds the journal left beside it does not count the journal's outcomes twice.
        const held = ['snapshot renamed', 'backup kept', 'folder synced', 'journal removed'].includes(step);
        if (held) expect(state.serial).toBe(applied ? 4 : 3);

        // Deleted now, a journal holding anything acknowledged is missed; one the snapshot holds is not.
        const copy = mkdtempSync(join(tmpdir(), 'plumb-traces-'));
        cpSync(root, copy, { recursive: true });
        rmSync(join(copy, 'web', 'dev', 'journal.jsonl'), { force: true });
        const reread = new LocalStore(copy, 'web', 'dev', codec).read();
        if (held) expect((await reread).resources).toEqual(state.resources);
        else if (acknowledged.length) await expect(reread).rejects.toThrow(/journal\.jsonl is missing/);
        else await reread.catch(() => undefined);
        rmSync(copy, { recursive: true, force: true });

        const next = new LocalStore(root, 'web', 'dev', codec);
        await next.read();
        await next.record(intent('c'));
        rmSync(join(root, 'web', 'dev', 'journal.jsonl'));
        await expect(new LocalStore(root, 'web', 'dev', codec).read()).rejects.toThrow(/journal\.jsonl is missing/);
      });
    }
  }
});

describe('a journal cut back after a kill', () => {
  let root: string;
  let dir: string;
  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'plumb-traces-'));
    dir = join(root, 'web', 'dev');
    const store = new LocalStore(root, 'web', 'dev', codec);
    await store.write({ ...empty(), resources: { old: thing('old') } });
    await store.read();
    for (const entry of [intent('a'), outcome('a'), intent('b')]) await store.record(entry);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const journal = () => join(dir, 'journal.jsonl');
  const cases: Array<[string, () => void, string]> = [
    ['deleted', () => rmSync(journal()), 'is missing'],
    ['truncated to empty', () => writeFileSync(journal(), ''), 'is empty'],
    ['cut back to its first line', () => writeFileSync(journal(), readFileSync(journal(), 'utf8').split('\n')[0] + '\n'), 'holds no entries after its first line'],
    ['cut in its first line', () => writeFileSync(journal(), readFileSync(journal(), 'utf8').slice(0, 20)), 'does not begin with the line naming its journal'],
    ['replaced by another journal', () => writeFileSync(journal(), `${JSON.stringify({ journal: 'other', at: AT })}\n${JSON.stringify(intent('x'))}\n`), 'is journal other, not'],
  ];
  for (const [what, cut, says] of cases) {
    it(`${what}: refused, naming the file, its mark and what to do`, async () => {
      cut();
      const refused = await new LocalStore(root, 'web', 'dev', codec).read().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(UserError);
      expect((refused as UserError).message).toContain(`${journal()} ${says}`);
      expect((refused as UserError).message).toContain(`(${join(dir, 'journal.id')} names journal `);
      expect((refused as UserError).hint).toMatch(/^restore it from a backup and run the command again; or, to go on without it, run `plumb state repair --accept-lost-journal`/);
    });
  }

  it('accepted: what the snapshot holds stays, at a new serial; the mark is cleared and the next journal is watched', async () => {
    writeFileSync(journal(), '');
    const store = new LocalStore(root, 'web', 'dev', codec);
    expect((await store.acceptLoss('journal')).lost).toContain(`${journal()} is empty`);
    expect(readdirSync(dir).sort()).toEqual(['state.json', 'state.json.backup']);
    const state = await store.read();
    expect(state).toMatchObject({ serial: 2, resources: { old: thing('old') }, pending: [] });
    await store.record(intent('c'));
    writeFileSync(journal(), '');
    await expect(new LocalStore(root, 'web', 'dev', codec).read()).rejects.toThrow(/journal\.jsonl is empty/);
  });

  it('accepted while another journal stands in its place: refused until that one is moved away', async () => {
    writeFileSync(journal(), `${JSON.stringify({ journal: 'other', at: AT })}\n${JSON.stringify(intent('x'))}\n`);
    await expect(new LocalStore(root, 'web', 'dev', codec).acceptLoss('journal')).rejects.toThrow(`${journal()} holds the entries of another journal than the one lost`);
  });

  it('with its mark damaged (a kill while it was written): a journal that names itself and holds entries is read; none is refused', async () => {
    for (const torn of ['', '{"jour']) {
      writeFileSync(join(dir, 'journal.id'), torn);
      expect(Object.keys((await new LocalStore(root, 'web', 'dev', codec).read()).resources).sort()).toEqual(['a', 'old']);
    }
    rmSync(journal());
    await expect(new LocalStore(root, 'web', 'dev', codec).read()).rejects.toThrow(`${join(dir, 'journal.id')}, which names the journal an apply opened last, is damaged, and ${journal()} is missing`);
  });
});

describe('a journal left by a kill is continued', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'plumb-traces-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('after a line a kill tore, which is cut off before the next entry', async () => {
    const store = new LocalStore(root, 'web', 'dev', codec);
    await store.read();
    await store.record(intent('a'));
    const file = join(root, 'web', 'dev', 'journal.jsonl');
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"kind":"outc`);
    const next = new LocalStore(root, 'web', 'dev', codec);
    expect((await next.read()).pending.map((p) => p.token)).toEqual(['t-a']);
    await next.record(outcome('a'));
    expect((await new LocalStore(root, 'web', 'dev', codec).read()).resources.a).toEqual(thing('a'));
  });

  it('unnamed, as a plumb wrote it before journals were named: read and continued, with no alarm', async () => {
    const dir = join(root, 'web', 'dev');
    await new LocalStore(root, 'web', 'dev', codec).write(empty());
    rmSync(join(dir, 'journal.id'), { force: true });
    writeFileSync(join(dir, 'journal.jsonl'), `${JSON.stringify(intent('a'))}\n`);
    const store = new LocalStore(root, 'web', 'dev', codec);
    expect((await store.read()).pending.map((p) => p.token)).toEqual(['t-a']);
    await store.record(outcome('a'));
    expect((await new LocalStore(root, 'web', 'dev', codec).read()).resources.a).toEqual(thing('a'));
    expect(existsSync(join(dir, 'journal.id'))).toBe(false);
  });
});

describe('a state.json lost while its backup is there', () => {
  let root: string;
  let dir: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'plumb-traces-'));
    dir = join(root, 'web', 'dev');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('the backup is a second name of the snapshot last written', async () => {
    await new LocalStore(root, 'web', 'dev', codec).write({ ...empty(), resources: { a: thing('a') } });
    expect(statSync(join(dir, 'state.json.backup')).ino).toBe(statSync(join(dir, 'state.json')).ino);
    expect(statSync(join(dir, 'state.json.backup')).mode & 0o777).toBe(0o600);
  });

  it('is refused, naming both files and what to do; a read for a push reads the backup; accepted, what it recorded is forgotten and what the journal recorded since is kept', async () => {
    const store = new LocalStore(root, 'web', 'dev', codec);
    await store.write({ ...empty(), resources: { a: thing('a') } });
    await store.read();
    await store.record(outcome('b'));
    rmSync(join(dir, 'state.json'));
    const refused = await new LocalStore(root, 'web', 'dev', codec).read().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UserError);
    expect((refused as UserError).message).toBe(
      `${join(dir, 'state.json')} is missing, but its backup ${join(dir, 'state.json.backup')} records 1 resource (serial 1): read as a new stack, what it records would be ordered again`,
    );
    expect((refused as UserError).hint).toContain(`\`plumb state push ${join(dir, 'state.json.backup')}\``);
    expect((refused as UserError).hint).toContain('`plumb state repair --accept-lost-state`');
    expect(Object.keys((await new LocalStore(root, 'web', 'dev', codec).read({ replacing: true })).resources).sort()).toEqual(['a', 'b']);

    const accepted = await new LocalStore(root, 'web', 'dev', codec).acceptLoss('snapshot');
    expect(accepted).toEqual({ lost: `${join(dir, 'state.json')} is missing`, forgotten: [thing('a')] });
    const after = await new LocalStore(root, 'web', 'dev', codec).read();
    expect(after).toMatchObject({ serial: 3, resources: { b: thing('b') } });
    expect(Object.keys(after.resources)).toEqual(['b']);
  });

  it('whose backup records interrupted operations is to be copied back, which keeps them (a push refuses a state with operations to settle)', async () => {
    const store = new LocalStore(root, 'web', 'dev', codec);
    await store.write({ ...empty(), resources: { a: thing('a') }, pending: [{ address: 'b', type: 'fake:Thing', action: 'create', token: 't-b', at: AT }] });
    rmSync(join(dir, 'state.json'));
    const refused = await new LocalStore(root, 'web', 'dev', codec).read().catch((e: unknown) => e);
    expect((refused as UserError).message).toContain('records 1 resource and 1 interrupted operation (serial 1)');
    expect((refused as UserError).hint).toContain(`restore it by copying its backup back (\`cp ${join(dir, 'state.json.backup')} ${join(dir, 'state.json')}\`);`);
  });

  it('is no loss when the backup records nothing (a destroyed stack), nor in a folder holding only a lock', async () => {
    await new LocalStore(root, 'web', 'dev', codec).write(empty());
    rmSync(join(dir, 'state.json'));
    expect((await new LocalStore(root, 'web', 'dev', codec).read()).resources).toEqual({});
    rmSync(dir, { recursive: true });
    const locker = new LocalStore(root, 'web', 'dev', codec);
    await locker.lock({ pid: process.pid, host: 'here', time: AT, command: 'plan' });
    expect(await new LocalStore(root, 'web', 'dev', codec).read()).toMatchObject({ serial: 0, resources: {} });
    await expect(new LocalStore(root, 'web', 'dev', codec).acceptLoss('snapshot')).rejects.toThrow(/^no lost state to accept: /);
    await locker.unlock();
  });

  it('with the journal lost too: the journal is named first, and each loss is accepted in turn', async () => {
    const store = new LocalStore(root, 'web', 'dev', codec);
    await store.write({ ...empty(), resources: { a: thing('a') } });
    await store.read();
    await store.record(intent('b'));
    rmSync(join(dir, 'state.json'));
    rmSync(join(dir, 'journal.jsonl'));
    await expect(new LocalStore(root, 'web', 'dev', codec).read()).rejects.toThrow(/journal\.jsonl is missing/);
    await new LocalStore(root, 'web', 'dev', codec).acceptLoss('journal');
    await expect(new LocalStore(root, 'web', 'dev', codec).read()).rejects.toThrow(/state\.json is missing, but its backup/);
    expect(Object.keys((await new LocalStore(root, 'web', 'dev', codec).read({ replacing: true })).resources)).toEqual(['a']);
  });
});

function empty(): StateSnapshot {
  return { version: 1, stack: 'dev', lineage: '', serial: 0, resources: {}, outputs: {}, pending: [] };
}
