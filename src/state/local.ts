import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, rmdirSync, writeSync } from 'node:fs';
import { close, fdatasync, open } from 'node:fs';
import { open as openDir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UserError } from '../kernel/errors.js';
import { BACKUP, holdsState, JOURNAL, MARK, SNAPSHOT } from './local-layout.js';
import { keepGitOut, ownsFolder } from './git-ignore.js';
import { lockIsStale, placeLock, readLock, removeStaleLockFiles } from './local-lock.js';
import { folded, journalHeader, journalLoss, keepBackup, missingSnapshot, placeMark, readJournalFile, readMark, recordsSomething, type JournalFile, type JournalMark } from './local-traces.js';
import { sealEntry, sealSnapshot, type SecretCodec } from './secrets.js';
import { checkEntry, checkSnapshot, damaged, emptySnapshot, lostJournal, nothingLost, replay, type StateStore } from './store.js';
import type { AcceptedLoss, JournalEntry, LockInfo, LostPart, ReadOptions, StateSnapshot } from '../engine/contracts/state.js';

/** A journal line waiting to be made durable, and the caller waiting on it. */
interface PendingLine {
  line: string;
  resolve(): void;
  reject(err: unknown): void;
}

/** A stack folder's files as found (see local-traces). */
interface Found {
  /** From `state.json`, or from its backup when it is missing, or empty when neither is there. */
  snapshot: StateSnapshot;
  /** `state.json` is missing while its backup records something. */
  missing: boolean;
  journal: JournalFile;
  mark: JournalMark | 'damaged' | undefined;
  /** Why the journal an interrupted apply opened counts as lost. */
  loss?: string;
}

/** The points between the steps of recording and writing, where a kill may stop a store. */
export type WriteStep = 'journal created' | 'entries synced' | 'journal marked' | 'snapshot synced' | 'snapshot renamed' | 'backup kept' | 'folder synced' | 'journal removed';

/**
 * State in a folder: `<root>/<project>/<stack>/state.json` (snapshot) and its backup,
 * `journal.jsonl` (append-only, each entry durable before `record` returns) and the mark naming
 * it (`journal.id`, see local-traces), and `lock` (holder pid, host, time, command). Files are
 * mode 0600. A store that writes nothing leaves nothing: the folders its lock needed are removed
 * again when it is unlocked.
 *
 * Journal appends use group commit: entries recorded in the same turn of the event loop, or while
 * a write+fdatasync is in flight, are written together by the next one, so parallel steps share
 * one sync instead of queueing for their own, and the event loop never waits for the disk.
 */
export class LocalStore implements StateStore {
  readonly location: string;
  /** The stack's folder. */
  private readonly dir: string;
  /** The journal's file descriptor while open (callback fs calls: the promise API costs more per append). */
  private journal: number | undefined;
  private waiting: PendingLine[] = [];
  private committing: Promise<void> | undefined;
  private locked = false;
  /** The outermost folder this store made (for its lock), removed again if nothing is kept in it. */
  private made: string | undefined;
  /** The serial of the snapshot as on disk, as last read or written: a journal opened now continues it. */
  private serial: number | undefined;
  /** The open journal's name, from its first line; undefined for one a plumb wrote before journals were named. */
  private journalId: string | undefined;
  /** The journal `journal.id` is known to name. */
  private marked: string | undefined;

  constructor(
    private readonly root: string,
    private readonly project: string,
    private readonly stack: string,
    private readonly codec: SecretCodec,
  ) {
    this.dir = join(root, project, stack);
    this.location = this.dir;
  }

