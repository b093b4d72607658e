/**
 * A delete or a replace that ends an interconnect product's term early warns, in the plan's cost
 * block and in `plan --json`, with the months left and what they cost at the product's monthly
 * price (early termination is the rest of the term); one cancelled at the end of its term says it
 * stays live and billed until then instead; a month-to-month product warns of nothing. Dates and
 * amounts are judged against the sandbox's own product and its answer to the price call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';

type TestSandbox = Awaited<ReturnType<typeof testSandbox>>;

const manifest = (speed: number, atEnd = false) => `name: termcut
config:
  interconnect:cancelAtEndOfTerm: ${atEnd}
resources:
  port:
    type: interconnect:index/port:Port
    properties: { productName: term-port, portSpeed: ${speed}, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false }
  monthly:
    type: interconnect:index/port:Port
    properties: { productName: monthly-port, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
`;

const money = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
type Line = { address: string; action: string; earlyTermination?: Record<string, unknown>; staysLiveUntil?: string };

describe('a delete or replace that ends a term early says what the rest of the term costs', () => {
  let sandbox: TestSandbox;
  let dir: string;
  let env: Record<string, string>;
  let api: InterconnectApi;
  /** The 12-month port's contract end (YYYY-MM-DD) as the API reports it, and its monthly price. */
  let ends: string;
  let price: { monthlyRate: number; currency: string };

  const costOf = async (args: string[]) => {
    const j = await plumb([...args, '--json'], { cwd: dir, env });
    expect(j.code, j.stderr).toBe(0);
    const lines = JSON.parse(j.stdout).cost.resources as Line[];
    return (address: string) => lines.find((l) => l.address === address);
  };

  beforeAll(async () => {
    sandbox = await testSandbox();
    env = sandbox.env;
    dir = workdir('plumb-early-termination-');
    api = new InterconnectApi(sandbox.url);
    writeManifest(dir, 'plumb.yaml', manifest(1000));
    const applied = await plumb(['apply', '-y'], { cwd: dir, env });
    expect(applied.code, applied.stderr).toBe(0);
    const [product] = await api.liveProducts('term-port');
    ends = new Date(product.contractEndDate).toISOString().slice(0, 10);
    price = await api.call('POST', '/v4/pricebook/product', { productType: 'MEGAPORT', locationId: 2, speed: 1000, term: 12 });
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it('plan --destroy warns for the 12-month port with its months left and their cost, and not for the month-to-month one', async () => {
    const r = await plumb(['plan', '--destroy'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Early termination: port ends its term ${ends}: 12 months left, about ${price.currency} ${money(12 * price.monthlyRate)}`);
    expect(r.stdout).not.toMatch(/Early termination: monthly/);

    const by = await costOf(['plan', '--destroy']);
    expect(by('port')).toMatchObject({
      action: 'delete',
      earlyTermination: { ends: expect.stringMatching(new RegExp(`^${ends}`)), monthsLeft: 12, amount: Math.round(12 * price.monthlyRate * 100) / 100, currency: price.currency },
    });
    expect(by('monthly')).toMatchObject({ action: 'delete' });
    expect(by('monthly')!.earlyTermination).toBeUndefined();
  });

  it('a replace deletes the old port, so it warns just as a delete does', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(10000));
    const r = await plumb(['plan'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Early termination: port ends its term ${ends}: 12 months left, about ${price.currency} ${money(12 * price.monthlyRate)}`);
    const by = await costOf(['plan']);
    expect(by('port')).toMatchObject({ action: 'replace', earlyTermination: { monthsLeft: 12, currency: price.currency } });
  });

  it('with cancelAtEndOfTerm the port stays live and billed until its term ends: no early termination is charged', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(1000, true));
    const r = await plumb(['plan', '--destroy'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Cancelled at the end of its term: port stays live, and billed, until ${ends}`);
    expect(r.stdout).not.toContain('Early termination');
    const by = await costOf(['plan', '--destroy']);
    expect(by('port')!.staysLiveUntil).toMatch(new RegExp(`^${ends}`));
    expect(by('port')!.earlyTermination).toBeUndefined();
  });

  it('plumb destroy shows the warning before it cancels the port', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(1000));
    const r = await plumb(['destroy', '-y'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const warning = r.stdout.indexOf(`Early termination: port ends its term ${ends}: 12 months left`);
    expect(warning).toBeGreaterThan(-1);
    expect(await api.liveProducts('term-port')).toHaveLength(0);
  });
});
