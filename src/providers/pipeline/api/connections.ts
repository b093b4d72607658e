/**
 * Connections as the API sends them (`GET /connections/{id}`, items of `GET /connections` and
 * `GET /groups/{id}/connections`), and the calls that read them: shared by the Connection and
 * ConnectionSchedule resources and the connection lookups.
 */
import { RemoteError } from '../../../kernel/errors.js';
import type { PipelineClient } from '../client.js';
import { groupPath } from './groups.js';
import type { SetupTest } from './setup-tests.js';

/** A connection's `status` object on the wire. */
export interface WireStatus {
  setup_state: string;
  sync_state: string;
  update_state: string;
  is_historical_sync: boolean;
  rescheduled_for?: string | null;
  tasks?: Array<{ code: string; message: string }>;
  warnings?: Array<{ code: string; message: string }>;
}

/**
 * A connection on the wire, as the vendor's OpenAPI document (ConnectorResponseV1) declares it:
 * the fields it requires are required here, those it leaves optional may be absent or null.
 */
export interface WireConnection {
  id: string;
  group_id: string;
  service: string;
  /** A number in the API's answers; some servers send it as a string. */
  service_version: number | string;
  /** The connection's name: the destination schema, `schema.table` for single-table services. */
  schema: string;
  connected_by?: string | null;
  created_at: string;
  succeeded_at?: string | null;
  failed_at?: string | null;
  paused: boolean;
  pause_after_trial: boolean;
  sync_frequency: number;
  /** Listed as required by the OpenAPI document, yet absent from the vendor's own fixture of a connection's details. */
  schedule_type?: string | null;
  /** `HH:MM` UTC; only sent when sync_frequency is 1440 and a time was set. */
  daily_sync_time?: string | null;
  data_delay_sensitivity?: string | null;
  data_delay_threshold?: number | null;
  networking_method?: string | null;
  proxy_agent_id?: string | null;
  private_link_id?: string | null;
  hybrid_deployment_agent_id?: string | null;
  status?: WireStatus;
  /** Absent from list items. */
  config?: Record<string, unknown>;
  /** Only in the answers of a create, an update or a test. */
  setup_tests?: SetupTest[];
}

/** The API path of a connection. */
export const connectionPath = (id: string) => `/connections/${encodeURIComponent(id)}`;

/** One connection's details by id, its config included (a not-found RemoteError when it is gone). */
export function readConnection(client: PipelineClient, id: string): Promise<WireConnection> {
  return client.get<WireConnection>(connectionPath(id));
}

/** Every connection of the account, without config, narrowed by the API's filters (`group_id`, `schema`). */
export function listConnections(client: PipelineClient, filter: { group_id?: string; schema?: string } = {}): Promise<WireConnection[]> {
  return client.list<WireConnection>('/connections', filter);
}

/** The connections of a group, narrowed to one schema name when given (a not-found RemoteError for a group that is gone). */
export function listGroupConnections(client: PipelineClient, groupId: string, filter: { schema?: string } = {}): Promise<WireConnection[]> {
  return client.list<WireConnection>(`${groupPath(groupId)}/connections`, filter);
}

/** The status object of a connection, failing clearly when the API left it out. */
export function statusOf(wire: WireConnection): WireStatus {
  if (!wire.status) throw new RemoteError('unavailable', `the API sent connection "${wire.id}" without its status object`, { provider: 'pipeline' });
  return wire.status;
}
