/**
 * What the vendor's Go SDK (go-fivetran) declares about each reply it decodes: per call, the
 * status it requires and the JSON type of every field of its response type, `data` and nested
 * objects included. A fact table carried over from the SDK's response types (the file named by
 * `sdk`), kept as plumb's own data. The SDK decodes a field that is absent or null without
 * complaint, and fails on a field of another JSON type; `time` is a string in RFC 3339, `any` any
 * JSON value, `object` any object, a one-element list a list of that shape. A shape several calls
 * return (a connection's details, a destination's, a group, a user...) is named once and shared,
 * as the SDK's own response types are.
 */

/** A JSON type as the SDK declares it. */
export type SdkShape = 'string' | 'number' | 'boolean' | 'time' | 'any' | 'object' | [SdkShape] | { [field: string]: SdkShape };

/** One call the SDK makes: `METHOD path`, each `{}` one path segment. */
export interface SdkCall {
  call: string;
  status: number;
  sdk: string;
  reply: SdkShape;
}

/** The SDK's common response: a code, a message and the call's `data`. */
function reply(data: SdkShape): SdkShape {
  return { code: 'string', message: 'string', data };
}

/** One page of a list: its items and the cursor of the next page. */
function list(item: SdkShape): SdkShape {
  return { items: [item], next_cursor: 'string' };
}

/** The reply of the SDK types that declare a code and `data` but no message. */
function dataOnly(data: SdkShape): SdkShape {
  return { code: 'string', data };
}

/** A code and a message: the SDK's common response, the whole reply of a call without data (and each task or warning of a connection). */
const COMMON_RESPONSE: SdkShape = { code: 'string', message: 'string' };

/** One setup test's outcome, as a connection's and a destination's tests report it. */
const SETUP_TEST: SdkShape = { title: 'string', status: 'string', message: 'string', details: 'any' };

/** A connection's newer schedule object. */
const CONNECTION_SCHEDULE: SdkShape = { schedule_type: 'string', cron: 'string', days_of_week: ['string'], interval: 'number', time_of_day: 'string' };

/** A connection's state, its tasks and warnings. */
const CONNECTION_STATUS: SdkShape = { setup_state: 'string', sync_state: 'string', update_state: 'string', is_historical_sync: 'boolean', tasks: [COMMON_RESPONSE], warnings: [COMMON_RESPONSE] };

/** A connection as every call names it: a listed one, and the start of its details. */
const CONNECTION: SdkShape = {
  id: 'string',
  group_id: 'string',
  service: 'string',
  service_version: 'number',
  schema: 'string',
  connected_by: 'string',
  created_at: 'time',
  succeeded_at: 'time',
  failed_at: 'time',
  sync_frequency: 'number',
  schedule_type: 'string',
  paused: 'boolean',
  pause_after_trial: 'boolean',
  daily_sync_time: 'string',
  private_link_id: 'string',
  hybrid_deployment_agent_id: 'string',
  proxy_agent_id: 'string',
  networking_method: 'string',
  data_delay_sensitivity: 'string',
  data_delay_threshold: 'number',
  schedule: CONNECTION_SCHEDULE,
  status: CONNECTION_STATUS,
};

