import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import type { SecretCodec } from './secrets.js';
import { replay, type StateStore } from './store.js';
import type { JournalEntry, LockInfo, StateSnapshot } from './types.js';

/**
 * State in a folder: `<root>/<stack>/state.json` (snapshot), `journal.jsonl` (append-only,
 * fsynced per entry) and `lock` (holder pid, host, time, command). Files are mode 0600.
 */
export class LocalStore implements StateStore {
  readonly location: string;
  private readonly dir: string;
  private journalFd: number | undefined;
  private locked = false;

  constructor(private readonly root: string, private readonly stack: string, private readonly codec: SecretCodec) {
    this.dir = join(root, stack);
    this.location = this.dir;
  }

  async lock(info: LockInfo, timeoutMs = 0): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = join(this.dir, 'lock');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        writeFileSync(file, JSON.stringify(info), { flag: 'wx', mode: 0o600 });
        this.locked = true;
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = readLock(file);
      if (holder && holder.host === hostname() && !alive(holder.pid)) {
        // The holder died on this host without unlocking: the lock is stale.
        rmSync(file, { force: true });
        continue;
      }
      if (Date.now() >= deadline) {
        const who = holder ? `pid ${holder.pid} on ${holder.host} since ${holder.time} (${holder.command})` : 'another process';
        throw new UserError(
          `state for stack "${this.stack}" is locked by ${who}`,
          'wait for it to finish, pass --lock-timeout 30s to wait, or run `plumb state unlock --force` if that process is gone',
        );
      }
      await new Promise((r) => setTimeout(r, Math.min(250, Math.max(0, deadline - Date.now()))));
    }
  }

  async unlock(): Promise<void> {
    this.closeJournal();
    if (this.locked) rmSync(join(this.dir, 'lock'), { force: true });
    this.locked = false;
  }

  async forceUnlock(): Promise<LockInfo | undefined> {
    const file = join(this.dir, 'lock');
    const holder = readLock(file);
    rmSync(file, { force: true });
    return holder;
  }

  async read(): Promise<StateSnapshot> {
    const file = join(this.dir, 'state.json');
    let snapshot: StateSnapshot = { version: 1, stack: this.stack, lineage: '', serial: 0, resources: {}, outputs: {}, pending: [] };
    if (existsSync(file)) snapshot = this.codec.decode(JSON.parse(readFileSync(file, 'utf8'))) as StateSnapshot;
    snapshot.pending ??= [];
    return replay(snapshot, this.journal());
  }

  async record(entry: JournalEntry): Promise<void> {
    if (this.journalFd === undefined) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.journalFd = openSync(join(this.dir, 'journal.jsonl'), 'a', 0o600);
    }
    writeSync(this.journalFd, `${JSON.stringify(this.codec.encode(entry))}\n`);
    fsyncSync(this.journalFd);
  }

  async write(snapshot: StateSnapshot): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // A stack gets its lineage with its first write; until then it has none.
    const next = { ...snapshot, lineage: snapshot.lineage || randomUUID(), serial: snapshot.serial + 1 };
    const file = join(this.dir, 'state.json');
    const tmp = `${file}.${process.pid}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    writeSync(fd, JSON.stringify(this.codec.encode(next), null, 2));
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, file);
    // The snapshot now holds everything the journal said; start a fresh journal.
    this.closeJournal();
    rmSync(join(this.dir, 'journal.jsonl'), { force: true });
    snapshot.serial = next.serial;
    snapshot.lineage = next.lineage;
  }

  async stacks(): Promise<string[]> {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && (existsSync(join(this.root, d.name, 'state.json')) || existsSync(join(this.root, d.name, 'journal.jsonl'))))
      .map((d) => d.name)
      .sort();
  }

  async close(): Promise<void> {
    await this.unlock();
  }

  private journal(): JournalEntry[] {
    const file = join(this.dir, 'journal.jsonl');
    if (!existsSync(file)) return [];
    const entries: JournalEntry[] = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        entries.push(this.codec.decode(JSON.parse(line)) as JournalEntry);
      } catch {
        // A torn last line from a crash mid-write: everything before it is intact.
        break;
      }
    }
    return entries;
  }

  private closeJournal(): void {
    if (this.journalFd !== undefined) closeSync(this.journalFd);
    this.journalFd = undefined;
  }
}

function readLock(file: string): LockInfo | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LockInfo;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
