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
