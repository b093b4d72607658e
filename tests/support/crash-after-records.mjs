// Loaded into a plumb process with `node --import` (see crashAfterRecords in cli.ts): once
// CRASH_AFTER_RECORDS journal entries are durable, the process kills itself (SIGKILL, no cleanup)
// before the code that recorded them goes on; with 0, as it is about to record the first. How
// crash safety is tested without sleeps and without a hook in plumb itself: it watches the journal
// where it reaches the disk, a folder's `journal.jsonl` synced or a PostgreSQL transaction
// inserting into `plumb_journal` committed.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const limit = process.env.CRASH_AFTER_RECORDS ? Number(process.env.CRASH_AFTER_RECORDS) : NaN;
let durable = 0;

/** Ends the process now when it is to end before its first entry. */
function recording() {
  if (limit === 0) process.kill(process.pid, 'SIGKILL');
}

/** Counts `n` more entries as durable, and ends the process once there are enough. */
function synced(n) {
  durable += n;
  if (durable >= limit) process.kill(process.pid, 'SIGKILL');
}

if (Number.isInteger(limit) && limit >= 0) {
  watchJournalFiles();
  watchJournalRows();
}

/** A local journal: entries written to an open `journal.jsonl` are durable once its fdatasync returns. */
function watchJournalFiles() {
  const journals = new Map();
  const { open, close, writeSync, fdatasync } = fs;
  fs.open = function (path, ...rest) {
    const callback = rest.pop();
    if (String(path).endsWith('journal.jsonl')) recording();
    return open.call(this, path, ...rest, (err, fd) => {
      if (!err && String(path).endsWith('journal.jsonl')) journals.set(fd, 0);
      callback(err, fd);
    });
  };
  fs.close = function (fd, ...rest) {
    journals.delete(fd);
    return close.call(this, fd, ...rest);
  };
  fs.writeSync = function (fd, data, offset, ...rest) {
    // A batch is written whole from offset 0 (a short write continues it): each of its entry lines is counted once.
    if (journals.has(fd) && !offset && typeof data !== 'string') journals.set(fd, journals.get(fd) + entryLines(data.toString('utf8')));
    return writeSync.call(this, fd, data, offset, ...rest);
  };
  fs.fdatasync = function (fd, callback) {
    return fdatasync.call(this, fd, (err) => {
      if (!err && journals.get(fd)) {
        const n = journals.get(fd);
        journals.set(fd, 0);
        synced(n);
      }
      callback(err);
    });
  };
}

/** Journal lines that are entries (the first line of a journal names it instead). */
function entryLines(text) {
  return text.split('\n').filter((line) => line.startsWith('{"kind":')).length;
}

/** PostgreSQL: entries inserted into `plumb_journal` are durable once their transaction commits. */
function watchJournalRows() {
  let pg;
  try {
    pg = createRequire(import.meta.url)('pg');
  } catch {
    return;
  }
  const inserted = new WeakMap();
  const { query } = pg.Client.prototype;
  pg.Client.prototype.query = function (config, values, ...rest) {
    const text = typeof config === 'string' ? config : config?.text;
    if (typeof text === 'string' && /^INSERT INTO \S*plumb_journal\b/.test(text)) recording();
    const result = query.call(this, config, values, ...rest);
    if (typeof text !== 'string') return result;
    if (/^INSERT INTO \S*plumb_journal\b/.test(text)) inserted.set(this, (inserted.get(this) ?? 0) + JSON.parse(values[2]).length);
    else if (text === 'ROLLBACK') inserted.delete(this);
    else if (text === 'COMMIT' && inserted.get(this) && result && typeof result.then === 'function') {
      const n = inserted.get(this);
      inserted.delete(this);
      return result.then((answer) => {
        synced(n);
        return answer;
      });
    }
    return result;
  };
}
