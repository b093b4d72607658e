import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';
import { stateFile } from '../support/state-file.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
let api: InterconnectApi;
beforeAll(async () => {
  sandbox = await testSandbox();
  api = new InterconnectApi(sandbox.url);
});
afterAll(async () => sandbox.close());

const header = 'name: adopted\n';
const portYaml = (address: string, name: string, extra = '') => `  ${address}:
    type: interconnect:index/port:Port
    properties:
      productName: ${name}
      portSpeed: 10000
      locationId: 2
      contractTermMonths: 12
      marketplaceVisibility: false
${extra}`;

describe('import', () => {
  it('plumb import adopts a port, prints its manifest, and an unchanged manifest then plans nothing', async () => {
    const dir = workdir();
    const uid = await api.orderPort('bought-by-hand');
    writeManifest(dir, 'plumb.yaml', header);
    const imported = await plumb(['import', 'edge', 'interconnect:Port', uid], { cwd: dir, env: sandbox.env });
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('Imported 1 of 1.');
    const fragment = parse(imported.stdout.slice(imported.stdout.indexOf('resources:')));
    expect(fragment.resources.edge).toMatchObject({ type: 'interconnect:index/port:Port', properties: { productName: 'bought-by-hand', portSpeed: 10000, locationId: 2 } });
    writeManifest(dir, 'plumb.yaml', header + stringify(fragment));
    const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    const drift = await plumb(['drift'], { cwd: dir, env: sandbox.env });
    expect(drift.code).toBe(0);
  });

  it('a malformed id is an error naming the format; an unknown one says nothing was found', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', header);
    const bad = await plumb(['import', 'edge', 'interconnect:Port', 'x'], { cwd: dir, env: sandbox.env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/invalid import id "x": expected <product_uid>/);
    const missing = await plumb(['import', 'edge', 'interconnect:Port', '00000000-0000-4000-8000-000000000000'], { cwd: dir, env: sandbox.env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/there is no interconnect:index\/port:Port with id "00000000-0000-4000-8000-000000000000"/);
  });

  it('options.import shows as an import in the plan and apply adopts without ordering', async () => {
    const dir = workdir();
    const uid = await api.orderPort('adopt-me');
    writeManifest(dir, 'plumb.yaml', `${header}resources:\n${portYaml('edge', 'adopt-me', `    options:\n      import: ${uid}\n`)}`);
    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.stdout).toContain('# edge will be imported');
    expect(plan.stdout).toContain('Plan: 1 to import, 0 to add, 0 to change, 0 to replace, 0 to destroy.');
    await sandbox.clearCalls();
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    expect((await sandbox.calls('interconnect')).filter((c) => c.method !== 'GET' && !c.path.includes('oauth2'))).toEqual([]);
    const again = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(again.code).toBe(0);
  });

  it('bulk import of 50 ports in one locked run', async () => {
    const dir = workdir();
    const uids = await Promise.all(Array.from({ length: 50 }, (_, i) => api.orderPort(`bulk-${i}`)));
    writeManifest(dir, 'plumb.yaml', header);
    writeFileSync(join(dir, 'imports.yaml'), stringify(uids.map((id, i) => ({ address: `bulk${i}`, type: 'interconnect:Port', id }))));
    const result = await plumb(['import', '--file', 'imports.yaml'], { cwd: dir, env: sandbox.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Imported 50 of 50.');
    const list = await plumb(['state', 'list'], { cwd: dir, env: sandbox.env });
    expect(list.stdout.trim().split('\n')).toHaveLength(50);

    // The same product under a second address would be managed, and cancelled, twice.
    const again = await plumb(['import', 'twice', 'interconnect:Port', uids[0]], { cwd: dir, env: sandbox.env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${uids[0]} is already in state as bulk0 (plumb state mv bulk0 twice gives it this address)`);
    const moved = await plumb(['state', 'mv', 'bulk0', 'bulk~0'], { cwd: dir, env: sandbox.env });
    expect(moved.code).toBe(1);
    expect(moved.stderr).toContain('"bulk~0" is not an address');
  });
});

describe('discovery', () => {
  it('lists ports not in state as a manifest fragment; applying it imports them and then plans nothing', async () => {
    const own = await testSandbox();
    const ownApi = new InterconnectApi(own.url);
    try {
      const dir = workdir();
      await ownApi.orderPort('found-a');
      await ownApi.orderPort('found-b');
      writeManifest(dir, 'plumb.yaml', header);
      const found = await plumb(['import', '--discover', 'interconnect:Port', '--out', 'found.yaml'], { cwd: dir, env: own.env });
      expect(found.code).toBe(0);
      expect(found.stderr).toContain('2 interconnect:index/port:Port not yet in state');
      const fragment = readFileSync(join(dir, 'found.yaml'), 'utf8');
      expect(Object.keys(parse(fragment).resources).sort()).toEqual(['foundA', 'foundB']);
      writeManifest(dir, 'plumb.yaml', header + fragment);
      const applied = await plumb(['apply', '--yes'], { cwd: dir, env: own.env });
      expect(applied.stdout).toContain('Plan: 2 to import, 0 to add, 0 to change, 0 to replace, 0 to destroy.');
      expect(applied.code).toBe(0);
      expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: own.env })).code).toBe(0);
      const none = await plumb(['import', '--discover', 'interconnect:Port'], { cwd: dir, env: own.env });
      expect(none.stderr).toContain('0 interconnect:index/port:Port not yet in state');
    } finally {
      await own.close();
    }
  });

  it('service keys, whose ids are secrets, are written only to a file only the user can read, named by description', async () => {
    const own = await testSandbox();
    const ownApi = new InterconnectApi(own.url);
    try {
      const dir = workdir();
      const port = await ownApi.orderPort('keyed');
      const { key } = await ownApi.call<{ key: string }>('POST', '/v2/service/key', { productUid: port, active: true, maxSpeed: 100, singleUse: false, description: 'for partner' });
      writeManifest(dir, 'plumb.yaml', header);
      const printed = await plumb(['import', '--discover', 'interconnect:ServiceKey'], { cwd: dir, env: own.env });
      expect(printed.code).toBe(1);
      expect(printed.stderr).toContain('pass --out FILE');
      expect(printed.stdout + printed.stderr).not.toContain(key);
      const written = await plumb(['import', '--discover', 'interconnect:ServiceKey', '--out', 'keys.yaml'], { cwd: dir, env: own.env });
      expect(written.code).toBe(0);
      expect(written.stdout + written.stderr).not.toContain(key);
      expect(statSync(join(dir, 'keys.yaml')).mode & 0o077).toBe(0);
      const fragment = parse(readFileSync(join(dir, 'keys.yaml'), 'utf8'));
      expect(fragment.resources.forPartner.options.import).toBe(key);
    } finally {
      await own.close();
    }
  });
});

describe('drift', () => {
  async function applied(extra = '') {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', `${header}resources:\n${portYaml('a', 'drift-a', extra)}${portYaml('b', 'drift-b')}`);
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    return { dir, a: state.resources.a.id as string, b: state.resources.b.id as string };
  }

  it('a port renamed out of band is drift naming productName with both values; a deleted one is reported deleted', async () => {
    const { dir, a, b } = await applied();
    expect((await plumb(['drift'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    await api.call('PUT', `/v2/product/megaport/${a}`, { name: 'renamed-by-hand', costCentre: '' });
    await api.call('POST', `/v3/product/${b}/action/CANCEL_NOW`);
    await sandbox.clearCalls();
    const drift = await plumb(['drift'], { cwd: dir, env: sandbox.env });
    expect(drift.code).toBe(2);
    expect(drift.stdout).toMatch(/a\s+drifted\n\s+productName: state "drift-a", remote "renamed-by-hand"/);
    expect(drift.stdout).toMatch(/b\s+deleted out of band/);
    // The price question for the stack's monthly total (a POST that orders nothing) is no write.
    expect((await sandbox.calls('interconnect')).filter((c) => c.method !== 'GET' && !c.path.includes('oauth2') && !c.path.endsWith('/pricebook/product'))).toEqual([]);

    const json = JSON.parse((await plumb(['drift', '--json'], { cwd: dir, env: sandbox.env })).stdout);
    expect(Object.keys(json)).toEqual(['stack', 'checkedAt', 'resources', 'summary', 'cost']);
    expect(json.summary).toEqual({ inSync: 0, drifted: 1, deleted: 1, errors: 0 });
    expect(json.resources[0]).toMatchObject({ address: 'a', status: 'drifted', fields: [{ path: 'productName', state: 'drift-a', remote: 'renamed-by-hand' }] });
    const md = await plumb(['drift', '--format', 'markdown'], { cwd: dir, env: sandbox.env });
    expect(md.stdout).toContain('| `a` | drifted | `productName` | "drift-a" | "renamed-by-hand" |');

    const refreshed = await plumb(['refresh', '--yes'], { cwd: dir, env: sandbox.env });
    expect(refreshed.code).toBe(0);
    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.stdout).toContain('~ productName = "renamed-by-hand" -> "drift-a"');
    expect(plan.stdout).toContain('# b will be created');
  });

  it('a setting the API chose (an MCR left to its default ASN) changed out of band is drift too', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', `${header}resources:\n  router:\n    type: interconnect:Mcr\n    properties: { productName: drift-mcr, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }\n`);
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const router = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources.router;
    expect((await plumb(['drift'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    await api.call('PUT', `/v2/product/mcr2/${router.id}`, { asn: 65000, costCentre: '' });
    const drift = await plumb(['drift'], { cwd: dir, env: sandbox.env });
    expect(drift.stdout).toMatch(new RegExp(`router\\s+drifted\\n\\s+asn: state ${router.outputs.asn}, remote 65000`));
    expect(drift.code).toBe(2);
  });

  it('a field in ignoreChanges changed out of band is not drift', async () => {
    const { dir, a } = await applied('    options:\n      ignoreChanges: [productName]\n');
    await api.call('PUT', `/v2/product/megaport/${a}`, { name: 'renamed-by-hand', costCentre: '' });
    const drift = await plumb(['drift'], { cwd: dir, env: sandbox.env });
    expect(drift.stdout).toMatch(/a\s+in sync/);
    expect(drift.code).toBe(0);
  });

  it('drift --all checks every stack at the state location', async () => {
    const { dir, a } = await applied();
    writeManifest(dir, 'plumb.yaml', `${header}resources:\n${portYaml('a', 'drift-other')}`);
    expect((await plumb(['apply', '--yes', '--stack', 'other'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    await api.call('PUT', `/v2/product/megaport/${a}`, { name: 'renamed-again', costCentre: '' });
    const all = await plumb(['drift', '--all', '--json'], { cwd: dir, env: sandbox.env });
    expect(all.code).toBe(2);
    const report = JSON.parse(all.stdout);
    expect(report.stacks.map((s: { stack: string; summary: unknown }) => [s.stack, s.summary])).toEqual([
      ['default', { inSync: 1, drifted: 1, deleted: 0, errors: 0 }],
      ['other', { inSync: 1, drifted: 0, deleted: 0, errors: 0 }],
    ]);
  });
});
