import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { crashAfterRecords, plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { stateFile } from '../support/state-file.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const manifest = (opts: { name?: string; speed?: number; cancelAtEndOfTerm?: boolean } = {}) => `name: edge
config:
  interconnect:cancelAtEndOfTerm: ${opts.cancelAtEndOfTerm ?? false}
variables:
  syd:
    fn::invoke:
      function: interconnect:getLocation
      arguments: { id: 2 }
resources:
  port:
    type: interconnect:Port
    properties:
      productName: ${opts.name ?? 'syd-port-1'}
      portSpeed: ${opts.speed ?? 10000}
      locationId: \${syd.id}
      contractTermMonths: 12
      marketplaceVisibility: false
outputs:
  uid: \${port.productUid}
`;

/** Sets whether the sandbox's interconnect API refuses CANCEL for Ports and LAG Ports (today's API does). */
async function refuseEndOfTermCancel(value: boolean): Promise<void> {
  const res = await fetch(`${sandbox.url}/_sandbox/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refuseEndOfTermCancel: value }) });
  expect(res.status).toBe(200);
}

describe('a port through its whole life', () => {
  for (const cancelAtEndOfTerm of [false, true]) {
    it(`create, no-op, rename in place, replace on speed, destroy with ${cancelAtEndOfTerm ? 'CANCEL, against the API before 2026-05' : 'CANCEL_NOW'}`, async () => {
      const dir = workdir();
      const env = sandbox.env;
      // Delayed cancellation is only accepted by the API as it was before 2026-05.
      await refuseEndOfTermCancel(!cancelAtEndOfTerm);
      onTestFinished(() => refuseEndOfTermCancel(true));
      writeManifest(dir, 'plumb.yaml', manifest({ cancelAtEndOfTerm }));

      const created = await plumb(['apply', '--yes'], { cwd: dir, env });
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      expect(created.stdout).toContain('+ port (interconnect:index/port:Port)');
      expect(created.stdout).toMatch(/# \(\d+ values known after apply\)/);
      expect(created.stdout).toContain('Plan: 1 to add, 0 to change, 0 to replace, 0 to destroy.');
      expect(created.stdout).toMatch(/Apply complete! Resources: 1 added/);
      const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
      const uid = state.resources.port.id as string;
      expect(state.resources.port.outputs.provisioningStatus).toMatch(/CONFIGURED|LIVE/);

      const same = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env });
      expect(same.code).toBe(0);
      expect(same.stdout).toContain('No changes.');

      writeManifest(dir, 'plumb.yaml', manifest({ cancelAtEndOfTerm, name: 'syd-port-renamed' }));
      const renamePlan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env });
      expect(renamePlan.code).toBe(2);
      expect(renamePlan.stdout).toContain('~ productName = "syd-port-1" -> "syd-port-renamed"');
      expect(renamePlan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
      await sandbox.clearCalls();
      const renamed = await plumb(['apply', '--yes'], { cwd: dir, env });
      expect(renamed.code).toBe(0);
      const calls = await sandbox.calls('interconnect');
      const modifies = calls.filter((c) => c.method === 'PUT' && c.path === `/v2/product/megaport/${uid}`);
      expect(modifies, `${renamed.stdout}\n${JSON.stringify(calls)}`).toHaveLength(1);

      writeManifest(dir, 'plumb.yaml', manifest({ cancelAtEndOfTerm, name: 'syd-port-renamed', speed: 100000 }));
      const replacePlan = await plumb(['plan'], { cwd: dir, env });
      expect(replacePlan.stdout).toContain('port must be replaced (create first, then delete): portSpeed: the speed of a physical port is fixed once ordered');
      expect(replacePlan.stdout).toContain('~ portSpeed = 10000 -> 100000  # forces replacement');
      expect(replacePlan.stdout).toContain('Plan: 0 to add, 0 to change, 1 to replace, 0 to destroy.');
      await sandbox.clearCalls();
      const replaced = await plumb(['apply', '--yes'], { cwd: dir, env });
      expect(replaced.code).toBe(0);
      const newUid = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources.port.id as string;
      expect(newUid).not.toBe(uid);
      const mode = cancelAtEndOfTerm ? 'CANCEL' : 'CANCEL_NOW';
      const cancels = (await sandbox.calls('interconnect')).filter((c) => c.path.includes('/action/'));
      expect(cancels.map((c) => c.path)).toEqual([`/v3/product/${uid}/action/${mode}`]);

      await sandbox.clearCalls();
      const destroyed = await plumb(['destroy', '--yes'], { cwd: dir, env });
      expect(destroyed.code).toBe(0);
      expect(destroyed.stdout).toContain('Plan: 0 to add, 0 to change, 0 to replace, 1 to destroy.');
      expect(destroyed.stdout).toContain(cancelAtEndOfTerm ? 'stays live until' : 'cancelling now may incur early termination');
      const destroyCalls = (await sandbox.calls('interconnect')).filter((c) => c.path.includes('/action/'));
      expect(destroyCalls.map((c) => c.path)).toEqual([`/v3/product/${newUid}/action/${mode}`]);
      expect((await plumb(['state', 'list'], { cwd: dir, env })).stdout).toBe('');
    });
  }

  it("with cancelAtEndOfTerm, today's API refuses the cancel: destroy fails saying how to go on, cancels nothing now, keeps the port in state", async () => {
    const dir = workdir();
    const env = sandbox.env;
    writeManifest(dir, 'plumb.yaml', manifest({ cancelAtEndOfTerm: true }));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    const uid = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources.port.id as string;

    await sandbox.clearCalls();
    const refused = await plumb(['destroy', '--yes'], { cwd: dir, env });
    expect(refused.code).toBe(1);
    const said = refused.stdout + refused.stderr;
    expect(said).toContain(`the interconnect API refused to cancel port ${uid} at the end of its term (interconnect:cancelAtEndOfTerm is true)`);
    expect(said).toContain('set interconnect:cancelAtEndOfTerm to false to cancel it now');
    expect(said).toContain('or cancel it in the portal and run this again');
    expect(said).not.toMatch(/\n\s+at /);
    const actions = (await sandbox.calls('interconnect')).filter((c) => c.path.includes('/action/'));
    expect(actions.map((c) => `${c.path} ${c.status}`)).toEqual([`/v3/product/${uid}/action/CANCEL 400`]);
    expect((await plumb(['state', 'list'], { cwd: dir, env })).stdout).toContain(uid);

    writeManifest(dir, 'plumb.yaml', manifest({ cancelAtEndOfTerm: false }));
    await sandbox.clearCalls();
    expect((await plumb(['destroy', '--yes'], { cwd: dir, env })).code).toBe(0);
    const now = (await sandbox.calls('interconnect')).filter((c) => c.path.includes('/action/'));
    expect(now.map((c) => c.path)).toEqual([`/v3/product/${uid}/action/CANCEL_NOW`]);
    expect((await plumb(['state', 'list'], { cwd: dir, env })).stdout).toBe('');
  });

  it('the built-in sandbox takes PLUMB_SANDBOX_END_OF_TERM_CANCEL: accept cancels at the end of the term; a wrong value is named', async () => {
    const dir = workdir();
    const env = { PLUMB_SANDBOX_URL: undefined, PLUMB_SANDBOX_PROVISIONING_MS: '0', PLUMB_SANDBOX_END_OF_TERM_CANCEL: 'accept' };
    writeManifest(dir, 'plumb.yaml', manifest({ cancelAtEndOfTerm: true }));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    const wrong = await plumb(['destroy', '--yes'], { cwd: dir, env: { ...env, PLUMB_SANDBOX_END_OF_TERM_CANCEL: 'later' } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('end-of-term cancellation "later": expected refuse (today\'s API) or accept (the API before 2026-05)');
    expect(wrong.stderr).toContain('PLUMB_SANDBOX_END_OF_TERM_CANCEL');
    const destroyed = await plumb(['destroy', '--yes'], { cwd: dir, env });
    // The built-in sandbox says it serves the command, and nothing else is said there.
    expect(destroyed.stderr).toBe('Note: the built-in sandbox serves interconnect: nothing real is ordered (no credentials are configured).\n');
    expect(destroyed.code).toBe(0);
    expect(destroyed.stdout).toContain('stays live until');
  });

  it('a port whose manifest no longer names the provider at all is still cancelled, with its default settings', async () => {
    const dir = workdir();
    const env = sandbox.env;
    writeManifest(dir, 'plumb.yaml', manifest({ cancelAtEndOfTerm: true }));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    const uid = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources.port.id as string;

    // No interconnect resource, lookup or setting is left: cancelAtEndOfTerm falls back to false.
    writeManifest(dir, 'plumb.yaml', 'name: edge\nresources: {}\n');
    await sandbox.clearCalls();
    const removed = await plumb(['apply', '--yes'], { cwd: dir, env });
    expect(removed.stderr).toBe('');
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('Plan: 0 to add, 0 to change, 0 to replace, 1 to destroy.');
    const cancels = (await sandbox.calls('interconnect')).filter((c) => c.path.includes('/action/'));
    expect(cancels.map((c) => c.path)).toEqual([`/v3/product/${uid}/action/CANCEL_NOW`]);
    expect((await plumb(['state', 'list'], { cwd: dir, env })).stdout).toBe('');
  });

  it('a name outside ASCII is read, ordered and recorded exactly, and plans no change afterwards', async () => {
    const dir = workdir();
    const name = 'Zürich – 東京 🔌';
    writeManifest(dir, 'plumb.yaml', manifest({ name: `"${name}"` }));
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(new RegExp(`productName += "${name}"`));
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    expect(state.resources.port.outputs.productName).toBe(name);
    const again = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });

  it('a saved plan is refused once the state has moved', async () => {
    const dir = workdir();
    const env = sandbox.env;
    writeManifest(dir, 'plumb.yaml', manifest());
    expect((await plumb(['plan', '--out', 'first.json'], { cwd: dir, env })).code).toBe(0);
    expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    const stale = await plumb(['apply', 'first.json'], { cwd: dir, env });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/Saved plan is stale: it was made against state serial 0, and the state is now at serial 2/);
    writeManifest(dir, 'plumb.yaml', manifest({ name: 'fresh-name' }));
    expect((await plumb(['plan', '--out', 'second.json'], { cwd: dir, env })).code).toBe(0);
    const fresh = await plumb(['apply', 'second.json'], { cwd: dir, env });
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toMatch(/Apply complete! Resources: 0 added, 1 changed/);
  });

  it('a second concurrent apply is refused at once, naming the lock holder', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest());
    // Provisioning takes a while, so the first apply holds the lock while it waits.
    await fetch(`${sandbox.url}/_sandbox/settings`, { method: 'POST', body: JSON.stringify({ provisioningMs: 3000 }), headers: { 'content-type': 'application/json' } });
    try {
      const first = plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
      const lock = join(dir, '.plumb/edge/default/lock');
      for (let i = 0; i < 200 && !existsSync(lock); i++) await new Promise((r) => setTimeout(r, 25));
      const second = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/state for stack "default" is locked by pid \d+ on .+ \(apply\)/);
      expect((await first).code).toBe(0);
    } finally {
      await fetch(`${sandbox.url}/_sandbox/settings`, { method: 'POST', body: JSON.stringify({ provisioningMs: 0 }), headers: { 'content-type': 'application/json' } });
    }
  });

  it('without PLUMB_SANDBOX_URL separate commands share the in-process sandbox world', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest());
    const env = { PLUMB_SANDBOX_URL: undefined, PLUMB_SANDBOX_PROVISIONING_MS: '0' };
    expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    const again = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });
});

