/**
 * The `config` and `auth` metadata of each connector type, as `GET /metadata/connector-types`
 * serves it: JSON-Schema-like nodes whose properties carry `type`, `format: "password"` for a
 * secret, `readonly`, `default` and `enum`. The simulated API reads these same nodes to know what
 * to mask, which destination-schema field a service takes, and how to normalise what it stores.
 */

/** One property node of a connector type's config or auth. */
export interface FieldNode {
  type: 'string' | 'integer' | 'boolean' | 'array' | 'object';
  title?: string;
  /** `password` marks a secret: read back as `******`. */
  format?: 'password';
  readonly?: boolean;
  default?: unknown;
  enum?: string[];
  items?: { type: string };
  properties?: Record<string, FieldNode>;
}

/** The `config` or `auth` node of a connector type. */
export interface ObjectNode {
  type: 'object';
  properties: Record<string, FieldNode>;
  required?: string[];
}

const text = (extra: Partial<FieldNode> = {}): FieldNode => ({ type: 'string', ...extra });
const secret: FieldNode = { type: 'string', format: 'password' };
const int = (extra: Partial<FieldNode> = {}): FieldNode => ({ type: 'integer', ...extra });
const bool = (extra: Partial<FieldNode> = {}): FieldNode => ({ type: 'boolean', ...extra });
const list: FieldNode = { type: 'array', items: { type: 'string' } };

/** How a service names its destination schema: a prefix (databases), a schema, or a schema and a table (files). */
type Naming = 'prefix' | 'schema' | 'table';

const NAMING: Record<Naming, Record<string, FieldNode>> = {
  prefix: { schema_prefix: text({ title: 'Destination schema prefix' }) },
  schema: { schema: text({ title: 'Destination schema' }) },
  table: { schema: text({ title: 'Destination schema' }), table: text({ title: 'Destination table' }) },
};

function database(updateMethods: string[]): Record<string, FieldNode> {
  return {
    host: text(),
    port: int(),
    database: text(),
    user: text(),
    password: secret,
    update_method: text({ enum: updateMethods, default: updateMethods[0] }),
    connection_type: text({ enum: ['Directly', 'SshTunnel', 'ProxyAgent', 'PrivateLink'], default: 'Directly' }),
    tunnel_host: text(),
    tunnel_port: int(),
    tunnel_user: text(),
    always_encrypted: bool({ default: true }),
  };
}

const files: Record<string, FieldNode> = {
  bucket: text(),
  prefix: text(),
  pattern: text(),
  file_type: text({ enum: ['infer', 'csv', 'json', 'parquet', 'avro'], default: 'infer' }),
  compression: text({ enum: ['infer', 'uncompressed', 'gzip', 'zip'], default: 'infer' }),
  external_id: text({ readonly: true }),
};

const oauth: ObjectNode = {
  type: 'object',
  properties: {
    client_access: { type: 'object', properties: { client_id: text(), client_secret: secret } },
    refresh_token: secret,
    access_token: secret,
  },
};

