import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managedElsewhere } from '../../src/engine/planning/import.js';
import type { EngineDeps } from '../../src/engine/types.js';
import type { Ownership, ResourceContext, ResourceType } from '../../src/engine/contracts/resource-type.js';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
let api: InterconnectApi;
beforeAll(async () => {
  sandbox = await testSandbox();
  api = new InterconnectApi(sandbox.url);
});
afterAll(async () => sandbox.close());

const port = (address: string, name: string, extra = '') => `  ${address}:
    type: interconnect:index/port:Port
    properties: { productName: ${name}, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false }
${extra}`;

/** A port another manifest (project `team-a`, stack `prod`) ordered and manages; returns its UID. */
async function orderedByTeamA(name: string): Promise<string> {
  const dir = workdir('plumb-owner-a-');
  writeManifest(dir, 'plumb.yaml', `name: team-a\nresources:\n${port('edge', name)}`);
  const applied = await plumb(['apply', '--yes', '--stack', 'prod'], { cwd: dir, env: sandbox.env });
  expect(applied.code, applied.stderr).toBe(0);
  return JSON.parse(readFileSync(join(dir, '.plumb', 'team-a', 'prod', 'state.json'), 'utf8')).resources.edge.id;
}

const stateOf = (dir: string) => JSON.parse(readFileSync(join(dir, '.plumb', 'team-b', 'default', 'state.json'), 'utf8'));