describe('a replacement whose new object cannot be made', () => {
  const port = (speed: number, productName = 'unmade-port') => `name: unmade
resources:
  port:
    type: interconnect:Port
    properties: { productName: ${productName}, portSpeed: ${speed}, locationId: 3, contractTermMonths: 1, marketplaceVisibility: false }
`;

  it('leaves the old object current, not set aside for deletion: putting the manifest back plans nothing', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', port(10000));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const id = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources.port.id;

    // A new speed replaces the port; a name over the API's 128 characters, which only the API
    // checks, has the order of the replacement refused.
    writeManifest(dir, 'plumb.yaml', port(100000, 'n'.repeat(129)));
    const failed = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('1 to replace');
    expect(failed.stdout).toMatch(/128 characters/);

    writeManifest(dir, 'plumb.yaml', port(10000));
    const after = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(after.stdout).toContain('No changes.');
    expect(after.code).toBe(0);
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    expect(state.resources.port.id).toBe(id);
    expect(Object.keys(state.resources)).toEqual(['port']);
  });

  it('after a crash between the intent of the new order and the order, the old one is still current', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', port(10000).replace('unmade-port', 'unmade-port-2'));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const id = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources.port.id;
    // The new order's intent, naming the port it replaces: then killed, before the order.
    writeManifest(dir, 'plumb.yaml', port(100000).replace('unmade-port', 'unmade-port-2'));
    const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(1) } });
    expect(killed.code).not.toBe(0);

    writeManifest(dir, 'plumb.yaml', port(10000).replace('unmade-port', 'unmade-port-2'));
    const after = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(after.stdout).toContain(`port: an interrupted replacement made nothing; ${id} is still current`);
    expect(after.stdout).toContain('No changes.');
    expect(after.code).toBe(0);
  });
});