/** A connection's config: the fields of every service the SDK types. */
const CONNECTION_CONFIG: SdkShape = {
  adobe_analytics_configurations: [{ sync_mode: 'string', report_suites: ['string'], elements: ['string'], metrics: ['string'], calculated_metrics: ['string'], segments: ['string'] }],
  schema: 'string',
  table: 'string',
  sheet_id: 'string',
  named_range: 'string',
  client_id: 'string',
  client_secret: 'string',
  technical_account_id: 'string',
  organization_id: 'string',
  private_key: 'string',
  sync_mode: 'string',
  report_suites: ['string'],
  elements: ['string'],
  metrics: ['string'],
  date_granularity: 'string',
  timeframe_months: 'string',
  source: 'string',
  s3bucket: 'string',
  s3role_arn: 'string',
  abs_connection_string: 'string',
  abs_container_name: 'string',
  folder_id: 'string',
  ftp_host: 'string',
  ftp_port: 'number',
  ftp_user: 'string',
  ftp_password: 'string',
  is_ftps: 'boolean',
  sftp_host: 'string',
  sftp_port: 'number',
  sftp_user: 'string',
  sftp_password: 'string',
  sftp_is_key_pair: 'boolean',
  is_keypair: 'boolean',
  advertisables: ['string'],
  report_type: 'string',
  dimensions: ['string'],
  schema_prefix: 'string',
  api_key: 'string',
  external_id: 'string',
  role_arn: 'string',
  bucket: 'string',
  prefix: 'string',
  pattern: 'string',
  pat: 'string',
  file_type: 'string',
  compression: 'string',
  on_error: 'string',
  append_file_option: 'string',
  archive_pattern: 'string',
  null_sequence: 'string',
  delimiter: 'string',
  escape_char: 'string',
  skip_before: 'number',
  skip_after: 'number',
  secrets_list: [{ key: 'string', value: 'string' }],
  project_credentials: [{ project: 'string', api_key: 'string', secret_key: 'string' }],
  auth_mode: 'string',
  username: 'string',
  password: 'string',
  certificate: 'string',
  selected_exports: ['string'],
  consumer_group: 'string',
  servers: 'string',
  message_type: 'string',
  sync_type: 'string',
  security_protocol: 'string',
  apps: ['string'],
  sales_accounts: ['string'],
  finance_accounts: ['string'],
  app_sync_mode: 'string',
  sales_account_sync_mode: 'string',
  finance_account_sync_mode: 'string',
  pem_certificate: 'string',
  access_key_id: 'string',
  secret_key: 'string',
  home_folder: 'string',
  sync_data_locker: 'boolean',
  projects: ['string'],
  function: 'string',
  region: 'string',
  secrets: 'string',
  container_name: 'string',
  connection_string: 'string',
  function_app: 'string',
  function_name: 'string',
  function_key: 'string',
  public_key: 'string',
  merchant_id: 'string',
  api_url: 'string',
  cloud_storage_type: 'string',
  s3external_id: 'string',
  s3folder: 'string',
  gcs_bucket: 'string',
  gcs_folder: 'string',
  user_profiles: ['string'],
  report_configuration_ids: ['string'],
  enable_all_dimension_combinations: 'boolean',
  instance: 'string',
  aws_region_code: 'string',
  accounts: ['string'],
  fields: ['string'],
  breakdowns: ['string'],
  action_breakdowns: ['string'],
  aggregation: 'string',
  config_type: 'string',
  prebuilt_report: 'string',
  action_report_time: 'string',
  click_attribution_window: 'string',
  view_attribution_window: 'string',
  custom_tables: [
    {
      table_name: 'string',
      config_type: 'string',
      fields: ['string'],
      breakdowns: ['string'],
      action_breakdowns: ['string'],
      aggregation: 'string',
      action_report_time: 'string',
      click_attribution_window: 'string',
      view_attribution_window: 'string',
      prebuilt_report_name: 'string',
    },
  ],
  pages: ['string'],
  subdomain: 'string',
  host: 'string',
  port: 'number',
  user: 'string',
  is_secure: 'boolean',
  repositories: ['string'],
  use_webhooks: 'boolean',
  dimension_attributes: ['string'],
  columns: ['string'],
  network_code: 'string',
  customer_id: 'string',
  manager_accounts: ['string'],
  reports: [
    {
      table: 'string',
      config_type: 'string',
      prebuilt_report: 'string',
      report_type: 'string',
      fields: ['string'],
      dimensions: ['string'],
      metrics: ['string'],
      segments: ['string'],
      filter: 'string',
    },
  ],
  conversion_window_size: 'number',
  profiles: ['string'],
  project_id: 'string',
  dataset_id: 'string',
  bucket_name: 'string',
  function_trigger: 'string',
  config_method: 'string',
  query_id: 'string',
  update_config_on_each_sync: 'boolean',
  site_urls: ['string'],
  path: 'string',
  on_premise: 'boolean',
  access_token: 'string',
  view_through_attribution_window_size: 'string',
  post_click_attribution_window_size: 'string',
  use_api_keys: 'boolean',
  api_keys: ['string'],
  endpoint: 'string',
  identity: 'string',
  api_quota: 'number',
  domain_name: 'string',
  resource_url: 'string',
  api_secret: 'string',
  hosts: ['string'],
  tunnel_host: 'string',
  tunnel_port: 'number',
  tunnel_user: 'string',
  database: 'string',
  datasource: 'string',
  account: 'string',
  role: 'string',
  email: 'string',
  account_id: 'string',
  server_url: 'string',
  user_key: 'string',
  api_version: 'string',
  daily_api_call_limit: 'number',
  time_zone: 'string',
  integration_key: 'string',
  advertisers: ['string'],
  engagement_attribution_window: 'string',
  conversion_report_time: 'string',
  domain: 'string',
  update_method: 'string',
  replication_slot: 'string',
  publication_name: 'string',
  data_center: 'string',
  api_token: 'string',
  sub_domain: 'string',
  test_table_name: 'string',
  shop: 'string',
  organizations: ['string'],
  swipe_attribution_window: 'string',
  api_access_token: 'string',
  account_ids: ['string'],
  sid: 'string',
  secret: 'string',
  oauth_token: 'string',
  oauth_token_secret: 'string',
  consumer_key: 'string',
  consumer_secret: 'string',
  key: 'string',
  advertisers_id: ['string'],
  sync_format: 'string',
  bucket_service: 'string',
  user_name: 'string',
  report_url: 'string',
  unique_id: 'string',
  auth_type: 'string',
  latest_version: 'string',
  authorization_method: 'string',
  service_version: 'string',
  last_synced_changes__utc_: 'string',
  is_new_package: 'boolean',
  connection_type: 'string',
  is_multi_entity_feature_enabled: 'boolean',
  always_encrypted: 'boolean',
  api_type: 'string',
  base_url: 'string',
  entity_id: 'string',
  soap_uri: 'string',
  user_id: 'string',
  encryption_key: 'string',
  eu_region: 'boolean',
  token_key: 'string',
  token_secret: 'string',
  share_url: 'string',
};

