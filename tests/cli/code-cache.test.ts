import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLUMB, plumb, workdir, writeManifest } from '../support/cli.js';

const BUNDLE = join(dirname(PLUMB), '../dist/bundle/plumb.cjs');

const manifest = `name: cache
resources:
  port:
    type: interconnect:Port
    properties:
      productName: p
      portSpeed: 10000
      locationId: 2
      contractTermMonths: 1
      marketplaceVisibility: false
`;

/** A copy of the CLI (entry point, bundle and code cache) in its own folder. */
function copyOfCli(): { dir: string; bin: string; bundle: string; cache: string } {
  const dir = workdir();
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'dist/bundle'), { recursive: true });
  const bin = join(dir, 'bin/plumb.cjs');
  const bundle = join(dir, 'dist/bundle/plumb.cjs');
  copyFileSync(PLUMB, bin);
  copyFileSync(BUNDLE, bundle);
  copyFileSync(`${BUNDLE}.cache`, `${bundle}.cache`);
  writeManifest(dir, 'plumb.yaml', manifest);
  return { dir, bin, bundle, cache: `${bundle}.cache` };
}

/** The 16-byte stamp a cache starts with: the size and modification time of its bundle. */
function stampOf(file: string): Buffer {
  const { size, mtimeMs } = statSync(file);
  const stamp = Buffer.alloc(16);
  stamp.writeDoubleLE(size, 0);
  stamp.writeDoubleLE(mtimeMs, 8);
  return stamp;
}

describe('the code cache the build makes', () => {
  it('belongs to the bundle it was made from', () => {
    expect(readFileSync(`${BUNDLE}.cache`).subarray(0, 16)).toEqual(stampOf(BUNDLE));
  });

  it('is not used for a bundle changed since, even one of the same size', async () => {
    const cli = copyOfCli();
    expect((await plumb(['validate'], { cwd: cli.dir, bin: cli.bin })).stdout).toContain('plumb.yaml: valid (1 resources');
    // The same number of bytes, other code: V8 alone would take the old cache for it.
    const text = readFileSync(cli.bundle, 'utf8');
    expect(text).toContain(': valid (');
    writeFileSync(cli.bundle, text.replace(': valid (', ': VALID ('));
    const result = await plumb(['validate'], { cwd: cli.dir, bin: cli.bin });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('plumb.yaml: VALID (1 resources');
  });

  it('when damaged or missing, the CLI compiles its bundle as usual', async () => {
    const cli = copyOfCli();
    const damaged = readFileSync(cli.cache);
    damaged.fill(7, 16);
    writeFileSync(cli.cache, Buffer.concat([stampOf(cli.bundle), damaged.subarray(16)]));
    const withDamaged = await plumb(['validate'], { cwd: cli.dir, bin: cli.bin });
    expect(withDamaged.stderr).toBe('');
    expect(withDamaged.stdout).toContain('plumb.yaml: valid (1 resources');
    rmSync(cli.cache);
    expect((await plumb(['validate'], { cwd: cli.dir, bin: cli.bin })).stdout).toContain('plumb.yaml: valid (1 resources');
  });
});