describe('a setting the API chose, written into the manifest later', () => {
  it('is no change at the value the product has (zone, pre-approval); another value is compared with what is there', async () => {
    const dir = workdir();
    const manifest = (extraPort = '', extraKey = '') => `name: chosen
resources:
  port:
    type: interconnect:Port
    properties: { productName: chosen-port, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false${extraPort} }
  key:
    type: interconnect:ServiceKey
    properties: { productUid: "\${port.productUid}", active: true, maxSpeed: 100, singleUse: false${extraKey} }
`;
    writeManifest(dir, 'plumb.yaml', manifest());
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const zone = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources.port.outputs.diversityZone as string;
    expect(['red', 'blue']).toContain(zone);

    writeManifest(dir, 'plumb.yaml', manifest(`, diversityZone: ${zone}`, ', preApproved: false'));
    const same = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(same.stdout).toContain('No changes.');
    expect(same.code).toBe(0);

    const other = zone === 'red' ? 'blue' : 'red';
    writeManifest(dir, 'plumb.yaml', manifest(`, diversityZone: ${other}`));
    const moved = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(moved.stdout).toContain(`~ diversityZone = "${zone}" -> "${other}"  # forces replacement`);
  });
});

describe('a field sent only with an order', () => {
  it('a promoCode added later is planned as recorded only, and applying it sends nothing', async () => {
    const dir = workdir();
    const port = (extra = '') => `name: promo
resources:
  port:
    type: interconnect:Port
    properties: { productName: promo-port, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false${extra} }
`;
    writeManifest(dir, 'plumb.yaml', port());
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    writeManifest(dir, 'plumb.yaml', port(', promoCode: SPRING'));
    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.stdout).toContain('! only recorded: promoCode is never sent by a change (only with the order, or used by plumb itself), so nothing is sent now');
    await sandbox.clearCalls();
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const writes = (await sandbox.calls('interconnect')).filter((c) => c.method !== 'GET' && !c.path.includes('oauth2'));
    expect(writes).toEqual([]);
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});

describe('a delete-first replacement under a resource that stays', () => {
  it('says the delete may be refused while the VXC on it still uses it', async () => {
    const dir = workdir();
    const manifest = (speed: number) => `name: underfoot
resources:
  port:
    type: interconnect:Port
    properties: { productName: underfoot-a, portSpeed: ${speed}, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
    options: { deleteBeforeReplace: true }
  other:
    type: interconnect:Port
    properties: { productName: underfoot-b, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
  vxc:
    type: interconnect:Vxc
    properties:
      productName: underfoot-vxc
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}" }
      bEnd: { requestedProductUid: "\${other.productUid}" }
`;
    writeManifest(dir, 'plumb.yaml', manifest(10000));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    writeManifest(dir, 'plumb.yaml', manifest(1000));
    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.stdout).toContain('! deleted before its replacement exists, while vxc still uses it: the remote API may refuse the delete');
  });
});