/** A connection's details, its config included. */
const CONNECTION_DETAILS: SdkShape = { ...CONNECTION, config: CONNECTION_CONFIG };

/** A connection's details as a create, update or test returns them, its setup tests included. */
const CONNECTION_TESTED: SdkShape = { ...CONNECTION, setup_tests: [SETUP_TEST], config: CONNECTION_CONFIG };

/** A connection's schema config, as every schema, table and column change returns it. */
const SCHEMA_CONFIG: SdkShape = { schema_change_handling: 'string', schemas: 'object' };

/** A certificate approved for a connection or a destination. */
const CERTIFICATE: SdkShape = { public_key: 'string', name: 'string', hash: 'string', type: 'string', validated_date: 'string', validated_by: 'string', sha1: 'string', sha256: 'string' };

/** An SSH fingerprint approved for a connection or a destination. */
const FINGERPRINT: SdkShape = { hash: 'string', public_key: 'string', validated_date: 'string', validated_by: 'string' };

/** A destination as every call names it: a listed one, and the start of its details. */
const DESTINATION: SdkShape = {
  id: 'string',
  group_id: 'string',
  service: 'string',
  region: 'string',
  time_zone_offset: 'string',
  setup_status: 'string',
  private_link_id: 'string',
  hybrid_deployment_agent_id: 'string',
  networking_method: 'string',
  daylight_saving_time_enabled: 'boolean',
  proxy_agent_id: 'string',
};

/** A destination's config; its ports are strings. */
const DESTINATION_CONFIG: SdkShape = {
  host: 'string',
  port: 'string',
  database: 'string',
  auth: 'string',
  user: 'string',
  password: 'string',
  connection_type: 'string',
  tunnel_host: 'string',
  tunnel_port: 'string',
  tunnel_user: 'string',
  project_id: 'string',
  data_set_location: 'string',
  location: 'string',
  bucket: 'string',
  server_host_name: 'string',
  http_path: 'string',
  personal_access_token: 'string',
  create_external_tables: 'string',
  external_location: 'string',
  auth_type: 'string',
  role_arn: 'string',
  secret_key: 'string',
  public_key: 'string',
  private_key: 'string',
  cluster_id: 'string',
  cluster_region: 'string',
  role: 'string',
  is_private_key_encrypted: 'boolean',
  passphrase: 'string',
  catalog: 'string',
  fivetran_role_arn: 'string',
  prefix_path: 'string',
  region: 'string',
  storage_account_name: 'string',
  container_name: 'string',
  tenant_id: 'string',
  client_id: 'string',
  secret_value: 'string',
  workspace_name: 'string',
  lakehouse_name: 'string',
};

/** A destination's details, its config included. */
const DESTINATION_DETAILS: SdkShape = { ...DESTINATION, config: DESTINATION_CONFIG };

/** A destination's details as a create, update or test returns them, its setup tests included. */
const DESTINATION_TESTED: SdkShape = { ...DESTINATION_DETAILS, setup_tests: [SETUP_TEST] };

/** A log service's details. */
const EXTERNAL_LOGGING: SdkShape = {
  id: 'string',
  service: 'string',
  enabled: 'boolean',
  config: {
    workspace_id: 'string',
    primary_key: 'string',
    log_group_name: 'string',
    role_arn: 'string',
    external_id: 'string',
    region: 'string',
    api_key: 'string',
    sub_domain: 'string',
    host: 'string',
    hostname: 'string',
    channel: 'string',
    enable_ssl: 'boolean',
    token: 'string',
    port: 'number',
    project_id: 'string',
  },
};

/** A group. */
const GROUP: SdkShape = { id: 'string', name: 'string', created_at: 'time' };

/** A user of the account. */
const USER: SdkShape = {
  id: 'string',
  email: 'string',
  given_name: 'string',
  family_name: 'string',
  verified: 'boolean',
  invited: 'boolean',
  picture: 'string',
  phone: 'string',
  logged_in_at: 'time',
  created_at: 'time',
  role: 'string',
  active: 'boolean',
};

