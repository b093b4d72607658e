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

function column(wire: WireColumn | undefined): ColumnSettings {
  // The API shows a column only once someone changed it: one it does not show has its defaults.
  return { enabled: wire?.enabled ?? true, hashed: wire?.hashed ?? false };
}

function table(wire: WireTable, declared: TableSettings | undefined): TableSettings {
  const out: TableSettings = { enabled: wire.enabled };
  if (wire.sync_mode !== undefined) out.syncMode = wire.sync_mode;
  const names = declared ? Object.keys(declared.columns ?? {}) : Object.keys(wire.columns ?? {});
  if (declared?.columns !== undefined || names.length) out.columns = Object.fromEntries(names.map((name) => [name, column(wire.columns?.[name])]));
  return out;
}

function schema(wire: WireSchema, declared: SchemaSettings | undefined): SchemaSettings {
  const out: SchemaSettings = { enabled: wire.enabled };
  if (!declared || declared.tables !== undefined) out.tables = project(wire.tables, declared?.tables, table);
  return out;
}

/**
 * What the API holds, in the manifest's terms: for a declaration, exactly the schemas, tables and
 * columns it names (one the API lacks is left out, so it reads as a change), each with every
 * setting the API holds for it, so a setting written into the manifest later is compared with
 * the API's (see prunedTo); for an import (none), everything the API shows. The handling is
 * always reported.
 */
export function observedSettings(wire: WireSchemaConfig, declared: SchemaConfigSettings | undefined): SchemaConfigSettings {
  const out: SchemaConfigSettings = { schemaChangeHandling: wire.schema_change_handling };
  if (!declared || declared.schemas !== undefined) out.schemas = project(wire.schemas, declared?.schemas, schema);
  return out;
}

/**
 * Keeps of `recorded` what `desired` declares, recursively: what the manifest leaves out is the
 * API's. What `desired` declares that `recorded` lacks (a setting, a table, a whole `tables` or
 * `columns` map written into the manifest after the object was made) is what `observed` (the
 * outputs, read for what the manifest names) says the API holds, so writing down what it already
 * has is no change, and anything else is one an update sends. What the API lacks stays out, a
 * change.
 */
export function prunedTo(recorded: Record<string, unknown> | undefined, desired: Record<string, unknown> | undefined, observed?: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!recorded || !desired) return recorded;
  const out: Record<string, unknown> = {};
  for (const [key, want] of Object.entries(desired)) {
    if (want === undefined) continue;
    const seen = observed !== null && typeof observed === 'object' ? observed[key] : undefined;
    if (!(key in recorded) && seen === undefined) continue;
    const was = key in recorded ? recorded[key] : seen;
    const nested = want !== null && typeof want === 'object' && was !== null && typeof was === 'object';
    out[key] = nested ? prunedTo(was as Record<string, unknown>, want as Record<string, unknown>, seen as Record<string, unknown> | undefined) : was;
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
