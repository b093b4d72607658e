import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalStore } from '../../src/state/local.js';
import { openStateStore } from '../../src/state/open.js';
import { SecretCodec } from '../../src/state/secrets.js';
import type { StateStore } from '../../src/state/store.js';
import { describeStateStore } from '../support/state-conformance.js';

const codec = SecretCodec.open('', 'conformance passphrase');

describeStateStore('local folder', async () => {
  const root = mkdtempSync(join(tmpdir(), 'plumb-state-'));
  const dir = join(root, 'dev');
  const opened: StateStore[] = [];
  const open = () => {
    const store = openStateStore(root, 'dev', codec);
    opened.push(store);
    return store;
  };
  return {
    store: open(),
    other: async () => open(),
    async crash() {
      // The holder's process is gone: its pid in the lock file no longer runs on this host.
      const lock = JSON.parse(readFileSync(join(dir, 'lock'), 'utf8'));
      writeFileSync(join(dir, 'lock'), JSON.stringify({ ...lock, pid: deadPid() }));
    },
    async raw() {
      if (!existsSync(dir)) return '';
      return readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    },
    async cleanup() {
      for (const store of opened) await store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
});

describe('openStateStore with a folder', () => {
  it('opens a LocalStore at the resolved path', async () => {
    const store = openStateStore('relative/state', 'dev', codec);
    expect(store).toBeInstanceOf(LocalStore);
    expect(store.location).toBe(join(process.cwd(), 'relative/state', 'dev'));
    await store.close();
  });
});

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (!child.pid) throw new Error('could not start a short-lived process');
  return child.pid;
}
