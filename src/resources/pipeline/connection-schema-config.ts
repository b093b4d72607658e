/**
 * ConnectionSchemaConfig: which schemas, tables and columns of a connection sync (enabled,
 * hashed, sync mode) and what happens to new ones (`schemaChangeHandling`), kept by the API
 * under `/connections/{id}/schemas`.
 *
 * Made for connections with hundreds of tables: a read is ONE `GET .../schemas` whatever the
 * size; a create is ONE `PATCH .../schemas` carrying every declared setting, an update one GET
 * and ONE PATCH carrying every difference (never a call per table). A connection whose schema was
 * never captured answers `NotFound_SchemaConfig`; the API then needs a reload
 * (`POST .../schemas/reload`, which keeps what was configured) before the first PATCH. Only what the manifest declares is managed: schemas, tables and columns left
 * out are the API's to decide, and a change made elsewhere to a declared one (a table excluded
 * in the web UI) is drift at its path, `schemas.<s>.tables.<t>.enabled`.
 *
 * Deleting it stops managing the settings: the platform keeps them as they are (the API has no
 * delete). Its id, and import id, is the connection's.
 */
import * as z from 'zod';
import { isRemote } from '../../kernel/errors.js';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { freeForm } from '../../engine/contracts/strict.js';
import { apiIdFormat, unlessGone, type Ctx } from './kit.js';
import { connectionPath } from '../../providers/pipeline/api/connections.js';
import { schemaNamesCheck } from './schema-check.js';
import { HANDLING, observedSettings, patchBody, prunedTo, SYNC_MODES, type SchemaConfigSettings, type WireSchemaConfig } from './schema-config-wire.js';

const enabled = (what: string) => z.boolean().optional().describe(`Whether the ${what} syncs. Left out: the API's choice (its schemaChangeHandling), never a change.`);

const columnInput = z
  .object({
    enabled: enabled('column'),
    hashed: z.boolean().optional().describe('Whether the column arrives hashed (kept joinable, not readable). Default false.'),
  })
  .strict();

const tableInput = z
  .object({
    enabled: enabled('table'),
    syncMode: z.enum(SYNC_MODES).optional().describe("`SOFT_DELETE`, `HISTORY` or `LIVE`, for tables that support history mode (database tables). Left out: the API's."),
    columns: freeForm(z.record(z.string(), columnInput), "keyed by the source's column names").optional().describe("Columns by their source name (case-sensitive). Columns left out are the API's."),
  })
  .strict();

const schemaInput = z
  .object({
    enabled: enabled('schema'),
    tables: freeForm(z.record(z.string(), tableInput), "keyed by the source's table names").optional().describe("Tables by their source name (case-sensitive). Tables left out are the API's."),
  })
  .strict();

/** Inputs of a connection's schema config. */
export const connectionSchemaConfigInputs = z.object({
  connectionId: z.string().min(1).describe('Id of the connection whose schema config this is. Required.'),
  schemaChangeHandling: z
    .enum(HANDLING)
    .optional()
    .describe("New schemas, tables and columns: `ALLOW_ALL` (all sync), `ALLOW_COLUMNS` (new columns only) or `BLOCK_ALL` (none). Default: the API's (`ALLOW_ALL`)."),
  schemas: freeForm(z.record(z.string(), schemaInput), "keyed by the source's schema names")
    .optional()
    .describe('Schemas by their source name (case-sensitive), each with its tables and their columns; plan refuses a schema or table the source does not have. Only what is named here is managed.'),
});

/** Inputs of a connection's schema config. */
export type ConnectionSchemaConfigInputs = z.output<typeof connectionSchemaConfigInputs>;

/** What the API reports of a connection's schema config (for what the manifest declares). */
export const connectionSchemaConfigOutputs = connectionSchemaConfigInputs.extend({
  id: z.string().describe("The connection's id."),
});

/** Observed schema config. */
export type ConnectionSchemaConfigOutputs = z.output<typeof connectionSchemaConfigOutputs>;

const schemasPath = (id: string) => `${connectionPath(id)}/schemas`;

function toOutputs(id: string, wire: WireSchemaConfig, declared: SchemaConfigSettings | undefined): ConnectionSchemaConfigOutputs {
  return { id, connectionId: id, ...observedSettings(wire, declared) };
}

/**
 * The connection's config as the API holds it now: one GET, or, for a schema never captured,
 * the reload the API needs first (it keeps what was configured, and may be slow).
 */
