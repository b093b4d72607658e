import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStore } from '../../src/state/local.js';
import { openStateStore } from '../../src/state/open.js';
import { SecretCodec } from '../../src/state/secrets.js';
import type { StateStore } from '../../src/state/store.js';
import { describeStateStore } from '../support/state-conformance.js';

const codec = SecretCodec.open('', 'conformance passphrase');

describeStateStore('local folder', async () => {
  const root = mkdtempSync(join(tmpdir(), 'plumb-state-'));
  const dir = join(root, 'web', 'dev');
  const opened: StateStore[] = [];
  const open = (project = 'web') => {
    const store = openStateStore(root, project, 'dev', codec);
    opened.push(store);
    return store;
  };
  return {
    store: open(),
    other: async () => open(),
    otherProject: async () => open('api'),
    async breakJournal() {
      // The journal the store has open now writes to a full disk (ENOSPC).
      const store = opened[0] as unknown as { journal: number };
      closeSync(store.journal);
      store.journal = openSync('/dev/full', 'a');
    },
    async loseJournal() {
      rmSync(join(dir, 'journal.jsonl'), { force: true });
    },
    async crash() {
      // The holder's process is gone: its pid in the lock file no longer runs on this host.
      const lock = JSON.parse(readFileSync(join(dir, 'lock'), 'utf8'));
      writeFileSync(join(dir, 'lock'), JSON.stringify({ ...lock, pid: deadPid() }));
    },
    async raw() {
      if (!existsSync(dir)) return '';
      return readdirSync(dir)
        .map((f) => readFileSync(join(dir, f), 'utf8'))
        .join('\n');
    },
    async cleanup() {
      for (const store of opened) await store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
});

describe('openStateStore with a folder', () => {
  it('opens a LocalStore at the resolved path', async () => {
    const store = openStateStore('relative/state', 'web', 'dev', codec);
    expect(store).toBeInstanceOf(LocalStore);
    expect(store.location).toBe(join(process.cwd(), 'relative/state', 'web', 'dev'));
    await store.close();
  });
});

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (!child.pid) throw new Error('could not start a short-lived process');
  return child.pid;
}

describe('the local folder', () => {
  const holder = { pid: process.pid, host: 'here', time: '2026-01-01T00:00:00Z', command: 'test' };
  const resource = (address: string) => ({ address, type: 'fake:Thing', id: `id-${address}`, inputs: {}, outputs: { name: 'line\nbreak "quoted"' }, dependencies: [], status: 'ok' as const });
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'plumb-folder-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('holds the snapshot as plain JSON, read back equal', async () => {
    const store = new LocalStore(root, 'web', 'dev', codec);
    const snapshot = { version: 1 as const, stack: 'dev', lineage: 'l-1', serial: 4, resources: { a: resource('a') }, outputs: { url: 'x' }, pending: [] };
    await store.write(snapshot);
    const text = readFileSync(join(root, 'web', 'dev', 'state.json'), 'utf8');
    expect(JSON.parse(text)).toEqual({ ...snapshot, project: 'web', serial: 5 });
    expect(await store.read()).toEqual({ ...snapshot, project: 'web', serial: 5 });
  });

  it('makes the new snapshot durable in its folder before it removes the journal the snapshot replaces', async () => {
    const seen: Array<{ serial: number | undefined; journal: boolean }> = [];
    const dir = join(root, 'web', 'dev');
    class Watched extends LocalStore {
      protected override async syncDirs(): Promise<void> {
        const file = join(dir, 'state.json');
        seen.push({ serial: existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).serial : undefined, journal: existsSync(join(dir, 'journal.jsonl')) });
        await super.syncDirs();
      }
    }
    const store = new Watched(root, 'web', 'dev', codec);
    await store.record({ kind: 'outcome', address: 'a', resource: resource('a'), at: holder.time });
    await store.write(await store.read());
    expect(seen).toContainEqual({ serial: 2, journal: true });
    expect(existsSync(join(dir, 'journal.jsonl'))).toBe(false);
  });

  it('leaves no folder behind for a lock it took and a state it never wrote', async () => {
    const store = new LocalStore(root, 'web', 'dev', codec);
    await store.lock(holder);
    expect(existsSync(join(root, 'web', 'dev', 'lock'))).toBe(true);
    await store.read();
    await store.unlock();
    expect(readdirSync(root)).toEqual([]);
  });
});
