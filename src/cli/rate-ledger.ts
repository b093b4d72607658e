/**
 * Which rate ledger a command shares (rate-window.ts): with state in PostgreSQL, the database's,
 * so runners on many machines share one window; otherwise a file in the user's cache folder,
 * shared by every plumb process on this machine. A ledger that cannot be used is warned of once
 * and the command goes on, counting its calls alone.
 */
import { join } from 'node:path';
import { cacheDir, FileLedger } from '../providers/rate-ledger-file.js';
import type { RateRuntime } from '../engine/contracts/provider.js';
import type { EngineEvent } from '../engine/types.js';
import type { RateLedger } from '../providers/rate-window.js';
import { isPostgresLocation } from '../state/open.js';
import { PostgresLedger } from '../state/postgres-rate-ledger.js';

/** The ledger for a command whose state lives at `stateLocation`; `warn` is told of problems with it. */
export function openRateLedger(stateLocation: string, warn: (message: string) => void): RateLedger {
  if (isPostgresLocation(stateLocation)) return new PostgresLedger(stateLocation, warn);
  return new FileLedger(join(cacheDir(process.env), 'rate'), warn);
}

/** A warner that says each problem once, on stderr, as the command goes on. */
export function warnOnce(write: (text: string) => void = (text) => process.stderr.write(text)): (message: string) => void {
  const said = new Set<string>();
  return (message) => {
    if (said.has(message)) return;
    said.add(message);
    write(`Warning: ${message}\n`);
  };
}

/**
 * The rate runtime of each provider connection of a command: one ledger (a database ledger
 * connects on its first use, which only a window brings), and waits told as `rate-wait` events naming the provider.
 */
export function rateRuntimes(stateLocation: string, notify: (event: EngineEvent) => void): { for(provider: string): RateRuntime; close(): Promise<void> } {
  const warn = warnOnce();
  let ledger: RateLedger | undefined;
  const shared = (): RateLedger => (ledger ??= openRateLedger(stateLocation, warn));
  return {
    for: (provider) => ({
      ledger: shared(),
      waiting: (waitMs, window) => notify({ type: 'rate-wait', provider, waitMs, ...window, at: new Date().toISOString() }),
      warn,
    }),
    close: async () => ledger?.close(),
  };
}