/** A hybrid deployment agent and the connections using it. */
const AGENT: SdkShape = { id: 'string', display_name: 'string', group_id: 'string', registered_at: 'string', usage: [{ connection_id: 'string', schema: 'string', service: 'string' }] };

/** A hybrid deployment agent as a create or re-authentication returns it: its files and token. */
const AGENT_FILES: SdkShape = {
  id: 'string',
  display_name: 'string',
  group_id: 'string',
  registered_at: 'string',
  files: { config_json: 'string', auth_json: 'string', docker_compose_yaml: 'string' },
  token: 'string',
};

/** A private link as listed, and the start of its details. */
const PRIVATE_LINK_ITEM: SdkShape = {
  id: 'string',
  name: 'string',
  region: 'string',
  service: 'string',
  host: 'string',
  account_id: 'string',
  cloud_provider: 'string',
  state: 'string',
  state_summary: 'string',
  created_at: 'string',
  created_by: 'string',
};

/** A private link's details, its config included. */
const PRIVATE_LINK: SdkShape = {
  ...PRIVATE_LINK_ITEM,
  config: {
    connection_service_name: 'string',
    connection_service_id: 'string',
    workspace_url: 'string',
    account_name: 'string',
    account_url: 'string',
    vpce_id: 'string',
    pls_id: 'string',
    aws_account_id: 'string',
    cluster_identifier: 'string',
    sub_resource_name: 'string',
    private_dns_regions: 'string',
    private_connection_service_id: 'string',
  },
};

/** A proxy agent. */
const PROXY: SdkShape = {
  id: 'string',
  account_id: 'string',
  registered_at: 'string',
  region: 'string',
  created_by: 'string',
  display_name: 'string',
  token: 'string',
  registredat: 'string',
  salt: 'string',
};

/** A proxy agent's secrets, as a create or regeneration returns them. */
const PROXY_SECRETS: SdkShape = { agent_id: 'string', auth_token: 'string', client_cert: 'string', client_private_key: 'string' };

/** A team. */
const TEAM: SdkShape = { id: 'string', name: 'string', description: 'string', role: 'string' };

/** A team's or user's role on a connection or group. */
const MEMBERSHIP: SdkShape = { id: 'string', role: 'string', created_at: 'string' };

/** A user's role in a team. */
const TEAM_USER: SdkShape = { user_id: 'string', role: 'string', created_at: 'string' };

/** A transformation project as listed, and the start of its details. */
const TRANSFORMATION_PROJECT: SdkShape = { id: 'string', type: 'string', created_at: 'string', group_id: 'string', created_by_id: 'string' };

/** A transformation project's details. */
const TRANSFORMATION_PROJECT_DETAILS: SdkShape = {
  ...TRANSFORMATION_PROJECT,
  status: 'string',
  setup_tests: [SETUP_TEST],
  errors: ['string'],
  project_config: {
    dbt_version: 'string',
    default_schema: 'string',
    git_remote_url: 'string',
    folder_path: 'string',
    git_branch: 'string',
    target_name: 'string',
    environment_vars: ['string'],
    public_key: 'string',
    threads: 'number',
  },
};

/** A transformation's details. */
const TRANSFORMATION: SdkShape = {
  id: 'string',
  type: 'string',
  status: 'string',
  paused: 'boolean',
  created_at: 'string',
  created_by_id: 'string',
  output_model_names: ['string'],
  transformation_config: {
    project_id: 'string',
    name: 'string',
    steps: [{ name: 'string', command: 'string' }],
    package_name: 'string',
    connection_ids: ['string'],
    excluded_models: ['string'],
    upgrade_available: 'boolean',
    configurable_variables: 'object',
  },
  schedule: { cron: ['string'], connection_ids: ['string'], days_of_week: ['string'], time_of_day: 'string', schedule_type: 'string', interval: 'number', smart_syncing: 'boolean' },
};

/** A quickstart package's metadata. */
const PACKAGE_METADATA: SdkShape = { id: 'string', name: 'string', version: 'string', connector_types: ['string'], output_model_names: ['string'], configurable_variables: 'object' };

/** A webhook. */
const WEBHOOK: SdkShape = { id: 'string', type: 'string', url: 'string', events: ['string'], active: 'boolean', secret: 'string', group_id: 'string', created_at: 'string', created_by: 'string' };

/** A Connector SDK package. */
const CONNECTOR_SDK_PACKAGE: SdkShape = { id: 'string', connection_id: 'string', created_by: 'string', last_updated_by: 'string', created_at: 'time', updated_at: 'time', file_sha256_hash: 'string' };

