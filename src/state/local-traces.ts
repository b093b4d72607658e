import { closeSync, copyFileSync, existsSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../kernel/errors.js';
import type { StateSnapshot } from '../engine/contracts/state.js';
import { BACKUP, JOURNAL, MARK, SNAPSHOT } from './local-layout.js';

/*
 * The traces a stack folder keeps so that a lost journal or snapshot is seen, not read as less
 * than was recorded (which would order again what was bought).
 *
 * `state.json.backup` is a second name of the snapshot last written (a hard link, a copy where
 * the file system has none): while it is there, a missing `state.json` was lost, not never made.
 *
 * A journal's first line names it (`{"journal":ID,"at":TIME}`). Once its first entries are on
 * disk, and before any caller learns that they are (so before the remote call they announce),
 * `journal.id` names it and the serial of the snapshot it continues. A snapshot written after
 * that has a higher serial, and holds the journal. So while `journal.id` names a journal and the
 * snapshot's serial is not higher, that journal must be there, its first line naming it, with
 * an entry after that line; gone, empty, cut back to its first line or replaced by another, it
 * was lost, and what the apply ordered may be recorded nowhere.
 *
 * A kill never leaves that picture: until `journal.id` names a journal no entry of it was
 * acknowledged, so no remote call was made on its word; and a snapshot that holds a journal is
 * in place, durably, before the journal is removed. `journal.id` stays after its journal is
 * folded in: the next apply's journal replaces it, and the snapshot's serial says it is done.
 */

/** What `journal.id` says: the journal an apply opened last and the snapshot serial it continues. */
export interface JournalMark {
  journal: string;
  serial: number;
  at: string;
}

/** A journal file as found. */
export interface JournalFile {
  exists: boolean;
  /** It ends in a line a kill tore (no line break after it). */
  torn: boolean;
  /** The journal its first line names; undefined for an empty file, or one a plumb wrote before journals were named. */
  id?: string;
  /** Its lines after the naming one, numbered as in the file, blank ones left out; the last may be torn. */
  lines: Array<{ n: number; text: string }>;
  /** How many of those lines are complete (end with a line break). */
  entries: number;
  /** Bytes up to the end of its last complete line: a torn line after it is cut before appending. */
  whole: number;
}

/** The first line of a new journal, naming it. */
export function journalHeader(id: string): string {
  return `${JSON.stringify({ journal: id, at: new Date().toISOString() })}\n`;
}

/** The stack folder's journal, as found. */
export function readJournalFile(dir: string): JournalFile {
  let data: Buffer;
  try {
    data = readFileSync(join(dir, JOURNAL));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false, torn: false, lines: [], entries: 0, whole: 0 };
    throw err;
  }
  const all = data.toString('utf8').split('\n');
  // The last element follows the last line break: empty, or a line a kill tore.
  const id = all.length > 1 ? namedBy(all[0]) : undefined;
  const lines = all.map((text, i) => ({ n: i + 1, text })).slice(id === undefined ? 0 : 1);
  const entries = lines.slice(0, -1).filter((l) => l.text.trim()).length;
  const whole = data.lastIndexOf(0x0a) + 1;
  return { exists: true, torn: whole < data.length, id, lines: lines.filter((l) => l.text.trim()), entries, whole };
}

/** The journal a first line names, or undefined when it is an entry (a journal written before journals were named). */
function namedBy(line: string): string | undefined {
  try {
    const parsed = JSON.parse(line) as Record<string, unknown> | null;
    return parsed && typeof parsed.journal === 'string' && parsed.kind === undefined ? parsed.journal : undefined;
  } catch {
    return undefined;
  }
}

/** What `journal.id` says; `damaged` when it cannot be read; undefined when no journal was ever marked. */
export function readMark(dir: string): JournalMark | 'damaged' | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, MARK), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const m = JSON.parse(text) as Record<string, unknown> | null;
    if (m && typeof m.journal === 'string' && Number.isInteger(m.serial) && (m.serial as number) >= 0) return { journal: m.journal, serial: m.serial as number, at: String(m.at ?? '') };
  } catch {
    // Said as damaged, below.
  }
  return 'damaged';
}

