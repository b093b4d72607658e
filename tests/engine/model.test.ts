/**
 * A model-based test of the engine: seeded schedules of manifest edits, each version applied by
 * processes killed at journal points and API calls and faulted at random, against a world whose
 * objects provision on a clock, hold claims and protect what uses them (tests/support/model-*.ts).
 * After each convergence the world equals state; during every run nothing is bought twice, no
 * step is reported without its calls, and no dependent loses its target before it moves.
 *
 * PLUMB_MODEL_SEED=n runs seed n alone (PLUMB_MODEL_SEEDS=N runs N seeds from it); a failing seed
 * prints its schedule and what each process did. PLUMB_MODEL_VERBOSE=1 prints that for a seed run
 * alone, and the totals of what the seeds did; PLUMB_MODEL_CALLS=1 adds every API call to the account.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runSchedule } from '../support/model-driver.js';

const first = Number(process.env.PLUMB_MODEL_SEED ?? 1);
const count = Number(process.env.PLUMB_MODEL_SEEDS ?? (process.env.PLUMB_MODEL_SEED ? 1 : 400));
const verbose = Boolean(process.env.PLUMB_MODEL_VERBOSE);

describe('the engine against the model', () => {
  const totals: Record<string, number> = {};
  afterAll(() => {
    const said = Object.entries(totals).map(([what, n]) => `${n} ${what}`);
    if (verbose) console.log(`${count} seeds: ${said.join(', ')}`);
  });
  for (let seed = first; seed < first + count; seed++) {
    it(`seed ${seed}`, async () => {
      const run = await runSchedule(seed);
      for (const [what, n] of Object.entries(run.counts)) totals[what] = (totals[what] ?? 0) + n;
      if (run.failures.length || (verbose && count === 1)) {
        console.log(`${run.schedule}\n\n${run.account.join('\n')}\n\nrerun: PLUMB_MODEL_SEED=${seed} npx vitest run tests/engine/model.test.ts`);
      }
      expect(run.failures).toEqual([]);
    });
  }
});