/** A field schema of a connector type's config or auth. */
const FIELD_SCHEMA: SdkShape = { type: 'string', description: 'string', title: 'string', readonly: 'boolean', properties: 'object', enum: ['string'], items: 'object', required: ['string'] };

/** A connector type's metadata. */
const CONNECTOR_TYPE: SdkShape = {
  id: 'string',
  name: 'string',
  type: 'string',
  description: 'string',
  icon_url: 'string',
  link_to_docs: 'string',
  link_to_erd: 'string',
  icons: ['string'],
  connector_class: 'string',
  service_status: 'string',
  service_status_updated_at: 'string',
  supported_features: [{ id: 'string', notes: 'string' }],
  config: FIELD_SCHEMA,
  auth: FIELD_SCHEMA,
};

/** A connection's or destination's certificates and SSH fingerprints: list, approve, revoke, details. */
function approvals(holder: 'connection' | 'destination'): SdkCall[] {
  return (
    [
      ['certificates', CERTIFICATE],
      ['fingerprints', FINGERPRINT],
    ] as const
  ).flatMap(([kind, shape]) => [
    { call: `GET /${holder}s/{}/${kind}`, status: 200, sdk: `${kind}/${holder}_list.go`, reply: reply(list(shape)) },
    { call: `POST /${holder}s/{}/${kind}`, status: 201, sdk: `${kind}/${holder}_approve.go`, reply: reply(shape) },
    { call: `DELETE /${holder}s/{}/${kind}/{}`, status: 200, sdk: `${kind}/${holder}_revoke.go`, reply: COMMON_RESPONSE },
    { call: `GET /${holder}s/{}/${kind}/{}`, status: 200, sdk: `${kind}/${holder}_details.go`, reply: reply(shape) },
  ]);
}

/** A team's or user's memberships of one kind (at `path`, the SDK's files starting `sdk`): list, create, delete, details, update. */
function memberships(path: string, sdk: string, shape: SdkShape): SdkCall[] {
  return [
    { call: `GET /${path}`, status: 200, sdk: `${sdk}_list.go`, reply: dataOnly(list(shape)) },
    { call: `POST /${path}`, status: 201, sdk: `${sdk}_create.go`, reply: reply(shape) },
    { call: `DELETE /${path}/{}`, status: 200, sdk: `${sdk}_delete.go`, reply: COMMON_RESPONSE },
    { call: `GET /${path}/{}`, status: 200, sdk: `${sdk}_details.go`, reply: dataOnly(shape) },
    { call: `PATCH /${path}/{}`, status: 200, sdk: `${sdk}_update.go`, reply: COMMON_RESPONSE },
  ];
}