/** Whether the snapshot at `serial` holds the journal `mark` names (written after it was opened). */
export function folded(mark: JournalMark | 'damaged' | undefined, serial: number): boolean {
  return mark !== undefined && mark !== 'damaged' && serial > mark.serial;
}

/**
 * Why the journal `mark` names counts as lost, said of the files, or undefined when it is there
 * or the snapshot at `serial` holds it. With `journal.id` damaged, a journal that names itself
 * and holds entries is taken for the one it named.
 */
export function journalLoss(dir: string, mark: JournalMark | 'damaged' | undefined, serial: number, journal: JournalFile): string | undefined {
  if (mark === undefined || folded(mark, serial)) return undefined;
  const wanted = mark === 'damaged' ? journal.id : mark.journal;
  if (journal.id !== undefined && journal.id === wanted && journal.entries > 0) return undefined;
  const file = join(dir, JOURNAL);
  const found = !journal.exists
    ? 'is missing'
    : !journal.lines.length && journal.id === undefined
      ? 'is empty'
      : journal.id === undefined
        ? 'does not begin with the line naming its journal'
        : journal.id !== wanted
          ? `is journal ${journal.id}, not ${wanted}`
          : 'holds no entries after its first line';
  if (mark === 'damaged') return `${join(dir, MARK)}, which names the journal an apply opened last, is damaged, and ${file} ${found}`;
  return `${file} ${found} (${join(dir, MARK)} names journal ${mark.journal}, opened ${mark.at}, and no snapshot has folded it in)`;
}

/**
 * Writes `mark` over `journal.id`, in place, and syncs it: one small write per apply. A kill while
 * writing leaves it damaged, which the journal it was naming outweighs (see journalLoss), since
 * that journal's first entries are on disk before it is written. Returns whether the file is new,
 * when the caller syncs the folder too.
 */
export function placeMark(dir: string, mark: JournalMark): boolean {
  const file = join(dir, MARK);
  const created = !existsSync(file);
  const fd = openSync(file, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify(mark));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return created;
}

/**
 * Makes `state.json.backup` a second name of the snapshot just renamed into place; where the
 * file system has no hard links, a copy. The caller syncs the folder.
 */
export function keepBackup(dir: string): void {
  const backup = join(dir, BACKUP);
  const tmp = `${backup}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  try {
    linkSync(join(dir, SNAPSHOT), tmp);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw err;
    copyFileSync(join(dir, SNAPSHOT), tmp);
    const fd = openSync(tmp, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  renameSync(tmp, backup);
}

/** Whether a snapshot records anything whose loss would be a loss: a resource or an interrupted operation. */
export function recordsSomething(snapshot: StateSnapshot): boolean {
  return Object.keys(snapshot.resources).length > 0 || snapshot.pending.length > 0;
}

/**
 * A read refused because `state.json` is missing while its backup, which records something, is
 * there. A backup holding interrupted operations is copied back rather than pushed: a push
 * refuses a state with operations to settle.
 */
export function missingSnapshot(dir: string, backup: StateSnapshot): UserError {
  const file = join(dir, SNAPSHOT);
  const copy = join(dir, BACKUP);
  const resources = Object.keys(backup.resources).length;
  const pending = backup.pending.length;
  const what = [`${resources} resource${resources === 1 ? '' : 's'}`, ...(pending ? [`${pending} interrupted operation${pending === 1 ? '' : 's'}`] : [])].join(' and ');
  const restore = pending ? `by copying its backup back (\`cp ${copy} ${file}\`)` : `with \`plumb state push ${copy}\``;
  return new UserError(
    `${file} is missing, but its backup ${copy} records ${what} (serial ${backup.serial}): read as a new stack, what it records would be ordered again`,
    `restore it ${restore}; or, to go on without it, run \`plumb state repair --accept-lost-state\`, which forgets what the backup records (the objects stay billed), ` +
      'and adopt them with `options.import` in the manifest or `plumb import` before applying. Nothing was changed',
  );
}
