/**
 * What a plan costs in every format a reviewer reads (markdown for a pull request, the review
 * page) and what the stack costs per month now (drift, the page), against the sandbox's price
 * calls. The current totals are judged against `plumb cost`, which prices the same state.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { pricedManifest, pricedNetwork, pricedPort } from '../support/priced-stack.js';
import { expectGolden } from '../support/golden.js';

type TestSandbox = Awaited<ReturnType<typeof testSandbox>>;

const manifest = (resources: string) => pricedManifest('costformats', resources);

const PORT = (term: number) => pricedPort('port', 'priced-port', 1000, term);
const OLD = pricedPort('old', 'old-port', 10000, 1);
const NETWORK = pricedNetwork(43, true);

/** The page's cost section, from its heading to the next section's. */
const costSectionOf = (html: string) => /<h2>Cost<\/h2>[\s\S]*?(?=<h2>)/.exec(html)?.[0] ?? '';
const money = (currency: string, n: number) => `${currency} ${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe('cost in markdown, on the review page and in drift', () => {
  let sandbox: TestSandbox;
  let dir: string;
  let env: Record<string, string>;

  const faults = (body?: unknown) =>
    fetch(`${sandbox.url}/_sandbox/faults`, { method: body ? 'POST' : 'DELETE', headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  const priceCalls = async () => (await sandbox.calls()).filter((c) => c.path.endsWith('/pricebook/product') || /Price$/.test(String(c.query.Action ?? '')));
  /** What `plumb cost` says the stack costs now, per provider and currency. */
  const bill = async () => JSON.parse((await plumb(['cost', '--json'], { cwd: dir, env })).stdout).totals as Array<{ provider: string; currency: string; monthly: number }>;

  beforeAll(async () => {
    sandbox = await testSandbox();
    env = sandbox.env;
    dir = workdir('plumb-cost-formats-');
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it('a create in markdown: the change per provider, each resource, and the unpriced type named with its reason', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT(12) + OLD + NETWORK));
    const r = await plumb(['plan', '--format', 'markdown'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expectGolden('cost-formats/create.md', r.stdout);
    expect(r.stdout).toContain('#### Cost');
    expect(r.stdout).toMatch(/\| `port` \| create \| — \| AUD [\d,.]+ \| \+AUD [\d,.]+ \|/);
    expect(r.stdout).toMatch(/Not priced: .*`Lb` \(no price action/);
    expect(r.stdout).not.toMatch(/(AUD|CNY) 0\.00 \|/);
    const applied = await plumb(['apply', '-y'], { cwd: dir, env });
    expect(applied.code, applied.stderr).toBe(0);
  });

  it('an update and a delete in markdown: before → after and what stops', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT(24) + NETWORK));
    const r = await plumb(['plan', '--format', 'markdown'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expectGolden('cost-formats/update-delete.md', r.stdout);
    expect(r.stdout).toMatch(/\| `port` \| update \| AUD [\d,.]+ \| AUD [\d,.]+ \| −AUD [\d,.]+ \|/);
    expect(r.stdout).toMatch(/\| `old` \| delete \| AUD [\d,.]+ \| — \| −AUD [\d,.]+ \|/);
  });

  it("the review page shows the plan's cost, each resource's beside its change, and the stack per month now and after the plan", async () => {
    const now = await bill();
    const j = await plumb(['plan', '--json', '--html', 'plan.html'], { cwd: dir, env });
    expect(j.code, j.stderr).toBe(0);
    const { cost } = JSON.parse(j.stdout);
    expect(cost.current.totals).toEqual(expect.arrayContaining(now.map((t) => expect.objectContaining({ provider: t.provider, currency: t.currency, monthly: t.monthly }))));
    expect(cost.current.unpriced).toEqual(expect.arrayContaining(['balancer']));
    const page = readFileSync(join(dir, 'plan.html'), 'utf8');
    const section = costSectionOf(page);
    expectGolden('cost-formats/page-cost.html', section);
    const interconnect = now.find((t) => t.provider === 'interconnect')!;
    const change = cost.totals.find((t: { provider: string }) => t.provider === 'interconnect').change as number;
    expect(section).toContain(money(interconnect.currency, interconnect.monthly));
    expect(section).toContain(`<b>${money(interconnect.currency, Math.round((interconnect.monthly + change) * 100) / 100)}</b>`);
    expect(page).toMatch(/<code>- old<\/code>[^<]*<span class="cost dim"[^>]*>−AUD [\d,.]+\/month<\/span>/);

    // Without --html the plan prices no state: the document has no current total.
    const plain = JSON.parse((await plumb(['plan', '--json'], { cwd: dir, env })).stdout);
    expect(plain.cost.current).toBeUndefined();
  });

  it('drift says what the stack costs per month now, in text and JSON; --no-cost asks no price', async () => {
    const now = await bill();
    const text = await plumb(['drift'], { cwd: dir, env });
    expect(text.code, text.stderr).toBe(0);
    const line = now.map((t) => `${t.provider} ${money(t.currency, t.monthly)}/month`).join(', ');
    // The network, its subnet and the balancer have no price.
    expect(text.stdout).toContain(`Monthly cost as ordered now (from state): ${line} (3 not priced).`);
    const json = JSON.parse((await plumb(['drift', '--json'], { cwd: dir, env })).stdout);
    expect(json.cost).toEqual({ totals: now, unpriced: expect.arrayContaining(['network', 'app', 'balancer']), unavailable: [] });
    expect(json.cost.unpriced).toHaveLength(3);

    await sandbox.clearCalls();
    const quiet = await plumb(['drift', '--json', '--no-cost'], { cwd: dir, env });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(JSON.parse(quiet.stdout).cost).toBeUndefined();
    expect(await priceCalls()).toEqual([]);
  });

  it('a price call that fails: drift and the page still render, saying "price unavailable"', async () => {
    await faults({ provider: 'interconnect', next: [{ match: '/pricebook/product', status: 400 }] });
    try {
      const drift = await plumb(['drift', '--json'], { cwd: dir, env });
      expect(drift.code, drift.stderr).toBe(0);
      expect(JSON.parse(drift.stdout).cost.unavailable).toHaveLength(1);
    } finally {
      await faults();
    }
    await faults({ provider: 'interconnect', next: [{ match: '/pricebook/product', status: 400 }] });
    try {
      const text = await plumb(['drift'], { cwd: dir, env });
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/1 price unavailable\)\.\n\s+Price unavailable: (port|old) \(the price call failed; left out of the total\)/);
    } finally {
      await faults();
    }
    await faults({ provider: 'interconnect', next: [{ match: '/pricebook/product', status: 400 }] });
    try {
      const plan = await plumb(['plan', '--format', 'markdown', '--html', 'failed.html'], { cwd: dir, env });
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toContain('price unavailable');
      expect(costSectionOf(readFileSync(join(dir, 'failed.html'), 'utf8'))).toContain('price unavailable');
    } finally {
      await faults();
    }
  });
});
