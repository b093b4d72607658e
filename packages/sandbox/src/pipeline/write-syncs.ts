/**
 * Syncs a caller asks for (REST v1): a sync now (`POST /connections/{id}/sync`, `{force}`; the Go
 * SDK's `POST /connections/{id}/force`, with no body, taken as a forced sync by its name), a historical re-sync of the whole connection or of some
 * tables (`POST .../resync`, `{scope: {schema: [tables]}}`), and a re-sync of tables
 * (`POST .../schemas/tables/resync`, `{schema: [tables]}`; the Go SDK's
 * `POST .../schemas/{schema}/tables/{table}/resync`). Each answers 200 with a message only. The
 * connection reads `syncing` (and `is_historical_sync` for a re-sync) for the provisioning time,
 * then as before with `succeeded_at` set.
 */
import type { SandboxRequest, SandboxResponse, SandboxWorld } from '../types.js';
import { fail, notFound } from './http.js';
import type { Connection, PipelineData } from './model.js';
import { route, type Route } from './route.js';
import { bodyOf, done, problem, timestamp } from './write-common.js';

/** The body of an action whose body is optional: `{}` when none was sent. */
function optionalBody(req: SandboxRequest): { value: Record<string, unknown> } | SandboxResponse {
  return req.rawBody.trim() === '' ? { value: {} } : bodyOf(req);
}

/** Starts a sync of the connection, done after the provisioning time. */
function start(c: Connection, data: PipelineData, world: SandboxWorld, historical: boolean): void {
  c.status.sync_state = 'syncing';
  if (historical) c.status.is_historical_sync = true;
  data.pending[`connections/${c.id}`] = { at: world.now() + world.provisioningMs(), to: 'SYNCED', summary: '' };
}

/** Ends a connection's sync whose time has come (settlePending). */
export function settleSync(c: Connection | undefined, at: number): void {
  if (!c) return;
  c.status.sync_state = c.paused ? 'paused' : 'scheduled';
  c.status.is_historical_sync = false;
  c.succeeded_at = timestamp(at);
}

function withConnection(id: string, data: PipelineData, act: (c: Connection) => SandboxResponse): SandboxResponse {
  const c = data.connections.find((x) => x.id === id);
  return c ? act(c) : notFound('NotFound_Connection', 'Connection', id);
}

/** Sync now: one already running is left to finish unless `force` restarts it (the OpenAPI document's SyncConnectorRequest). */
function sync(req: SandboxRequest, c: Connection, data: PipelineData, world: SandboxWorld, force: boolean | undefined): SandboxResponse {
  const body = optionalBody(req);
  if ('status' in body) return body;
  const forced = force ?? body.value.force ?? false;
  if (typeof forced !== 'boolean') return problem("Field 'force' must be true or false.");
  if (c.status.sync_state !== 'syncing' || forced) start(c, data, world, false);
  return done('Sync has been successfully triggered for connection with id = ' + c.id);
}

/** Why a `{schema: [tables]}` map is refused, naming what the connection's schema config lacks; undefined when it is sound. */
function scopeProblem(scope: unknown, c: Connection, data: PipelineData): SandboxResponse | undefined {
  if (typeof scope !== 'object' || scope === null || Array.isArray(scope) || !Object.keys(scope).length) return problem('The scope must name at least one schema with its tables.');
  const config = data.schemaConfigs?.[c.id];
  for (const [schema, tables] of Object.entries(scope)) {
    if (!Array.isArray(tables) || !tables.length || !tables.every((t) => typeof t === 'string')) return problem(`Schema '${schema}' must list at least one table.`);
    if (!config || config.created_for !== c.created_at) return fail(404, 'NotFound_SchemaConfig', `Schema config for connection '${c.id}' does not exist: reload the schema first.`);
    const missing = tables.find((t) => !config.schemas[schema]?.tables[t]);
    if (missing !== undefined) return fail(404, 'NotFound_Table', `Table '${schema}.${missing}' is not in the schema config of connection '${c.id}'.`);
  }
  return undefined;
}

/** A historical re-sync, of everything or of the tables `scope` names; refused while a sync runs (409). */
function resync(req: SandboxRequest, c: Connection, data: PipelineData, world: SandboxWorld): SandboxResponse {
  const body = optionalBody(req);
  if ('status' in body) return body;
  if (body.value.scope !== undefined) {
    const refused = scopeProblem(body.value.scope, c, data);
    if (refused) return refused;
  }
  if (c.status.sync_state === 'syncing') return fail(409, 'Conflict', `Connection '${c.id}' is syncing: the re-sync cannot be scheduled until it ends.`);
  start(c, data, world, true);
  return done('Re-sync has been triggered successfully');
}

/** A re-sync of the tables `scope` names. */
function resyncTables(scope: unknown, c: Connection, data: PipelineData, world: SandboxWorld): SandboxResponse {
  const refused = scopeProblem(scope, c, data);
  if (refused) return refused;
  start(c, data, world, true);
  return done('Re-sync has been triggered successfully');
}

/** The sync and re-sync routes. */
export const syncRoutes: Route[] = [
  route('POST', '/v1/connections/:id/sync', (req, p, d, w) => withConnection(p.id, d, (c) => sync(req, c, d, w, undefined))),
  route('POST', '/v1/connections/:id/force', (req, p, d, w) => withConnection(p.id, d, (c) => sync(req, c, d, w, true))),
  route('POST', '/v1/connections/:id/resync', (req, p, d, w) => withConnection(p.id, d, (c) => resync(req, c, d, w))),
  route('POST', '/v1/connections/:id/schemas/tables/resync', (req, p, d, w) =>
    withConnection(p.id, d, (c) => {
      const body = bodyOf(req);
      return 'status' in body ? body : resyncTables(body.value, c, d, w);
    }),
  ),
  route('POST', '/v1/connections/:id/schemas/:schema/tables/:table/resync', (_, p, d, w) => withConnection(p.id, d, (c) => resyncTables({ [p.schema]: [p.table] }, c, d, w))),
];
