import { existsSync, readFileSync } from 'node:fs';
import type { Plan } from '../engine/types.js';
import { UserError } from '../kernel/errors.js';
import type { PlanCost } from './plan-cost.js';

/**
 * A saved plan (`plumb plan --out FILE`, and `plan --json`): the engine's plan, plus what the CLI
 * knows of the run that made it. `plumb apply FILE` applies it, `plumb show FILE` prints it.
 */
export type SavedPlan = Plan & {
  /** The config values given for that run alone, `--config` flags and `PLUMB_CONFIG_*` variables (absent when none). */
  configGiven?: ConfigGiven[];
  /** What the plan's changes cost (see plan-cost.ts); absent with `--no-cost` or when nothing changes. */
  cost?: PlanCost;
};

/** A config value given for one run, as a saved plan keeps it: a secret's value is never written, only that it was given. */
export interface ConfigGiven {
  /** The key as the manifest's config holds it: `portSpeed`, `interconnect:waitTime`. */
  key: string;
  /** `--config portSpeed` or `PLUMB_CONFIG_portSpeed`. */
  from: string;
  /** The value in effect, as typed by the key's declaration; absent for a secret. */
  value?: unknown;
  secret?: true;
}

/** Reads a plan file: a clear error for a missing file, or one that is not a plumb plan. */
export function readPlanFile(file: string): SavedPlan {
  if (!existsSync(file)) throw new UserError(`plan file ${file} not found`, 'make one with plumb plan --out FILE');
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new UserError(`${file} is not a plan file (it is not JSON)`, 'make one with plumb plan --out FILE');
  }
  const plan = parsed as SavedPlan;
  const wellFormed =
    plan?.formatVersion === 1 &&
    typeof plan.manifest?.file === 'string' &&
    typeof plan.stack === 'string' &&
    Array.isArray(plan.changes) &&
    (plan.mode === 'normal' || plan.mode === 'destroy') &&
    typeof plan.state?.serial === 'number' &&
    ['targets', 'excludes', 'replace'].every((k) => Array.isArray((plan.request as Record<string, unknown> | undefined)?.[k])) &&
    (plan.configGiven === undefined || Array.isArray(plan.configGiven));
  if (!wellFormed) throw new UserError(`${file} is not a plumb plan (formatVersion 1)`, 'make one with plumb plan --out FILE');
  return plan;
}

/** A given value as it was typed: text as it is, other values as JSON, a secret as `[secret]`. */
export function givenValue(given: ConfigGiven): string {
  return given.secret ? '[secret]' : typeof given.value === 'string' ? given.value : JSON.stringify(given.value);
}

/** `--config portSpeed=1000`, `PLUMB_CONFIG_token=[secret]`: one given value as on a command line. */
export function givenText(given: ConfigGiven): string {
  return `${given.from}=${givenValue(given)}`;
}

/** The line saying which config values a plan was made with, or '' when it was made with none. */
export function configGivenLine(plan: SavedPlan): string {
  const given = plan.configGiven ?? [];
  return given.length ? `Planned with config given for the run: ${given.map(givenText).join(', ')}.\n` : '';
}

/**
 * The `--config` flags of a run applying a saved plan: those given, then each plain `--config`
 * value the plan was made with that this run does not give (as Terraform applies a saved plan
 * with its variables). A secret's value is not in the file: it must be given again.
 */
export function configFlagsFor(saved: SavedPlan, flags: string[]): string[] {
  const given = new Set(flags.map((flag) => flag.slice(0, flag.indexOf('='))));
  const kept = (saved.configGiven ?? []).filter((g) => !g.secret && g.from.startsWith('--config ') && !given.has(g.from.slice('--config '.length)));
  return [...flags, ...kept.map((g) => `${g.from.slice('--config '.length)}=${givenValue(g)}`)];
}

/**
 * A saved plan is applied with the config values it was made with: planning again without them
 * would give other actions, and a mismatch said as "the plan no longer matches" would hide why.
 * A secret's value is not in the file, so for a secret only that it is given again is checked.
 */
export function assertConfigGivenAgain(saved: SavedPlan, now: ConfigGiven[], file: string): void {
  const key = (given: ConfigGiven[]) => given.map(givenText).sort().join(', ');
  const before = key(saved.configGiven ?? []);
  const after = key(now);
  if (before === after) return;
  throw new UserError(
    `${file} was made with ${before ? `config given for the run: ${before}` : 'no config given for the run'}; this run gives ${after || 'none'}`,
    'give the same PLUMB_CONFIG_* variables and secret --config values to apply it (its plain --config values are applied from the file), or make a new plan',
  );
}
