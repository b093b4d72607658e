import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { LockInfo } from '../engine/contracts/state.js';

/**
 * How long a lock file that names no holder is taken for one being written. plumb writes its
 * holder before the lock file appears (placeLock), so an empty one was left by an older plumb
 * killed between making and writing it, or damaged; a few seconds are ample for any writer.
 */
export const EMPTY_LOCK_GRACE_MS = 10_000;

/**
 * Puts a lock file naming `info` at `file` unless one is there; false when one is. The holder is
 * written to a file of its own first and linked into place, so a lock file is never seen empty,
 * even after a kill: linking fails, atomically, when the name is taken.
 */
export function placeLock(file: string, info: LockInfo): boolean {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, JSON.stringify(info));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: exclusive creation, with its short window of emptiness.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EOPNOTSUPP') return placeExclusively(file, info);
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
}

function placeExclusively(file: string, info: LockInfo): boolean {
  try {
    const fd = openSync(file, 'wx', 0o600);
    try {
      writeSync(fd, JSON.stringify(info));
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** The holder a lock file names; undefined when it is empty or damaged (or gone). */
export function readLock(file: string): LockInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as LockInfo;
    return info && typeof info === 'object' && typeof info.pid === 'number' ? info : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a lock can be taken over: its holder died on this host, or it names no holder and has
 * not been touched for EMPTY_LOCK_GRACE_MS.
 */
export function lockIsStale(file: string, holder: LockInfo | undefined): boolean {
  if (holder) return holder.host === hostname() && !alive(holder.pid);
  try {
    return Date.now() - statSync(file).mtimeMs > EMPTY_LOCK_GRACE_MS;
  } catch {
    // Gone meanwhile: the next attempt to place the lock decides.
    return false;
  }
}

/**
 * Removes the holder files (`lock.<pid>.<hex>.tmp`) that killed runs left beside a lock file: one
 * lives only while its lock is placed, so any older than EMPTY_LOCK_GRACE_MS is left over.
 */
export function removeStaleLockFiles(file: string): void {
  const dir = dirname(file);
  const prefix = `${basename(file)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    try {
      if (Date.now() - statSync(join(dir, name)).mtimeMs > EMPTY_LOCK_GRACE_MS) rmSync(join(dir, name), { force: true });
    } catch {
      // Removed by its own writer meanwhile.
    }
  }
}

/** Whether a process of this host runs with that pid. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
