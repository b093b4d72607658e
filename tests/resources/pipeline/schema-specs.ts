/**
 * The lifecycle specs of the pipeline's schema types: a connection's schema config (listed in
 * specs.ts, run by tests/resources/lifecycle.test.ts).
 */
import { expect } from 'vitest';
import type { PipelineClient } from '../../../src/providers/pipeline/index.js';
import { connection } from '../../../src/resources/pipeline/connection.js';
import { connectionSchemaConfig } from '../../../src/resources/pipeline/connection-schema-config.js';
import { group } from '../../../src/resources/pipeline/group.js';
import { lifecycleSpec, type LifecycleWorld, type MakeContext } from '../../support/lifecycle.js';

const database = { host: 'schema-db.acme-data.io', port: '5432', user: 'fivetran', password: 'pw-schema', database: 'shop', update_method: 'WAL' };

/** Two database connections made first, for the schema config of each. */
async function twoConnections(ctx: MakeContext): Promise<{ one: string; two: string }> {
  const groupId = (await group.create(await ctx('group-schema'), { name: 'schema_suite' })).id;
  const make = async (prefix: string) => (await connection.create(await ctx(prefix), { service: 'postgres', groupId, destinationSchema: { prefix }, config: database })).id;
  return { one: await make('schema_one'), two: await make('schema_two') };
}

/** The connections whose customers' email is hashed and audit log excluded, as `create` declares. */
async function census(world: LifecycleWorld, env: { one: string; two: string }): Promise<string[]> {
  const client = (await world.ctx('census')).client as PipelineClient;
  const out: string[] = [];
  for (const id of [env.one, env.two]) {
    type Shown = { schemas: Record<string, { tables: Record<string, { enabled: boolean; columns: Record<string, { hashed: boolean }> }> }> };
    const config = await client.get<Shown>(`/connections/${id}/schemas`).catch(() => undefined);
    const tables = config?.schemas.public?.tables;
    if (tables?.customers.columns.email?.hashed && tables.audit_log.enabled === false) out.push(id);
  }
  return out;
}

/** The lifecycle spec of ConnectionSchemaConfig, on connections made first. */
export const connectionSchemaConfigSpec = lifecycleSpec({
  type: connectionSchemaConfig,
  partOf: true,
  setup: twoConnections,
  create: (env) => ({
    connectionId: env.one,
    schemaChangeHandling: 'ALLOW_COLUMNS' as const,
    schemas: { public: { tables: { customers: { columns: { email: { hashed: true } } }, audit_log: { enabled: false } } } },
  }),
  update: (env) => ({
    connectionId: env.one,
    schemaChangeHandling: 'BLOCK_ALL' as const,
    schemas: { public: { tables: { customers: { columns: { email: { hashed: true }, phone: { enabled: false } } }, audit_log: { enabled: true }, orders: { syncMode: 'HISTORY' as const } } } },
  }),
  replace: (env) => ({
    connectionId: env.two,
    schemas: { public: { tables: { customers: { columns: { email: { hashed: true } } }, audit_log: { enabled: false } } } },
  }),
  another: (env) => ({ connectionId: env.two, schemas: { sales: { enabled: false } } }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject(JSON.parse(JSON.stringify(inputs)) as object);
  },
  badImportId: 'a b',
  ghostId: () => 'ghost_connection',
  createCall: 'PATCH /v1/connections/',
  census,
});

/** The schema types' lifecycle specs. */
export const schemaSpecs = [connectionSchemaConfigSpec];
