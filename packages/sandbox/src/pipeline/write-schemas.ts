/**
 * A connection's schema config (REST v1 `/connections/{id}/schemas...`): which schemas, tables
 * and columns sync, hashed or not, in which sync mode, and what happens to new ones. It does not
 * exist until captured: GET and PATCH answer 404 `NotFound_SchemaConfig` until a reload reads the
 * source (schema-source.ts), or a POST gives one before the source is read. Columns show only once someone changed them, as the API does; the
 * live column list shows all. A PATCH is all or nothing: a name the config lacks is a 404, a
 * change the API forbids (excluding a primary key, column settings on a table without them) a
 * 400, and nothing is changed.
 */
import type { SandboxRequest, SandboxResponse } from '../types.js';
import { fail, notFound, ok } from './http.js';
import type { ColumnConfig, Connection, PipelineData, SchemaConfig, StandardConfig, TableConfig } from './model.js';
import { route, type Route } from './route.js';
import { isDatabase, sourceOf } from './schema-source.js';
import { bodyOf } from './write-common.js';

const HANDLING = ['ALLOW_ALL', 'ALLOW_COLUMNS', 'BLOCK_ALL'] as const;
const SYNC_MODES = ['SOFT_DELETE', 'HISTORY', 'LIVE'];

type Handling = StandardConfig['schema_change_handling'];
type Answer = { value: StandardConfig; connection: Connection } | SandboxResponse;

/** A problem found while applying a PATCH: its status decides the answer. */
interface Problem {
  status: 400 | 404;
  code: string;
  message: string;
}

/** The connection and its captured config, or the API's 404 for either. */
function configOf(id: string, data: PipelineData): Answer {
  const connection = data.connections.find((c) => c.id === id);
  if (!connection) return notFound('NotFound_Connection', 'Connection', id);
  const value = data.schemaConfigs?.[id];
  // A config kept for a deleted connection whose id was given again is not this one's.
  if (!value || value.created_for !== connection.created_at) return fail(404, 'NotFound_SchemaConfig', `Schema config for connection '${id}' does not exist: reload the schema first.`);
  return { value, connection };
}

/** The config as the API shows it: columns nobody changed are left out. */
export function shownConfig(config: StandardConfig): unknown {
  const schemas = Object.fromEntries(
    Object.entries(config.schemas).map(([name, schema]) => [
      name,
      {
        name_in_destination: schema.name_in_destination,
        enabled: schema.enabled,
        tables: Object.fromEntries(
          Object.entries(schema.tables).map(([tname, { columns, ...table }]) => [
            tname,
            { ...structuredClone(table), columns: Object.fromEntries(Object.entries(columns).flatMap(([c, { touched, ...column }]) => (touched ? [[c, structuredClone(column)]] : []))) },
          ]),
        ),
      },
    ]),
  );
  return { schema_change_handling: config.schema_change_handling, enable_new_by_default: config.schema_change_handling === 'ALLOW_ALL', schemas };
}

function newColumn(name: string, primary: boolean, enabled: boolean): ColumnConfig {
  const settings = primary ? { allowed: false, reason_code: 'OTHER' as const, reason: 'A primary key column cannot be excluded' } : { allowed: true };
  return { name_in_destination: name, enabled: primary || enabled, hashed: false, is_primary_key: primary, enabled_patch_settings: settings, touched: false };
}

/**
 * A column's settings kept through a capture; one set before the source was read (a pre-created
 * config) that turns out to be the primary key is included whatever it asked, as the API ignores
 * settings it cannot apply.
 */
function kept(column: ColumnConfig | undefined, name: string, primary: boolean): ColumnConfig | undefined {
  if (!column || !primary || column.is_primary_key) return column;
  return { ...newColumn(name, true, true), hashed: column.hashed, touched: column.touched };
}

/**
 * The config a capture of the source gives: what was configured before is kept (PRESERVE), new
 * schemas and tables are included or not as the handling (or EXCLUDE) says, new columns are
 * included unless everything new is blocked.
 */
