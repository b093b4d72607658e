/**
 * A connection's schema config as the API sends it (`GET /connections/{id}/schemas`), and the
 * three translations ConnectionSchemaConfig needs: the API's config in the manifest's terms (only
 * what a declaration names, or everything for an import), a recorded config pruned to what the
 * manifest declares, and the one PATCH body carrying every difference.
 */

/** How new schemas, tables and columns are treated. */
export const HANDLING = ['ALLOW_ALL', 'ALLOW_COLUMNS', 'BLOCK_ALL'] as const;
/** How a table that keeps history syncs. */
export const SYNC_MODES = ['SOFT_DELETE', 'HISTORY', 'LIVE'] as const;

/** A column's settings as declared and as observed. */
export interface ColumnSettings {
  enabled?: boolean;
  hashed?: boolean;
}

/** A table's settings as declared and as observed. */
export interface TableSettings {
  enabled?: boolean;
  syncMode?: (typeof SYNC_MODES)[number];
  columns?: Record<string, ColumnSettings>;
}

/** A schema's settings as declared and as observed. */
export interface SchemaSettings {
  enabled?: boolean;
  tables?: Record<string, TableSettings>;
}

/** The schema config in the manifest's terms. */
export interface SchemaConfigSettings {
  schemaChangeHandling?: (typeof HANDLING)[number];
  schemas?: Record<string, SchemaSettings>;
}

interface WireColumn {
  enabled: boolean;
  hashed?: boolean;
}

interface WireTable {
  enabled: boolean;
  sync_mode?: TableSettings['syncMode'];
  columns?: Record<string, WireColumn>;
}

interface WireSchema {
  enabled: boolean;
  tables?: Record<string, WireTable>;
}

/** The config on the wire (`StandardConfigResponse`). */
export interface WireSchemaConfig {
  schema_change_handling: (typeof HANDLING)[number];
  schemas?: Record<string, WireSchema>;
}

/** Each entry of `declared` (every entry of `reported` without one) mapped by `each`; an entry `reported` lacks is left out. */
function project<W, D, O>(reported: Record<string, W> | undefined, declared: Record<string, D> | undefined, each: (wire: W, declared: D | undefined) => O): Record<string, O> {
  const out: Record<string, O> = {};
  const names = declared ? Object.keys(declared) : Object.keys(reported ?? {});
  for (const name of names) {
    const wire = reported?.[name];
    if (wire !== undefined) out[name] = each(wire, declared?.[name]);
  }
  return out;
}

/** The fields of `all` that `declared` gives (all of them without a declaration). */
function given<T extends object>(all: T, declared: object | undefined): T {
  if (!declared) return all;
  return Object.fromEntries(Object.entries(all).filter(([key, value]) => key in declared && (declared as Record<string, unknown>)[key] !== undefined && value !== undefined)) as T;
}

function column(wire: WireColumn | undefined, declared: ColumnSettings | undefined): ColumnSettings {
  // The API shows a column only once someone changed it: one it does not show has its defaults.
  return given({ enabled: wire?.enabled ?? true, hashed: wire?.hashed ?? false }, declared);
}

function table(wire: WireTable, declared: TableSettings | undefined): TableSettings {
  const out: TableSettings = given({ enabled: wire.enabled, syncMode: wire.sync_mode }, declared);
  if (wire.sync_mode === undefined) delete out.syncMode;
  const names = declared ? Object.keys(declared.columns ?? {}) : Object.keys(wire.columns ?? {});
  if (declared?.columns !== undefined || names.length) out.columns = Object.fromEntries(names.map((name) => [name, column(wire.columns?.[name], declared?.columns?.[name])]));
  return out;
}

function schema(wire: WireSchema, declared: SchemaSettings | undefined): SchemaSettings {
  const out: SchemaSettings = given({ enabled: wire.enabled }, declared);
  if (!declared || declared.tables !== undefined) out.tables = project(wire.tables, declared?.tables, table);
  return out;
}

/**
 * What the API holds, in the manifest's terms: for a declaration, exactly the schemas, tables,
 * columns and fields it names (one the API lacks is left out, so it reads as a change); for an
 * import (none), everything the API shows. The handling is always reported.
 */
export function observedSettings(wire: WireSchemaConfig, declared: SchemaConfigSettings | undefined): SchemaConfigSettings {
  const out: SchemaConfigSettings = { schemaChangeHandling: wire.schema_change_handling };
  if (!declared || declared.schemas !== undefined) out.schemas = project(wire.schemas, declared?.schemas, schema);
  return out;
}

/** Keeps of `recorded` what `desired` declares, recursively: what the manifest leaves out is the API's. */
export function prunedTo(recorded: Record<string, unknown> | undefined, desired: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!recorded || !desired) return recorded;
  const out: Record<string, unknown> = {};
  for (const [key, want] of Object.entries(desired)) {
    if (!(key in recorded) || want === undefined) continue;
    const was = recorded[key];
    const nested = want !== null && typeof want === 'object' && was !== null && typeof was === 'object';
    out[key] = nested ? prunedTo(was as Record<string, unknown>, want as Record<string, unknown>) : was;
  }
  return out;
}

/** Only the entries with something to send. */
function nonEmpty(entries: Array<[string, Record<string, unknown>]>): Record<string, unknown> | undefined {
  const kept = entries.filter(([, value]) => Object.keys(value).length > 0);
  return kept.length ? Object.fromEntries(kept) : undefined;
}

function columnChange(wire: WireColumn | undefined, want: ColumnSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // A column the API does not show was never changed: what is declared for it is sent.
  if (want.enabled !== undefined && (wire === undefined || want.enabled !== wire.enabled)) out.enabled = want.enabled;
  if (want.hashed !== undefined && (wire === undefined || want.hashed !== (wire.hashed ?? false))) out.hashed = want.hashed;
  return out;
}

function tableChange(wire: WireTable | undefined, want: TableSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (want.enabled !== undefined && want.enabled !== wire?.enabled) out.enabled = want.enabled;
  if (want.syncMode !== undefined && want.syncMode !== wire?.sync_mode) out.sync_mode = want.syncMode;
  const columns = nonEmpty(Object.entries(want.columns ?? {}).map(([name, c]) => [name, columnChange(wire?.columns?.[name], c)]));
  if (columns) out.columns = columns;
  return out;
}

function schemaChange(wire: WireSchema | undefined, want: SchemaSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (want.enabled !== undefined && want.enabled !== wire?.enabled) out.enabled = want.enabled;
  const tables = nonEmpty(Object.entries(want.tables ?? {}).map(([name, t]) => [name, tableChange(wire?.tables?.[name], t)]));
  if (tables) out.tables = tables;
  return out;
}

/**
 * The one `PATCH /connections/{id}/schemas` body that makes the API's config what `desired`
 * declares: every difference at once, nothing already so; empty when nothing differs.
 */
export function patchBody(wire: WireSchemaConfig, desired: SchemaConfigSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (desired.schemaChangeHandling !== undefined && desired.schemaChangeHandling !== wire.schema_change_handling) out.schema_change_handling = desired.schemaChangeHandling;
  const schemas = nonEmpty(Object.entries(desired.schemas ?? {}).map(([name, s]) => [name, schemaChange(wire.schemas?.[name], s)]));
  if (schemas) out.schemas = schemas;
  return out;
}
