import { isAscii } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { close, fdatasync, open } from 'node:fs';
import { open as openDir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { UserError } from '../errors.js';
import type { SecretCodec } from './secrets.js';
import { readSnapshotLines, snapshotText } from './snapshot-text.js';
import { checkEntry, checkSnapshot, damaged, replay, type StateStore } from './store.js';
import type { JournalEntry, LockInfo, StateSnapshot } from './types.js';

/** A journal line waiting to be made durable, and the caller waiting on it. */
interface PendingLine {
  line: string;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * State in a folder: `<root>/<stack>/state.json` (snapshot), `journal.jsonl` (append-only,
 * each entry durable before `record` returns) and `lock` (holder pid, host, time, command).
 * Files are mode 0600.
 *
 * Journal appends use group commit: entries recorded in the same turn of the event loop, or while
 * a write+fdatasync is in flight, are written together by the next one, so parallel steps share
 * one sync instead of queueing for their own, and the event loop never waits for the disk.
 */
export class LocalStore implements StateStore {
  readonly location: string;
  private readonly dir: string;
  /** The journal's file descriptor while open (callback fs calls: the promise API costs more per append). */
  private journal: number | undefined;
  private waiting: PendingLine[] = [];
  private committing: Promise<void> | undefined;
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
        const who = holder ? `pid ${holder.pid} on ${holder.host} since ${holder.time} (${holder.command})` : `a holder its lock file does not name (${file} is empty or damaged)`;
        throw new UserError(
          `state for stack "${this.stack}" is locked by ${who}`,
          'wait for it to finish, pass --lock-timeout 30s to wait, or run `plumb state unlock --force` if that process is gone',
        );
      }
      await new Promise((r) => setTimeout(r, Math.min(250, Math.max(0, deadline - Date.now()))));
    }
  }

  async unlock(): Promise<void> {
    await this.closeJournal();
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
    if (existsSync(file)) snapshot = this.decodeSnapshot(readLines(file), file);
    snapshot.pending ??= [];
    snapshot.outputs ??= {};
    return replay(snapshot, this.journalEntries());
  }

  async record(entry: JournalEntry): Promise<void> {
    const line = `${this.encode(entry)}\n`;
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ line, resolve, reject });
      // The first line waits for the end of this turn of the event loop, so that every line
      // recorded in the same turn (answers that arrived together) shares its write and sync.
      this.committing ??= new Promise((next) => setImmediate(next)).then(() => this.commit());
    });
  }

  /**
   * Writes and syncs every waiting line in one go, then the lines that arrived meanwhile, until
   * none wait. A caller is released only once its line is on disk; lines keep their call order.
   */
  private async commit(): Promise<void> {
    try {
      while (this.waiting.length) {
        const batch = this.waiting;
        this.waiting = [];
        try {
          const journal = await this.openJournal();
          // Written in place: appending a few KB only copies them into the page cache, and a
          // thread-pool round trip per batch cost more than that. The sync waits on the disk, so
          // it runs off the event loop.
          writeAll(journal, Buffer.from(batch.map((b) => b.line).join(''), 'utf8'));
          // Appends only: the data and the file length are what must survive, so fdatasync suffices.
          await new Promise<void>((resolve, reject) => fdatasync(journal, (err) => (err ? reject(err) : resolve())));
          for (const b of batch) b.resolve();
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      this.committing = undefined;
    }
  }

  private async openJournal(): Promise<number> {
    if (this.journal !== undefined) return this.journal;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = join(this.dir, 'journal.jsonl');
    const created = !existsSync(file);
    this.journal = await new Promise<number>((resolve, reject) => open(file, 'a', 0o600, (err, fd) => (err ? reject(err) : resolve(fd))));
    // A new file's directory entry must be durable too, or a crash could lose the whole journal.
    if (created) await syncDir(this.dir);
    return this.journal;
  }

  /** Resolves once every recorded entry is on disk. */
  private async settled(): Promise<void> {
    while (this.committing) await this.committing;
  }

  async write(snapshot: StateSnapshot): Promise<void> {
    await this.settled();
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // A stack gets its lineage with its first write; until then it has none.
    const next = { ...snapshot, lineage: snapshot.lineage || randomUUID(), serial: snapshot.serial + 1 };
    const file = join(this.dir, 'state.json');
    const tmp = `${file}.${process.pid}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      // Sealing copies the whole state: done only when there turns out to be a secret to seal.
      if (!writeSnapshot(fd, next, true)) {
        ftruncateSync(fd, 0);
        writeSnapshot(fd, this.codec.encode(next) as StateSnapshot, false);
      }
      fsyncSync(fd);
    } catch (err) {
      closeSync(fd);
      rmSync(tmp, { force: true });
      throw err;
    }
    closeSync(fd);
    renameSync(tmp, file);
    // The snapshot now holds everything the journal said; start a fresh journal.
    await this.closeJournal();
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

  /**
   * State JSON with every secret sealed. A Secret serializes as "[secret]" (values.ts), so a text
   * without that marker holds none and the sealing walk (a copy of everything on the way to a
   * secret) is skipped; a plain "[secret]" string only costs the walk.
   */
  private encode(value: unknown): string {
    const text = JSON.stringify(value);
    return text.includes('"[secret]"') ? JSON.stringify(this.codec.encode(value)) : text;
  }

  /** Reads a snapshot from its lines; outputs are left to be parsed on first read unless a secret needs opening. */
  private decodeSnapshot(lines: string[], file: string): StateSnapshot {
    let parsed: unknown;
    try {
      if (!lines.some((line) => line.includes('"$secret"'))) parsed = readSnapshotLines(lines, file);
      parsed ??= this.decode(lines.join('\n'));
    } catch (err) {
      throw err instanceof SyntaxError ? damaged(file, err.message) : err;
    }
    return checkSnapshot(parsed, file);
  }

  /** Parses state JSON; the secret walk (a full copy) is skipped when the text holds no secret. */
  private decode(text: string): unknown {
    const parsed = JSON.parse(text) as unknown;
    return text.includes('"$secret"') ? this.codec.decode(parsed) : parsed;
  }

  private journalEntries(): JournalEntry[] {
    const file = join(this.dir, 'journal.jsonl');
    if (!existsSync(file)) return [];
    const entries: JournalEntry[] = [];
    const lines = readFileSync(file, 'utf8').split('\n');
    // Only the last line can be torn (a crash mid-write); a damaged line before it means lost
    // outcomes, and reading on without them could order products again.
    let last = lines.length - 1;
    while (last >= 0 && !lines[last].trim()) last--;
    for (let i = 0; i <= last; i++) {
      if (!lines[i].trim()) continue;
      let entry: unknown;
      try {
        entry = this.decode(lines[i]);
      } catch (err) {
        if (!(err instanceof SyntaxError)) throw err;
        if (i === last) break;
        throw damaged(`${file}:${i + 1}`, 'the line is not JSON, and outcomes recorded after it follow');
      }
      entries.push(checkEntry(entry, `${file}:${i + 1}`));
    }
    return entries;
  }

  private async closeJournal(): Promise<void> {
    await this.settled();
    const journal = this.journal;
    this.journal = undefined;
    if (journal !== undefined) await new Promise<void>((resolve, reject) => close(journal, (err) => (err ? reject(err) : resolve())));
  }
}

/** The size of the pieces a snapshot is read in. */
export const READ_PIECE = 256 * 1024;

/**
 * A file's lines (as `split('\n')` makes them), read in pieces through one buffer: the whole
 * file is never also held as bytes beside its text, and a command pays for every megabyte of
 * memory it touches. Pieces that are all ASCII (most states) are taken without UTF-8 decoding;
 * from the first that is not, a decoder keeps characters split between pieces whole.
 */
function readLines(file: string): string[] {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_PIECE);
    const lines: string[] = [];
    let decoder: StringDecoder | undefined;
    let partial = '';
    for (let size; (size = readSync(fd, buffer, 0, READ_PIECE, null)) > 0; ) {
      const bytes = buffer.subarray(0, size);
      if (!decoder && !isAscii(bytes)) decoder = new StringDecoder('utf8');
      const pieces = (decoder ? decoder.write(bytes) : bytes.toString('latin1')).split('\n');
      pieces[0] = partial + pieces[0];
      partial = pieces.pop() as string;
      for (let i = 0; i < pieces.length; i++) lines.push(pieces[i]);
    }
    lines.push(partial + (decoder?.end() ?? ''));
    return lines;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a snapshot's text (snapshot-text.ts; compact, as every reader parses it, while `plumb
 * state pull` prints it indented) from the start of `fd`. A Secret writes itself as "[secret]"
 * (values.ts): with `unsealed`, meeting that marker stops the write and returns false, so the
 * caller writes the sealed snapshot instead.
 */
function writeSnapshot(fd: number, snapshot: StateSnapshot, unsealed: boolean): boolean {
  let position = 0;
  for (const piece of snapshotText(snapshot)) {
    if (unsealed && piece.includes('"[secret]"')) return false;
    const bytes = Buffer.from(piece, 'utf8');
    writeAll(fd, bytes, position);
    position += bytes.length;
  }
  return true;
}

/** Writes all of `data` at `position`, or at the end of an append-only file. */
function writeAll(fd: number, data: Buffer, position: number | null = null): void {
  for (let offset = 0; offset < data.length; ) offset += writeSync(fd, data, offset, data.length - offset, position === null ? null : position + offset);
}

async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await openDir(dir);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms cannot open or sync a directory; the file's own sync is all they offer.
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
