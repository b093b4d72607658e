/**
 * Manifests that later name more of what the API already holds: in a ConnectionSchemaConfig a
 * whole `tables` map added to a declared schema, a `columns` map added to a declared table, one
 * more table; in a connection's config a key the API filled in itself. Writing down the values
 * the API holds plans no change (an update would send nothing, or what is there); another value
 * plans an update, after which the API reports it; a secret, which the API shows masked, is
 * sent. Judged by the sandbox's API and the calls it received, not by plumb's state.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { pipelineCall } from '../support/pipeline-sandbox.js';
import { stateFile } from '../support/state-file.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const api = (method: string, path: string, body?: unknown) => pipelineCall(sandbox.url, method, path, body);

/** The stack: a group, a postgres connection, and its schema config declaring `schemas`. */
const manifest = (schemas: string, tag = 'a') => `name: schema-added
resources:
  team:
    type: pipeline:index/group:Group
    properties: { name: schema_added_${tag} }
  pg:
    type: pipeline:index/connection:Connection
    properties:
      service: postgres
      groupId: \${team.id}
      destinationSchema: { prefix: pg_added_${tag} }
  pgTables:
    type: pipeline:index/connectionSchemaConfig:ConnectionSchemaConfig
    properties:
      connectionId: \${pg.id}
      schemas: ${schemas}
`;

/** The writes the sandbox's pipeline API received since the last look. */
async function writes(): Promise<string[]> {
  const calls = await sandbox.calls('pipeline');
  await sandbox.clearCalls();
  return calls.filter((c) => c.method !== 'GET' && !c.path.includes('oauth')).map((c) => `${c.method} ${c.path}`);
}

describe('settings written into the manifest after the config was made', () => {
  it('plan no change when they are what the API holds, and an update the API then reports when they differ', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest('{ public: { enabled: true, tables: { orders: { enabled: true } } } }'));
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const id = (JSON.parse(readFileSync(stateFile(dir), 'utf8')) as { resources: Record<string, { id: string }> }).resources.pgTables.id;
    const held = (await api('GET', `/connections/${id}/schemas`)).body.data.schemas.public.tables;
    // What the API holds for the tables the manifest will name, before any of them is declared.
    expect(held.customers.enabled).toBe(true);
    expect(held.refunds.enabled).toBe(true);
    const customersMode = held.customers.sync_mode;
    expect(customersMode).toBeDefined();

    // Adding what the API already holds: a column map on a declared table, a table more.
    const same =
      '{ public: { enabled: true, tables: { orders: { enabled: true, columns: { total: { enabled: true, hashed: false } } }, customers: { enabled: true, syncMode: ' +
      customersMode +
      ' }, refunds: { enabled: true } } } }';
    writeManifest(dir, 'plumb.yaml', manifest(same));
    await sandbox.clearCalls();
    const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    // Read once for the refresh and the comparison alike, and once by the check that the source has the tables named.
    expect((await sandbox.calls('pipeline')).filter((c) => c.method === 'GET' && c.path === `/v1/connections/${id}/schemas`)).toHaveLength(2);
    const apply = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(apply.code).toBe(0);
    expect(await writes()).toEqual([]);

    // Other values: an update, which the API then reports.
    const other =
      '{ public: { enabled: true, tables: { orders: { enabled: true, columns: { total: { enabled: true, hashed: true } } }, customers: { enabled: true, syncMode: ' +
      customersMode +
      ' }, refunds: { enabled: false } } } }';
    writeManifest(dir, 'plumb.yaml', manifest(other));
    const changed = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(changed.code).toBe(2);
    expect(changed.stdout).toContain('pgTables');
    const updated = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(updated.code).toBe(0);
    expect((await writes()).filter((w) => w.startsWith('PATCH'))).toHaveLength(1);
    const after = (await api('GET', `/connections/${id}/schemas`)).body.data.schemas.public.tables;
    expect(after.refunds.enabled).toBe(false);
    expect(after.orders.columns.total.hashed).toBe(true);
    const settled = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(settled.stdout).toContain('No changes.');
    expect(settled.code).toBe(0);
  });

  it('a whole tables map added to a schema declared without one plans no change when it holds the API values', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest('{ public: { enabled: true } }', 'b'));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    writeManifest(dir, 'plumb.yaml', manifest('{ public: { enabled: true, tables: { orders: { enabled: true, columns: { total: { hashed: false } } } } } }', 'b'));
    await sandbox.clearCalls();
    const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    writeManifest(dir, 'plumb.yaml', manifest('{ public: { enabled: true, tables: { orders: { enabled: false } } } }', 'b'));
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(2);
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const id = (JSON.parse(readFileSync(stateFile(dir), 'utf8')) as { resources: Record<string, { id: string }> }).resources.pgTables.id;
    expect((await api('GET', `/connections/${id}/schemas`)).body.data.schemas.public.tables.orders.enabled).toBe(false);
  });
});

/** A group and a postgres connection declaring `config`. */
const connectionManifest = (config: string) => `name: config-added
resources:
  team:
    type: pipeline:index/group:Group
    properties: { name: config_added }
  pg:
    type: pipeline:index/connection:Connection
    properties:
      service: postgres
      groupId: \${team.id}
      destinationSchema: { prefix: pg_config_added }
      config: ${config}
`;

