/** The rate ledgers of one machine meet the RateLedger contract: the process's own, and the file every process on it shares. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileLedger } from '../../src/providers/rate-ledger-file.js';
import { MemoryLedger } from '../../src/providers/rate-window.js';
import { describeRateLedger } from '../support/rate-ledger-conformance.js';

describeRateLedger('memory', async () => {
  const ledger = new MemoryLedger();
  return { ledger, other: () => ledger };
});

describeRateLedger('file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'plumb-rate-'));
  // Two ledgers on one folder are two processes on one machine.
  return { ledger: new FileLedger(dir), other: () => new FileLedger(dir), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
});
