import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expect } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../golden');

/** Replaces what changes from run to run (ids, times, durations, hashes) with stable markers. */
export function normalise(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/\b[0-9a-f]{64}\b/g, '<hash>')
    .replace(/secret-[0-9a-f]{16}/g, 'secret-<hash>')
    .replace(/after \d+(\.\d+)?s/g, 'after <t>')
    .replace(/"elapsedMs": ?\d+/g, '"elapsedMs":0')
    .replace(/(contract ends|live until|ends its term|billed, until) \d{4}-\d{2}-\d{2}/g, '$1 <date>')
    .replace(/\r/g, '');
}

/** Compares `text` (normalised) with tests/golden/NAME; UPDATE_GOLDEN=1 rewrites the file. */
export function expectGolden(name: string, text: string): void {
  const file = join(ROOT, name);
  const actual = normalise(text);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  expect(existsSync(file), `missing golden file ${name}: run with UPDATE_GOLDEN=1 to create it`).toBe(true);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
