/**
 * The generated lifecycle suite of a provider's resource types: for each type the registry holds,
 * a baseline cycle, then one test per top-level input field running a cycle for each variation
 * of it and of what it holds (generated-variations.ts, generated-cycle.ts), then a test that every
 * path was varied or why not is known. What is known to go wrong is a reviewed table with a
 * reason for each entry: a variation that fails, a path that cannot be varied, a problem every
 * cycle of a type meets. An entry that no longer happens fails the suite until it goes.
 * PLUMB_GEN_VERBOSE=1 prints what each variation came to; PLUMB_GEN_TYPE=<token> runs one type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadResourceTypes } from '../../src/cli/catalog.js';
import { pathOf, runVariation, type Row } from './generated-cycle.js';
import { TypeWorld } from './generated-type.js';
import { at, fieldVariations, type Gap, type Variation, type VaryContext } from './generated-variations.js';
import { same, shapeOf } from './generated-values.js';
import type { ProviderLifecycleSpecs } from './lifecycle.js';

/** The reviewed table of what the suite of a provider's types is known to find, each entry with its reason. */
export interface KnownProblems {
  /** `<token> <path> <kind>` (`<token> baseline` for the baseline cycle): a cycle known to fail. */
  failures: Record<string, string>;
  /** `<token> <path>`: a path the suite cannot vary. */
  gaps: Record<string, string>;
  /** `<token>` → text a problem contains: one every cycle of the type may meet, left out wherever it comes. */
  everywhere: Record<string, Record<string, string>>;
}

/** How long a replacement as it is (`--replace`), one cycle, may take. */
const REPLACE_MS = 15_000;

/** A long test: each of a field's variations runs a whole cycle. */
const FIELD_TIMEOUT = 600_000;

/** Describes the generated suite of every type of the provider that has a lifecycle spec. */
export async function describeGenerated(owner: ProviderLifecycleSpecs, known: KnownProblems, options: Pick<VaryContext, 'adopt'> = {}): Promise<void> {
  const types = await loadResourceTypes([owner.provider.name]);
  const only = process.env.PLUMB_GEN_TYPE;
  const rows: Row[] = [];
  afterAll(() => {
    if (process.env.PLUMB_GEN_VERBOSE) console.log(rows.map((r) => `${r.token} ${r.path} ${r.kind} [${r.source}]: ${r.planned}, seen in ${r.seen}${r.note ? ` (${r.note})` : ''}`).join('\n'));
  });
  for (const token of types.keys()) {
    const spec = owner.specs.find((s) => s.type.token === token);
    // A type without a spec fails the lifecycle suite (tests/resources/lifecycle.test.ts), naming where its spec goes.
    if (!spec || (only && only !== token)) continue;
    describe(token, () => describeType(new TypeWorld(owner, spec), new Judge(token, known), rows, options));
  }
}

function describeType(t: TypeWorld, judge: Judge, rows: Row[], options: Pick<VaryContext, 'adopt'>): void {
  const gaps: Gap[] = [];
  /** What the type holds unique (its `holds`) that a replacement kept, crossing it in an order the API took, or refused before any call. */
  const crossed = new Set<string>();
  let baseline: Error | undefined;
  beforeAll(() => t.start());
  afterAll(() => t.stop());

  it('baseline: created, no change planned after, no drift, destroyed to nothing', async () => {
    baseline = await t.baseline().then(
      () => undefined,
      (error: Error) => error,
    );
    judge.expect('baseline', baseline);
  });

  for (const field of Object.keys(shapeOf(t.type.inputs) ?? {})) {
    it(
      field,
      async () => {
        // Without what the baseline learns, no variation can be judged; a baseline known to fail stands for them.
        if (baseline && !t.deleteCall && !t.spec.partOf) return judge.known('baseline') ? undefined : expect.fail(`the baseline failed: ${baseline.message}`);
        const made = fieldVariations(field, { ...t.varyContext(), ...options });
        gaps.push(...made.gaps);
        const unexpected: string[] = [];
        const failed = new Set<string>();
        for (const v of made.variations) {
          // A value that could not be added is not one to start from: its failure says why.
          if (v.kind === 'clear' && failed.has(v.path)) continue;
          const error = await runVariation(t, v).then(
            (row) => {
              rows.push(row);
              if (row.planned.startsWith('replace') || row.planned === 'refused') for (const what of kept(t, v)) crossed.add(what);
              return undefined;
            },
            (e: Error) => e,
          );
          if (error) failed.add(v.path);
          const problem = judge.mismatch(`${v.path} ${v.kind}`, error);
          if (problem) unexpected.push(problem);
        }
        expect(unexpected).toEqual([]);
      },
      FIELD_TIMEOUT,
    );
  }

  if (t.type.replace.holds?.length) {
    it('replaced as it is (--replace): what it holds unique is let go before it is taken again, or the plan refuses', async () => {
      if (baseline && !judge.known('baseline')) return expect.fail(`the baseline failed: ${baseline.message}`);
      const v: Variation = { path: '*', kind: 'replace', inputs: t.base, source: 'spec' };
      // An apply that never ends is a failure of its own, said within the test's time.
      const limit = new Promise<Error>((resolve) => setTimeout(() => resolve(new Error(`the replacement did not end within ${REPLACE_MS / 1000} s`)), REPLACE_MS).unref());
      const run = runVariation(t, v).then(
        (row) => {
          rows.push(row);
          for (const what of kept(t, v)) crossed.add(what);
          return undefined;
        },
        (e: Error) => e,
      );
      const error = await Promise.race([run, limit]);
      const problem = judge.mismatch('* replace', error);
      if (problem) expect.fail(problem);
    });
  }

  it('every path is varied, or why not is known; every known problem still happens', () => {
    // A value the type holds unique (a VLAN, an EIP's binding, a range in a VPC, a name) kept by a
    // replacement: the plan must pick an order the API takes, or refuse before any call.
    for (const claim of t.type.replace.holds ?? []) {
      if (!crossed.has(claim.what)) gaps.push({ path: `holds ${claim.what}`, why: 'no replacement kept it (no change that replaces the object leaves it as it was), or none passed' });
    }
    expect(
      gaps.filter((g) => !judge.gap(g.path)).map((g) => `${g.path}: ${g.why}`),
      'gaps not in the known table',
    ).toEqual([]);
    expect(judge.stale(gaps), 'known problems that no longer happen: remove them from the table').toEqual([]);
  });
}

