/**
 * A product whose order went through but which is not ready yet is waited for, never cancelled and
 * bought again: after a kill while it provisions, and after a create whose wait ran out. Only the
 * API's word that it will never be ready (cancelled on its way) has it replaced. Judged by the
 * products the sandbox's API lists, not by plumb's state.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashAfterRecords, plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';
import { stateFile } from '../support/state-file.js';

/** Every product takes this long to provision: long enough to kill an apply while one does. */
const PROVISIONING_MS = 3000;

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
let api: InterconnectApi;
beforeAll(async () => {
  sandbox = await testSandbox(PROVISIONING_MS);
  api = new InterconnectApi(sandbox.url);
});
afterAll(async () => sandbox.close());

interface Recorded {
  resources: Record<string, { id: string; status: string }>;
  pending: Array<{ address: string; id?: string }>;
}

const recorded = (dir: string): Recorded => JSON.parse(readFileSync(stateFile(dir), 'utf8'));

/** The id the journal of a killed apply of project `name` holds for an address's order. */
function journaledId(dir: string, name: string, address: string): string | undefined {
  const journal = join(dir, '.plumb', name, 'default', 'journal.jsonl');
  const entries = readFileSync(journal, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { kind: string; address?: string; id?: string });
  return entries.find((e) => e.kind === 'id' && e.address === address)?.id;
}

/**
 * The UIDs of the live products of a name, nested ones (VXCs, IXs) included, each once; a LAG is
 * one product, its primary member.
 */
async function liveNamed(name: string): Promise<string[]> {
  const top = await api.call<Array<Record<string, any>>>('GET', '/v2/products');
  const all = [...top, ...top.flatMap((p) => [...(p.associatedVxcs ?? []), ...(p.associatedIxs ?? [])])];
  const live = all.filter((p) => p.productName === name && !['CANCELLED', 'CANCELLED_PARENT', 'DECOMMISSIONING', 'DECOMMISSIONED'].includes(p.provisioningStatus));
  return [...new Set(live.filter((p) => !p.aggregationId || p.lagPrimary).map((p) => p.productUid as string))];
}

const port = (name: string) => `    type: interconnect:Port
    properties: { productName: ${name}, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false }`;

/**
 * One product of each kind, `product` at its address; `before` are the products it needs, made by
 * an apply of their own first, so the apply killed orders only the product.
 */
const CASES: Array<{ kind: string; before?: (p: string) => string; product: (p: string) => string }> = [
  { kind: 'port', product: (p) => port(`${p}`) },
  {
    kind: 'LAG',
    product: (p) => `    type: interconnect:LagPort
    properties: { productName: ${p}, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false, lagCount: 2 }`,
  },
  {
    kind: 'MCR',
    product: (p) => `    type: interconnect:Mcr
    properties: { productName: ${p}, portSpeed: 1000, locationId: 2, contractTermMonths: 12 }`,
  },
  {
    kind: 'MVE',
    product: (p) => `    type: interconnect:Mve
    properties:
      productName: ${p}
      locationId: 2
      contractTermMonths: 12
      vendorConfig: { vendor: Cisco, imageId: 83, adminSshPublicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIexample admin@example", manageLocally: true }
      vnics: [{ description: Data Plane }]`,
  },
  {
    kind: 'VXC',
    before: (p) => `  a:\n${port(`${p}-a`)}\n  b:\n${port(`${p}-b`).replace('locationId: 2', 'locationId: 3')}\n`,
    product: (p) => `    type: interconnect:Vxc
    properties:
      productName: ${p}
      rateLimit: 100
      contractTermMonths: 12
      aEnd: { requestedProductUid: "\${a.productUid}", vlan: 100 }
      bEnd: { requestedProductUid: "\${b.productUid}", vlan: 200 }`,
  },
  {
    kind: 'IX',
    before: (p) => `  a:\n${port(`${p}-a`)}\n`,
    product: (p) => `    type: interconnect:Ix
    properties: { productName: ${p}, requestedProductUid: "\${a.productUid}", networkServiceType: Sydney IX, asn: 64496, macAddress: "00:11:22:33:44:55", rateLimit: 500, vlan: 2002 }`,
  },
];

