import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { referencePages } from '../../src/cli/docs.js';
import { loadFunctions, loadResourceTypes } from '../../src/cli/catalog.js';
import { plumb } from '../support/cli.js';

const root = resolve(import.meta.dirname, '../..');
const resourceTypes = await loadResourceTypes();
const functions = await loadFunctions();

describe('reference docs', () => {
  it('the committed docs match the schemas (run `npm run docs` after changing a schema)', () => {
    const stale = [...referencePages(resourceTypes, functions)].filter(([file, text]) => !existsSync(join(root, file)) || readFileSync(join(root, file), 'utf8') !== text).map(([f]) => f);
    expect(stale).toEqual([]);
  });

  it('every PLUMB_* variable the code reads is in the README table of environment variables', () => {
    const sources = (readdirSync(join(root, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    const read = new Set(sources.flatMap((f) => readFileSync(join(root, 'src', f), 'utf8').match(/\bPLUMB_[A-Z_]+[A-Z]\b/g) ?? []));
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('### Environment variables'));
    expect([...read].filter((v) => !table.includes(`| \`${v}\` |`)).sort()).toEqual([]);
    expect(read.has('PLUMB_STACK')).toBe(true);
  });

  it('plumb schema lists every resource type and function token', async () => {
    const { stdout, code } = await plumb(['schema', '--json'], { cwd: root });
    expect(code).toBe(0);
    const tokens = (JSON.parse(stdout) as Array<{ token: string }>).map((r) => r.token).sort();
    expect(tokens).toEqual([...resourceTypes.keys(), ...functions.keys()].sort());
  });

  it('plumb schema TOKEN says what the type costs, or why it has no price', async () => {
    const port = await plumb(['schema', 'interconnect:Port'], { cwd: root });
    expect(port.stdout).toMatch(/\nCost: Priced by .*POST \/v4\/pricebook\/product.*, in the API's currency \(never converted\)\./);
    const connection = await plumb(['schema', 'pipeline:Connection', '--json'], { cwd: root });
    expect(JSON.parse(connection.stdout).cost).toEqual({ unpriced: 'usage-priced: monthly active rows' });
    const lb = await plumb(['schema', 'cloud:Lb'], { cwd: root });
    expect(lb.stdout).toContain('\nCost: Not priced: no price action: the API has none for classic load balancers.\n');
  });

  it('plumb schema TOKEN says which fields replace and which change in place', async () => {
    const { stdout } = await plumb(['schema', 'interconnect:Port'], { cwd: root });
    expect(stdout).toContain('portSpeed (required): number [replace] one of 1000, 10000, 100000, 400000');
    expect(stdout).toContain('productName (required): string [in place]');
    expect(stdout).toContain('promoCode: string [recorded only (sent with the order)]');
  });

  it('a field whose change replaces for some values only says so, not "in place"', async () => {
    const vxc = await plumb(['schema', 'interconnect:Vxc'], { cwd: root });
    expect(vxc.stdout).toMatch(/bEndPartnerConfig: .* \[replace or in place, by value \(see description\)\]/);
    expect(vxc.stdout).toContain('productName (required): string [in place]');
    const instance = await plumb(['schema', 'cloud:AntiDdosInstance'], { cwd: root });
    expect(instance.stdout).toContain('chargeType: string [replace or in place, by value (see description)]');
  });
});

/** How a priced type that names no call of its own is said to be priced, by provider. */
const PROVIDER_PRICING: Record<string, string> = { interconnect: 'the pricebook (`POST /v4/pricebook/product`)', cloud: "the cloud API's price Action" };

describe('what each type costs, in the reference docs', () => {
  const pages = referencePages(resourceTypes, functions);
  const index = pages.get(join('docs', 'reference', 'README.md')) ?? '';

  it.each([...resourceTypes.keys()])('%s: its page and the index of types name the call that prices it, or why it has none', (token) => {
    const type = resourceTypes.get(token)!;
    const page = pages.get(join('docs', 'reference', type.provider, `${token.split(':').pop()!.split('/').pop()}.md`))!;
    const cost = page.slice(page.indexOf('## Cost\n'), page.indexOf('## Inputs'));
    const row = index.split('\n').find((line) => line.includes(`| \`${token}\` |`));
    expect(row, `${token} has no row in docs/reference/README.md`).toBeDefined();
    if (!type.cost || 'unpriced' in type.cost) {
      const reason = type.cost?.unpriced.replace(/^not priced: /i, '');
      expect(cost).toContain(`## Cost\n\nNot priced: ${reason}`);
      expect(row).toContain(`Not priced: ${reason}`);
      return;
    }
    const by = type.cost.source ? `\`${type.cost.source}\`` : PROVIDER_PRICING[type.provider];
    expect(by, `${token} is priced but names no price call (cost.source)`).toBeDefined();
    expect(cost).toContain(`## Cost\n\nPriced by ${by}, in the API's currency (never converted).`);
    expect(row).toContain(`Priced by ${by}`);
    expect(cost.includes('charges or refunds at once'), 'an update priced by the API itself is said so').toBe(type.cost.change !== undefined);
    expect(cost.includes('may cost the rest of the term'), 'a delete in term that costs the rest of it is said so').toBe(type.cost.termEnds !== undefined);
  });

  it('the cost guide is linked from the index of docs and the README', () => {
    for (const file of ['README.md', 'docs/index.md']) expect(readFileSync(join(root, file), 'utf8'), file).toMatch(/\]\((docs\/)?cost\.md\)/);
    const guide = readFileSync(join(root, 'docs/cost.md'), 'utf8');
    for (const section of ['## What is priced', '## In a plan', '## plumb cost']) expect(guide).toContain(section);
    expect(index).toContain('](../cost.md)');
  });
});
