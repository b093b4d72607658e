/**
 * Secrets by service through the CLI: a config key that only the service's metadata marks secret
 * (anaplan's `certificate`, which no other service makes secret) is `[secret]` in plans and never
 * in clear in state or a saved plan, though the manifest does not wrap it in fn::secret.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { pipelineCall } from '../support/pipeline-sandbox.js';
import { stateFile } from '../support/state-file.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const MANIFEST = `name: secrets-by-service
resources:
  planning:
    type: pipeline:index/group:Group
    properties: { name: planning_secrets }
  anaplan:
    type: pipeline:index/connection:Connection
    properties:
      service: anaplan
      groupId: \${planning.id}
      destinationSchema: { name: anaplan_secrets }
      config: { username: svc, auth_mode: Certificate, certificate: MIIC-cert-body-7731 }
`;

describe('secrets by service', () => {
  it("a key only the service's metadata marks secret is [secret] in the plan and absent from state and the plan file", async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', MANIFEST);
    const planned = await plumb(['plan', '--out', 'saved.plan.json'], { cwd: dir, env: sandbox.env });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toMatch(/certificate\s*[:=]\s*"?\[secret\]/);
    expect(planned.stdout).not.toContain('MIIC-cert-body-7731');
    expect(readFileSync(join(dir, 'saved.plan.json'), 'utf8')).not.toContain('MIIC-cert-body-7731');

    const applied = await plumb(['apply', 'saved.plan.json', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).not.toContain('MIIC-cert-body-7731');
    expect(readFileSync(stateFile(dir), 'utf8')).not.toContain('MIIC-cert-body-7731');
    // It reached the API, which keeps it (and shows it masked).
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8')) as { resources: Record<string, { id: string }> };
    const shown = await pipelineCall(sandbox.url, 'GET', `/connections/${state.resources.anaplan.id}`);
    expect(shown.body.data.config.certificate).toBe('******');

    const again = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
    expect((await plumb(['destroy', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});
