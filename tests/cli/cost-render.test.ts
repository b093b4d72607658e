/**
 * The renderers of a plan's cost, given lines the engine fills (an update's own charge or refund,
 * a delete before its term ends): markdown for a pull request and the review page say them as the
 * plan priced them, and say a failed price call as "price unavailable", never as a zero.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { driftHtml, planHtml } from '../../src/cli/html/render-html.js';
import type { PlanCost } from '../../src/cli/plan-cost.js';
import { driftMarkdown, planMarkdown } from '../../src/cli/render-markdown.js';
import { driftTable } from '../../src/cli/render-drift.js';
import { paint } from '../../src/cli/render-plan.js';
import type { SavedPlan } from '../../src/cli/saved-plan.js';
import type { DriftReport } from '../../src/engine/planning/drift.js';

const GOLDEN = resolve(import.meta.dirname, '../golden');
const read = <T>(name: string) => JSON.parse(readFileSync(`${GOLDEN}/${name}`, 'utf8')) as T;

/** The recorded destroy plan (five deletes), its lines given a term left to pay, a refund and a failed call. */
function destroyPlan(): SavedPlan {
  const plan = read<SavedPlan>('review-destroy.plan.json');
  const cost = structuredClone(plan.cost!);
  const line = (address: string) => cost.resources.find((l) => l.address === address)!;
  line('port').earlyTermination = { ends: '2027-05-01', monthsLeft: 7, amount: 1234, currency: 'USD' };
  line('router').earlyTermination = { ends: '2027-01-01', monthsLeft: 1 };
  line('adopted').now = { amount: -25.5, currency: 'AUD', basis: 'the rest of this month' };
  line('toAws').now = { unavailable: 'the upgrade price call failed' };
  line('toRouter').before = { unavailable: 'HTTP 400 from /v4/pricebook/product' };
  return { ...plan, cost };
}

describe('a plan priced in markdown', () => {
  it('a delete before its term ends says when it ends, the months left and about what they cost', () => {
    const md = planMarkdown(destroyPlan());
    expect(md).toMatch(/\| `port` \| delete \| AUD 2,090\.91 \| — \| −AUD 2,090\.91 \| early termination: ends 2027-05-01, 7 months left, about USD 1,234\.00 \|/);
    expect(md).toContain('early termination: ends 2027-01-01, 1 month left, price unavailable |');
  });

  it("an update's own charge or refund is shown, and a failed call for it says so", () => {
    const md = planMarkdown(destroyPlan());
    expect(md).toMatch(/\| `adopted` \|[^\n]*refunded now AUD 25\.50 \(the rest of this month\)[;|]/);
    expect(md).toMatch(/\| `toAws` \|[^\n]*charge now: price unavailable \(the upgrade price call failed\)/);
  });

  it('a failed price call is "price unavailable", left out of the totals, never a zero', () => {
    const md = planMarkdown(destroyPlan());
    expect(md).toMatch(/\| `toRouter` \| delete \| price unavailable \| — \| {2}\| the price call failed \(HTTP 400 from \/v4\/pricebook\/product\); left out of the totals \|/);
    expect(md).not.toMatch(/`toRouter`[^\n]*0\.00/);
  });

  it('a plan with no cost (--no-cost) shows no cost section', () => {
    const { cost: _, ...plan } = destroyPlan();
    expect(planMarkdown(plan)).not.toContain('#### Cost');
  });
});

describe('a plan priced on the review page', () => {
  it("shows the cost section and each resource's cost beside its change, with the term left to pay", () => {
    const html = planHtml(destroyPlan());
    expect(html).toContain('<h2>Cost</h2>');
    expect(html).toContain('early termination: ends 2027-05-01, 7 months left, about USD 1,234.00');
    expect(html).toMatch(/<code>- port<\/code>[^<]*<span class="cost dim" title="early termination: ends 2027-05-01[^"]*">−AUD 2,090\.91\/month<\/span>/);
    expect(html).toMatch(/<code>- toRouter<\/code>[^<]*<span class="cost chg"[^>]*>price unavailable<\/span>/);
  });

  it('with the current total: the stack per month now, the change and after the plan, and what it leaves out', () => {
    const plan = destroyPlan();
    const current: PlanCost['current'] = { totals: [{ provider: 'interconnect', currency: 'AUD', monthly: 5181.81, oneOff: 0 }], unpriced: [], unavailable: ['toRouter'] };
    const html = planHtml({ ...plan, cost: { ...plan.cost!, current } });
    expect(html).toContain('<td>interconnect</td><td class="mono">AUD 5,181.81</td>');
    expect(html).toContain(`<b>AUD ${(5181.81 + plan.cost!.totals[0].change).toFixed(2)}</b>`);
    expect(html).toContain('Left out of the totals: 1 price unavailable: the price of <code>toRouter</code> could not be fetched.');
  });

  it('a plan that changes nothing billed, with the current total, still shows what the stack costs', () => {
    const plan = {
      ...destroyPlan(),
      cost: { resources: [], totals: [], change: [], current: { totals: [{ provider: 'cloud', currency: 'CNY', monthly: 515, oneOff: 0 }], unpriced: ['lb'], unavailable: [] } },
    };
    const html = planHtml(plan);
    expect(html).toContain('<td>cloud</td><td class="mono">CNY 515.00</td><td class="mono">+CNY 0.00</td><td class="mono"><b>CNY 515.00</b></td>');
    expect(html).toContain('The plan changes nothing that is billed.');
  });
});

