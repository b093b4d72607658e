import type { GlobalOptions } from './session.js';
import { paint, writePlan } from './render-plan.js';
import { planCostText } from './plan-cost.js';
import { useColor } from './run.js';
import { configGivenLine, readPlanFile } from './saved-plan.js';

/**
 * `plumb show PLANFILE` (Terraform's `terraform show plan.out`): a plan saved with
 * `plumb plan --out FILE`, printed as plan printed it, then the config values given for the run
 * that made it, and what its changes cost as priced then. It reads the file alone: no manifest, state, credentials or remote call.
 */
export async function showCommand(file: string, opts: GlobalOptions & { json?: boolean; compact?: boolean; verbose?: boolean }): Promise<number> {
  const plan = readPlanFile(file);
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
    return 0;
  }
  await writePlan(plan, paint(useColor(opts)), { compact: opts.compact, verbose: opts.verbose }, (text) => process.stdout.write(text));
  // The cost as the plan priced it when saved: show asks no price of its own.
  if (plan.cost) process.stdout.write(planCostText(plan.cost, paint(useColor(opts)), opts.verbose));
  const given = configGivenLine(plan);
  if (given) process.stdout.write(`\n${given}`);
  return 0;
}