function capture(connection: Connection, data: PipelineData, prior: StandardConfig | undefined, exclude: boolean): StandardConfig {
  const handling: Handling = prior?.schema_change_handling ?? 'ALLOW_ALL';
  const newTables = !prior || (!exclude && handling === 'ALLOW_ALL');
  const newColumns = !prior || (!exclude && handling !== 'BLOCK_ALL');
  const history = isDatabase(connection);
  const schemas: Record<string, SchemaConfig> = {};
  for (const [sname, tables] of Object.entries(sourceOf(connection, data))) {
    const was = prior?.schemas[sname];
    const schema: SchemaConfig = { name_in_destination: sname, enabled: was?.enabled ?? newTables, tables: {} };
    for (const [tname, columns] of Object.entries(tables)) {
      const old = was?.tables[tname];
      const table: TableConfig = old
        ? { ...old, columns: {} }
        : { name_in_destination: tname, enabled: newTables, supports_columns_config: true, supports_history_mode: history, enabled_patch_settings: { allowed: true }, columns: {} };
      if (!old && history) table.sync_mode = 'SOFT_DELETE';
      columns.forEach((c, i) => (table.columns[c] = kept(old?.columns[c], c, i === 0) ?? newColumn(c, i === 0, newColumns)));
      schema.tables[tname] = table;
    }
    schemas[sname] = schema;
  }
  return { created_for: connection.created_at, schema_change_handling: handling, schemas };
}