describe("drift's monthly total", () => {
  const report = {
    ...read<DriftReport>('review-drift.json'),
    cost: { totals: [{ provider: 'interconnect', currency: 'AUD', monthly: 5181.81, oneOff: 0 }], unpriced: ['key'], unavailable: ['toAws'] },
  };

  it('in the table and in markdown, naming what has no price', () => {
    const table = driftTable(report, paint(false));
    expect(table).toContain('Monthly cost as ordered now (from state): interconnect AUD 5,181.81/month (1 not priced, 1 price unavailable).');
    expect(table).toContain('Price unavailable: toAws (the price call failed; left out of the total)');
    expect(driftMarkdown(report)).toContain('Monthly cost as ordered now (from state): interconnect AUD 5,181.81/month (1 not priced, 1 price unavailable).');
  });

  it('on the drift page, under the counts', () => {
    const html = driftHtml(report, {});
    expect(html).toContain(
      'What the stack costs per month as ordered now (from state): interconnect <b>AUD 5,181.81</b>/month (1 not priced, 1 price unavailable): the price of <code>toAws</code> could not be fetched.',
    );
    const { cost: _, ...unpriced } = report;
    expect(driftHtml(unpriced, {})).not.toContain('<h2>Cost</h2>');
  });
});

describe("a provider's totals beyond the month", () => {
  it('add up what updates are charged or refunded now and what ending terms early costs, said beside the monthly change', async () => {
    const { planCostTotals, planCostText } = await import('../../src/cli/plan-cost.js');
    const aud = (monthly: number) => ({ monthly, oneOff: 0, currency: 'AUD' });
    const lines = [
      { address: 'a', type: 't', provider: 'interconnect', action: 'update', before: aud(100), after: aud(200), now: { amount: 40, currency: 'AUD' } },
      { address: 'b', type: 't', provider: 'interconnect', action: 'update', before: aud(300), after: aud(200), now: { amount: -15.5, currency: 'AUD' } },
      { address: 'c', type: 't', provider: 'interconnect', action: 'delete', before: aud(50), earlyTermination: { ends: '2027-05-01', monthsLeft: 6, amount: 300, currency: 'AUD' } },
      { address: 'd', type: 't', provider: 'interconnect', action: 'update', before: aud(10), after: aud(20), now: { unavailable: 'HTTP 500' } },
    ];
    const { totals, change } = planCostTotals(lines);
    expect(totals).toEqual([{ provider: 'interconnect', currency: 'AUD', before: 460, after: 420, change: -40, oneOff: 0, now: 24.5, earlyTermination: 300 }]);
    const text = planCostText({ resources: lines, totals, change }, paint(false));
    expect(text).toContain('interconnect: −AUD 40.00/month, AUD 24.50 charged now, about AUD 300.00 to end terms early');
    const refund = planCostTotals([lines[1]]);
    expect(planCostText({ resources: [lines[1]], ...refund }, paint(false))).toContain('AUD 15.50 refunded now');
  });
});

describe('the text cost block stays short', () => {
  it('names the biggest differences first, and the types with no price once per reason', async () => {
    const { planCostTotals, planCostText } = await import('../../src/cli/plan-cost.js');
    const cny = (monthly: number) => ({ monthly, oneOff: 0, currency: 'CNY' });
    const free = (address: string, type: string) => ({ address, type: `cloud:index/x:${type}`, provider: 'cloud', action: 'create', after: { unpriced: 'not billed on its own' } });
    const lines = [
      { address: 'small', type: 't', provider: 'cloud', action: 'create', after: cny(10) },
      { address: 'big', type: 't', provider: 'cloud', action: 'create', after: cny(600) },
      { address: 'mid', type: 't', provider: 'cloud', action: 'create', after: cny(200) },
      { address: 'least', type: 't', provider: 'cloud', action: 'create', after: cny(1) },
      free('a', 'Vpc'),
      free('b', 'Subnet'),
      free('c', 'SecurityGroup'),
      free('d', 'Label'),
      free('e', 'Vpc'),
    ];
    const cost = { resources: lines, ...planCostTotals(lines) };
    const text = planCostText(cost, paint(false));
    expect(text).toContain('cloud: +CNY 811.00/month (big +600.00, mid +200.00, small +10.00, 1 more)');
    expect(text).toContain('  Not priced: Vpc, Subnet, SecurityGroup, 1 more (not billed on its own)\n');
    expect(text.match(/Not priced/g)).toHaveLength(1);
    expect(planCostText(cost, paint(false), true)).toContain('  Not priced: Vpc, Subnet, SecurityGroup, Label (not billed on its own)\n');
  });
});
