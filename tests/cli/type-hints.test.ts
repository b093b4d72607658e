/**
 * Did-you-mean for types everywhere: every command that takes a type or function token names the
 * closest one when it is misspelt (one helper, kernel/did-you-mean.ts), before reading state or
 * calling anything.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plumb, workdir, writeManifest } from '../support/cli.js';

/** A folder with a manifest that declares nothing. */
function project(): string {
  const dir = workdir();
  writeManifest(dir, 'plumb.yaml', 'name: hints\nresources: {}\n');
  return dir;
}

describe('a misspelt type or function names the one meant', () => {
  it('plumb import ADDR TYPE ID', async () => {
    const dir = project();
    const result = await plumb(['import', 'grp', 'pipeline:Grup', 'g-1'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Error: unknown resource type "pipeline:Grup"\n  did you mean pipeline:index/group:Group? (plumb schema lists every resource type)\n');
    expect(result.stdout).toBe('');
    expect(existsSync(join(dir, '.plumb'))).toBe(false);
  });

  it('plumb import --file, at the type in the file', async () => {
    const dir = project();
    writeManifest(dir, 'imports.yaml', '- { address: edge, type: interconnect:Port, id: p-1 }\n- { address: grp, type: pipline:Group, id: g-1 }\n');
    const result = await plumb(['import', '--file', 'imports.yaml'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        'imports.yaml:2:25: error: unknown resource type "pipline:Group"',
        '   2 | - { address: grp, type: pipline:Group, id: g-1 }',
        '     |                         ^~~~~~~~~~~~~',
        '    did you mean pipeline:index/group:Group? (plumb schema lists every resource type)',
        '1 error; nothing was changed.',
        '',
      ].join('\n'),
    );
  });

  it('plumb import --discover TYPE', async () => {
    const result = await plumb(['import', '--discover', 'interconnect:Prot'], { cwd: project() });
    expect(result.stderr).toBe('Error: unknown resource type "interconnect:Prot"\n  did you mean interconnect:index/port:Port? (plumb schema lists every resource type)\n');
  });

  it('plumb schema, a bare name included', async () => {
    const cwd = workdir();
    expect((await plumb(['schema', 'pipeline:Grup'], { cwd })).stderr).toBe(
      'Error: unknown type or function "pipeline:Grup"\n  did you mean pipeline:index/group:Group? (plumb schema lists them all)\n',
    );
    expect((await plumb(['schema', 'Prot'], { cwd })).stderr).toBe('Error: unknown type or function "Prot"\n  did you mean interconnect:index/port:Port? (plumb schema lists them all)\n');
  });

  it('plumb lookup', async () => {
    const result = await plumb(['lookup', 'interconnect:getLocatons'], { cwd: workdir() });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Error: unknown function "interconnect:getLocatons"\n  did you mean interconnect:index/getLocations:getLocations? (plumb schema lists every function)\n');
  });
});
