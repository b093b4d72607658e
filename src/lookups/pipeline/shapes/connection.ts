/**
 * The connection fields shared by getConnection, getConnector, getConnections, getConnectors
 * and getGroupConnections: the result fields, and the mapping to them from the wire.
 */
import * as z from 'zod';
import { readConnection, statusOf as wireStatus, type WireConnection } from '../../../providers/pipeline/api/connections.js';
import type { PipelineClient } from '../../../providers/pipeline/client.js';
import { toStatus } from './connection-status.js';
import { orNotFound } from './lookup.js';
import { maybeTimestamp, orNull, timestamp } from './wire.js';

/** The 20 scalar fields of a connection, shared by every connection-shaped result. */
export const connectionFields = {
  id: z.string().describe('Unique id of the connection.'),
  groupId: z.string().describe('Id of the group (and so of the destination) the connection syncs into.'),
  service: z.string().describe('Connector type, e.g. postgres or salesforce (see getConnectorsMetadata).'),
  serviceVersion: z.string().describe('Version of the connector type.'),
  name: z.string().describe('Connection name, which is also the schema name in the destination (name.table for single-table services).'),
  connectedBy: z.string().nullable().describe('Id of the user who created the connection; null when created without a user.'),
  createdAt: timestamp('When the connection was created'),
  succeededAt: maybeTimestamp('End of the last successful sync'),
  failedAt: maybeTimestamp('End of the last failed sync'),
  syncFrequency: z.number().int().describe('Minutes between syncs: 1, 5, 15, 30, 60, 120, 180, 360, 480, 720 or 1440.'),
  scheduleType: z.string().nullable().describe('auto (the scheduler starts syncs) or manual (syncs start only when triggered); null when the API leaves it out.'),
  paused: z.boolean().describe('Whether syncs are paused.'),
  pauseAfterTrial: z.boolean().describe('Whether the connection pauses when its free trial ends.'),
  dailySyncTime: z.string().nullable().describe('Start hour of daily syncs (HH:00, 00:00..23:00). Only set when syncFrequency is 1440; null there means the baseline start time.'),
  dataDelaySensitivity: z.string().describe('When a sync delay is notified: LOW, NORMAL (default), HIGH, CUSTOM or SYNC_FREQUENCY.'),
  dataDelayThreshold: z.number().int().describe('Custom delay threshold in minutes (default 0); only used when dataDelaySensitivity is CUSTOM.'),
  networkingMethod: z.string().nullable().describe('How the vendor reaches the source: Directly, SshTunnel, ProxyAgent or PrivateLink (the API may also report UnmanagedProxyAgent or Unknown).'),
  proxyAgentId: z.string().nullable().describe('Proxy agent the connection uses; set exactly when networkingMethod is ProxyAgent, else null.'),
  privateLinkId: z.string().nullable().describe('Private link the connection uses; set exactly when networkingMethod is PrivateLink, else null.'),
  hybridDeploymentAgentId: z.string().nullable().describe("Hybrid deployment agent that runs the syncs; null when none is set on the connection (the destination's agent, if any, is used)."),
};

/** A connection's 20 scalar fields as a result object. */
export const connectionSummarySchema = z.object(connectionFields).describe('A connection.');

/** Result form of the 20 scalar fields. */
export type ConnectionSummary = z.input<typeof connectionSummarySchema>;

/**
 * The scalar fields in result form. The API's meanings are kept explicit rather than trusted to
 * every server: a daily start time only exists for daily syncs, and a proxy agent or private link
 * id only counts when the networking method uses it (a stale id would mislead a chained lookup).
 */
export function toConnectionSummary(wire: WireConnection): ConnectionSummary {
  const method = orNull(wire.networking_method);
  return {
    id: wire.id,
    groupId: wire.group_id,
    service: wire.service,
    serviceVersion: String(wire.service_version),
    name: wire.schema,
    connectedBy: orNull(wire.connected_by),
    createdAt: wire.created_at,
    succeededAt: orNull(wire.succeeded_at),
    failedAt: orNull(wire.failed_at),
    syncFrequency: wire.sync_frequency,
    scheduleType: orNull(wire.schedule_type),
    paused: wire.paused,
    pauseAfterTrial: wire.pause_after_trial,
    dailySyncTime: wire.sync_frequency === 1440 ? orNull(wire.daily_sync_time) : null,
    dataDelaySensitivity: wire.data_delay_sensitivity ?? 'NORMAL',
    dataDelayThreshold: wire.data_delay_threshold ?? 0,
    networkingMethod: method,
    proxyAgentId: method === 'ProxyAgent' ? orNull(wire.proxy_agent_id) : null,
    privateLinkId: method === 'PrivateLink' ? orNull(wire.private_link_id) : null,
    hybridDeploymentAgentId: orNull(wire.hybrid_deployment_agent_id),
  };
}

/** The status of a wire connection in result form, failing clearly when the API left it out. */
export function statusOf(wire: WireConnection) {
  return toStatus(wireStatus(wire));
}

/** One connection's details, with the API's not-found turned into one naming the lookup and id. */
export function fetchConnection(client: PipelineClient, lookup: string, id: string): Promise<WireConnection> {
  return orNotFound(lookup, 'connection', id, () => readConnection(client, id));
}
