/**
 * The example pipeline's team, user, memberships and webhook through the CLI against the
 * sandbox: they apply with the rest, the webhook's secret is `[secret]` in the plan and in no
 * output or state; role and event changes made through the API (as the web UI makes them) are
 * drift of those fields; imported into a fresh stack by their ids (`<team_id>:<user_id>` for a
 * membership) they plan no change; and destroy removes them.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir } from '../support/cli.js';
import { pipelineCall } from '../support/pipeline-sandbox.js';
import { stateFile } from '../support/state-file.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const EXAMPLE = resolve(import.meta.dirname, '../../examples/pipeline/pipeline.yaml');
/** One call to the sandbox's pipeline API, as the web UI (or anyone with a key) makes it. */
const api = (method: string, path: string, body?: unknown) => pipelineCall(sandbox.url, method, path, body);

/** Ids and types of a stack's resources by address. */
function recorded(dir: string, stack = 'default'): Record<string, { id: string; type: string }> {
  const state = JSON.parse(readFileSync(stateFile(dir, stack), 'utf8')) as { resources: Record<string, { id: string; type: string }> };
  return state.resources;
}

const PEOPLE = ['pipelineOwners', 'analyst', 'analystInOwners', 'ownersOnAnalytics', 'ownersOnErp', 'analystOnAnalytics', 'analystOnPayments', 'syncAlerts'];

describe("the example pipeline's people and webhook", () => {
  it('apply, keep the secret sealed, show changes made through the API as drift, import unchanged by the API ids, and destroy', async () => {
    const dir = workdir();
    copyFileSync(EXAMPLE, join(dir, 'plumb.yaml'));
    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.stdout).toMatch(/syncAlerts[\s\S]*secret += \[secret\]/);
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout + plan.stdout).not.toContain('webhook-example-secret');
    expect(readFileSync(stateFile(dir), 'utf8')).not.toContain('webhook-example-secret');
    const made = recorded(dir);
    expect(made.analystInOwners.id).toBe(`${made.pipelineOwners.id}:${made.analyst.id}`);
    const again = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);

    const team = made.pipelineOwners.id;
    expect((await api('PATCH', `/teams/${team}`, { role: 'Account Analyst' })).status).toBe(200);
    expect((await api('PATCH', `/teams/${team}/users/${made.analyst.id}`, { role: 'Team Manager' })).status).toBe(200);
    expect((await api('PATCH', `/webhooks/${made.syncAlerts.id}`, { events: ['sync_end'], secret: 'changed-in-the-ui' })).status).toBe(200);
    expect((await api('DELETE', `/users/${made.analyst.id}/connections/${made.payments.id}`)).status).toBe(200);
    const drift = await plumb(['drift', '--json'], { cwd: dir, env: sandbox.env });
    expect(drift.code).toBe(2);
    const report = JSON.parse(drift.stdout) as { resources: Array<{ address: string; status: string; fields?: Array<{ path: string; state: unknown; remote: unknown }> }> };
    const off = Object.fromEntries(report.resources.filter((r) => r.status !== 'in-sync').map((r) => [r.address, [r.status, r.fields]]));
    expect(off).toEqual({
      pipelineOwners: ['drifted', [{ path: 'role', state: 'Account Reviewer', remote: 'Account Analyst' }]],
      analystInOwners: ['drifted', [{ path: 'role', state: 'Team Member', remote: 'Team Manager' }]],
      syncAlerts: ['drifted', [{ path: 'events[1]', state: 'connection_failure' }]],
      analystOnPayments: ['deleted', expect.anything()],
    });
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    expect((await api('GET', `/teams/${team}`)).body.data.role).toBe('Account Reviewer');
    expect((await api('GET', `/users/${made.analyst.id}/connections/${made.payments.id}`)).status).toBe(200);

    const now = recorded(dir);
    const imports = Object.entries(now).map(([address, r]) => ({ address, type: r.type, id: r.id }));
    writeFileSync(join(dir, 'imports.yaml'), stringify(imports));
    const imported = await plumb(['import', '--file', 'imports.yaml', '--stack', 'fresh'], { cwd: dir, env: sandbox.env });
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    const fresh = await plumb(['plan', '--stack', 'fresh', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(fresh.stdout).toContain('No changes.');
    expect(fresh.code).toBe(0);
    expect((await plumb(['apply', '--yes', '--stack', 'fresh'], { cwd: dir, env: sandbox.env })).code).toBe(0);

    const destroyed = await plumb(['destroy', '--yes', '--stack', 'fresh'], { cwd: dir, env: sandbox.env });
    expect(destroyed.code).toBe(0);
    expect((await api('GET', `/teams/${team}`)).status).toBe(404);
    expect((await api('GET', `/users/${now.analyst.id}`)).status).toBe(404);
    expect((await api('GET', `/webhooks/${now.syncAlerts.id}`)).status).toBe(404);
    expect(PEOPLE.every((address) => address in now)).toBe(true);
  });

  it('a malformed membership import id is refused naming the format, before any call', async () => {
    const dir = workdir();
    copyFileSync(EXAMPLE, join(dir, 'plumb.yaml'));
    writeFileSync(join(dir, 'imports.yaml'), stringify([{ address: 'analystInOwners', type: 'pipeline:index/teamUserMembership:TeamUserMembership', id: 'only_a_team' }]));
    await fetch(`${sandbox.url}/_sandbox/calls`, { method: 'DELETE' });
    const imported = await plumb(['import', '--file', 'imports.yaml'], { cwd: dir, env: sandbox.env });
    expect(imported.code).not.toBe(0);
    expect(await (await fetch(`${sandbox.url}/_sandbox/calls?provider=pipeline`)).json()).toEqual([]);
    expect(imported.stderr).toContain('<team_id>:<user_id>');
    expect(imported.stderr).not.toMatch(/\n\s+at /);
  });
});
