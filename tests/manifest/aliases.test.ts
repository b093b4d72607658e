import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, type Scope } from '../../src/engine/evaluation/evaluate.js';
import { parseManifest } from '../../src/manifest/parse.js';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

const catalog = { resources: ['interconnect:index/port:Port'], functions: [] };

/**
 * A "billion laughs" document: nine aliases of nine aliases of... nine values, 9^9 in all from
 * about 600 bytes. The line of `f` is where the copies first pass the bound.
 */
const levels = 'abcdefghi';
const bomb = [
  'name: bomb',
  'variables:',
  '  a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]',
  ...[...levels.slice(1)].map((level, i) => `  ${level}: &${level} [${Array(9).fill(`*${levels[i]}`).join(', ')}]`),
  '',
].join('\n');
const bombLine = 3 + levels.indexOf('f');

describe('aliases', () => {
  let sandbox: Awaited<ReturnType<typeof testSandbox>>;
  beforeAll(async () => {
    sandbox = await testSandbox();
  });
  afterAll(async () => sandbox.close());

  it('an alias bomb is refused at the alias that passes the bound, before any remote call', async () => {
    expect(bomb.length).toBeLessThan(700);
    const dir = workdir();
    writeManifest(dir, 'm.yaml', bomb);
    await sandbox.clearCalls();
    for (const command of ['validate', 'plan']) {
      const result = await plumb([command, 'm.yaml'], { cwd: dir, env: sandbox.env });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`m.yaml:${bombLine}:10: error: alias *e makes this file's aliases copy more than 100000 values`);
      expect(result.stderr).toMatch(/\n1 error; nothing was changed/);
    }
    expect(await sandbox.calls()).toEqual([]);
  });

  it('an alias bomb in an import file is refused at its alias', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', 'name: imports\n');
    writeManifest(dir, 'imports.yaml', bomb.replace('name: bomb\nvariables:\n', '- address: x\n  type: interconnect:Port\n  id: one\n  extra:\n'));
    const result = await plumb(['import', '--file', 'imports.yaml'], { cwd: dir, env: sandbox.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`imports\\.yaml:${bombLine + 2}:10: error: alias \\*e makes this file's aliases copy more than 100000 values`));
  });

  it("an alias copies its anchor: the same values, at the anchor's positions", async () => {
    const yaml = 'name: a\nvariables:\n  tags: &tags\n    team: net\n    cost: 7\n  copy: *tags\n';
    const { manifest, diagnostics } = parseManifest(yaml, 'm.yaml', catalog);
    expect(diagnostics).toEqual([]);
    const scope: Scope = { dir: '.', resolve: async () => undefined, invoke: async () => undefined };
    expect(await evaluate(manifest.variables.copy, scope)).toEqual({ team: 'net', cost: 7 });
    expect(manifest.variables.copy.pos).toEqual({ line: 4, column: 5 });
  });

  it('an alias that names no anchor, or the node it is inside, is an error at the alias', () => {
    const errors = (yaml: string) => parseManifest(yaml, 'm.yaml', catalog).diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}`);
    expect(errors('name: a\nvariables:\n  x: *nowhere\n')).toEqual(['3:6 alias *nowhere names no anchor before it']);
    expect(errors('name: a\nvariables:\n  x: &loop [1, *loop]\n')).toEqual(['3:16 alias *loop is inside the node it names']);
    expect(errors('name: a\nvariables:\n  x: *later\n  y: &later 1\n')).toEqual(['3:6 alias *later names no anchor before it']);
  });
});
