/**
 * Pipeline resources through the CLI against the sandbox: the example pipeline applies, plans no
 * change, shows a change made through the API (as the web UI makes it) as drift of that field,
 * imports into a fresh stack with no change and is destroyed; ten services' configs, echoed back
 * the API's way, plan no change, and a real change plans only that field; secrets stay sealed.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
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

/** Ids of a stack's resources by address. */
function ids(dir: string, stack = 'default'): Record<string, string> {
  const state = JSON.parse(readFileSync(stateFile(dir, stack), 'utf8')) as { resources: Record<string, { id: string }> };
  return Object.fromEntries(Object.entries(state.resources).map(([address, r]) => [address, r.id]));
}

describe('the example pipeline', () => {
  it('applies, plans no change, shows an out-of-band change as drift, imports into a fresh stack unchanged, and is destroyed', async () => {
    const dir = workdir();
    copyFileSync(EXAMPLE, join(dir, 'plumb.yaml'));
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    // Names that also appear inside a config are not masked as if they were secrets.
    expect(applied.stdout).toMatch(/orders: Creation complete/);
    expect(applied.stdout).not.toMatch(/example-pass|sk_live_example/);
    expect(readFileSync(stateFile(dir), 'utf8')).not.toMatch(/example-pass|sk_live_example/);
    // The proxy agent's token, shown by the API only on create, is kept sealed.
    const proxy = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources.nycProxy.outputs;
    for (const key of ['authToken', 'clientPrivateKey']) expect(proxy[key]).toHaveProperty('$secret');
    const again = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);

    const made = ids(dir);
    expect((await api('PATCH', `/connections/${made.erp}`, { config: { port: 1434 } })).status).toBe(200);
    expect((await api('PATCH', `/connections/${made.orders}/schemas/public/tables/orders`, { enabled: false })).status).toBe(200);
    const drift = await plumb(['drift', '--json'], { cwd: dir, env: sandbox.env });
    expect(drift.code).toBe(2);
    const report = JSON.parse(drift.stdout) as { resources: Array<{ address: string; status: string; fields: Array<{ path: string; state: unknown; remote: unknown }> }> };
    expect(report.resources.filter((r) => r.status !== 'in-sync')).toEqual([
      { address: 'erp', type: 'pipeline:index/connection:Connection', id: made.erp, status: 'drifted', fields: [{ path: 'config.port', state: 1433, remote: 1434 }] },
      {
        address: 'ordersTables',
        type: 'pipeline:index/connectionSchemaConfig:ConnectionSchemaConfig',
        id: made.orders,
        status: 'drifted',
        fields: [{ path: 'schemas.public.tables.orders.enabled', state: true, remote: false }],
      },
    ]);
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);

    const imports = Object.entries(made).map(([address, id]) => ({ address, type: typeOf(address), id }));
    writeFileSync(join(dir, 'imports.yaml'), stringify(imports));
    const imported = await plumb(['import', '--file', 'imports.yaml', '--stack', 'fresh'], { cwd: dir, env: sandbox.env });
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    const fresh = await plumb(['plan', '--stack', 'fresh', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(fresh.stdout).toContain('No changes.');
    expect(fresh.code).toBe(0);
    // An apply with nothing to change records the manifest's dependencies, which order the destroy.
    expect((await plumb(['apply', '--yes', '--stack', 'fresh'], { cwd: dir, env: sandbox.env })).code).toBe(0);

    const destroyed = await plumb(['destroy', '--yes', '--stack', 'fresh'], { cwd: dir, env: sandbox.env });
    expect(destroyed.code).toBe(0);
    expect((await api('GET', `/groups/${made.analytics}`)).status).toBe(404);
    for (const address of ['orders', 'erp', 'payments']) expect((await api('GET', `/connections/${made[address]}`)).status).toBe(404);
    for (const path of [`/private-links/${made.ordersLink}`, `/proxy/${made.nycProxy}`, `/transformation-projects/${made.dbtProject}`, `/transformations/${made.paymentsModels}`]) {
      expect((await api('GET', path)).status).toBe(404);
    }
  });
});

function typeOf(address: string): string {
  if (address === 'analytics') return 'pipeline:index/group:Group';
  if (address === 'warehouse') return 'pipeline:index/destination:Destination';
  if (address === 'paymentsSchedule') return 'pipeline:index/connectionSchedule:ConnectionSchedule';
  if (address === 'ordersTables') return 'pipeline:index/connectionSchemaConfig:ConnectionSchemaConfig';
  if (['orders', 'erp', 'payments'].includes(address)) return 'pipeline:index/connection:Connection';
  return PEOPLE_TYPES[address];
}

/** The example's team, user, memberships and webhook (tests/cli/pipeline-people.test.ts covers them). */
const PEOPLE_TYPES: Record<string, string> = {
  pipelineOwners: 'pipeline:index/team:Team',
  analyst: 'pipeline:index/user:User',
  analystInOwners: 'pipeline:index/teamUserMembership:TeamUserMembership',
  ownersOnAnalytics: 'pipeline:index/teamGroupMembership:TeamGroupMembership',
  ownersOnErp: 'pipeline:index/teamConnectionMembership:TeamConnectionMembership',
  analystOnAnalytics: 'pipeline:index/userGroupMembership:UserGroupMembership',
  analystOnPayments: 'pipeline:index/userConnectionMembership:UserConnectionMembership',
  syncAlerts: 'pipeline:index/webhook:Webhook',
  ordersLink: 'pipeline:index/privateLink:PrivateLink',
  nycProxy: 'pipeline:index/proxyAgent:ProxyAgent',
  dbtProject: 'pipeline:index/transformationProject:TransformationProject',
  paymentsModels: 'pipeline:index/transformation:Transformation',
};