describe('ownership tags name the project and the stack', () => {
  it('a product plumb orders carries its project, stack and address', async () => {
    const uid = await orderedByTeamA('tagged-port');
    const tags = await api.call<{ resourceTags: Array<{ key: string; value: string }> }>('GET', `/v2/product/${uid}/tags`);
    expect(Object.fromEntries(tags.resourceTags.map((t) => [t.key, t.value]))).toMatchObject({ 'plumb-project': 'team-a', 'plumb-stack': 'prod', 'plumb-address': 'edge' });
  });

  it('importing a product another project manages warns, naming it, and imports nothing without --force', async () => {
    const uid = await orderedByTeamA('theirs-port');
    const dir = workdir('plumb-owner-b-');
    writeManifest(dir, 'plumb.yaml', 'name: team-b\n');
    const refused = await plumb(['import', 'mine', 'interconnect:Port', uid], { cwd: dir, env: sandbox.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`mine: ${uid} is managed by plumb project "team-a", stack "prod" (address edge)`);
    expect(refused.stderr).toContain('--force');
    expect(refused.stdout).toContain('Imported 0 of 1.');
    expect(stateOf(dir).resources).toEqual({});

    writeFileSync(join(dir, 'imports.yaml'), stringify([{ address: 'mine', type: 'interconnect:Port', id: uid }]));
    const fromFile = await plumb(['import', '--file', 'imports.yaml'], { cwd: dir, env: sandbox.env });
    expect(fromFile.code).toBe(1);
    expect(fromFile.stderr).toContain('is managed by plumb project "team-a", stack "prod"');

    const forced = await plumb(['import', 'mine', 'interconnect:Port', uid, '--force'], { cwd: dir, env: sandbox.env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain(`mine: ${uid} is managed by plumb project "team-a", stack "prod"`);
    expect(stateOf(dir).resources.mine.id).toBe(uid);
  });

  it('options.import of a product another project manages is a plan error saying so', async () => {
    const uid = await orderedByTeamA('theirs-too');
    const dir = workdir('plumb-owner-b-');
    writeManifest(dir, 'plumb.yaml', `name: team-b\nresources:\n${port('mine', 'theirs-too', `    options:\n      import: ${uid}\n`)}`);
    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${uid} is managed by plumb project "team-a", stack "prod" (address edge)`);
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.code).toBe(1);
  });

  it('--discover leaves out products another project manages, naming them, unless --force', async () => {
    const uid = await orderedByTeamA('discover-theirs');
    const free = await api.orderPort('discover-free');
    const dir = workdir('plumb-owner-b-');
    writeManifest(dir, 'plumb.yaml', 'name: team-b\n');
    const found = await plumb(['import', '--discover', 'interconnect:Port'], { cwd: dir, env: sandbox.env });
    expect(found.code).toBe(0);
    const ids = (text: string) => Object.values(parse(text).resources as Record<string, { options: { import: string } }>).map((r) => r.options.import);
    expect(ids(found.stdout)).toContain(free);
    expect(ids(found.stdout)).not.toContain(uid);
    expect(found.stderr).toContain(`${uid} is managed by plumb project "team-a", stack "prod"`);
    const forced = await plumb(['import', '--discover', 'interconnect:Port', '--force'], { cwd: dir, env: sandbox.env });
    expect(ids(forced.stdout)).toContain(uid);
  });

  it("a product without plumb's tags imports as before; one of this project and stack too", async () => {
    const bought = await api.orderPort('bought-by-hand-owner');
    const dir = workdir('plumb-owner-b-');
    writeManifest(dir, 'plumb.yaml', `name: team-b\nresources:\n${port('edge', 'own-port')}`);
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const own = stateOf(dir).resources.edge.id;
    expect((await plumb(['state', 'rm', 'edge'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    for (const [address, id] of [
      ['hand', bought],
      ['edge', own],
    ]) {
      const imported = await plumb(['import', address, 'interconnect:Port', id], { cwd: dir, env: sandbox.env });
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toBe('');
    }
  });
});

describe('plumb state rm lets go of what it forgets, so another project or stack adopts it', () => {
  const tagsOf = async (uid: string) =>
    Object.fromEntries((await api.call<{ resourceTags: Array<{ key: string; value: string }> }>('GET', `/v2/product/${uid}/tags`)).resourceTags.map((t) => [t.key, t.value]));
  const adopting = (portUid: string, mcrUid: string, name: string) => `name: team-b
resources:
  mine:
    type: interconnect:Port
    properties: { productName: ${name}, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false, resourceTags: { team: blue } }
    options: { import: ${portUid} }
  myRouter:
    type: interconnect:Mcr
    properties: { productName: ${name}-mcr, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }
    options: { import: ${mcrUid} }
`;

  /** A port (with a tag of the user's) and an MCR that project team-a, stack prod, ordered and manages. */
  async function orderedPair(name: string): Promise<{ dir: string; portUid: string; mcrUid: string }> {
    const dir = workdir('plumb-owner-a-');
    writeManifest(
      dir,
      'plumb.yaml',
      `name: team-a
resources:
  edge:
    type: interconnect:Port
    properties: { productName: ${name}, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false, resourceTags: { team: blue } }
  router:
    type: interconnect:Mcr
    properties: { productName: ${name}-mcr, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }
`,
    );
    const applied = await plumb(['apply', '--yes', '--stack', 'prod'], { cwd: dir, env: sandbox.env });
    expect(applied.code, applied.stderr).toBe(0);
    const { resources } = JSON.parse(readFileSync(join(dir, '.plumb', 'team-a', 'prod', 'state.json'), 'utf8'));
    return { dir, portUid: resources.edge.id, mcrUid: resources.router.id };
  }

  it("removes plumb's ownership tags (the user's stay), and options.import in another project adopts with no force and no warning", async () => {
    const { dir, portUid, mcrUid } = await orderedPair('let-go');
    const removed: string[] = [];
    for (const address of ['edge', 'router']) {
      const run = await plumb(['state', 'rm', address, '--stack', 'prod'], { cwd: dir, env: sandbox.env });
      expect(run.code, run.stderr).toBe(0);
      removed.push(run.stdout);
    }

    const other = workdir('plumb-owner-b-');
    writeManifest(other, 'plumb.yaml', adopting(portUid, mcrUid, 'let-go'));
    const plan = await plumb(['plan'], { cwd: other, env: sandbox.env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('Plan: 2 to import, 0 to add, 0 to change, 0 to replace, 0 to destroy.');
    const applied = await plumb(['apply', '--yes'], { cwd: other, env: sandbox.env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(stateOf(other).resources.mine.id).toBe(portUid);
    expect(stateOf(other).resources.myRouter.id).toBe(mcrUid);

    expect(await tagsOf(portUid)).toEqual({ team: 'blue' });
    expect(await tagsOf(mcrUid)).toEqual({});
    for (const [stdout, address, uid] of [
      [removed[0], 'edge', portUid],
      [removed[1], 'router', mcrUid],
    ]) {
      expect(stdout).toContain(`removed ${address} from state; ${uid} still exists remotely`);
      expect(stdout).toContain(`plumb's ownership marks were removed from it, so another project or stack can adopt it with options.import: ${uid}`);
    }
  });

  it('--keep-marks forgets without a remote call and says that another stack then needs plumb import --force', async () => {
    const { dir, portUid } = await orderedPair('kept-marks');
    await sandbox.clearCalls();
    const removed = await plumb(['state', 'rm', 'edge', '--stack', 'prod', '--keep-marks'], { cwd: dir, env: sandbox.env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(await sandbox.calls('interconnect')).toEqual([]);
    expect(removed.stdout).toContain('its ownership marks were kept (--keep-marks) and still name this stack');
    expect(removed.stdout).toContain(`plumb import --force ADDRESS interconnect:index/port:Port ${portUid}`);
    expect(await tagsOf(portUid)).toMatchObject({ 'plumb-project': 'team-a', 'plumb-stack': 'prod' });

    const other = workdir('plumb-owner-b-');
    writeManifest(other, 'plumb.yaml', 'name: team-b\n');
    const refused = await plumb(['import', 'mine', 'interconnect:Port', portUid], { cwd: other, env: sandbox.env });
    expect(refused.code).toBe(1);
    const forced = await plumb(['import', 'mine', 'interconnect:Port', portUid, '--force'], { cwd: other, env: sandbox.env });
    expect(forced.code, forced.stderr).toBe(0);
  });

  it('when the tags cannot be removed, nothing is changed and the refusal says how to go on', async () => {
    const { dir, portUid } = await orderedPair('stuck-marks');
    await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'interconnect', next: [{ match: `PUT /v2/product/${portUid}/tags`, status: 403 }] }),
    });
    const refused = await plumb(['state', 'rm', 'edge', '--stack', 'prod'], { cwd: dir, env: sandbox.env });
    await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`edge: could not remove plumb's ownership marks from interconnect:index/port:Port ${portUid}`);
    expect(refused.stderr).toContain('nothing was changed');
    expect(refused.stderr).toContain('run plumb state rm edge again once the interconnect API answers, or pass --keep-marks');
    expect(refused.stderr).toContain(`plumb import --force ADDRESS interconnect:index/port:Port ${portUid}`);
    const { resources } = JSON.parse(readFileSync(join(dir, '.plumb', 'team-a', 'prod', 'state.json'), 'utf8'));
    expect(resources.edge.id).toBe(portUid);

    const again = await plumb(['state', 'rm', 'edge', '--stack', 'prod'], { cwd: dir, env: sandbox.env });
    expect(again.code, again.stderr).toBe(0);
    expect(await tagsOf(portUid)).toEqual({ team: 'blue' });
  });
});