/** Holds one type's outcomes to the table of known problems. */
class Judge {
  private readonly used = new Set<string>();
  /** The cycles whose outcome was held to the table. */
  private readonly judged = new Set<string>();

  constructor(
    private readonly token: string,
    private readonly table: KnownProblems,
  ) {}

  /** The reason a cycle (`<path> <kind>`, or `baseline`) is known to fail, if it is. */
  known(key: string): string | undefined {
    this.judged.add(`${this.token} ${key}`);
    return this.table.failures[`${this.token} ${key}`];
  }

  /** The reason a path is known not to be varied, if it is. */
  gap(path: string): string | undefined {
    return this.table.gaps[`${this.token} ${path}`];
  }

  /** Fails unless the outcome is as the table says. */
  expect(key: string, error: Error | undefined): void {
    const problem = this.mismatch(key, error);
    if (problem) expect.fail(problem);
  }

  /** What is wrong with an outcome against the table: a failure not in it, or one in it that no longer fails. */
  mismatch(key: string, error: Error | undefined): string | undefined {
    const left = error && this.unexplained(error.message);
    const reason = this.known(key);
    if (left && !reason) return `${this.token} ${key}:\n  ${left.join('\n  ')}`;
    if (!left && reason) return `${this.token} ${key} passes now: remove it from the known failures (${reason})`;
    return undefined;
  }

  /** The problems (one to a line) not among those every cycle of the type is known to meet; undefined for none. */
  private unexplained(message: string): string[] | undefined {
    const everywhere = Object.keys(this.table.everywhere[this.token] ?? {});
    const left = message.split('\n').filter((line) => {
      const text = everywhere.find((t) => line.includes(t));
      if (text) this.used.add(text);
      return !text;
    });
    return left.length ? left : undefined;
  }

  /** Entries of the type that did not happen: gaps not found, problems met nowhere, failures of cycles no longer made. */
  stale(gaps: Gap[]): string[] {
    const prefix = `${this.token} `;
    const found = new Set(gaps.map((g) => `${prefix}${g.path}`));
    const gapsGone = Object.keys(this.table.gaps).filter((key) => key.startsWith(prefix) && !found.has(key));
    const unmet = Object.keys(this.table.everywhere[this.token] ?? {}).filter((text) => !this.used.has(text));
    const unmade = Object.keys(this.table.failures).filter((key) => key.startsWith(prefix) && !this.judged.has(key));
    return [...gapsGone, ...unmet.map((text) => `${this.token}: ${text}`), ...unmade.map((key) => `${key} (no such cycle is made now)`)];
  }
}

/**
 * The claims of the type (`holds`) whose values the variation leaves as the base has them, a path
 * left out taking the claim's default for it (a listener's port from its protocol), as the engine does.
 */
function kept(t: TypeWorld, v: Variation): string[] {
  return (t.type.replace.holds ?? [])
    .filter((claim) =>
      claim.paths.every((path) => {
        const value = (inputs: Record<string, unknown>) => at(inputs, pathOf(path.replace(/\[\]$/, ''))) ?? claim.defaults?.[path]?.(inputs);
        return value(t.base) !== undefined && same(value(t.base), value(v.inputs));
      }),
    )
    .map((claim) => claim.what);
}