describe('a product still provisioning when the apply that ordered it was killed', () => {
  for (const c of CASES) {
    it.concurrent(`${c.kind}: the next apply waits for it and buys nothing more`, async () => {
      const dir = workdir();
      const name = `still-${c.kind.toLowerCase()}`;
      const head = `name: ${name}\nresources:\n${c.before?.(name) ?? ''}`;
      if (c.before) {
        writeManifest(dir, 'plumb.yaml', head);
        expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
      }
      writeManifest(dir, 'plumb.yaml', `${head}  product:\n${c.product(name)}\n`);
      // Its intent, then the id the order was given: killed while it provisions.
      const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(2) } });
      expect(killed.code).not.toBe(0);
      const ordered = journaledId(dir, name, 'product');
      expect(ordered).toBeDefined();
      expect(await liveNamed(name)).toEqual([ordered]);

      const again = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`product: an interrupted create had ordered ${ordered}; it is adopted, still provisioning: apply waits for it`);
      expect(again.stdout).not.toMatch(/will be replaced|must be replaced|tainted/);
      expect(await liveNamed(name)).toEqual([ordered]);
      const state = recorded(dir);
      expect(state.pending).toEqual([]);
      expect(state.resources.product).toMatchObject({ id: ordered, status: 'ok' });
      expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    });
  }
});

describe('a create whose wait runs out', () => {
  it('keeps its LAG as still provisioning: each next apply waits for it (within the same 1 s) until it is ready, and one LAG is bought', async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `name: slow-lag
resources:
  lag:
    type: interconnect:LagPort
    properties: { productName: slow-lag, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false, lagCount: 2 }
    options:
      customTimeouts: { create: 1s }
`,
    );
    const timedOut = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(timedOut.code).toBe(1);
    expect(timedOut.stdout).toMatch(
      /timed out after 1(?:\.\d)? s waiting for LAG port (\S+) to be ready \(last status: DEPLOYABLE\); \1 is recorded as still provisioning, and the next apply waits for it/,
    );
    const [lag] = await liveNamed('slow-lag');
    expect(recorded(dir).resources.lag).toMatchObject({ id: lag, status: 'provisioning' });

    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('lag is still provisioning: apply waits until it is ready');
    expect(plan.stdout).toContain('Plan: 0 to add, 0 to change, 0 to replace, 0 to destroy, 1 to wait for.');
    // Provisioning takes 3 s: an apply or two more wait their second each, and none orders again.
    let applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    for (let more = 0; applied.code !== 0 && more < 4; more++) {
      expect(applied.stdout).toMatch(/lag: .*timed out after 1(?:\.\d)? s waiting for lag \(\S+\) to be ready/);
      expect(recorded(dir).resources.lag).toMatchObject({ id: lag, status: 'provisioning' });
      applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    }
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(await liveNamed('slow-lag')).toEqual([lag]);
    expect(recorded(dir).resources.lag).toMatchObject({ id: lag, status: 'ok' });
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});

describe('a product the API says will never be ready', () => {
  it('a port cancelled while still provisioning after a kill is adopted as failed and replaced: the cancelled one is ended, one port is live', async () => {
    const dir = workdir();
    const name = 'still-cancelled';
    writeManifest(dir, 'plumb.yaml', `name: ${name}\nconfig:\n  interconnect:waitTime: 0.2\nresources:\n  product:\n${port(name)}\n`);
    const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(2) } });
    expect(killed.code).not.toBe(0);
    const ordered = journaledId(dir, name, 'product')!;
    // Its termination is requested while it is still on its way.
    await sandbox.settings({ refuseEndOfTermCancel: false });
    try {
      await api.call('POST', `/v3/product/${ordered}/action/CANCEL`);
    } finally {
      await sandbox.settings({ refuseEndOfTermCancel: true });
    }

    const again = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`product: an interrupted create had ordered ${ordered}; it is adopted, and the API reports it failed: it will be replaced`);
    const [replacement] = await liveNamed(name);
    expect(replacement).not.toBe(ordered);
    expect(await liveNamed(name)).toEqual([replacement]);
    expect((await api.call<Record<string, any>>('GET', `/v2/product/${ordered}`)).provisioningStatus).toBe('DECOMMISSIONED');
    expect(recorded(dir).resources.product).toMatchObject({ id: replacement, status: 'ok' });
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});
