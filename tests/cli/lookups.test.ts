import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

describe('plumb lookup', () => {
  it('a mistaken --arg names what is valid and the closest argument', async () => {
    const dir = workdir();
    const result = await plumb(['lookup', 'interconnect:getLocation', '--arg', 'idd=2'], { cwd: dir, env: sandbox.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown argument "idd" (valid arguments: id, name, siteCode; did you mean "id"?)');
    const notNumber = await plumb(['lookup', 'interconnect:getLocation', '--arg', 'id=two'], { cwd: dir, env: sandbox.env });
    expect(notNumber.stderr).toContain('--arg id must be a number, not a string ("two")');
    for (const r of [result, notNumber]) expect(r.stderr).not.toMatch(/NaN|Invalid input|Unrecognized/);
  });

  it('a location not found by name suggests the closest names', async () => {
    const result = await plumb(['lookup', 'interconnect:getLocation', '--arg', 'name=Equinix SY9'], { cwd: workdir(), env: sandbox.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('getLocation: no location with name "Equinix SY9"; did you mean "Equinix SY1", or "Equinix SY3", or "Equinix SY4"?');
  });

  it('the locations are listed and filtered by metro, market, site code and status', async () => {
    const dir = workdir();
    const list = async (...args: string[]) => {
      const result = await plumb(['lookup', 'interconnect:getLocations', ...args.flatMap((a) => ['--arg', a]), '--json'], { cwd: dir, env: sandbox.env });
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout).locations as Array<{ id: number; name: string }>).map((l) => l.name);
    };
    expect(await list('metro=sydney', 'status=Active')).toEqual(['Equinix SY1', 'Equinix SY3', 'Global Switch Sydney', 'NEXTDC S1']);
    expect(await list('market=SG')).toEqual(['Equinix SG1', 'Global Switch Singapore Tai Seng', 'Digital Realty SIN10']);
    expect(await list('siteCode=sy3')).toEqual(['Equinix SY3']);
    expect((await list()).length).toBeGreaterThan(20);
    const misspelt = await plumb(['lookup', 'interconnect:getLocations', '--arg', 'metro=Sidney'], { cwd: dir, env: sandbox.env });
    expect(misspelt.stdout).toContain('locations: []');
    expect(misspelt.stderr).toContain('Warning: getLocations: no location has metro "Sidney"; did you mean "Sydney"?');
  });

  it("-f MANIFEST uses that manifest's provider settings and the sandbox its commands use", async () => {
    const dir = workdir();
    mkdirSync(join(dir, 'site'));
    const env = { PLUMB_SANDBOX_URL: undefined, PLUMB_SANDBOX_PROVISIONING_MS: '0' };
    writeManifest(
      join(dir, 'site'),
      'plumb.yaml',
      'name: site\nresources:\n  router:\n    type: interconnect:Mcr\n    properties: { productName: site-router, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }\n',
    );
    expect((await plumb(['apply', '--yes'], { cwd: join(dir, 'site'), env })).code).toBe(0);
    const names = (stdout: string) => (JSON.parse(stdout).mcrs as Array<{ productName: string }>).map((m) => m.productName);
    const beside = await plumb(['lookup', 'interconnect:getMcrs', '-f', 'site/plumb.yaml', '--json'], { cwd: dir, env });
    expect(beside.code, beside.stderr).toBe(0);
    expect(names(beside.stdout)).toEqual(['site-router']);
    expect(names((await plumb(['lookup', 'interconnect:getMcrs', '--json'], { cwd: dir, env })).stdout)).toEqual([]);

    // An account of the manifest's own, which the API refuses; without the manifest, the sandbox's.
    writeManifest(dir, 'other.yaml', `name: other\nconfig:\n  pipeline:apiKey: not-the-key\n  pipeline:apiSecret: nor-the-secret\n  pipeline:apiUrl: ${sandbox.url}/pipeline/v1\n`);
    const refused = await plumb(['lookup', 'pipeline:getGroups', '-f', 'other.yaml'], { cwd: dir, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/401/);
    expect((await plumb(['lookup', 'pipeline:getGroups'], { cwd: dir, env })).code).toBe(0);
  });
});
