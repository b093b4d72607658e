/**
 * ConnectionSchemaConfig against the sandbox at scale: 500 tables with hashed and blocked columns
 * are declared in three calls and read in one; an update sends one PATCH; a table excluded
 * elsewhere reads as a change at its path; only what is declared is reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify } from '../../../src/engine/planning/classify.js';
import { connection } from '../../../src/resources/pipeline/connection.js';
import { connectionSchemaConfig, type ConnectionSchemaConfigInputs } from '../../../src/resources/pipeline/connection-schema-config.js';
import { group } from '../../../src/resources/pipeline/group.js';
import { pipelineCall, pipelineSandbox, type PipelineSandbox } from '../../support/pipeline-sandbox.js';
import { ctxFor } from './harness.js';

let sandbox: PipelineSandbox;
let groupId: string;
beforeAll(async () => {
  sandbox = await pipelineSandbox();
  groupId = (await group.create(ctxFor(sandbox), { name: 'schema_tests' })).id;
});
afterAll(async () => sandbox.close());

const names = Array.from({ length: 500 }, (_, i) => `t${String(i).padStart(3, '0')}`);

/** A database connection whose source holds 500 tables in schema `erp`. */
async function bigConnection(prefix: string): Promise<string> {
  const id = (
    await connection.create(ctxFor(sandbox), {
      service: 'oracle',
      groupId,
      destinationSchema: { prefix },
      config: { host: 'erp.acme-data.io', port: 1521, user: 'fivetran', password: 'pw', database: 'ERP' },
    })
  ).id;
  const tables = Object.fromEntries(names.map((t) => [t, ['id', 'name', 'email', 'ssn']]));
  const res = await fetch(`${sandbox.url}/_sandbox/pipeline-source`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ connection_id: id, schemas: { erp: tables } }),
  });
  expect(res.status).toBe(200);
  return id;
}

/** 500 tables: every tenth excluded, every fifth with its email hashed, every twentieth with its ssn blocked. */
function declared(connectionId: string, excludedEvery = 10): ConnectionSchemaConfigInputs {
  const tables = Object.fromEntries(
    names.map((t, i) => {
      const columns = { ...(i % 5 === 0 ? { email: { hashed: true } } : {}), ...(i % 20 === 0 ? { ssn: { enabled: false } } : {}) };
      return [t, { enabled: i % excludedEvery !== 0, ...(Object.keys(columns).length ? { columns } : {}) }];
    }),
  );
  return { connectionId, schemaChangeHandling: 'ALLOW_COLUMNS', schemas: { erp: { enabled: true, tables } } };
}

const callsOf = async () => (await sandbox.calls()).map((c) => `${c.method} ${c.path.replace(/connections\/[^/]+/, 'connections/{id}')}`);

describe('a connection with 500 tables', () => {
  it('is declared in one PATCH (after the reload a never-captured schema needs), read in one GET, updated in one PATCH', async () => {
    const id = await bigConnection('erp_big');
    const inputs = declared(id);
    const ctx = ctxFor(sandbox);
    await sandbox.clearCalls();
    const made = await connectionSchemaConfig.create(ctx, inputs);
    expect(await callsOf()).toEqual(['PATCH /v1/connections/{id}/schemas', 'POST /v1/connections/{id}/schemas/reload', 'PATCH /v1/connections/{id}/schemas']);
    expect(made.outputs).toMatchObject({ id, ...JSON.parse(JSON.stringify(inputs)) });

    await sandbox.clearCalls();
    const read = await connectionSchemaConfig.read(ctx, id, { inputs, outputs: made.outputs });
    expect(await callsOf()).toEqual(['GET /v1/connections/{id}/schemas']);
    expect(read).toEqual(made.outputs);

    const changed = declared(id, 7);
    await sandbox.clearCalls();
    const updated = await connectionSchemaConfig.update(ctx, id, { inputs, outputs: made.outputs }, changed);
    expect(await callsOf()).toEqual(['GET /v1/connections/{id}/schemas', 'PATCH /v1/connections/{id}/schemas']);
    expect(updated).toMatchObject({ id, ...JSON.parse(JSON.stringify(changed)) });

    await sandbox.clearCalls();
    await connectionSchemaConfig.update(ctx, id, { inputs: changed, outputs: updated }, changed);
    expect(await callsOf()).toEqual(['GET /v1/connections/{id}/schemas']);
  });
});

