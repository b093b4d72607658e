/**
 * The simulated pipeline account, stored in the API's own wire shapes (snake_case), so routes
 * only choose, filter and mask records; they never translate. Secrets in `config` are stored in
 * plaintext and masked on the way out, as the real service does.
 */
import type { ObjectNode } from './seed/metadata.js';

/** A group: the container of one destination and its connections. */
export interface Group {
  id: string;
  name: string;
  created_at: string;
}

/** A destination; its id equals its group's id, as in the vendor's own examples. */
export interface Destination {
  id: string;
  group_id: string;
  service: string;
  region: string;
  time_zone_offset: string;
  setup_status: 'connected' | 'incomplete' | 'broken';
  daylight_saving_time_enabled: boolean;
  networking_method: 'Directly' | 'SshTunnel' | 'ProxyAgent' | 'PrivateLink';
  private_link_id: string | null;
  proxy_agent_id: string | null;
  hybrid_deployment_agent_id: string | null;
  config: Record<string, unknown>;
}

/** A task or warning attached to a connection's status. */
export interface Alert {
  code: string;
  message: string;
}

/** The `status` object of a connection. */
export interface ConnectionStatus {
  setup_state: 'incomplete' | 'connected' | 'broken';
  sync_state: 'scheduled' | 'syncing' | 'paused' | 'rescheduled';
  update_state: 'on_schedule' | 'delayed';
  is_historical_sync: boolean;
  rescheduled_for: string | null;
  tasks: Alert[];
  warnings: Alert[];
}

/** A connection (the API's newer name for a connector). */
export interface Connection {
  id: string;
  group_id: string;
  service: string;
  service_version: number;
  schema: string;
  connected_by: string | null;
  created_at: string;
  succeeded_at: string | null;
  failed_at: string | null;
  paused: boolean;
  pause_after_trial: boolean;
  sync_frequency: number;
  schedule_type: 'auto' | 'manual';
  /** Only present when sync_frequency is 1440 and a time was chosen. */
  daily_sync_time?: string;
  data_delay_sensitivity: 'LOW' | 'NORMAL' | 'HIGH' | 'CUSTOM' | 'SYNC_FREQUENCY';
  data_delay_threshold: number;
  networking_method: 'Directly' | 'SshTunnel' | 'ProxyAgent' | 'PrivateLink' | 'UnmanagedProxyAgent';
  proxy_agent_id: string | null;
  private_link_id: string | null;
  hybrid_deployment_agent_id: string | null;
  status: ConnectionStatus;
  config: Record<string, unknown>;
  /** Credentials (OAuth tokens...) sent on create or PATCH; the API never returns them. */
  auth?: Record<string, unknown>;
}

/** An approved TLS certificate of a connection or destination. */
export interface Certificate {
  hash: string;
  name: string;
  type: string;
  sha1: string;
  sha256: string;
  public_key: string;
  validated_by: string;
  validated_date: string;
}

/** An approved SSH host-key fingerprint of a connection or destination. */
export interface Fingerprint {
  hash: string;
  public_key: string;
  validated_by: string;
  validated_date: string;
}

/** A user of the account. */
export interface User {
  id: string;
  email: string;
  given_name: string;
  family_name: string;
  verified: boolean;
  invited: boolean;
  picture: string | null;
  phone: string | null;
  role: string;
  active: boolean;
  logged_in_at: string | null;
  created_at: string;
}

/** A user's role in one group (what `GET /groups/{id}/users` reports as `role`). */
export interface GroupMember {
  group_id: string;
  user_id: string;
  role: string;
  /** When the membership was made (seeded ones predate the record). */
  created_at?: string;
}

/** A user's role on one connection (`/users/{id}/connections`). */
export interface UserConnection {
  user_id: string;
  connection_id: string;
  role: string;
  created_at: string;
}

/** A team of users with an account role (none once `DELETE /teams/{id}/role` took it). */
export interface Team {
  id: string;
  name: string;
  description: string;
  role: string | null;
}

/** A team's membership of a connection, a group, or (for users) the team itself. */
export interface TeamMembership {
  team_id: string;
  kind: 'connections' | 'groups' | 'users';
  /** Connection, group or user id. */
  target_id: string;
  role: string;
  created_at: string;
}

/** A predefined or custom role. */
export interface Role {
  name: string;
  description: string;
  scope: Array<'ACCOUNT' | 'DESTINATION' | 'CONNECTOR' | 'TEAM'>;
  is_custom: boolean;
  is_deprecated: boolean;
  replacement_role_name: string | null;
}

/** A private link from the vendor's network to the customer's. */
export interface PrivateLink {
  id: string;
  name: string;
  region: string;
  service: string;
  cloud_provider: 'AWS' | 'GCP' | 'AZURE';
  state: 'CREATING' | 'UPDATING' | 'DESTROYING' | 'OK' | 'FAIL';
  state_summary: string;
  host: string | null;
  account_id: string;
  created_at: string;
  created_by: string;
  config: Record<string, string>;
}

/** A proxy agent running in the customer's network. */
export interface ProxyAgent {
  id: string;
  account_id: string;
  display_name: string;
  region: string;
  created_by: string;
  registered_at: string;
  version: string;
  status: 'NOT_FOUND' | 'CONNECTED' | 'NOT_CONNECTED';
}

/** A hybrid deployment agent that runs syncs inside the customer's environment. */
export interface HybridAgent {
  id: string;
  display_name: string;
  group_id: string;
  registered_at: string;
  version: string;
  enabled: boolean;
  online: boolean;
  created_by: string;
  deployment_type: 'DOCKER' | 'PODMAN' | 'KUBERNETES' | 'SNOWPARK';
  updated_at: string;
  last_used_at: string | null;
}

