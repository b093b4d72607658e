/**
 * An input the API never reports, written into the manifest after plumb made the object without
 * it, through the CLI against the sandbox, one case per provider: a pipeline webhook's signing
 * secret and a VPN connection's close action reach the world (the sandbox's data) through an
 * update; an MVE's vendor field is a replacement in the plan. An object read by `plumb import`
 * still takes the manifest's value as its own, until plumb replaces it with one it makes. Before, each
 * planned "No changes", sent nothing and recorded the value.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { cloudExampleKit } from '../support/cloud-example.js';
import { stateFile } from '../support/state-file.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

const run = (dir: string, ...args: string[]) => plumb(args, { cwd: dir, env: sandbox.env });
const recorded = (dir: string, stack = 'default') => JSON.parse(readFileSync(stateFile(dir, stack), 'utf8')).resources as Record<string, { id: string; imported?: boolean }>;
/** The sandbox's own data of a provider: the world plumb changes. */
const world = <T>(provider: string) => sandbox.world.data<T>(provider, () => ({}) as T);

describe('pipeline: a signing secret added to a webhook made without one', () => {
  const manifest = (secret: string) => `name: unreported-webhook
resources:
  group:
    type: pipeline:index/group:Group
    properties: { name: unreported_webhook }
  hook:
    type: pipeline:index/webhook:Webhook
    properties: { groupId: "\${group.id}", url: "https://hooks.example.com/unreported", events: [sync_end]${secret} }
`;

  it('is an update that gives the webhook the secret; an imported webhook takes the manifest’s, updated or not', async () => {
    const dir = workdir('plumb-unreported-');
    writeManifest(dir, 'plumb.yaml', manifest(''));
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    const id = recorded(dir).hook.id;
    const hook = () => world<{ webhooks: Array<{ id: string; secret: string }> }>('pipeline').webhooks.find((w) => w.id === id)!;
    expect(hook().secret).toBe('');

    writeManifest(dir, 'plumb.yaml', manifest(', secret: Signing-secret-7'));
    const plan = await run(dir, 'plan', '--detailed-exitcode');
    expect(plan.stdout).toMatch(/hook will be updated in place/);
    expect(plan.stdout).not.toContain('Signing-secret-7');
    expect(plan.code).toBe(2);
    await sandbox.clearCalls();
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    expect((await sandbox.calls('pipeline')).filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`)).toEqual([`PATCH /v1/webhooks/${id}`]);
    expect(hook().secret).toBe('Signing-secret-7');
    expect((await run(dir, 'plan', '--detailed-exitcode')).code).toBe(0);

    // The same webhook read by plumb import: the API does not show its secret, so the manifest's stands.
    expect((await run(dir, 'import', 'group', 'pipeline:index/group:Group', recorded(dir).group.id, '--stack', 'adopted')).code).toBe(0);
    expect((await run(dir, 'import', 'hook', 'pipeline:index/webhook:Webhook', id, '--stack', 'adopted')).code).toBe(0);
    expect(recorded(dir, 'adopted').hook.imported).toBe(true);
    const adopted = await run(dir, 'plan', '--stack', 'adopted', '--detailed-exitcode');
    expect(adopted.stdout).toContain('No changes.');
    expect(adopted.code).toBe(0);
    // An update sends what changed: the webhook is still one plumb did not make.
    writeManifest(dir, 'plumb.yaml', manifest(', secret: Signing-secret-7, active: false'));
    expect((await run(dir, 'apply', '--yes', '--stack', 'adopted')).code).toBe(0);
    expect(recorded(dir, 'adopted').hook.imported).toBe(true);
  });
});

describe('cloud: a close action added to a VPN connection made without one', () => {
  const { edit, state } = cloudExampleKit(() => sandbox);

  it('is an update that gives the tunnel the close action', async () => {
    const dir = workdir('plumb-unreported-vpn-');
    copyFileSync(resolve(import.meta.dirname, '../../examples/cloud/vpn.yaml'), join(dir, 'plumb.yaml'));
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    const id = state(dir).resources.officeLink.id;
    const tunnel = () => world<{ vpnTunnels: Array<{ VPNTunnelId: string; _closeAction: string }> }>('cloud').vpnTunnels.find((t) => t.VPNTunnelId === id)!;
    expect(tunnel()._closeAction).toBe('none');

    edit(dir, '      name: office-link\n', '      name: office-link\n      ipsecCloseAction: restart\n');
    const plan = await run(dir, 'plan', '--detailed-exitcode');
    expect(plan.stdout).toMatch(/^ {2}~ officeLink \(cloud:index\/vpnConnection:VpnConnection\)/m);
    expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
    expect(plan.code).toBe(2);
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    expect(tunnel()._closeAction).toBe('restart');
    expect((await run(dir, 'plan', '--detailed-exitcode')).code).toBe(0);
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
  });
});

describe('interconnect: a vendor field added to an MVE ordered without it', () => {
  const manifest = (extra: string) => `name: unreported-mve
resources:
  edge:
    type: interconnect:Mve
    properties:
      productName: unreported-mve
      locationId: 2
      contractTermMonths: 1
      vendorConfig: { vendor: Cisco, imageId: 83, adminSshPublicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIexample admin@example"${extra} }
      vnics: [{ description: Data Plane }]
`;

  it('is a replacement the plan names (the MVE boots with its vendor settings); an imported MVE takes the manifest’s', async () => {
    const dir = workdir('plumb-unreported-mve-');
    writeManifest(dir, 'plumb.yaml', manifest(''));
    const applied = await run(dir, 'apply', '--yes');
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);

    writeManifest(dir, 'plumb.yaml', manifest(', cloudInit: "hostname edge"'));
    const plan = await run(dir, 'plan', '--detailed-exitcode');
    expect(plan.stdout).toMatch(/edge must be replaced/);
    expect(plan.stdout).toContain('vendorConfig.cloudInit');
    expect(plan.stdout).not.toContain('hostname edge');
    expect(plan.code).toBe(2);

    // The same MVE read by plumb import (its marks name the other stack: --force): the API never
    // returns cloudInit, so the manifest's stands.
    const imported = await run(dir, 'import', 'edge', 'interconnect:index/mve:Mve', recorded(dir).edge.id, '--stack', 'adopted', '--force');
    expect(imported.stderr + imported.stdout).toContain('Imported 1 of 1');
    expect(imported.code).toBe(0);
    const adopted = await run(dir, 'plan', '--stack', 'adopted', '--detailed-exitcode');
    expect(adopted.stdout).toContain('No changes.');
    expect(adopted.code).toBe(0);
    expect(recorded(dir, 'adopted').edge.imported).toBe(true);

    // Replaced by one plumb orders, it is plumb's own: its record holds what was sent.
    const replaced = await run(dir, 'apply', '--yes', '--replace', 'edge', '--stack', 'adopted');
    expect(replaced.stdout).toMatch(/Apply complete!.*1 replaced/);
    expect(replaced.code).toBe(0);
    expect(recorded(dir, 'adopted').edge.imported).toBeUndefined();
  });
});
