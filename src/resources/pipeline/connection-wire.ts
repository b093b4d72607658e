/**
 * A connection as the API sends it, and how Connection and ConnectionSchedule read it: one
 * object by id, many from one list (with a read of its own only for a connection whose config is
 * managed, which no list carries), and a lost create found again by its schema name.
 */
import type { Created, ReadTarget } from '../../engine/contracts/resource-type.js';
import { connectionPath, listConnections, listGroupConnections, readConnection, statusOf, type WireConnection } from '../../providers/pipeline/api/connections.js';
import { observedConfig, sealed, serviceFields, unlessGone, type Ctx } from './kit.js';
import type { ConnectionInputs, ConnectionOutputs } from './connection.js';

/** The API's name for a destination schema: the prefix, the schema, or `schema.table`. */
export function schemaName(schema: ConnectionInputs['destinationSchema']): string {
  return schema.prefix ?? (schema.table ? `${schema.name}.${schema.table}` : (schema.name as string));
}

/** Config keys that name the destination schema: an input of their own, never part of `config`. */
const SCHEMA_KEYS = ['schema', 'schema_prefix', 'table', 'table_group_name'];

/** The destination schema of a connection as the manifest states it. */
function destinationSchema(wire: WireConnection, schemaKey: string, declared?: ConnectionInputs['destinationSchema']): ConnectionInputs['destinationSchema'] {
  if (declared?.prefix !== undefined || (!declared && schemaKey === 'schema_prefix')) return { prefix: wire.schema };
  const [name, table] = wire.schema.split('.', 2);
  return table === undefined ? { name } : { name, table };
}

/**
 * The outputs of a connection; `declared` (the recorded or desired inputs) decides how its config
 * reads (kit.ts observedConfig). Secrets the service's metadata names are sealed.
 */
export async function toOutputs(ctx: Ctx, wire: WireConnection, declared: ConnectionInputs | undefined): Promise<ConnectionOutputs> {
  const fields = await serviceFields(ctx, wire.service);
  const out: ConnectionOutputs = {
    id: wire.id,
    name: wire.schema,
    service: wire.service,
    groupId: wire.group_id,
    destinationSchema: destinationSchema(wire, fields.schemaKey, declared?.destinationSchema),
    paused: wire.paused,
    networkingMethod: (wire.networking_method ?? undefined) as ConnectionOutputs['networkingMethod'],
    proxyAgentId: wire.proxy_agent_id ?? undefined,
    privateLinkId: wire.private_link_id ?? undefined,
    hybridDeploymentAgentId: wire.hybrid_deployment_agent_id ?? undefined,
    dataDelaySensitivity: (wire.data_delay_sensitivity ?? undefined) as ConnectionOutputs['dataDelaySensitivity'],
    dataDelayThreshold: wire.data_delay_threshold ?? undefined,
    syncFrequency: wire.sync_frequency,
    // The API's default, for a server that leaves the field out (the vendor's own fixture does).
    scheduleType: wire.schedule_type ?? 'auto',
    setupState: statusOf(wire).setup_state,
    syncState: statusOf(wire).sync_state,
    createdAt: wire.created_at,
  };
  if (wire.config) out.config = sealed(observedConfig(declared?.config ?? (declared ? {} : undefined), wire.config, SCHEMA_KEYS), fields.secrets);
  return out;
}

/** The created object of a wire connection. */
export function created(wire: WireConnection, outputs: ConnectionOutputs): Created<ConnectionOutputs> {
  return { id: wire.id, outputs };
}

/** Reads one connection; undefined when it is gone. */
export async function observe(ctx: Ctx, id: string, declared: ConnectionInputs | undefined): Promise<ConnectionOutputs | undefined> {
  const wire = await unlessGone(readConnection(ctx.client, id));
  return wire && toOutputs(ctx, wire, declared);
}

/** Every connection in one list, shared by the types that read connections in one pass. */
export function listed(ctx: Ctx): Promise<Map<string, WireConnection>> {
  return ctx.shared('pipeline:connections', async () => new Map((await listConnections(ctx.client)).map((c) => [c.id, c])));
}

/** Reads many connections: one list, then a read of its own for each whose config state manages. */
export async function readAll(ctx: Ctx, targets: Array<ReadTarget<ConnectionInputs, ConnectionOutputs>>): Promise<Map<string, ConnectionOutputs | undefined>> {
  const all = await listed(ctx);
  const out = new Map<string, ConnectionOutputs | undefined>();
  for (const target of targets) {
    const item = all.get(target.id);
    if (!item) continue;
    const declared = target.prior?.inputs;
    const managed = declared?.config && Object.keys(declared.config).length > 0;
    out.set(target.id, managed ? await observe(ctx, target.id, declared) : await toOutputs(ctx, item, declared && { ...declared, config: undefined }));
  }
  return out;
}

/**
 * The connection of this schema name in the group made since `earliestMs` that state does not
 * hold: names are unique in a group, so at most one.
 */
export async function findByName(ctx: Ctx, groupId: string, name: string, earliestMs: number, recorded: (id: string) => boolean): Promise<WireConnection | undefined> {
  const found = await unlessGone(listGroupConnections(ctx.client, groupId, { schema: name }));
  return (found ?? []).find((c) => c.schema === name && Date.parse(c.created_at) >= earliestMs && !recorded(c.id));
}