describe('what is managed', () => {
  const small = (connectionId: string): ConnectionSchemaConfigInputs => ({
    connectionId,
    schemas: { public: { tables: { customers: { columns: { email: { hashed: true } } }, orders: { enabled: true, syncMode: 'HISTORY' } } } },
  });

  it('a table excluded through the API (as the web UI does) reads as a change of that table; tables left out are not reported', async () => {
    const id = (await connection.create(ctxFor(sandbox), { service: 'postgres', groupId, destinationSchema: { prefix: 'pg_drift' } })).id;
    const ctx = ctxFor(sandbox);
    const inputs = small(id);
    const made = await connectionSchemaConfig.create(ctx, inputs);
    expect((await pipelineCall(sandbox.url, 'PATCH', `/connections/${id}/schemas/public/tables/orders`, { enabled: false })).status).toBe(200);
    expect((await pipelineCall(sandbox.url, 'PATCH', `/connections/${id}/schemas/public/tables/refunds`, { enabled: false })).status).toBe(200);
    const read = await connectionSchemaConfig.read(ctx, id, { inputs, outputs: made.outputs });
    // Each table named is reported with every setting the API holds for it (so one written into the
    // manifest later is compared with the API's); tables left out are not reported.
    expect(read?.schemas).toEqual({
      public: {
        enabled: true,
        tables: { customers: { enabled: true, syncMode: 'SOFT_DELETE', columns: { email: { enabled: true, hashed: true } } }, orders: { enabled: false, syncMode: 'HISTORY' } },
      },
    });
  });

  it('an import reads everything the API shows; the manifest then compares only what it declares', async () => {
    const id = (await connection.create(ctxFor(sandbox), { service: 'postgres', groupId, destinationSchema: { prefix: 'pg_import' } })).id;
    const ctx = ctxFor(sandbox);
    const inputs = small(id);
    await connectionSchemaConfig.create(ctx, inputs);
    const imported = await connectionSchemaConfig.read(ctx, connectionSchemaConfig.importId!.parse(id));
    expect(Object.keys(imported!.schemas!)).toEqual(['public', 'sales']);
    expect(imported!.schemas!.public.tables!.customers).toEqual({ enabled: true, syncMode: 'SOFT_DELETE', columns: { email: { enabled: true, hashed: true } } });
    expect(connectionSchemaConfig.diff!.asDeclared!(imported!, imported!, inputs)).toEqual(JSON.parse(JSON.stringify(inputs)));
  });

  it('a setting written into the manifest later is compared with what the API holds: its own value is no change, another is sent and lands', async () => {
    const id = (await connection.create(ctxFor(sandbox), { service: 'postgres', groupId, destinationSchema: { prefix: 'pg_added' } })).id;
    const ctx = ctxFor(sandbox);
    const inputs = small(id);
    const made = await connectionSchemaConfig.create(ctx, inputs);
    const prior = { address: 'subject', type: connectionSchemaConfig.token, id, inputs, outputs: made.outputs, dependencies: [], status: 'ok' as const };
    const context = { gone: false, replaceRequested: false, options: { ignoreChanges: [], replaceOnChanges: [] }, dependsOn: [] };
    const withSettings = (schemaEnabled: boolean, customersEnabled: boolean, emailEnabled: boolean): ConnectionSchemaConfigInputs => ({
      connectionId: id,
      schemas: {
        public: {
          enabled: schemaEnabled,
          tables: { customers: { enabled: customersEnabled, columns: { email: { enabled: emailEnabled, hashed: true } } }, orders: { enabled: true, syncMode: 'HISTORY' } },
        },
      },
    });
    // The values the API already holds: nothing to send, so no change.
    expect(classify('subject', connectionSchemaConfig, withSettings(true, true, true), prior, false, context).action).toBe('noop');
    // Another value: an update, which the world then shows.
    const desired = withSettings(false, false, true);
    expect(classify('subject', connectionSchemaConfig, desired, prior, false, context).action).toBe('update');
    await connectionSchemaConfig.update(ctx, id, prior, desired);
    const shown = (await pipelineCall(sandbox.url, 'GET', `/connections/${id}/schemas`)).body.data.schemas.public;
    expect(shown.enabled).toBe(false);
    expect(shown.tables.customers.enabled).toBe(false);
  });

  it("a table the source lacks and a primary key excluded are the API's refusals, naming each, and nothing is changed", async () => {
    const id = (await connection.create(ctxFor(sandbox), { service: 'postgres', groupId, destinationSchema: { prefix: 'pg_refused' } })).id;
    const ctx = ctxFor(sandbox);
    const wrong: ConnectionSchemaConfigInputs = { connectionId: id, schemas: { public: { tables: { Orders: { enabled: false }, customers: { columns: { id: { enabled: false } } } } } } };
    await expect(connectionSchemaConfig.create(ctx, wrong)).rejects.toThrow(/Table 'Orders' is not in schema 'public'.*Column 'id' of table 'customers'.*cannot be excluded/);
    const shown = await pipelineCall(sandbox.url, 'GET', `/connections/${id}/schemas`);
    expect(shown.body.data.schemas.public.tables.customers.columns).toEqual({});
  });

  it('deleting it leaves the settings on the platform and says so in the plan', async () => {
    expect(connectionSchemaConfig.notes!.delete!({ inputs: small('x'), outputs: { id: 'x', ...small('x') } }, {} as never)).toEqual([
      'nothing is removed from the platform: the connection keeps its schema settings as they are, and plumb stops managing them',
    ]);
  });
});
