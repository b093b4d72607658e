/** Helpers for lookup tests: invoke through the argument schema and check the result schema. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { LookupFunction } from '../../src/engine/contracts/lookup.js';
import { countActions, type Harness } from './cloud-harness.js';

/** Parses the arguments, invokes, and checks the result against the declared result schema. */
export async function run<R = any>(h: Harness, fn: LookupFunction, raw: Record<string, unknown> = {}): Promise<R> {
  const args = fn.args.parse(raw);
  const result = await fn.invoke(h.lookupCtx(), args);
  const checked = fn.result.safeParse(result);
  expect(checked.success, checked.success ? '' : JSON.stringify(checked.error.issues.slice(0, 3))).toBe(true);
  return result as R;
}

/** Runs a lookup with a page size of 2 and returns its result and how many calls of `action` it made. */
export async function runPaged<R = any>(h: Harness, fn: LookupFunction, raw: Record<string, unknown>, action: string): Promise<{ result: R; calls: number }> {
  const saved = h.client.pageSize;
  h.client.pageSize = 2;
  await h.clearCalls();
  try {
    const result = await run<R>(h, fn, raw);
    return { result, calls: countActions(await h.actions(), action) };
  } finally {
    h.client.pageSize = saved;
  }
}

/** Runs a lookup with outputFile set and returns the result and the parsed file. */
export async function runToFile<R = any>(h: Harness, fn: LookupFunction, raw: Record<string, unknown>, name: string): Promise<{ result: R; file: unknown }> {
  const result = await run<R>(h, fn, { ...raw, outputFile: `out/${name}.json` });
  return { result, file: JSON.parse(readFileSync(join(h.workDir, 'out', `${name}.json`), 'utf8')) };
}

/** Names of the items of a list. */
export function names(items: { name: string }[]): string[] {
  return items.map((i) => i.name).sort();
}