async function current(ctx: Ctx, id: string): Promise<WireSchemaConfig> {
  try {
    return await ctx.client.get<WireSchemaConfig>(schemasPath(id));
  } catch (err) {
    if (!isRemote(err, 'not-found')) throw err;
  }
  return reload(ctx, id);
}

/** Captures the source's schema (keeping what was configured); a connection that is gone is an error naming it. */
async function reload(ctx: Ctx, id: string): Promise<WireSchemaConfig> {
  ctx.progress('reloading schema');
  try {
    return await ctx.client.write<WireSchemaConfig>('POST', `${schemasPath(id)}/reload`, { exclude_mode: 'PRESERVE' }, { safe: true });
  } catch (err) {
    if (isRemote(err, 'not-found')) throw new Error(`connection ${id} does not exist (its schema config cannot be read or reloaded)`);
    throw err;
  }
}

/** Makes the API's config what `desired` declares: one read (or reload), then one PATCH with every difference, if any. */
async function converge(ctx: Ctx, id: string, desired: ConnectionSchemaConfigInputs): Promise<ConnectionSchemaConfigOutputs> {
  const wire = await current(ctx, id);
  const body = patchBody(wire, desired);
  const after = Object.keys(body).length ? await ctx.client.write<WireSchemaConfig>('PATCH', schemasPath(id), body) : wire;
  return toOutputs(id, after, desired);
}

/**
 * Sends every setting `desired` declares in one PATCH, whatever the API holds (a PATCH is safe to
 * send again, so a lost answer needs no search); a schema never captured is reloaded first.
 */
async function declare(ctx: Ctx, id: string, desired: ConnectionSchemaConfigInputs): Promise<ConnectionSchemaConfigOutputs> {
  const body = patchBody({ schema_change_handling: undefined as never }, desired);
  if (!Object.keys(body).length) return converge(ctx, id, desired);
  try {
    return toOutputs(id, await ctx.client.write<WireSchemaConfig>('PATCH', schemasPath(id), body), desired);
  } catch (err) {
    if (!isRemote(err, 'not-found')) throw err;
  }
  await reload(ctx, id);
  return toOutputs(id, await ctx.client.write<WireSchemaConfig>('PATCH', schemasPath(id), body), desired);
}

/** The ConnectionSchemaConfig resource type. */
export const connectionSchemaConfig: ResourceType<ConnectionSchemaConfigInputs, ConnectionSchemaConfigOutputs, PipelineClient, PipelineSettings> = {
  token: 'pipeline:index/connectionSchemaConfig:ConnectionSchemaConfig',
  provider: 'pipeline',
  description:
    'Which schemas, tables and columns of a connection sync (enabled, hashed, sync mode) and how new ones are handled: one read and one PATCH whatever the number of tables; only what is declared is managed; removing it leaves the settings as they are. Import id: <connection_id>.',
  inputs: connectionSchemaConfigInputs,
  outputs: connectionSchemaConfigOutputs,
  diff: {
    computedInputs: ['schemaChangeHandling'],
    asDeclared(recorded, outputs, desired) {
      return prunedTo(recorded, desired, outputs) as ConnectionSchemaConfigInputs;
    },

    // A plan reads it again for what the manifest names: one GET for both, in the refresh's pass.
    readsDeclared: true,
  },
  replace: {
    on: [{ path: 'connectionId', reason: 'a schema config is part of one connection' }],
  },
  notes: {
    delete: () => ['nothing is removed from the platform: the connection keeps its schema settings as they are, and plumb stops managing them'],
  },
  cost: { unpriced: "not billed on its own: part of its connection's monthly active rows" },
  crossCheck: schemaNamesCheck,
  importId: apiIdFormat('connection', 'ample_kitten'),

  async create(ctx, inputs) {
    ctx.recordId(inputs.connectionId);
    return { id: inputs.connectionId, outputs: await declare(ctx, inputs.connectionId, inputs) };
  },

  async read(ctx, id, prior) {
    const wire = await unlessGone(ctx.shared(`pipeline:schemas:${id}`, () => ctx.client.get<WireSchemaConfig>(schemasPath(id))));
    return wire && toOutputs(id, wire, prior?.inputs);
  },

  update(ctx, id, _prior, desired) {
    return converge(ctx, id, desired);
  },

  async delete() {
    // The API has no delete: the settings stay with the connection.
  },
};
