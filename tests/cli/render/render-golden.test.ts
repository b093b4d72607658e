import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'vitest';
import type { DriftReport } from '../../../src/engine/planning/drift.js';
import type { Plan } from '../../../src/engine/types.js';
import { driftJson, driftTable } from '../../../src/cli/render-drift.js';
import { driftMarkdown, planMarkdown } from '../../../src/cli/render-markdown.js';
import { paint, writePlan } from '../../../src/cli/render-plan.js';
import { expectGolden } from '../../support/golden.js';

/**
 * Plans and drift reports recorded from the CLI against the sandbox (tests/cli/golden.test.ts
 * writes them), rendered here in-process in every format, as Pulumi's display tests do.
 */
const GOLDEN = resolve(import.meta.dirname, '../../golden');
const read = <T>(name: string) => JSON.parse(readFileSync(`${GOLDEN}/${name}`, 'utf8')) as T;

const PLANS = ['create', 'update', 'replace', 'failure', 'import', 'delete', 'review-create', 'review-nested-update', 'review-vxc-replace', 'review-import-update', 'review-destroy'];

async function text(plan: Plan, opts: { compact?: boolean; verbose?: boolean; outputs?: boolean } = {}): Promise<string> {
  let out = '';
  await writePlan(plan, paint(false), opts, (t) => (out += t));
  return out;
}

describe('rendering recorded plans', () => {
  for (const name of PLANS) {
    it(`${name}: text, compact and markdown`, async () => {
      const plan = read<Plan>(`${name}.plan.json`);
      expectGolden(`render/${name}.txt`, await text(plan));
      expectGolden(`render/${name}.compact.txt`, await text(plan, { compact: true }));
      expectGolden(`render/${name}.md`, planMarkdown(plan));
    });
  }

  // --verbose lists every value known only after apply, as Terraform does; by default they are counted.
  for (const name of ['create', 'replace']) {
    it(`${name}: text and markdown, verbose`, async () => {
      const plan = read<Plan>(`${name}.plan.json`);
      expectGolden(`render/${name}.verbose.txt`, await text(plan, { verbose: true }));
      expectGolden(`render/${name}.verbose.md`, planMarkdown(plan, true));
    });
  }

  it('a drift report: table, markdown and JSON', () => {
    const report = read<DriftReport>('review-drift.json');
    expectGolden('render/review-drift.table.txt', driftTable(report, paint(false)));
    expectGolden('render/review-drift.md', driftMarkdown(report));
    expectGolden('render/review-drift.json', driftJson([report], false));
  });
});