describe('managedElsewhere', () => {
  const deps = { project: 'web', stack: 'prod' } as EngineDeps;
  const typeOwnedBy = (owner: Ownership | undefined) => ({ owner: async () => owner }) as unknown as ResourceType;
  const cases: Array<[string, Ownership | undefined, RegExp | undefined]> = [
    ["an object without ownership tags is nobody else's", undefined, undefined],
    ['this project and stack are its own', { project: 'web', stack: 'prod', address: 'a' }, undefined],
    ['tags of an earlier version name no project: the same stack is its own', { stack: 'prod', address: 'a' }, undefined],
    ['tags of an earlier version with another stack name that stack', { stack: 'dev', address: 'a' }, /is managed by a plumb project it does not name, stack "dev" \(address a\)/],
    ['another project, same stack name', { project: 'api', stack: 'prod' }, /is managed by plumb project "api", stack "prod":/],
    ['this project, another stack', { project: 'web', stack: 'dev' }, /plumb project "web", stack "dev"/],
  ];
  for (const [why, owner, expected] of cases) {
    it(why, async () => {
      const found = await managedElsewhere(typeOwnedBy(owner), {} as ResourceContext, 'uid-1', deps);
      if (expected) expect(found).toMatch(expected);
      else expect(found).toBeUndefined();
    });
  }
});
