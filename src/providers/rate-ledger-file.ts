/**
 * The rate ledger of one machine: a small JSON file per key under the user's cache directory
 * (`$XDG_CACHE_HOME/plumb/rate`, else the platform's cache folder), read and written under a lock
 * file, so every plumb process on the machine (back-to-back commands, parallel CI jobs on one
 * runner) counts the same calls. Nothing of it is in the project folder. The lock is held only
 * while the file is read and rewritten, a fraction of a millisecond.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { asLedgerData, emptyLedger, RecordLedger, type LedgerData } from './rate-window.js';

/** A lock file older than this was left by a process that ended holding it. */
const STALE_LOCK_MS = 5000;
/** Longest wait for the lock before the ledger is given up as unusable. */
const LOCK_TIMEOUT_MS = 10_000;

/** The user's cache folder for plumb: XDG_CACHE_HOME where set, else the platform's. */
export function cacheDir(env: Record<string, string | undefined> = process.env): string {
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'plumb');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'plumb');
  if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'plumb', 'Cache');
  return join(homedir(), '.cache', 'plumb');
}

/** The ledger in `dir` (default: the cache folder's `rate`). */
export class FileLedger extends RecordLedger {
  readonly where: string;

  /** `warn`: told when a file held something else than a record, which is then started afresh. */
  constructor(
    readonly dir: string = join(cacheDir(), 'rate'),
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    super();
    this.where = dir;
  }

  /** The file of a key: named by its hash, as a key names an account. */
  fileOf(key: string): string {
    return join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 24)}.json`);
  }

  /** Reads the key's record under its lock, changes it, writes it back; what `change` returns is the answer. */
  protected async update<T>(key: string, change: (data: LedgerData, now: number) => T): Promise<T> {
    const file = this.fileOf(key);
    const lock = `${file}.lock`;
    await this.lock(lock);
    try {
      const data = read(file, (problem) => this.warn(`the rate ledger ${file} ${problem}; it was started afresh`));
      const result = change(data, Date.now());
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(data));
      renameSync(temp, file);
      return result;
    } finally {
      try {
        unlinkSync(lock);
      } catch {
        // Taken away as stale by another process: nothing to give back.
      }
    }
  }

  private async lock(lock: string): Promise<void> {
    const deadline = Date.now() + LOCK_TIMEOUT_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        closeSync(openSync(lock, 'wx'));
        return;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') mkdirSync(this.dir, { recursive: true });
        else if (code !== 'EEXIST') throw err;
        else if (stale(lock)) removeStale(lock);
        else if (Date.now() > deadline) throw new Error(`${lock} has been locked for over ${LOCK_TIMEOUT_MS / 1000} s`);
        else await new Promise((resolve) => setTimeout(resolve, Math.min(20, 1 + attempt)));
      }
    }
  }
}

/** The record in `file`: empty when there is none yet, or when what is there is not a record (it is then started afresh). */
function read(file: string, unreadable: (problem: string) => void): LedgerData {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return emptyLedger();
    throw err;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const data = asLedgerData(value);
  if (!data) unreadable('was not a rate ledger');
  return data ?? emptyLedger();
}

function stale(lock: string): boolean {
  try {
    return Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS;
  } catch {
    return false;
  }
}

function removeStale(lock: string): void {
  try {
    unlinkSync(lock);
  } catch {
    // Another process removed it first.
  }
}