/** A variable a quickstart transformation package lets users set. */
export interface ConfigurableVariable {
  type: string;
  description: string;
  allowed_values: string[];
}

/** A quickstart transformation package definition. */
export interface QuickstartPackage {
  id: string;
  name: string;
  version: string;
  connector_types: string[];
  output_model_names: string[];
  configurable_variables: Record<string, ConfigurableVariable>;
}

/** Catalogue entry of a connector (source) type. */
export interface ConnectorType {
  id: string;
  name: string;
  type: string;
  description: string;
  icon_url: string;
  icons: string[];
  link_to_docs: string;
  link_to_erd: string;
  connector_class: 'standard' | 'lite';
  service_status: 'general_availability' | 'beta' | 'private_preview' | 'sunset' | 'development';
  service_status_updated_at: string;
  /** What the service can do (`API_CONFIGURABLE`, `CAPTURE_DELETES`...), each with a note. */
  supported_features: Array<{ id: string; notes: string }>;
  /** What the service's config holds: property nodes with type, secret format, default, readonly. */
  config: ObjectNode;
  /** What the service's auth holds (empty for services without one). */
  auth: ObjectNode;
}

/** An account or group webhook. */
export interface Webhook {
  id: string;
  type: 'account' | 'group';
  group_id: string | null;
  url: string;
  events: string[];
  active: boolean;
  secret: string;
  created_at: string;
  created_by: string;
}

/** A group's external log service (its id is the group's). */
export interface ExternalLog {
  id: string;
  group_id: string;
  service: string;
  enabled: boolean;
  config: Record<string, unknown>;
}

/** A dbt Core project a group's transformations run from. */
export interface TransformationProject {
  id: string;
  group_id: string;
  type: 'DBT_CORE';
  status: 'NOT_READY' | 'READY' | 'ERROR';
  errors: string[];
  created_at: string;
  created_by_id: string;
  setup_tests: Array<{ title: string; status: string; message: string }>;
  project_config: Record<string, unknown>;
}

/** A scheduled transformation: dbt Core steps of a project, or a quickstart package. */
export interface Transformation {
  id: string;
  type: 'DBT_CORE' | 'QUICKSTART';
  status: 'NEW' | 'SCHEDULING' | 'RUNNING' | 'TERMINATING' | 'SUCCEEDED' | 'FAILED' | 'BLOCKED' | 'CANCELED' | 'PARTIALLY_SUCCEEDED';
  paused: boolean;
  schedule: Record<string, unknown>;
  created_at: string;
  created_by_id: string;
  last_started_at: string | null;
  last_ended_at: string | null;
  output_model_names: string[];
  transformation_config: Record<string, unknown>;
}

/** A change the API makes later (a private link becoming OK, a project READY): when, and to what. */
export interface PendingChange {
  at: number;
  to: string;
  summary: string;
}

/** Everything the simulated account holds. Bump `version` in the seed when its shape changes. */
export interface PipelineData {
  version: number;
  groups: Group[];
  /** Group id → SSH public key the vendor uses to reach tunnels of that group. */
  groupKeys: Record<string, string>;
  destinations: Destination[];
  connections: Connection[];
  /** `connections/<id>` or `destinations/<id>` → approved certificates. */
  certificates: Record<string, Certificate[]>;
  /** `connections/<id>` or `destinations/<id>` → approved fingerprints. */
  fingerprints: Record<string, Fingerprint[]>;
  users: User[];
  groupMembers: GroupMember[];
  userConnections: UserConnection[];
  teams: Team[];
  teamMemberships: TeamMembership[];
  roles: Role[];
  privateLinks: PrivateLink[];
  proxyAgents: ProxyAgent[];
  hybridAgents: HybridAgent[];
  packages: QuickstartPackage[];
  connectorTypes: ConnectorType[];
  webhooks: Webhook[];
  externalLogs: ExternalLog[];
  transformationProjects: TransformationProject[];
  transformations: Transformation[];
  /** `<kind>/<id>` → the state an object reaches when its time comes. */
  pending: Record<string, PendingChange>;
  /** Connection id → its schema config once captured (a reload); absent before. */
  schemaConfigs?: Record<string, StandardConfig>;
  /** Connection id → the source a test gave it (schema-source.ts), for the connection made at `createdAt`. */
  schemaSources?: Record<string, { createdAt: string; schemas: Record<string, Record<string, string[]>> }>;
}

/** Whether the API lets a schema, table or column be excluded, and why not. */
export interface PatchSettings {
  allowed: boolean;
  reason_code?: 'SYSTEM_TABLE' | 'SYSTEM_COLUMN' | 'DELETED' | 'OTHER';
  reason?: string;
}

/** A column's settings; the API shows one only once someone changed it (`touched`). */
export interface ColumnConfig {
  name_in_destination: string;
  enabled: boolean;
  hashed: boolean;
  is_primary_key: boolean;
  enabled_patch_settings: PatchSettings;
  touched: boolean;
}

/** A table's settings and its columns. */
export interface TableConfig {
  name_in_destination: string;
  enabled: boolean;
  sync_mode?: 'SOFT_DELETE' | 'HISTORY' | 'LIVE';
  supports_columns_config: boolean;
  supports_history_mode: boolean;
  enabled_patch_settings: PatchSettings;
  columns: Record<string, ColumnConfig>;
}

/** A schema's settings and its tables. */
export interface SchemaConfig {
  name_in_destination: string;
  enabled: boolean;
  tables: Record<string, TableConfig>;
}

/** A connection's schema config (`StandardConfigResponse`), for the connection made at `created_for`. */
export interface StandardConfig {
  created_for: string;
  schema_change_handling: 'ALLOW_ALL' | 'ALLOW_COLUMNS' | 'BLOCK_ALL';
  schemas: Record<string, SchemaConfig>;
}
