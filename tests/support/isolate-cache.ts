/**
 * Every test file gets a cache folder of its own (XDG_CACHE_HOME, which the CLI processes it
 * starts inherit): the rate ledgers plumb shares between processes live there, and tests must
 * neither read the user's nor leave theirs behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'plumb-cache-'));
process.env.XDG_CACHE_HOME = dir;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