/** Config properties (without the destination-schema fields), naming and auth of each service. */
const SERVICES: Record<string, { naming: Naming; config: Record<string, FieldNode>; auth?: ObjectNode }> = {
  postgres: { naming: 'prefix', config: { ...database(['WAL', 'XMIN', 'TELEPORT']), replication_slot: text(), publication_name: text() } },
  mysql: { naming: 'prefix', config: database(['BINLOG', 'TELEPORT']) },
  sql_server: { naming: 'prefix', config: database(['NATIVE_UPDATE', 'TELEPORT']) },
  oracle: { naming: 'prefix', config: database(['LOGMINER', 'TRIGGER', 'TELEPORT']) },
  azure_sql_db: { naming: 'prefix', config: database(['TELEPORT', 'NATIVE_UPDATE']) },
  mongo: { naming: 'prefix', config: { hosts: list, user: text(), password: secret, auth_db: text({ default: 'admin' }), packing_mode: text({ default: 'UsePackedModeOnly' }) } },
  dynamodb: { naming: 'prefix', config: { aws_region_code: text(), role_arn: text(), external_id: text({ readonly: true }), packing_mode: text({ default: 'UseUnpackedModeOnly' }) } },
  google_sheets: { naming: 'table', config: { sheet_id: text(), named_range: text(), auth_type: text({ enum: ['ServiceAccount', 'OAuth'], default: 'ServiceAccount' }) } },
  s3: { naming: 'table', config: { ...files, role_arn: text() } },
  gcs: { naming: 'table', config: files },
  sftp: {
    naming: 'table',
    config: { host: text(), port: int({ default: 22 }), user: text(), password: secret, is_key_pair: bool({ default: false }), private_key: secret, folder_path: text(), file_type: files.file_type },
  },
  azure_blob_storage: { naming: 'table', config: { storage_account_name: text(), container_name: text(), connection_string: secret, file_type: files.file_type } },
  salesforce: { naming: 'schema', config: { is_sandbox: bool({ default: false }), sync_formula_fields: bool({ default: false }) }, auth: oauth },
  hubspot: { naming: 'schema', config: { sync_mode: text({ default: 'AllAccounts' }), accounts: list }, auth: oauth },
  stripe: { naming: 'schema', config: { secret_key: secret } },
  zendesk: { naming: 'schema', config: { subdomain: text(), domain: text({ default: 'zendesk.com' }) }, auth: oauth },
  jira: { naming: 'schema', config: { host: text(), port: int({ default: 443 }), user: text(), password: secret } },
  github: { naming: 'schema', config: { sync_mode: text({ default: 'AllRepositories' }), repositories: list, use_webhooks: bool({ default: false }) }, auth: oauth },
  google_ads: { naming: 'schema', config: { customer_id: text(), sync_mode: text({ default: 'AllAccounts' }), accounts: list, timeframe_months: text({ default: 'TWELVE' }) }, auth: oauth },
  facebook_ads: { naming: 'schema', config: { sync_mode: text({ default: 'AllAccounts' }), accounts: list, timeframe_months: text({ default: 'TWELVE' }) }, auth: oauth },
  linkedin_ads: { naming: 'schema', config: { sync_mode: text({ default: 'AllAccounts' }), accounts: list }, auth: oauth },
  google_analytics_4: { naming: 'schema', config: { property_ids: list, sync_mode: text({ default: 'ALL_PROPERTIES' }), timeframe_months: text({ default: 'TWELVE' }) }, auth: oauth },
  marketo: { naming: 'schema', config: { endpoint: text(), client_id: text(), client_secret: secret } },
  shopify: { naming: 'schema', config: { shop: text(), api_access_token: secret } },
  netsuite_suiteanalytics: {
    naming: 'schema',
    config: { account_id: text(), role_id: text(), consumer_key: text(), consumer_secret: secret, token_id: text(), token_secret: secret },
  },
  workday: { naming: 'schema', config: { host: text(), username: text(), password: secret, report_url: text() } },
  segment: { naming: 'schema', config: { sub_domain: text(), api_key: secret } },
  // A service whose secret has a name no other service uses: masking comes from this node alone.
  anaplan: { naming: 'schema', config: { username: text(), auth_mode: text({ enum: ['Basic', 'Certificate'], default: 'Basic' }), certificate: secret, workspace_ids: list } },
};

/** The metadata nodes of a service: config with its destination-schema fields, and auth (empty when the service has none). */
export function serviceMetadata(service: string): { config: ObjectNode; auth: ObjectNode } {
  const known = SERVICES[service] ?? { naming: 'schema' as const, config: {} };
  const naming = NAMING[known.naming];
  return {
    config: { type: 'object', properties: { ...naming, ...known.config }, required: Object.keys(naming).slice(0, 1) },
    auth: known.auth ?? { type: 'object', properties: {} },
  };
}