/** Ten connections whose configs the API echoes differently from how they are written. */
const TEN = `name: ten-services
resources:
  team:
    type: pipeline:index/group:Group
    properties: { name: ten_services }
${[
  ['pg', 'postgres', '{ prefix: pg_ten }', '{ host: pg.acme.io, port: "5432", user: fivetran, password: pg-pass-1, database: app, tunnel_host: "" }'],
  ['mysql', 'mysql', '{ prefix: mysql_ten }', '{ host: my.acme.io, port: 3306, user: fivetran, password: my-pass-2, database: shop }'],
  ['mssql', 'sql_server', '{ prefix: mssql_ten }', '{ host: ms.acme.io, port: "1433", user: fivetran, password: ms-pass-3, database: erp, always_encrypted: "true" }'],
  ['mongo', 'mongo', '{ prefix: mongo_ten }', '{ hosts: [b.acme.io, a.acme.io], user: reader, password: mongo-pass-4 }'],
  ['files', 's3', '{ name: s3_ten, table: orders }', '{ bucket: exports, prefix: orders/, file_type: csv, role_arn: "arn:aws:iam::1:role/r", compression: "" }'],
  ['sheet', 'google_sheets', '{ name: sheets_ten, table: budget }', '{ sheet_id: 1AbC, named_range: budget }'],
  ['sf', 'salesforce', '{ name: sf_ten }', '{ is_sandbox: "false", sync_formula_fields: true }'],
  ['stripe', 'stripe', '{ name: stripe_ten }', '{ secret_key: sk-pass-5 }'],
  ['ga4', 'google_analytics_4', '{ name: ga4_ten }', '{ property_ids: ["2", "1"], sync_mode: SPECIFIC_PROPERTIES }'],
  ['plan', 'anaplan', '{ name: anaplan_ten }', '{ username: svc, certificate: { fn::secret: cert-pass-6 }, workspace_ids: [w2, w1] }'],
]
  .map(
    ([address, service, schema, config]) =>
      `  ${address}:\n    type: pipeline:index/connection:Connection\n    properties:\n      service: ${service}\n      groupId: \${team.id}\n      destinationSchema: ${schema}\n      config: ${config}\n`,
  )
  .join('')}`;

describe('configs compared by meaning', () => {
  it('ten services applied plan no change; a change made through the API plans only that field; no secret is shown or stored', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', TEN);
    const first = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(first.stdout).toContain('[secret]');
    expect(first.stdout).not.toMatch(/-pass-\d/);
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.code).toBe(0);
    expect(readFileSync(stateFile(dir), 'utf8')).not.toMatch(/-pass-\d/);
    const again = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);

    expect((await api('PATCH', `/connections/${ids(dir).mysql}`, { config: { port: 3307 } })).status).toBe(200);
    const changed = await plumb(['plan', '--json'], { cwd: dir, env: sandbox.env });
    const plan = JSON.parse(changed.stdout) as { changes: Array<{ address: string; action: string; patch: Array<{ path: string; value?: unknown }> }> };
    const real = plan.changes.filter((c) => c.action !== 'noop');
    expect(real.map((c) => [c.address, c.action, c.patch])).toEqual([['mysql', 'update', [{ op: 'replace', path: '/config/port', value: 3306 }]]]);
  });
});

describe('a private link that takes its time', () => {
  it('is waited for no longer than customTimeouts.create, and kept as still provisioning: the next apply waits for it and makes no other', async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `name: slow-link
resources:
  link:
    type: pipeline:index/privateLink:PrivateLink
    properties:
      name: slow_link
      region: AWS_US_EAST_1
      service: SOURCE_AWS
      config: { connection_service_name: com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f6bbbb }
    options:
      customTimeouts: { create: 1s }
`,
    );
    const settings = (provisioningMs: number) =>
      fetch(`${sandbox.url}/_sandbox/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ provisioningMs }) });
    // The sandbox settles a link the provisioning time after its create.
    await settings(2500);
    try {
      const timedOut = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
      expect(timedOut.code).toBe(1);
      expect(timedOut.stdout).toMatch(
        /timed out after 1(?:\.\d)? s waiting for private link (\w+) to be created \(last status: CREATING\); \1 is recorded as still provisioning, and the next apply waits for it/,
      );
    } finally {
      await settings(0);
    }
    const link = ids(dir).link;
    expect((await api('GET', `/private-links/${link}`)).body.data.name).toBe('slow_link');
    // Each next apply waits its second for it, until it is OK; none makes another.
    let again = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    for (let more = 0; again.code !== 0 && more < 4; more++) {
      expect(again.stdout).toMatch(/link: .*timed out after 1(?:\.\d)? s waiting for link \(\w+\) to be ready/);
      again = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    }
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).not.toMatch(/will be replaced|Creating/);
    const named = ((await api('GET', '/private-links')).body.data.items as Array<{ id: string; name: string }>).filter((l) => l.name === 'slow_link');
    expect(named.map((l) => l.id)).toEqual([link]);
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});
