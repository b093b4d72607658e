/**
 * The two nested views of a connection: `status` (the API's status object) and
 * `destinationSchema` (derived from the wire `schema` string, as the upstream provider does;
 * the API has no such object).
 */
import * as z from 'zod';
import type { WireStatus } from '../../../providers/pipeline/api/connections.js';
import { orNull } from './wire.js';

const alert = (what: string) =>
  z
    .object({
      code: z.string().describe(`Machine code of the ${what}, e.g. reconnect.`),
      message: z.string().describe(`Human text of the ${what}.`),
    })
    .describe(`A ${what}.`);

/** Status result schema. */
export const connectionStatusSchema = z
  .object({
    setupState: z.string().describe('incomplete (setup never passed its tests), connected or broken.'),
    syncState: z.string().describe('scheduled, syncing, paused (always when the connection is paused) or rescheduled (waiting for source API quota).'),
    updateState: z.string().describe('on_schedule or delayed.'),
    isHistoricalSync: z.boolean().describe('True while a full historical re-sync is pending or running.'),
    rescheduledFor: z.string().nullable().describe('When a rescheduled sync will start (RFC 3339); null unless syncState is rescheduled.'),
    tasks: z.array(alert('task that needs user action')).describe('Tasks that need user action before syncs can succeed.'),
    warnings: z.array(alert('warning')).describe('Warnings about the connection.'),
  })
  .describe('Setup and sync status of the connection, as the API reports it.');

/** The status in result form. */
export function toStatus(wire: WireStatus): z.input<typeof connectionStatusSchema> {
  const alerts = (list: WireStatus['tasks']) => (list ?? []).map(({ code, message }) => ({ code, message }));
  return {
    setupState: wire.setup_state,
    syncState: wire.sync_state,
    updateState: wire.update_state,
    isHistoricalSync: wire.is_historical_sync,
    rescheduledFor: orNull(wire.rescheduled_for),
    tasks: alerts(wire.tasks),
    warnings: alerts(wire.warnings),
  };
}

/** destinationSchema result (and hint argument) schema. */
export const destinationSchemaSchema = z
  .object({
    name: z.string().nullable().describe('Schema name in the destination; null for services named by a prefix (databases).'),
    prefix: z.string().nullable().describe('Schema prefix for database services, whose source schemas each become <prefix>_<schema>; null otherwise.'),
    table: z.string().nullable().describe('Table name for single-table services (e.g. google_sheets); null otherwise.'),
    tableGroupName: z.string().nullable().describe('Table group name for file services that sync several tables (e.g. sftp, gcs); null otherwise.'),
  })
  .describe('Where the connection writes in the destination, derived from the API field `schema` (name, or name.table).');

/** As an argument: which part a `name.suffix` schema's suffix is, when the service allows both. */
export const destinationSchemaArg = z
  .object({
    name: z.string().nullish().describe('Ignored; the result reports the API value.'),
    prefix: z.string().nullish().describe('Ignored; the result reports the API value.'),
    table: z.string().nullish().describe('Set (to any value) to read the suffix after "." as a table name.'),
    tableGroupName: z.string().nullish().describe('Set (to any value) to read the suffix after "." as a table group name.'),
  })
  .optional()
  .describe('Optional hint, as in the upstream provider where this block is also an input: says whether the part of the schema after "." is a table or a table group.');

/** Database services: the whole `schema` is a prefix for the source's schemas. */
const PREFIX_SERVICES = new Set([
  'postgres',
  'aurora_postgres',
  'azure_postgres',
  'google_cloud_postgresql',
  'heroku_postgres',
  'postgres_rds',
  'mysql',
  'aurora',
  'azure_mysql',
  'google_cloud_mysql',
  'maria',
  'mysql_rds',
  'sql_server',
  'azure_sql_db',
  'azure_sql_managed_db',
  'sql_server_rds',
  'oracle',
  'oracle_rds',
  'oracle_ebs',
  'mongo',
  'mongo_sharded',
  'cosmos',
  'dynamodb',
  'databricks_db',
  'snowflake_db',
  'db2i_hva',
  'sap_hana',
  'hana_sap_hva_b1',
]);

/** File services that sync several files into a named table group rather than one table. */
const TABLE_GROUP_SERVICES = new Set(['gcs', 'sftp', 'ftp', 'ftps', 'google_drive', 'share_point', 'email', 'dropbox']);

/**
 * Splits the wire `schema` the way the upstream provider does: database services use it as a
 * prefix; others are `name` or `name.suffix`, where the suffix is a table group for the file
 * services known to use groups and a table otherwise, unless the hint names the other part.
 */
export function toDestinationSchema(service: string, schema: string, hint?: { table?: string | null; tableGroupName?: string | null }): z.input<typeof destinationSchemaSchema> {
  if (PREFIX_SERVICES.has(service)) return { name: null, prefix: schema, table: null, tableGroupName: null };
  const dot = schema.indexOf('.');
  if (dot < 0) return { name: schema, prefix: null, table: null, tableGroupName: null };
  const name = schema.slice(0, dot);
  const suffix = schema.slice(dot + 1);
  const asGroup = hint?.tableGroupName != null ? true : hint?.table != null ? false : TABLE_GROUP_SERVICES.has(service);
  return { name, prefix: null, table: asGroup ? null : suffix, tableGroupName: asGroup ? suffix : null };
}