function reload(req: SandboxRequest, id: string, data: PipelineData): SandboxResponse {
  const connection = data.connections.find((c) => c.id === id);
  if (!connection) return notFound('NotFound_Connection', 'Connection', id);
  const body = req.rawBody.trim() === '' ? { value: {} } : bodyOf(req);
  if ('status' in body) return body;
  const mode = body.value.exclude_mode ?? 'PRESERVE';
  if (mode !== 'PRESERVE' && mode !== 'EXCLUDE') return fail(400, 'InvalidInput', `Invalid exclude_mode '${String(mode)}': expected PRESERVE or EXCLUDE.`);
  const prior = data.schemaConfigs?.[id]?.created_for === connection.created_at ? data.schemaConfigs[id] : undefined;
  data.schemaConfigs ??= {};
  data.schemaConfigs[id] = capture(connection, data, prior, mode === 'EXCLUDE');
  return ok(shownConfig(data.schemaConfigs[id]), 'Schema has been reloaded');
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a flag of a PATCH entry; undefined = not given. */
function flag(entry: Record<string, unknown>, key: string, where: string, problems: Problem[]): boolean | undefined {
  const value = entry[key];
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value;
  problems.push({ status: 400, code: 'InvalidInput', message: `Field '${key}' of ${where} must be true or false.` });
  return undefined;
}

/** Sets `enabled` where the API allows it. */
function setEnabled(target: { enabled: boolean; enabled_patch_settings: { allowed: boolean; reason?: string } }, value: boolean | undefined, where: string, problems: Problem[]): void {
  if (value === undefined || value === target.enabled) return;
  if (!value || target.enabled_patch_settings.allowed) target.enabled = value;
  if (!target.enabled_patch_settings.allowed)
    problems.push({ status: 400, code: 'InvalidInput', message: `${where} cannot be ${value ? 'included' : 'excluded'}: ${target.enabled_patch_settings.reason ?? 'not allowed'}.` });
}

function patchColumn(table: TableConfig, name: string, entry: unknown, where: string, problems: Problem[]): void {
  const column = table.columns[name];
  const at = `column '${name}' of ${where}`;
  if (!column) return void problems.push({ status: 404, code: 'NotFound_Column', message: `Column '${name}' is not in ${where}.` });
  if (!isMap(entry)) return void problems.push({ status: 400, code: 'InvalidInput', message: `Settings of ${at} must be an object.` });
  setEnabled(column, flag(entry, 'enabled', at, problems), `Column '${name}' of ${where}`, problems);
  const hashed = flag(entry, 'hashed', at, problems);
  if (hashed !== undefined) column.hashed = hashed;
  column.touched = true;
}

function patchTable(schema: SchemaConfig, name: string, entry: unknown, where: string, problems: Problem[]): void {
  const table = schema.tables[name];
  const at = `table '${name}' of ${where}`;
  if (!table) return void problems.push({ status: 404, code: 'NotFound_Table', message: `Table '${name}' is not in ${where}.` });
  if (!isMap(entry)) return void problems.push({ status: 400, code: 'InvalidInput', message: `Settings of ${at} must be an object.` });
  setEnabled(table, flag(entry, 'enabled', at, problems), `Table '${name}' of ${where}`, problems);
  if (entry.sync_mode !== undefined) {
    if (!table.supports_history_mode) problems.push({ status: 400, code: 'InvalidInput', message: `Table '${name}' of ${where} does not support switching sync_mode.` });
    else if (!SYNC_MODES.includes(String(entry.sync_mode)))
      problems.push({ status: 400, code: 'InvalidInput', message: `Invalid sync_mode '${String(entry.sync_mode)}' of ${at}: expected one of ${SYNC_MODES.join(', ')}.` });
    else table.sync_mode = entry.sync_mode as TableConfig['sync_mode'];
  }
  if (entry.columns === undefined) return;
  if (!table.supports_columns_config) return void problems.push({ status: 400, code: 'InvalidInput', message: `Table '${name}' of ${where} does not support column settings.` });
  if (!isMap(entry.columns)) return void problems.push({ status: 400, code: 'InvalidInput', message: `Field 'columns' of ${at} must be an object.` });
  for (const [column, settings] of Object.entries(entry.columns)) patchColumn(table, column, settings, `${at}`, problems);
}

function patchSchema(config: StandardConfig, name: string, entry: unknown, where: string, problems: Problem[]): void {
  const schema = config.schemas[name];
  const at = `schema '${name}' of ${where}`;
  if (!schema) return void problems.push({ status: 404, code: 'NotFound_Schema', message: `Schema '${name}' is not in ${where}.` });
  if (!isMap(entry)) return void problems.push({ status: 400, code: 'InvalidInput', message: `Settings of ${at} must be an object.` });
  const enabled = flag(entry, 'enabled', at, problems);
  if (enabled !== undefined) schema.enabled = enabled;
  if (entry.tables === undefined) return;
  if (!isMap(entry.tables)) return void problems.push({ status: 400, code: 'InvalidInput', message: `Field 'tables' of ${at} must be an object.` });
  for (const [table, settings] of Object.entries(entry.tables)) patchTable(schema, table, settings, at, problems);
}

/**
 * Applies `change` to a copy of the connection's config and keeps it only if nothing was wrong:
 * the answer is the whole config, or the first problem's status with every problem's message.
 */
function patched(req: SandboxRequest, id: string, data: PipelineData, change: (config: StandardConfig, body: Record<string, unknown>, where: string, problems: Problem[]) => void): SandboxResponse {
  const found = configOf(id, data);
  if ('status' in found) return found;
  const body = bodyOf(req);
  if ('status' in body) return body;
  const copy = structuredClone(found.value);
  const problems: Problem[] = [];
  change(copy, body.value, `the schema config of connection '${id}'`, problems);
  if (problems.length) return fail(problems[0].status, problems[0].code, problems.map((p) => p.message).join(' '));
  data.schemaConfigs![id] = copy;
  return ok(shownConfig(copy), 'Connection schema config has been updated');
}

function patchAll(config: StandardConfig, body: Record<string, unknown>, where: string, problems: Problem[]): void {
  const handling = body.schema_change_handling;
  if (handling !== undefined) {
    if (HANDLING.includes(handling as Handling)) config.schema_change_handling = handling as Handling;
    else problems.push({ status: 400, code: 'InvalidInput', message: `Invalid schema_change_handling '${String(handling)}': expected one of ${HANDLING.join(', ')}.` });
  }
  if (body.schemas === undefined) return;
  if (!isMap(body.schemas)) return void problems.push({ status: 400, code: 'InvalidInput', message: "Field 'schemas' must be an object." });
  for (const [schema, settings] of Object.entries(body.schemas)) patchSchema(config, schema, settings, where, problems);
}

function liveColumns(id: string, schema: string, table: string, data: PipelineData): SandboxResponse {
  const found = configOf(id, data);
  if ('status' in found) return found;
  const columns = found.value.schemas[schema]?.tables[table]?.columns;
  if (!columns) return fail(404, 'NotFound_Table', `Table '${schema}.${table}' is not in the schema config of connection '${id}'.`);
  return ok({ columns: Object.fromEntries(Object.entries(columns).map(([name, { touched: _, ...column }]) => [name, column])) });
}

/** A pre-created table's settings from its request entry, problems noted. */
function requestedTable(name: string, entry: unknown, history: boolean, where: string, problems: Problem[]): TableConfig {
  const table: TableConfig = { name_in_destination: name, enabled: true, supports_columns_config: true, supports_history_mode: history, enabled_patch_settings: { allowed: true }, columns: {} };
  if (!isMap(entry)) {
    problems.push({ status: 400, code: 'InvalidInput', message: `Settings of ${where} must be an object.` });
    return table;
  }
  table.enabled = flag(entry, 'enabled', where, problems) ?? true;
  if (entry.sync_mode !== undefined && !SYNC_MODES.includes(String(entry.sync_mode)))
    problems.push({ status: 400, code: 'InvalidInput', message: `Invalid sync_mode '${String(entry.sync_mode)}' of ${where}.` });
  else if (entry.sync_mode !== undefined) table.sync_mode = entry.sync_mode as TableConfig['sync_mode'];
  for (const [column, settings] of Object.entries(isMap(entry.columns) ? entry.columns : {})) {
    const at = `column '${column}' of ${where}`;
    const given = isMap(settings) ? settings : {};
    const primary = flag(given, 'is_primary_key', at, problems) ?? false;
    table.columns[column] = { ...newColumn(column, primary, flag(given, 'enabled', at, problems) ?? true), hashed: flag(given, 'hashed', at, problems) ?? false, touched: true };
  }
  return table;
}

/**
 * `POST /connections/{id}/schemas`: a config given before the source is read, answered as given
 * (200; the OpenAPI document: "the response returns the exact settings provided in the
 * request"); the next capture applies it where the source allows. A connection whose config
 * exists already is refused (409).
 */
function precreate(req: SandboxRequest, id: string, data: PipelineData): SandboxResponse {
  const connection = data.connections.find((c) => c.id === id);
  if (!connection) return notFound('NotFound_Connection', 'Connection', id);
  if (data.schemaConfigs?.[id]?.created_for === connection.created_at) return fail(409, 'Conflict', `Schema config for connection '${id}' already exists: change it with PATCH.`);
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const problems: Problem[] = [];
  if (v.schema_change_handling !== undefined && !HANDLING.includes(v.schema_change_handling as Handling))
    problems.push({ status: 400, code: 'InvalidInput', message: `Invalid schema_change_handling '${String(v.schema_change_handling)}': expected one of ${HANDLING.join(', ')}.` });
  if (!isMap(v.schemas)) problems.push({ status: 400, code: 'InvalidInput', message: "Field 'schemas' is required: an object." });
  const config: StandardConfig = { created_for: connection.created_at, schema_change_handling: (v.schema_change_handling as Handling) ?? 'ALLOW_ALL', schemas: {} };
  for (const [name, entry] of Object.entries(isMap(v.schemas) ? v.schemas : {})) {
    const given = isMap(entry) ? entry : {};
    const schema: SchemaConfig = { name_in_destination: name, enabled: flag(given, 'enabled', `schema '${name}'`, problems) ?? true, tables: {} };
    for (const [table, settings] of Object.entries(isMap(given.tables) ? given.tables : {})) {
      schema.tables[table] = requestedTable(table, settings, isDatabase(connection), `table '${table}' of schema '${name}'`, problems);
    }
    config.schemas[name] = schema;
  }
  if (problems.length) return fail(problems[0].status, problems[0].code, problems.map((p) => p.message).join(' '));
  data.schemaConfigs ??= {};
  data.schemaConfigs[id] = config;
  return ok(shownConfig(config), 'Schema configuration pre-created successfully');
}

const base = '/v1/connections/:id/schemas';

/** The schema config routes. */
export const schemaRoutes: Route[] = [
  route('GET', base, (_, p, d) => {
    const found = configOf(p.id, d);
    return 'status' in found ? found : ok(shownConfig(found.value));
  }),
  route('POST', base, (req, p, d) => precreate(req, p.id, d)),
  route('PATCH', base, (req, p, d) => patched(req, p.id, d, patchAll)),
  route('POST', `${base}/reload`, (req, p, d) => reload(req, p.id, d)),
  route('PATCH', `${base}/:schema`, (req, p, d) => patched(req, p.id, d, (c, body, where, problems) => patchSchema(c, p.schema, body, where, problems))),
  route('PATCH', `${base}/:schema/tables/:table`, (req, p, d) =>
    patched(req, p.id, d, (c, body, where, problems) => {
      const schema = c.schemas[p.schema];
      if (!schema) problems.push({ status: 404, code: 'NotFound_Schema', message: `Schema '${p.schema}' is not in ${where}.` });
      else patchTable(schema, p.table, body, `schema '${p.schema}' of ${where}`, problems);
    }),
  ),
  route('PATCH', `${base}/:schema/tables/:table/columns/:column`, (req, p, d) =>
    patched(req, p.id, d, (c, body, where, problems) => {
      const table = c.schemas[p.schema]?.tables[p.table];
      if (!table) problems.push({ status: 404, code: 'NotFound_Table', message: `Table '${p.schema}.${p.table}' is not in ${where}.` });
      else patchColumn(table, p.column, body, `table '${p.table}' of schema '${p.schema}' of ${where}`, problems);
    }),
  ),
  route('GET', `${base}/:schema/tables/:table/columns`, (_, p, d) => liveColumns(p.id, p.schema, p.table, d)),
];
