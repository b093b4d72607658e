/**
 * The lifecycle spec of every pipeline resource type, run by tests/resources/lifecycle.test.ts: a
 * type the registry holds without a spec here fails that suite, naming this file.
 */
import { expect } from 'vitest';
import { pipelineProvider, type PipelineClient } from '../../../src/providers/pipeline/index.js';
import { connection } from '../../../src/resources/pipeline/connection.js';
import { connectionSchedule } from '../../../src/resources/pipeline/connection-schedule.js';
import { destination } from '../../../src/resources/pipeline/destination.js';
import { group } from '../../../src/resources/pipeline/group.js';
import { peopleSpecs } from './people-specs.js';
import { schemaSpecs } from './schema-specs.js';
import { platformSpecs } from './platform-specs.js';
import { lifecycleSpec, type LifecycleWorld, type MakeContext, type ProviderLifecycleSpecs } from '../../support/lifecycle.js';

/** The ids of a collection as the API lists it to anyone. */
async function ids(world: LifecycleWorld, path: string): Promise<string[]> {
  const client = (await world.ctx('census')).client as PipelineClient;
  return (await client.list<{ id: string }>(path)).map((item) => item.id);
}

/** A new group of this name, for the types that live in one. */
async function newGroup(ctx: MakeContext, name: string): Promise<string> {
  return (await group.create(await ctx(`group-${name}`), { name })).id;
}

/** The lifecycle spec of Group. */
export const groupSpec = lifecycleSpec({
  type: group,
  create: () => ({ name: 'suite_group' }),
  update: () => ({ name: 'suite_group_renamed' }),
  another: () => ({ name: 'suite_group_other' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ name: inputs.name });
  },
  badImportId: 'not a group id',
  ghostId: () => 'ghost_group',
  createCall: 'POST /v1/groups',
  census: (world) => ids(world, '/groups'),
});

const warehouse = { host: 'warehouse.acme-data.io', port: 5432, user: 'loader', password: 'pw-warehouse', database: 'dw' };

/** The lifecycle spec of Destination, in groups made first (a group holds one destination). */
export const destinationSpec = lifecycleSpec({
  type: destination,
  setup: async (ctx) => ({ one: await newGroup(ctx, 'dest_suite_one'), two: await newGroup(ctx, 'dest_suite_two') }),
  create: (env) => ({ groupId: env.one, service: 'postgres_warehouse', timeZoneOffset: '0', config: warehouse }),
  update: (env) => ({ groupId: env.one, service: 'postgres_warehouse', timeZoneOffset: '+1', region: 'AWS_EU_CENTRAL_1', config: { ...warehouse, port: '5433' } }),
  // A destination's id is its group's: a replacement with another id is one in another group.
  replace: (env) => ({ groupId: env.two, service: 'snowflake', timeZoneOffset: '0', config: { host: 'xy1.snowflakecomputing.com', user: 'LOADER', password: 'pw-snow' } }),
  another: (env) => ({ groupId: env.two, service: 'postgres_warehouse', timeZoneOffset: '-5', config: warehouse }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ groupId: inputs.groupId, service: inputs.service, timeZoneOffset: inputs.timeZoneOffset });
    if (inputs.region) expect(outputs.region).toBe(inputs.region);
  },
  badImportId: 'a/b',
  ghostId: () => 'ghost_destination',
  createCall: 'POST /v1/destinations',
  census: (world) => ids(world, '/destinations'),
});

const database = { host: 'orders-db.acme-data.io', port: '5432', user: 'fivetran', password: 'pw-orders', database: 'orders', update_method: 'WAL' };

/** The lifecycle spec of Connection, in a group made first. */
export const connectionSpec = lifecycleSpec({
  type: connection,
  setup: (ctx) => newGroup(ctx, 'conn_suite'),
  create: (groupId) => ({ service: 'postgres', groupId, destinationSchema: { prefix: 'suite_pg' }, config: database }),
  update: (groupId) => ({ service: 'postgres', groupId, destinationSchema: { prefix: 'suite_pg' }, config: { ...database, port: 5433 }, paused: true }),
  replace: (groupId) => ({ service: 'postgres', groupId, destinationSchema: { prefix: 'suite_pg_moved' }, config: database }),
  another: (groupId) => ({ service: 'postgres', groupId, destinationSchema: { prefix: 'suite_pg_other' }, config: database }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ service: inputs.service, groupId: inputs.groupId, destinationSchema: inputs.destinationSchema });
    if (inputs.paused !== undefined) expect(outputs.paused).toBe(inputs.paused);
  },
  badImportId: 'no such/id',
  ghostId: () => 'ghost_connection',
  createCall: 'POST /v1/connections',
  census: (world) => ids(world, '/connections'),
});

/** Two connections made first, for the schedule of each. */
async function twoConnections(ctx: MakeContext): Promise<{ one: string; two: string }> {
  const groupId = await newGroup(ctx, 'schedule_suite');
  const make = async (name: string) => (await connection.create(await ctx(name), { service: 'stripe', groupId, destinationSchema: { name } })).id;
  return { one: await make('stripe_one'), two: await make('stripe_two') };
}

/** The lifecycle spec of ConnectionSchedule, on connections made first. */
export const connectionScheduleSpec = lifecycleSpec({
  type: connectionSchedule,
  partOf: true,
  setup: twoConnections,
  create: (env) => ({ connectionId: env.one, syncFrequency: 1440, dailySyncTime: '03:00', scheduleType: 'auto' as const }),
  update: (env) => ({ connectionId: env.one, syncFrequency: 60, scheduleType: 'manual' as const, paused: true }),
  replace: (env) => ({ connectionId: env.two, syncFrequency: 1440, dailySyncTime: '03:00', scheduleType: 'auto' as const }),
  another: (env) => ({ connectionId: env.two, syncFrequency: 720 }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject(Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== undefined)));
  },
  badImportId: 'a b',
  ghostId: () => 'ghost_connection',
  createCall: 'PATCH /v1/connections/',
  // The connections whose schedule is daily at 03:00, as `create` declares it.
  async census(world) {
    const client = (await world.ctx('census')).client as PipelineClient;
    const all = await client.list<{ id: string; sync_frequency: number; daily_sync_time?: string }>('/connections');
    return all.filter((c) => c.sync_frequency === 1440 && c.daily_sync_time === '03:00').map((c) => c.id);
  },
});

/** The pipeline resource types' lifecycle specs. */
export const pipelineLifecycle: ProviderLifecycleSpecs = {
  provider: pipelineProvider,
  specs: [groupSpec, destinationSpec, connectionSpec, connectionScheduleSpec, ...peopleSpecs, ...schemaSpecs, ...platformSpecs],
};
