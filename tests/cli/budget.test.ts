/**
 * A budget (`--max-monthly-increase`, or `plumb:maxMonthlyIncrease` per stack) stops plan and
 * apply before any order when the plan raises the monthly cost by more, naming what raises it;
 * a change it cannot price stops it too; a bad value is an error at its place before any call.
 * `apply --json` says the cost before its first change event, and a run asks each question once.
 * Judged against the sandbox's world: what exists there, and the calls it was asked.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';

type TestSandbox = Awaited<ReturnType<typeof testSandbox>>;

const manifest = (resources: string, config = '') => `name: budget
config:
  interconnect:cancelAtEndOfTerm: false
${config}resources:
${resources}`;

const PORT = (name: string, speed = 1000) => `  ${name}:
    type: interconnect:index/port:Port
    properties: { productName: budget-${name}, portSpeed: ${speed}, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false }
`;
const VXC = (rateLimit: number) => `  vxc:
    type: interconnect:index/vxc:Vxc
    properties: { productName: budget-vxc, rateLimit: ${rateLimit}, contractTermMonths: 1, aEnd: { requestedProductUid: "\${a.productUid}", vlan: 100 }, bEnd: { requestedProductUid: "\${b.productUid}" } }
`;

const money = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe('the budget stop', () => {
  let sandbox: TestSandbox;
  let api: InterconnectApi;
  let env: Record<string, string>;
  let dir: string;
  /** The sandbox's own monthly price of a 12-month port at location 2. */
  let portPrice: (speed: number) => Promise<{ monthlyRate: number; currency: string }>;

  const faults = (body?: unknown) =>
    fetch(`${sandbox.url}/_sandbox/faults`, { method: body ? 'POST' : 'DELETE', headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  /** Calls that order or change something: every write but the price question (a POST that orders nothing). */
  const orders = async () => (await sandbox.calls()).filter((c) => c.method !== 'GET' && !/\/pricebook\/product$|\/oauth2\/token$/.test(c.path));

  beforeAll(async () => {
    sandbox = await testSandbox();
    env = sandbox.env;
    api = new InterconnectApi(sandbox.url);
    portPrice = async (speed) => await api.call('POST', '/v4/pricebook/product', { productType: 'MEGAPORT', locationId: 2, speed, term: 12 });
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
  });
  beforeEach(async () => {
    dir = workdir('plumb-budget-');
    await sandbox.clearCalls();
  });

  it('a plan over --max-monthly-increase stops plan and apply before any order, naming what raises it, largest first; --out writes no file', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT('small', 1000) + PORT('big', 10000)));
    const [small, big] = [await portPrice(1000), await portPrice(10000)];
    const plan = await plumb(['plan', '--max-monthly-increase', '10', '--out', 'plan.json'], { cwd: dir, env });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      `raises the monthly cost by ${big.currency} ${money(small.monthlyRate + big.monthlyRate)} a month, over the budget of ${big.currency} 10.00 (--max-monthly-increase)`,
    );
    const named = plan.stderr.indexOf(`big +${big.currency} ${money(big.monthlyRate)}/month`);
    expect(named).toBeGreaterThan(-1);
    expect(plan.stderr.indexOf(`small +${small.currency} ${money(small.monthlyRate)}/month`)).toBeGreaterThan(named);
    expect(plan.stderr).toContain(`--max-monthly-increase ${Math.ceil(small.monthlyRate + big.monthlyRate)}`);
    expect(existsSync(join(dir, 'plan.json'))).toBe(false);

    const json = await plumb(['plan', '--json', '--max-monthly-increase', '10'], { cwd: dir, env });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).budget).toMatchObject({ ok: false, limit: 10, over: [{ currency: big.currency, limit: 10, resources: [{ address: 'big' }, { address: 'small' }] }] });
    expect(json.stderr).toContain('over the budget');

    const apply = await plumb(['apply', '-y', '--max-monthly-increase', '10'], { cwd: dir, env });
    expect(apply.code).toBe(1);
    expect(apply.stdout).not.toMatch(/Apply complete|Creating/);
    expect(apply.stderr).toContain('over the budget');
    expect(await orders()).toEqual([]);
    expect(await api.liveProducts('budget-')).toEqual([]);
  });

  it('a plan within the budget says so and applies; plan --json carries the check', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT('within')));
    const { monthlyRate, currency } = await portPrice(1000);
    const json = await plumb(['plan', '--json', '--max-monthly-increase', '100000'], { cwd: dir, env });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).budget).toMatchObject({ limit: 100000, ok: true, over: [], increase: [{ currency, monthly: monthlyRate, limit: 100000 }] });

    const apply = await plumb(['apply', '-y', '--max-monthly-increase', '100000'], { cwd: dir, env });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain(`Within the budget: +${currency} ${money(monthlyRate)}/month of ${currency} 100,000.00 (--max-monthly-increase)`);
    expect(await api.liveProducts('budget-within')).toHaveLength(1);
  });

  it("each stack's settings file sets its own budget; the flag wins over it", async () => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT('staged')));
    writeFileSync(join(dir, 'plumb.dev.yaml'), 'config:\n  plumb:maxMonthlyIncrease: 5\n');
    const dev = await plumb(['plan', '--stack', 'dev'], { cwd: dir, env });
    expect(dev.code).toBe(1);
    expect(dev.stderr).toMatch(/over the budget of \w+ 5\.00 \(plumb:maxMonthlyIncrease at .*plumb\.dev\.yaml:2:\d+\)/);
    expect(dev.stderr).toContain('staged +');
    expect(dev.stderr).toContain('plumb config set plumb:maxMonthlyIncrease');

    const prod = await plumb(['plan', '--stack', 'prod'], { cwd: dir, env });
    expect(prod.code, prod.stderr).toBe(0);
    expect(prod.stdout).not.toContain('Within the budget');

    const flag = await plumb(['plan', '--stack', 'dev', '--max-monthly-increase', '100000'], { cwd: dir, env });
    expect(flag.code, flag.stderr).toBe(0);
    expect(flag.stdout).toContain('Within the budget');

    const set = await plumb(['config', 'set', 'plumb:maxMonthlyIncrease', '7', '--stack', 'qa'], { cwd: dir, env });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).not.toContain('Warning');
    const qa = await plumb(['plan', '--stack', 'qa'], { cwd: dir, env });
    expect(qa.code).toBe(1);
    expect(qa.stderr).toMatch(/over the budget of \w+ 7\.00 \(plumb:maxMonthlyIncrease at .*plumb\.qa\.yaml:\d+:\d+\)/);
  });

  it("the manifest's config may set the budget; a variable or --config wins over it", async () => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT('declared'), '  plumb:maxMonthlyIncrease: 3\n'));
    const own = await plumb(['plan'], { cwd: dir, env });
    expect(own.code).toBe(1);
    expect(own.stderr).toMatch(/over the budget of \w+ 3\.00 \(plumb:maxMonthlyIncrease at .*plumb\.yaml:4:\d+\)/);
    const variable = await plumb(['plan'], { cwd: dir, env: { ...env, PLUMB_CONFIG_plumb__maxMonthlyIncrease: '100000' } });
    expect(variable.code, variable.stderr).toBe(0);
    expect(variable.stdout).toContain('(plumb:maxMonthlyIncrease from PLUMB_CONFIG_plumb__maxMonthlyIncrease)');
    const flag = await plumb(['plan', '--config', 'plumb:maxMonthlyIncrease=100000'], { cwd: dir, env });
    expect(flag.code, flag.stderr).toBe(0);
    expect(flag.stdout).toContain('Within the budget');
  });

  it("a manifest without a name, plumb.yaml, goes by the project plumb: its plumb: budget still holds, in its config, its stack's file and --config, and its own keys are its own", async () => {
    const unnamed = `config:
  plumb:maxMonthlyIncrease: 3
  speed:
    type: integer
    default: 1000
resources:
  port:
    type: interconnect:index/port:Port
    properties: { productName: budget-unnamed, portSpeed: "\${speed}", locationId: 2, contractTermMonths: 12, marketplaceVisibility: false }
`;
    writeManifest(dir, 'plumb.yaml', unnamed);
    const own = await plumb(['plan'], { cwd: dir, env });
    expect(own.code).toBe(1);
    expect(own.stderr).toMatch(/over the budget of \w+ 3\.00 \(plumb:maxMonthlyIncrease at .*plumb\.yaml:2:\d+\)/);

    writeManifest(dir, 'plumb.yaml', unnamed.replace('  plumb:maxMonthlyIncrease: 3\n', ''));
    const set = await plumb(['config', 'set', 'speed', '10000'], { cwd: dir, env });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toBe('');
    expect((await plumb(['config', 'set', 'plumb:maxMonthlyIncrease', '4'], { cwd: dir, env })).code).toBe(0);
    const stack = await plumb(['plan'], { cwd: dir, env });
    expect(stack.code).toBe(1);
    expect(stack.stderr).toMatch(/over the budget of \w+ 4\.00 \(plumb:maxMonthlyIncrease at .*plumb\.default\.yaml:\d+:\d+\)/);
    expect(stack.stdout).toMatch(/portSpeed += 10000/);
    const flag = await plumb(['plan', '--config', 'plumb:maxMonthlyIncrease=6'], { cwd: dir, env });
    expect(flag.stderr).toMatch(/over the budget of \w+ 6\.00/);
  });

  it('a project named plumb, or as a provider, is refused at its name: its keys and those settings could not be told apart', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT('named')).replace('name: budget', 'name: plumb'));
    const r = await plumb(['validate'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/plumb\.yaml:1:1: error: the project "plumb" is named as the config namespace of plumb's own settings/);
    writeManifest(dir, 'plumb.yaml', manifest(PORT('named')).replace('name: budget', 'name: interconnect'));
    expect((await plumb(['validate'], { cwd: dir, env })).stderr).toMatch(/the project "interconnect" is named as the config namespace of the interconnect provider's settings/);
    expect(await orders()).toEqual([]);
  });

  it('a budget per currency holds only the currencies it names', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT('other')));
    const { currency } = await portPrice(1000);
    const other = currency === 'XTS' ? 'XXX' : 'XTS';
    writeFileSync(join(dir, 'plumb.dev.yaml'), `config:\n  plumb:maxMonthlyIncrease: { ${other}: 1 }\n`);
    const free = await plumb(['plan', '--stack', 'dev'], { cwd: dir, env });
    expect(free.code, free.stderr).toBe(0);
    expect(free.stdout).toContain('Within the budget: no limited currency changes');
    writeFileSync(join(dir, 'plumb.dev.yaml'), `config:\n  plumb:maxMonthlyIncrease: { ${other}: 1, ${currency}: 1 }\n`);
    const held = await plumb(['plan', '--stack', 'dev'], { cwd: dir, env });
    expect(held.code).toBe(1);
    expect(held.stderr).toContain(`over the budget of ${currency} 1.00`);
  });

  it('a change whose price call fails stops a plan held to a budget, naming it', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT('unpriced')));
    await faults({ provider: 'interconnect', next: [{ match: '/pricebook/product', status: 400 }] });
    try {
      const r = await plumb(['apply', '-y', '--max-monthly-increase', '100000'], { cwd: dir, env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('the budget (--max-monthly-increase) cannot be checked: one change has no price');
      expect(r.stderr).toMatch(/unpriced: /);
      expect(await api.liveProducts('budget-unpriced')).toEqual([]);
    } finally {
      await faults();
    }
  });

  it.each([
    [
      'a word in the stack file',
      'config:\n  plumb:maxMonthlyIncrease: lots\n',
      /plumb\.dev\.yaml:2:\d+: error: .*"lots" is not valid: expected an amount of 0 or more \(500\), or a map of currency to amount/,
    ],
    ['a currency in lower case', 'config:\n  plumb:maxMonthlyIncrease: { usd: 5 }\n', /plumb\.dev\.yaml:2:\d+: error: .*"usd" is not a currency code/],
    ['a negative amount', 'config:\n  plumb:maxMonthlyIncrease: -5\n', /plumb\.dev\.yaml:2:\d+: error: .*-5 is not valid: expected an amount of 0 or more/],
    ['a misspelt key', 'config:\n  plumb:maxMonthlyIncrese: 5\n', /plumb\.dev\.yaml:2:\d+: error: config plumb:maxMonthlyIncrese: unknown setting[\s\S]*did you mean plumb:maxMonthlyIncrease\?/],
  ])('a bad budget is an error at its place before any call: %s', async (_why, settings, message) => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT('bad')));
    writeFileSync(join(dir, 'plumb.dev.yaml'), settings);
    const r = await plumb(['plan', '--stack', 'dev'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(await sandbox.calls()).toEqual([]);
  });

  it('a bad budget in the manifest is positioned there; a bad flag is named', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT('bad'), '  plumb:maxMonthlyIncrease: [5]\n'));
    const config = await plumb(['validate'], { cwd: dir, env });
    expect(config.code).toBe(1);
    expect(config.stderr).toMatch(/plumb\.yaml:4:\d+: error: .*expected an amount of 0 or more/);

    writeManifest(dir, 'plumb.yaml', manifest(PORT('bad')));
    const flag = await plumb(['plan', '--max-monthly-increase', 'lots'], { cwd: dir, env });
    expect(flag.code).toBe(1);
    expect(flag.stderr).toMatch(/--max-monthly-increase <amount>' argument 'lots' is invalid\. expected an amount of 0 or more/);
    expect(await sandbox.calls()).toEqual([]);
  });

  it('--no-cost with a budget is an error naming both, before any call', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT('nocost')));
    const flag = await plumb(['plan', '--no-cost', '--max-monthly-increase', '5'], { cwd: dir, env });
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain("--no-cost asks no price, but the budget --max-monthly-increase needs the plan's prices");
    writeFileSync(join(dir, 'plumb.dev.yaml'), 'config:\n  plumb:maxMonthlyIncrease: 5\n');
    const config = await plumb(['apply', '-y', '--no-cost', '--stack', 'dev'], { cwd: dir, env });
    expect(config.code).toBe(1);
    expect(config.stderr).toMatch(/plumb\.dev\.yaml:2:\d+: error: --no-cost asks no price, but the budget plumb:maxMonthlyIncrease needs/);
    expect(await sandbox.calls()).toEqual([]);
  });

  it('apply --json says the cost, and the budget, before its first change event; --no-cost says none', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT('streamed')));
    const r = await plumb(['apply', '-y', '--json', '--max-monthly-increase', '100000'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; [k: string]: unknown });
    const at = (type: string) => events.findIndex((e) => e.type === type);
    const { monthlyRate } = await portPrice(1000);
    expect(events[at('cost')]).toMatchObject({ resources: [expect.objectContaining({ address: 'streamed', action: 'create' })], change: [expect.objectContaining({ monthly: monthlyRate })] });
    expect(events[at('budget')]).toMatchObject({ ok: true, limit: 100000 });
    expect(at('cost')).toBeGreaterThan(-1);
    expect(at('cost')).toBeLessThan(at('budget'));
    expect(at('budget')).toBeLessThan(at('step-start'));

    writeManifest(dir, 'plumb.yaml', manifest(PORT('streamed', 10000)));
    const quiet = await plumb(['apply', '-y', '--json', '--no-cost'], { cwd: dir, env });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).not.toMatch(/"type":"(cost|budget)"/);
  });

  it('a plan asks each question once: the price of a VXC reads no port the refresh has read', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT('a') + PORT('b') + VXC(100)));
    expect((await plumb(['apply', '-y', '--no-cost'], { cwd: dir, env })).code).toBe(0);
    writeManifest(dir, 'plumb.yaml', manifest(PORT('a') + PORT('b') + VXC(200)));
    await sandbox.clearCalls();
    const r = await plumb(['plan', '--json'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).cost.resources).toContainEqual(expect.objectContaining({ address: 'vxc', after: expect.objectContaining({ monthly: expect.any(Number) }) }));
    const reads = (await sandbox.calls('interconnect')).filter((c) => c.method === 'GET').map((c) => `${c.path}?${JSON.stringify(c.query)}`);
    expect(reads.filter((read, i) => reads.indexOf(read) !== i)).toEqual([]);
    // The refresh listed the products: the ports the VXC's price needs are not read again one by one.
    expect(reads.filter((read) => read.startsWith('/v2/product/'))).toEqual([]);
  });
});