/** Every call of go-fivetran's typed services. */
export const SDK_CALLS: SdkCall[] = [
  { call: 'GET /account/info', status: 200, sdk: 'account/account_info.go', reply: reply({ account_id: 'string', account_name: 'string', user_id: 'string', system_key_id: 'string' }) },
  { call: 'GET /connections', status: 200, sdk: 'connections/connections_list.go', reply: reply(list(CONNECTION)) },
  { call: 'POST /connections', status: 201, sdk: 'connections/connection_create.go', reply: reply(CONNECTION_TESTED) },
  { call: 'DELETE /connections/{}', status: 200, sdk: 'connections/connection_delete.go', reply: COMMON_RESPONSE },
  { call: 'GET /connections/{}', status: 200, sdk: 'connections/connection_details.go', reply: reply(CONNECTION_DETAILS) },
  { call: 'PATCH /connections/{}', status: 200, sdk: 'connections/connection_update.go', reply: reply(CONNECTION_TESTED) },
  ...approvals('connection'),
  { call: 'POST /connections/{}/force', status: 200, sdk: 'connections/connection_sync.go', reply: COMMON_RESPONSE },
  { call: 'GET /connections/{}/schemas', status: 200, sdk: 'connections/connection_schema_details.go', reply: reply(SCHEMA_CONFIG) },
  { call: 'PATCH /connections/{}/schemas', status: 200, sdk: 'connections/connection_schema_update.go', reply: reply(SCHEMA_CONFIG) },
  { call: 'POST /connections/{}/schemas', status: 200, sdk: 'connections/connection_schema_create.go', reply: reply(SCHEMA_CONFIG) },
  { call: 'PATCH /connections/{}/schemas/{}', status: 200, sdk: 'connections/connection_database_schema_config_update.go', reply: reply(SCHEMA_CONFIG) },
  { call: 'PATCH /connections/{}/schemas/{}/tables/{}', status: 200, sdk: 'connections/connection_table_config_update.go', reply: reply(SCHEMA_CONFIG) },
  { call: 'GET /connections/{}/schemas/{}/tables/{}/columns', status: 200, sdk: 'connections/connection_column_config_list.go', reply: reply({ columns: 'object' }) },
  { call: 'PATCH /connections/{}/schemas/{}/tables/{}/columns/{}', status: 200, sdk: 'connections/connection_column_config_update.go', reply: reply(SCHEMA_CONFIG) },
  { call: 'POST /connections/{}/schemas/{}/tables/{}/resync', status: 200, sdk: 'connections/connection_resync_table.go', reply: COMMON_RESPONSE },
  { call: 'POST /connections/{}/schemas/reload', status: 200, sdk: 'connections/connection_schema_reload.go', reply: reply(SCHEMA_CONFIG) },
  { call: 'POST /connections/{}/test', status: 200, sdk: 'connections/connection_setup_tests.go', reply: reply(CONNECTION_TESTED) },
  { call: 'GET /connector-sdk/packages', status: 200, sdk: 'connector_sdk/connector_sdk_package_list.go', reply: reply(list(CONNECTOR_SDK_PACKAGE)) },
  { call: 'DELETE /connector-sdk/packages/{}', status: 200, sdk: 'connector_sdk/connector_sdk_package_delete.go', reply: COMMON_RESPONSE },
  { call: 'GET /connector-sdk/packages/{}', status: 200, sdk: 'connector_sdk/connector_sdk_package_details.go', reply: reply(CONNECTOR_SDK_PACKAGE) },
  {
    call: 'POST /connectors/{}/connect-card',
    status: 200,
    sdk: 'connect_card/connect_card.go',
    reply: reply({ connector_id: 'string', connect_card: { token: 'string', uri: 'string' }, connect_card_config: { redirect_uri: 'string', hide_setup_guide: 'boolean' } }),
  },
  { call: 'GET /destinations', status: 200, sdk: 'destinations/destinations_list.go', reply: reply(list(DESTINATION)) },
  { call: 'POST /destinations', status: 201, sdk: 'destinations/destination_create.go', reply: reply(DESTINATION_TESTED) },
  { call: 'DELETE /destinations/{}', status: 200, sdk: 'destinations/destination_delete.go', reply: COMMON_RESPONSE },
  { call: 'GET /destinations/{}', status: 200, sdk: 'destinations/destination_details.go', reply: reply(DESTINATION_DETAILS) },
  { call: 'PATCH /destinations/{}', status: 200, sdk: 'destinations/destination_update.go', reply: reply(DESTINATION_TESTED) },
  ...approvals('destination'),
  { call: 'POST /destinations/{}/test', status: 200, sdk: 'destinations/destination_setup_tests.go', reply: reply(DESTINATION_TESTED) },
  { call: 'GET /external-logging', status: 200, sdk: 'external_logging/external_logging_list.go', reply: reply(list({ id: 'string', service: 'string', enabled: 'boolean' })) },
  { call: 'POST /external-logging', status: 201, sdk: 'external_logging/external_logging_create.go', reply: reply(EXTERNAL_LOGGING) },
  { call: 'DELETE /external-logging/{}', status: 200, sdk: 'external_logging/external_logging_delete.go', reply: COMMON_RESPONSE },
  { call: 'GET /external-logging/{}', status: 200, sdk: 'external_logging/external_logging_details.go', reply: reply(EXTERNAL_LOGGING) },
  { call: 'PATCH /external-logging/{}', status: 200, sdk: 'external_logging/external_logging_update.go', reply: reply(EXTERNAL_LOGGING) },
  { call: 'POST /external-logging/{}/test', status: 200, sdk: 'external_logging/external_logging_setup_tests.go', reply: reply({ setup_tests: [SETUP_TEST] }) },
  { call: 'GET /groups', status: 200, sdk: 'groups/groups_list.go', reply: reply(list(GROUP)) },
  { call: 'POST /groups', status: 201, sdk: 'groups/group_create.go', reply: reply(GROUP) },
  { call: 'DELETE /groups/{}', status: 200, sdk: 'groups/group_delete.go', reply: COMMON_RESPONSE },
  { call: 'GET /groups/{}', status: 200, sdk: 'groups/group_details.go', reply: reply(GROUP) },
  { call: 'PATCH /groups/{}', status: 200, sdk: 'groups/group_update.go', reply: reply(GROUP) },
  { call: 'GET /groups/{}/connections', status: 200, sdk: 'groups/group_list_connections.go', reply: reply(list(CONNECTION)) },
  { call: 'GET /groups/{}/public-key', status: 200, sdk: 'groups/group_ssh_key.go', reply: reply({ public_key: 'string' }) },
  { call: 'GET /groups/{}/service-account', status: 200, sdk: 'groups/group_service_account.go', reply: reply({ service_account: 'string' }) },
  { call: 'GET /groups/{}/users', status: 200, sdk: 'groups/group_list_users.go', reply: reply(list(USER)) },
  { call: 'POST /groups/{}/users', status: 200, sdk: 'groups/group_add_user.go', reply: COMMON_RESPONSE },
  { call: 'DELETE /groups/{}/users/{}', status: 200, sdk: 'groups/group_remove_user.go', reply: COMMON_RESPONSE },
  { call: 'GET /hybrid-deployment-agents', status: 200, sdk: 'hybrid_deployment_agent/hybrid_deployment_agents_list.go', reply: dataOnly(list(AGENT)) },
  { call: 'POST /hybrid-deployment-agents', status: 201, sdk: 'hybrid_deployment_agent/hybrid_deployment_agents_create.go', reply: reply(AGENT_FILES) },
  { call: 'DELETE /hybrid-deployment-agents/{}', status: 200, sdk: 'hybrid_deployment_agent/hybrid_deployment_agents_delete.go', reply: COMMON_RESPONSE },
  { call: 'GET /hybrid-deployment-agents/{}', status: 200, sdk: 'hybrid_deployment_agent/hybrid_deployment_agents_details.go', reply: dataOnly(AGENT) },
  { call: 'POST /hybrid-deployment-agents/{}/re-auth', status: 200, sdk: 'hybrid_deployment_agent/hybrid_deployment_agents_reauth.go', reply: reply(AGENT_FILES) },
  { call: 'POST /hybrid-deployment-agents/{}/reset-credentials', status: 200, sdk: 'hybrid_deployment_agent/hybrid_deployment_agents_reset_credentials.go', reply: COMMON_RESPONSE },
  {
    call: 'GET /private-links',
    status: 200,
    sdk: 'private_link/private_link_list.go',
    reply: dataOnly(list(PRIVATE_LINK_ITEM)),
  },
  { call: 'POST /private-links', status: 201, sdk: 'private_link/private_link_create.go', reply: reply(PRIVATE_LINK) },
  { call: 'DELETE /private-links/{}', status: 200, sdk: 'private_link/private_link_delete.go', reply: COMMON_RESPONSE },
  { call: 'GET /private-links/{}', status: 200, sdk: 'private_link/private_link_details.go', reply: reply(PRIVATE_LINK) },
  { call: 'PATCH /private-links/{}', status: 200, sdk: 'private_link/private_link_update.go', reply: reply(PRIVATE_LINK) },
  { call: 'GET /proxy', status: 200, sdk: 'proxy/proxy_list.go', reply: dataOnly(list(PROXY)) },
  { call: 'POST /proxy', status: 201, sdk: 'proxy/proxy_create.go', reply: reply(PROXY_SECRETS) },
  { call: 'DELETE /proxy/{}', status: 200, sdk: 'proxy/proxy_delete.go', reply: COMMON_RESPONSE },
  { call: 'GET /proxy/{}', status: 200, sdk: 'proxy/proxy_details.go', reply: dataOnly(PROXY) },
  { call: 'GET /proxy/{}/connections', status: 200, sdk: 'proxy/proxy_connection_membership_list.go', reply: dataOnly(list({ connection_id: 'string' })) },
  { call: 'POST /proxy/{}/regenerate-secrets', status: 200, sdk: 'proxy/proxy_regenerate_secrets.go', reply: reply(PROXY_SECRETS) },
  {
    call: 'GET /roles',
    status: 200,
    sdk: 'roles/roles_list.go',
    reply: dataOnly(list({ name: 'string', description: 'string', is_custom: 'boolean', scope: ['string'], is_deprecated: 'boolean', replacement_role_name: 'string' })),
  },
  { call: 'GET /teams', status: 200, sdk: 'teams/teams_list.go', reply: dataOnly(list(TEAM)) },
  { call: 'POST /teams', status: 201, sdk: 'teams/teams_create.go', reply: reply(TEAM) },
  { call: 'DELETE /teams/{}', status: 200, sdk: 'teams/teams_delete.go', reply: COMMON_RESPONSE },
  { call: 'GET /teams/{}', status: 200, sdk: 'teams/teams_details.go', reply: dataOnly(TEAM) },
  { call: 'PATCH /teams/{}', status: 200, sdk: 'teams/teams_update.go', reply: reply(TEAM) },
  ...memberships('teams/{}/connections', 'teams/team_connection_membership', MEMBERSHIP),
  ...memberships('teams/{}/groups', 'teams/team_group_membership', MEMBERSHIP),
  { call: 'DELETE /teams/{}/role', status: 200, sdk: 'teams/teams_delete_role_in_account.go', reply: COMMON_RESPONSE },
  ...memberships('teams/{}/users', 'teams/team_user_membership', TEAM_USER),
  { call: 'GET /transformation-projects', status: 200, sdk: 'transformations/transformation_projects_list.go', reply: reply(list(TRANSFORMATION_PROJECT)) },
  { call: 'POST /transformation-projects', status: 201, sdk: 'transformations/transformation_project_create.go', reply: reply(TRANSFORMATION_PROJECT_DETAILS) },
  { call: 'DELETE /transformation-projects/{}', status: 200, sdk: 'transformations/transformation_project_delete.go', reply: COMMON_RESPONSE },
  { call: 'GET /transformation-projects/{}', status: 200, sdk: 'transformations/transformation_project_details.go', reply: reply(TRANSFORMATION_PROJECT_DETAILS) },
  { call: 'PATCH /transformation-projects/{}', status: 200, sdk: 'transformations/transformation_project_update.go', reply: reply(TRANSFORMATION_PROJECT_DETAILS) },
  { call: 'POST /transformation-projects/{}/test', status: 200, sdk: 'transformations/transformation_project_tests.go', reply: reply(TRANSFORMATION_PROJECT_DETAILS) },
  { call: 'GET /transformations', status: 200, sdk: 'transformations/transformation_list.go', reply: reply(list(TRANSFORMATION)) },
  { call: 'POST /transformations', status: 201, sdk: 'transformations/transformation_create.go', reply: reply(TRANSFORMATION) },
  { call: 'DELETE /transformations/{}', status: 200, sdk: 'transformations/transformation_delete.go', reply: COMMON_RESPONSE },
  { call: 'GET /transformations/{}', status: 200, sdk: 'transformations/transformation_details.go', reply: reply(TRANSFORMATION) },
  { call: 'PATCH /transformations/{}', status: 200, sdk: 'transformations/transformation_update.go', reply: reply(TRANSFORMATION) },
  { call: 'POST /transformations/{}/cancel', status: 200, sdk: 'transformations/transformation_cancel.go', reply: COMMON_RESPONSE },
  { call: 'POST /transformations/{}/run', status: 200, sdk: 'transformations/transformation_run.go', reply: COMMON_RESPONSE },
  { call: 'POST /transformations/{}/upgrade', status: 200, sdk: 'transformations/transformation_upgrade_package.go', reply: COMMON_RESPONSE },
  { call: 'GET /transformations/package-metadata', status: 200, sdk: 'transformations/quickstart_package_metadata_list.go', reply: reply(list(PACKAGE_METADATA)) },
  { call: 'GET /transformations/package-metadata/{}', status: 200, sdk: 'transformations/quickstart_package_metadata_details.go', reply: reply(PACKAGE_METADATA) },
  { call: 'GET /users', status: 200, sdk: 'users/users_list.go', reply: reply(list(USER)) },
  { call: 'POST /users', status: 201, sdk: 'users/user_invite.go', reply: reply(USER) },
  { call: 'DELETE /users/{}', status: 200, sdk: 'users/user_delete.go', reply: COMMON_RESPONSE },
  { call: 'GET /users/{}', status: 200, sdk: 'users/user_details.go', reply: reply(USER) },
  { call: 'PATCH /users/{}', status: 200, sdk: 'users/user_update.go', reply: reply(USER) },
  ...memberships('users/{}/connections', 'users/user_connection_membership', MEMBERSHIP),
  ...memberships('users/{}/groups', 'users/user_group_membership', MEMBERSHIP),
  { call: 'GET /webhooks', status: 200, sdk: 'webhooks/webhook_list.go', reply: dataOnly(list(WEBHOOK)) },
  { call: 'DELETE /webhooks/{}', status: 200, sdk: 'webhooks/webhook_delete.go', reply: COMMON_RESPONSE },
  { call: 'GET /webhooks/{}', status: 200, sdk: 'webhooks/webhook_details.go', reply: reply(WEBHOOK) },
  { call: 'PATCH /webhooks/{}', status: 200, sdk: 'webhooks/webhook_update.go', reply: reply(WEBHOOK) },
  { call: 'POST /webhooks/{}/test', status: 200, sdk: 'webhooks/webhook_tests.go', reply: dataOnly({ succeed: 'boolean', status: 'number', message: 'string' }) },
  { call: 'POST /webhooks/account', status: 200, sdk: 'webhooks/webhook_account_create.go', reply: reply(WEBHOOK) },
  { call: 'POST /webhooks/group/{}', status: 200, sdk: 'webhooks/webhook_group_create.go', reply: reply(WEBHOOK) },
  // A field schema nests itself (properties, items): its first level is declared, deeper ones are objects.
  { call: 'GET /metadata/connector-types', status: 200, sdk: 'metadata/metadata_list.go', reply: reply(list(CONNECTOR_TYPE)) },
  { call: 'GET /metadata/connector-types/{}', status: 200, sdk: 'metadata/metadata_details.go', reply: reply(CONNECTOR_TYPE) },
];
