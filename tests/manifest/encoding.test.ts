import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/parse.js';
import { plumb, testSandbox, workdir } from '../support/cli.js';

const catalog = { resources: ['interconnect:index/port:Port'], functions: [] };

describe('bytes that are not YAML text', () => {
  let sandbox: Awaited<ReturnType<typeof testSandbox>>;
  beforeAll(async () => {
    sandbox = await testSandbox();
  });
  afterAll(async () => sandbox.close());

  it('a NUL byte is refused at its line and column, before any remote call', async () => {
    const dir = workdir();
    writeFileSync(join(dir, 'm.yaml'), Buffer.from('name: x\nvariables:\n  a: ok\n  b: x\u0000y\n'));
    await sandbox.clearCalls();
    for (const command of ['validate', 'plan']) {
      const result = await plumb([command, 'm.yaml'], { cwd: dir, env: sandbox.env });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('m.yaml:4:7: error: a NUL character (U+0000) is not allowed in YAML');
    }
    expect(await sandbox.calls()).toEqual([]);
  });

  it('invalid UTF-8 is refused at each line it is on, the column counted in characters', async () => {
    const dir = workdir();
    // Latin-1 é (0xe9) after "café " written in UTF-8, and a lone 0xff on the next line.
    const bytes = Buffer.concat([Buffer.from('name: x\nvariables:\n  a: "café '), Buffer.from([0xe9]), Buffer.from('"\n  b: '), Buffer.from([0xff, 0xfe]), Buffer.from('\n')]);
    writeFileSync(join(dir, 'm.yaml'), bytes);
    await sandbox.clearCalls();
    for (const command of ['validate', 'plan']) {
      const result = await plumb([command, 'm.yaml'], { cwd: dir, env: sandbox.env });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('m.yaml:3:12: error: invalid UTF-8: byte 0xe9 does not belong to a character');
      expect(result.stderr).toContain('m.yaml:4:6: error: invalid UTF-8: byte 0xff does not belong to a character');
      expect(result.stderr).toMatch(/\n2 errors; nothing was changed/);
    }
    expect(await sandbox.calls()).toEqual([]);
  });

  it('an import file that is not UTF-8 is refused at its line and column', async () => {
    const dir = workdir();
    writeFileSync(join(dir, 'plumb.yaml'), 'name: imports\n');
    writeFileSync(join(dir, 'imports.yaml'), Buffer.concat([Buffer.from('- address: a\n  type: interconnect:Port\n  id: '), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]));
    const result = await plumb(['import', '--file', 'imports.yaml'], { cwd: dir, env: sandbox.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('imports.yaml:3:7: error: invalid UTF-8: byte 0xc3 does not belong to a character');
  });

  it('other control characters are refused too; tabs, line breaks and escapes are not', () => {
    const errors = (yaml: string) => parseManifest(yaml, 'm.yaml', catalog).diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}`);
    expect(errors('name: x\nvariables:\n  a: b\u0007c\n')).toEqual(['3:7 the control character U+0007 is not allowed in YAML']);
    expect(errors('name: x\r\nvariables:\r\n  a: "tab\there, nul \\0 escaped"\r\n')).toEqual([]);
  });
});