  async lock(info: LockInfo, timeoutMs = 0): Promise<void> {
    const file = join(this.dir, 'lock');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // Made again each time: a store that held the lock and wrote nothing removes the folder.
      this.makeDir();
      removeStaleLockFiles(file);
      let placed: boolean;
      try {
        placed = placeLock(file, info);
      } catch (err) {
        // The folder was removed between making it and placing the lock: make it again.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      if (placed) {
        this.locked = true;
        return;
      }
      const holder = readLock(file);
      // Its holder died on this host without unlocking, or a kill left it without a holder.
      if (lockIsStale(file, holder)) {
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
    this.tidy();
  }

  async forceUnlock(): Promise<LockInfo | undefined> {
    const file = join(this.dir, 'lock');
    const holder = readLock(file);
    rmSync(file, { force: true });
    return holder;
  }

  async read(options: ReadOptions = {}): Promise<StateSnapshot> {
    // A reader without the lock may see a write finish between its reads (the old snapshot, then
    // no journal): what looks lost is looked at once more before it is refused.
    let found = this.find();
    if (found.loss || found.missing) found = this.find();
    if (found.loss) {
      // A journal that is there but has a damaged line is said to be damaged, line and all.
      this.journalEntries(found.journal);
      throw lostJournal(found.loss, 'restore it from a backup');
    }
    if (found.missing && !options.replacing) throw missingSnapshot(this.dir, found.snapshot);
    return this.replayed(found);
  }

  async acceptLoss(what: LostPart): Promise<AcceptedLoss> {
    return what === 'journal' ? this.acceptLostJournal() : this.acceptLostSnapshot();
  }

  /**
   * Removes what is left of the lost journal, writes the snapshot as a new serial (which holds
   * that journal as far as anything can now: a plan saved before it is stale) and clears the
   * mark. With `state.json` missing too, the snapshot is left for its own repair.
   */
  private async acceptLostJournal(): Promise<AcceptedLoss> {
    const found = this.find();
    if (!found.loss) throw nothingLost('journal', this.dir);
    const file = join(this.dir, JOURNAL);
    if (found.journal.entries > 0) {
      throw new UserError(`${file} holds the entries of another journal than the one lost`, 'move it away, or put the lost journal back, and run this again; nothing was changed');
    }
    await this.closeJournal();
    rmSync(file, { force: true });
    if (!found.missing) await this.write(found.snapshot);
    rmSync(join(this.dir, MARK), { force: true });
    await syncDir(this.dir);
    return { lost: found.loss, forgotten: [] };
  }

  /** Writes a snapshot that continues the backup's lineage and serial, keeping only what the journal recorded since. */
  private async acceptLostSnapshot(): Promise<AcceptedLoss> {
    const found = this.find();
    if (found.loss) throw lostJournal(found.loss, 'restore it from a backup');
    if (!found.missing) throw nothingLost('snapshot', this.dir);
    const backup = found.snapshot;
    const kept = this.replayed({ ...found, snapshot: { ...emptySnapshot(this.stack), lineage: backup.lineage, serial: backup.serial } });
    await this.write(kept);
    const forgotten = Object.values(backup.resources).filter((r) => kept.resources[r.address]?.id !== r.id);
    return { lost: `${join(this.dir, SNAPSHOT)} is missing`, forgotten };
  }

  /** The stack's files as found, and what of them was lost; read in the order a write changes them. */
  private find(): Found {
    const mark = readMark(this.dir);
    const file = join(this.dir, SNAPSHOT);
    const backup = join(this.dir, BACKUP);
    const source = existsSync(file) ? file : existsSync(backup) ? backup : undefined;
    const snapshot = source ? checkSnapshot(this.parse(readFileSync(source, 'utf8'), source), source) : emptySnapshot(this.stack);
    snapshot.pending ??= [];
    snapshot.outputs ??= {};
    const journal = readJournalFile(this.dir);
    return { snapshot, missing: source === backup && recordsSomething(snapshot), journal, mark, loss: journalLoss(this.dir, mark, snapshot.serial, journal) };
  }

  /** The snapshot found with the journal replayed over it, unless the snapshot already holds that journal. */
  private replayed(found: Found): StateSnapshot {
    this.serial = found.snapshot.serial;
    // A kill between writing a snapshot and removing the journal it holds leaves that journal.
    const held = found.journal.id !== undefined && found.mark !== 'damaged' && found.journal.id === found.mark?.journal && folded(found.mark, found.snapshot.serial);
    return replay(found.snapshot, held ? [] : this.journalEntries(found.journal));
  }

  async record(entry: JournalEntry): Promise<void> {
    const line = `${JSON.stringify(sealEntry(this.codec, entry))}\n`;
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
   * A batch that fails is cut off the journal again, so that no torn line is left before later ones.
   */
  private async commit(): Promise<void> {
    try {
      while (this.waiting.length) {
        const batch = this.waiting;
        this.waiting = [];
        let journal: number | undefined;
        let size = 0;
        try {
          journal = await this.openJournal();
          size = fstatSync(journal).size;
          const head = size === 0 && this.journalId ? journalHeader(this.journalId) : '';
          writeAll(journal, Buffer.from(head + batch.map((b) => b.line).join(''), 'utf8'));
          // Appends only: the data and the file length are what must survive, so fdatasync suffices.
          await new Promise<void>((resolve, reject) => fdatasync(journal!, (err) => (err ? reject(err) : resolve())));
          await this.reached('entries synced');
          if (this.journalId && this.marked !== this.journalId) await this.mark(this.journalId);
          for (const b of batch) b.resolve();
        } catch (err) {
          if (journal !== undefined) truncate(journal, size);
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      this.committing = undefined;
    }
  }

  private async openJournal(): Promise<number> {
    if (this.journal !== undefined) return this.journal;
    this.makeDir();
    this.keepGitOut();
    const file = join(this.dir, JOURNAL);
    let found = readJournalFile(this.dir);
    const mark = readMark(this.dir);
    const serial = (this.serial ??= this.find().snapshot.serial);
    // A journal the snapshot already holds (a kill came between the two) is not continued: its
    // entries, old and new, would be taken for ones the snapshot holds.
    if (found.id !== undefined && mark !== 'damaged' && found.id === mark?.journal && folded(mark, serial)) {
      rmSync(file);
      found = readJournalFile(this.dir);
    }
    const journal = await new Promise<number>((resolve, reject) => open(file, 'a', 0o600, (err, fd) => (err ? reject(err) : resolve(fd))));
    this.journal = journal;
    // A line a kill tore is cut off, or the next entry would be joined to it.
    if (found.torn) ftruncateSync(journal, found.whole);
    this.journalId = found.id ?? (found.whole === 0 ? randomUUID() : undefined);
    this.marked = mark !== 'damaged' && mark?.journal === this.journalId && !folded(mark, serial) ? this.journalId : undefined;
    // A new file's directory entry must be durable too, or a crash could lose the whole journal.
    if (!found.exists) {
      await this.syncDirs();
      await this.reached('journal created');
    }
    return journal;
  }

  /** Names the open journal in `journal.id`, durably, before any of its entries is acknowledged. */
  private async mark(id: string): Promise<void> {
    if (placeMark(this.dir, { journal: id, serial: this.serial ?? this.find().snapshot.serial, at: new Date().toISOString() })) await syncDir(this.dir);
    await this.reached('journal marked');
    this.marked = id;
  }

  /**
   * Called at each point of recording and writing where a kill may stop the process; it does
   * nothing. A kill at any of them leaves a state that reads whole (tests stop a store at each).
   */
  protected async reached(_step: WriteStep): Promise<void> {}

  /** Resolves once every recorded entry is on disk. */
  private async settled(): Promise<void> {
    while (this.committing) await this.committing;
  }

  async write(snapshot: StateSnapshot): Promise<void> {
    await this.settled();
    this.makeDir();
    this.keepGitOut();
    // A stack gets its lineage with its first write; until then it has none.
    const next = { ...snapshot, project: this.project, lineage: snapshot.lineage || randomUUID(), serial: snapshot.serial + 1 };
    const file = join(this.dir, SNAPSHOT);
    const tmp = `${file}.${process.pid}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeAll(fd, Buffer.from(JSON.stringify(sealSnapshot(this.codec, next)), 'utf8'));
      fsyncSync(fd);
    } catch (err) {
      closeSync(fd);
      rmSync(tmp, { force: true });
      throw err;
    }
    closeSync(fd);
    await this.reached('snapshot synced');
    renameSync(tmp, file);
    await this.reached('snapshot renamed');
    keepBackup(this.dir);
    await this.reached('backup kept');
    // The new snapshot must be durable in the folder before the journal it replaces is removed:
    // a crash in between would otherwise find neither.
    await this.syncDirs();
    await this.reached('folder synced');
    await this.closeJournal();
    rmSync(join(this.dir, JOURNAL), { force: true });
    await this.reached('journal removed');
    this.removeStaleFiles();
    this.serial = next.serial;
    snapshot.serial = next.serial;
    snapshot.lineage = next.lineage;
    snapshot.project = next.project;
  }

  async stacks(): Promise<string[]> {
    const dir = join(this.root, this.project);
    if (!existsSync(dir)) return [];
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && holdsState(join(dir, d.name)))
      .map((d) => d.name)
      .sort();
  }

  async close(): Promise<void> {
    await this.unlock();
  }

  /** Parses state JSON and opens its secrets; `where` names the file (and line). */
  private parse(text: string, where: string): unknown {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw damaged(where, (err as Error).message);
    }
    return this.codec.decode(parsed, where);
  }

  private journalEntries(journal: JournalFile): JournalEntry[] {
    const file = join(this.dir, JOURNAL);
    const entries: JournalEntry[] = [];
    // Only the last line can be torn (a crash mid-write); a damaged line before it means lost
    // outcomes, and reading on without them could order products again.
    for (const [i, { n, text }] of journal.lines.entries()) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        if (i === journal.lines.length - 1) break;
        throw damaged(`${file}:${n}`, 'the line is not JSON, and outcomes recorded after it follow');
      }
      entries.push(checkEntry(this.codec.decode(parsed, `${file}:${n}`), `${file}:${n}`));
    }
    return entries;
  }

  private async closeJournal(): Promise<void> {
    await this.settled();
    const journal = this.journal;
    this.journal = undefined;
    if (journal !== undefined) await new Promise<void>((resolve, reject) => close(journal, (err) => (err ? reject(err) : resolve())));
  }

  /** Makes the stack's folder, noting the outermost one made so that tidy can remove it. */
  private makeDir(): void {
    const made = mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.made ??= made;
  }

  /**
   * Keeps git out of what this store keeps: all of the state folder when it is plumb's (see
   * ownsFolder), else the project's folder in it, which holds only its stacks.
   */
  private keepGitOut(): void {
    if (ownsFolder(this.root, this.made)) keepGitOut(this.root);
    else if (this.project) keepGitOut(join(this.root, this.project));
  }

  /** Syncs the stack's folder, and the folders above it that this store made (their entries are new). */
  protected async syncDirs(): Promise<void> {
    await syncDir(this.dir);
    if (!this.made) return;
    for (let dir = this.dir; dir !== dirname(this.made); dir = dirname(dir)) await syncDir(dirname(dir));
  }

  /** Removes the folders this store made for its lock when nothing was kept in them. */
  private tidy(): void {
    if (!this.made) return;
    for (let dir = this.dir; dir.startsWith(this.made); dir = dirname(dir)) {
      try {
        rmdirSync(dir);
      } catch {
        return;
      }
    }
    this.made = undefined;
  }

  /** Files killed writers left half-written; only the lock holder writes. */
  private removeStaleFiles(): void {
    for (const name of readdirSync(this.dir)) if (leftBehind(name) && !name.endsWith(`.${process.pid}.tmp`)) rmSync(join(this.dir, name), { force: true });
  }
}

/** Whether a file of a stack folder is one a writer killed half-way left (`state.json.<pid>.tmp`, `state.json.backup.<pid>.tmp`). */
function leftBehind(name: string): boolean {
  return name.startsWith(`${SNAPSHOT}.`) && name.endsWith('.tmp');
}

/** Writes all of `data` at the end of an append-only file, or from the start of a new one. */
function writeAll(fd: number, data: Buffer): void {
  for (let offset = 0; offset < data.length;) offset += writeSync(fd, data, offset, data.length - offset);
}

/** Cuts a file back to `size`, as far as the failure that made it necessary allows. */
function truncate(fd: number, size: number): void {
  try {
    ftruncateSync(fd, size);
  } catch {
    // The disk refuses even this: the torn line is the last one, which a read tolerates.
  }
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
