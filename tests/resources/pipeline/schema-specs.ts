/**
 * The lifecycle specs of the pipeline's schema and trust types: a connection's schema config,
 * and the certificates and fingerprints connections and destinations trust (listed in specs.ts,
 * run by tests/resources/lifecycle.test.ts).
 */
import { expect } from 'vitest';
import type { PipelineClient } from '../../../src/providers/pipeline/index.js';
import { connection } from '../../../src/resources/pipeline/connection.js';
import { connectionSchemaConfig } from '../../../src/resources/pipeline/connection-schema-config.js';
import { connectionCertificates } from '../../../src/resources/pipeline/connection-certificates.js';
import { connectionFingerprints } from '../../../src/resources/pipeline/connection-fingerprints.js';
import { destination } from '../../../src/resources/pipeline/destination.js';
import { destinationCertificates } from '../../../src/resources/pipeline/destination-certificates.js';
import { destinationFingerprints } from '../../../src/resources/pipeline/destination-fingerprints.js';
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

const CERT = (label: string) => Buffer.from(`0\x82\x01\x0a certificate of ${label}`).toString('base64');
const KEY = (label: string) => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${Buffer.from(label).toString('base64')} ${label}`;

/** Two destinations (each in a group of its own) made first. */
async function twoDestinations(ctx: MakeContext, name: string): Promise<{ one: string; two: string }> {
  const make = async (suffix: string) => {
    const groupId = (await group.create(await ctx(`group-${name}-${suffix}`), { name: `${name}_${suffix}` })).id;
    return (
      await destination.create(await ctx(`dest-${name}-${suffix}`), {
        groupId,
        service: 'postgres_warehouse',
        timeZoneOffset: '0',
        config: { host: 'dw.acme-data.io', user: 'loader', password: 'pw', database: 'dw' },
      })
    ).id;
  };
  return { one: await make('one'), two: await make('two') };
}

/** The lifecycle spec of one trust type: `first` and `second` are items, `holder` the id field, `path` the holder's collection. */
function trustSpec(
  type: typeof connectionCertificates,
  holder: 'connectionId' | 'destinationId',
  kind: 'certificates' | 'fingerprints',
  setup: (ctx: MakeContext) => Promise<{ one: string; two: string }>,
) {
  const item = (label: string) => (kind === 'certificates' ? { hash: `suite-${label}`, encodedCert: CERT(label) } : { hash: `suite-${label}`, publicKey: KEY(label) });
  const collection = holder === 'connectionId' ? 'connections' : 'destinations';
  return lifecycleSpec({
    type,
    partOf: true,
    setup,
    create: (env: { one: string; two: string }) => ({ [holder]: env.one, [kind]: [item('a')] }),
    update: (env: { one: string; two: string }) => ({ [holder]: env.one, [kind]: [item('a'), item('b')] }),
    replace: (env: { one: string; two: string }) => ({ [holder]: env.two, [kind]: [item('a')] }),
    another: (env: { one: string; two: string }) => ({ [holder]: env.two, [kind]: [item('c')] }),
    reflects(outputs, inputs) {
      const hashes = (items: unknown) => (items as Array<{ hash: string }>).map((i) => i.hash).sort();
      expect(hashes(outputs[kind])).toEqual(hashes(inputs[kind]));
      if (kind === 'fingerprints') expect(outputs[kind]).toEqual(expect.arrayContaining(inputs[kind] as unknown[]));
    },
    badImportId: 'a b',
    ghostId: () => 'ghost_holder',
    createCall: `POST /v1/${collection}/`,
    async census(world, env) {
      const client = (await world.ctx('census')).client as PipelineClient;
      const out: string[] = [];
      for (const id of [env.one, env.two]) if ((await client.list<{ hash: string }>(`/${collection}/${id}/${kind}`)).some((i) => i.hash === 'suite-a')) out.push(id);
      return out;
    },
  } as Parameters<typeof lifecycleSpec<Record<string, unknown>, { one: string; two: string }>>[0]);
}

/** Two database connections for the trust types (apart from the schema config's). */
async function trustConnections(ctx: MakeContext): Promise<{ one: string; two: string }> {
  const groupId = (await group.create(await ctx('group-trust'), { name: 'trust_suite' })).id;
  const make = async (prefix: string) => (await connection.create(await ctx(prefix), { service: 'postgres', groupId, destinationSchema: { prefix }, config: database })).id;
  return { one: await make('trust_one'), two: await make('trust_two') };
}

/** The schema and trust types' lifecycle specs. */
export const schemaSpecs = [
  connectionSchemaConfigSpec,
  trustSpec(connectionCertificates, 'connectionId', 'certificates', trustConnections),
  trustSpec(connectionFingerprints, 'connectionId', 'fingerprints', trustConnections),
  trustSpec(destinationCertificates, 'destinationId', 'certificates', (ctx) => twoDestinations(ctx, 'dest_certs')),
  trustSpec(destinationFingerprints, 'destinationId', 'fingerprints', (ctx) => twoDestinations(ctx, 'dest_fps')),
];