describe('a connection config key written into the manifest after the connection was made', () => {
  it('plans no change and sends nothing when it is what the API holds, and an update the API then reports when it differs', async () => {
    const dir = workdir();
    const base = 'host: pg.acme.io, port: 5432, user: fivetran, password: pw-later, database: app';
    writeManifest(dir, 'plumb.yaml', connectionManifest(`{ ${base} }`));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const id = (JSON.parse(readFileSync(stateFile(dir), 'utf8')) as { resources: Record<string, { id: string }> }).resources.pg.id;
    const held = (await api('GET', `/connections/${id}`)).body.data.config as Record<string, unknown>;
    // The API filled these in itself.
    expect(held.update_method).toBe('WAL');
    expect(held.connection_type).toBe('Directly');

    writeManifest(dir, 'plumb.yaml', connectionManifest(`{ ${base}, update_method: WAL, connection_type: Directly }`));
    const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    await sandbox.clearCalls();
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    expect(await writes()).toEqual([]);

    writeManifest(dir, 'plumb.yaml', connectionManifest(`{ ${base}, update_method: XMIN, connection_type: Directly }`));
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(2);
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    expect((await api('GET', `/connections/${id}`)).body.data.config.update_method).toBe('XMIN');
    const settled = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(settled.stdout).toContain('No changes.');
    expect(settled.code).toBe(0);
  });
});

describe('a secret config key written into the manifest later', () => {
  it('is sent: the API shows it masked, which says nothing of its value', async () => {
    const dir = workdir();
    const base = 'host: pg2.acme.io, port: 5432, user: fivetran, password: pw-later, database: app';
    writeManifest(dir, 'plumb.yaml', connectionManifest(`{ ${base} }`).replace(/config_added/g, 'secret_added'));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const id = (JSON.parse(readFileSync(stateFile(dir), 'utf8')) as { resources: Record<string, { id: string }> }).resources.pg.id;
    // The password changed elsewhere: the API shows it masked, as it always does.
    expect((await api('PATCH', `/connections/${id}`, { config: { tunnel_password: 'set-elsewhere' } })).status).toBe(200);
    expect((await api('GET', `/connections/${id}`)).body.data.config.tunnel_password).toBe('******');
    writeManifest(dir, 'plumb.yaml', connectionManifest(`{ ${base}, tunnel_password: { fn::secret: tp-later } }`).replace(/config_added/g, 'secret_added'));
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(2);
    await sandbox.clearCalls();
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    expect((await writes()).filter((w) => w.startsWith('PATCH'))).toHaveLength(1);
  });
});

/** One config key set elsewhere and then written into the manifest, for one pipeline type. */
interface KeySetElsewhere {
  /** The stack, given the resource's config as a YAML flow mapping. */
  stack: (config: string) => string;
  /** The address of the resource under test, and its API path. */
  address: string;
  path: (id: string) => string;
  /** The config's keys at the first apply. */
  base: string;
  /** The key set through the API, the value it is set to, and another value. */
  key: string;
  held: string;
  other: string;
}

/**
 * A config key set through the API, as the web UI does, then written into the manifest: as the
 * API holds it, the plan is no change and the apply sends nothing; another value lands.
 */
async function keySetElsewhere(c: KeySetElsewhere): Promise<void> {
  const dir = workdir();
  writeManifest(dir, 'plumb.yaml', c.stack(`{ ${c.base} }`));
  const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
  expect(applied.stderr).toBe('');
  expect(applied.code).toBe(0);
  const id = (JSON.parse(readFileSync(stateFile(dir), 'utf8')) as { resources: Record<string, { id: string }> }).resources[c.address].id;
  expect((await api('PATCH', c.path(id), { config: { [c.key]: c.held } })).status).toBe(200);
  writeManifest(dir, 'plumb.yaml', c.stack(`{ ${c.base}, ${c.key}: ${c.held} }`));
  const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
  expect(plan.stdout).toContain('No changes.');
  expect(plan.code).toBe(0);
  await sandbox.clearCalls();
  expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  expect(await writes()).toEqual([]);
  writeManifest(dir, 'plumb.yaml', c.stack(`{ ${c.base}, ${c.key}: ${c.other} }`));
  expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  expect((await api('GET', c.path(id))).body.data.config[c.key]).toBe(c.other);
}

describe('an external logging config key set elsewhere, then written into the manifest', () => {
  it('plans no change and sends nothing when the manifest says what the API holds', async () => {
    await keySetElsewhere({
      stack: (config) => `name: log-added
resources:
  team:
    type: pipeline:index/group:Group
    properties: { name: log_added }
  logs:
    type: pipeline:index/externalLogging:ExternalLogging
    properties:
      groupId: \${team.id}
      service: cloudwatch
      config: ${config}
`,
      address: 'logs',
      path: (id) => `/external-logging/${id}`,
      base: 'log_group_name: pipeline, role_arn: "arn:aws:iam::1:role/logs", region: us-east-1',
      key: 'stream_prefix',
      held: 'etl',
      other: 'elt',
    });
  });
});

describe('a destination config key set elsewhere, then written into the manifest', () => {
  it('plans no change and sends nothing when the manifest says what the API holds', async () => {
    await keySetElsewhere({
      stack: (config) => `name: dest-added
resources:
  team:
    type: pipeline:index/group:Group
    properties: { name: dest_added }
  warehouse:
    type: pipeline:index/destination:Destination
    properties:
      groupId: \${team.id}
      service: snowflake
      region: AWS_US_EAST_1
      timeZoneOffset: '-5'
      config: ${config}
`,
      address: 'warehouse',
      path: (id) => `/destinations/${id}`,
      base: 'host: ab12345.us-east-1.snowflakecomputing.com, port: 443, database: ANALYTICS, auth: PASSWORD, user: loader, password: { fn::secret: pw-dest }',
      key: 'role',
      held: 'LOADER',
      other: 'TRANSFORMER',
    });
  });
});
