/** Time passing, for what a stack's state records, without a test waiting for it. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fields of state and journal that hold a time: when an operation began or ended, when an order was sent. */
const TIMES = new Set(['at', 'orderedAt']);

/**
 * Moves every time the state of a stack in `dir` records (its snapshot and its journal) `ms` into
 * the past, as if the next command ran that much later: an interrupted order of a type the API
 * lists only once provisioned (appearsWithinMs) is then judged as the API would show it by then.
 */
export function ageState(dir: string, ms: number, stack = 'default'): void {
  const root = join(dir, '.plumb');
  const folders = readdirSync(root)
    .map((project) => join(root, project, stack))
    .filter((folder) => existsSync(join(folder, 'state.json')) || existsSync(join(folder, 'journal.jsonl')));
  if (folders.length !== 1) throw new Error(`expected the state of one manifest's stack "${stack}" in ${root}, found ${folders.length}`);
  const snapshot = join(folders[0], 'state.json');
  if (existsSync(snapshot)) writeFileSync(snapshot, JSON.stringify(earlier(JSON.parse(readFileSync(snapshot, 'utf8')), ms)));
  const journal = join(folders[0], 'journal.jsonl');
  if (!existsSync(journal)) return;
  const lines = readFileSync(journal, 'utf8').split('\n');
  writeFileSync(journal, lines.map((line) => (line ? JSON.stringify(earlier(JSON.parse(line), ms)) : line)).join('\n'));
}

function earlier(value: unknown, ms: number): unknown {
  if (Array.isArray(value)) return value.map((v) => earlier(v, ms));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, TIMES.has(key) && typeof v === 'string' ? new Date(Date.parse(v) - ms).toISOString() : earlier(v, ms)]));
}
