/**
 * Service-specific `config` objects for seeded connections and destinations, with the keys the
 * vendor's OpenAPI document gives each service. Secret values are plaintext here; the routes
 * mask them as `******` on the way out.
 */

type Config = Record<string, unknown>;
type Method = 'Directly' | 'SshTunnel' | 'ProxyAgent' | 'PrivateLink' | 'UnmanagedProxyAgent';

/** A relational database source: host, credentials, incremental update method and how it is reached. */
export function database(kind: 'postgres' | 'mysql' | 'sql_server' | 'oracle' | 'azure_sql_db', host: string, database: string, method: Method): Config {
  const port = { postgres: 5432, mysql: 3306, sql_server: 1433, oracle: 1521, azure_sql_db: 1433 }[kind];
  const update = { postgres: 'WAL', mysql: 'BINLOG', sql_server: 'NATIVE_UPDATE', oracle: 'LOGMINER', azure_sql_db: 'TELEPORT' }[kind];
  const config: Config = {
    host,
    port,
    database,
    user: 'fivetran',
    password: `pw-${database}-4f9c`,
    update_method: update,
    connection_type: method === 'UnmanagedProxyAgent' ? 'Directly' : method,
  };
  if (kind === 'postgres') Object.assign(config, { replication_slot: `fivetran_${database}`, publication_name: 'fivetran_pub' });
  if (method === 'SshTunnel') Object.assign(config, { tunnel_host: `bastion.${host.split('.').slice(1).join('.')}`, tunnel_port: 22, tunnel_user: 'fivetran' });
  return config;
}

/** A MongoDB replica set reached through the customer's own proxy; `hosts` is a list (host:port or SRV record each), as the OpenAPI document types it. */
export function mongo(hosts: string[]): Config {
  return { hosts, user: 'fivetran_reader', password: 'mongo-reader-7d21', auth_db: 'admin', packing_mode: 'UsePackedModeOnly' };
}

/** A DynamoDB source read through a cross-account role. */
export function dynamodb(region: string, roleArn: string): Config {
  return { aws_region_code: region, role_arn: roleArn, external_id: 'lofty_summit', packing_mode: 'UseUnpackedModeOnly' };
}

/** A Google Sheets named range shared with the vendor's service account. */
export function sheet(sheetId: string, namedRange: string): Config {
  return { sheet_id: sheetId, named_range: namedRange, auth_type: 'ServiceAccount' };
}

/** An S3 prefix read through an IAM role. */
export function s3(bucket: string, prefix: string, fileType: string): Config {
  return {
    bucket,
    prefix,
    pattern: `.*\\.${fileType}$`,
    file_type: fileType,
    role_arn: 'arn:aws:iam::483920193457:role/fivetran-s3-reader',
    external_id: 'lofty_summit',
    compression: 'infer',
  };
}

/** A GCS prefix read with the vendor's service account. */
export function gcs(bucket: string, prefix: string, fileType: string): Config {
  return { bucket, prefix, pattern: `.*\\.${fileType}$`, file_type: fileType, compression: 'infer' };
}

/** An SFTP folder reached with key authentication. */
export function sftp(host: string, folder: string): Config {
  return {
    host,
    port: 22,
    user: 'fivetran',
    is_key_pair: true,
    folder_path: folder,
    file_type: 'csv',
    private_key: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----',
  };
}

/** An Azure Blob Storage container read with a connection string. */
export function azureBlob(account: string, container: string): Config {
  return {
    storage_account_name: account,
    container_name: container,
    connection_string: `DefaultEndpointsProtocol=https;AccountName=${account};AccountKey=c2VjcmV0a2V5;EndpointSuffix=core.windows.net`,
    file_type: 'json',
  };
}

/** Config of a SaaS source; OAuth services keep their tokens in `auth`, which is never returned. */
export function saas(service: string): Config {
  const configs: Record<string, Config> = {
    salesforce: { is_sandbox: false, sync_formula_fields: true },
    hubspot: { sync_mode: 'AllAccounts' },
    stripe: { secret_key: 'sk_live_51Hx0000000000000000000000' },
    zendesk: { subdomain: 'acme', domain: 'zendesk.com' },
    jira: { host: 'acme.atlassian.net', port: 443, user: 'integrations@acme-data.io', password: 'jira-api-token-93b1' },
    github: { sync_mode: 'AllRepositories', use_webhooks: false },
    google_ads: { customer_id: '483-920-1934', sync_mode: 'AllAccounts', timeframe_months: 'TWELVE' },
    facebook_ads: { sync_mode: 'SpecificAccounts', accounts: ['act_3920193457'], timeframe_months: 'SIX' },
    linkedin_ads: { sync_mode: 'AllAccounts' },
    google_analytics_4: { property_ids: ['319204857', '319204858'], sync_mode: 'SPECIFIC_PROPERTIES' },
    marketo: { endpoint: 'https://482-ABC-193.mktorest.com/rest', client_id: 'c1f0e3a2', client_secret: 'marketo-secret-55aa' },
    shopify: { shop: 'acme-store', api_access_token: 'shpat_2c9f000000000000' },
    intercom: {},
    xero: {},
    quickbooks: {},
    netsuite_suiteanalytics: { account_id: '4839201_SB1', role_id: '1042', consumer_key: 'ns-ck-1a2b', consumer_secret: 'ns-cs-3c4d', token_id: 'ns-tk-5e6f', token_secret: 'ns-ts-7a8b' },
    workday: {
      host: 'wd5-impl-services1.workday.com',
      username: 'ISU_Fivetran',
      password: 'workday-isu-11c3',
      report_url: 'https://wd5-impl-services1.workday.com/ccx/service/customreport2/acme/ISU_Fivetran/Workers',
    },
    segment: { sub_domain: 'acme', api_key: 'seg-ingest-key-0b7e' },
    asana: {},
  };
  return { ...(configs[service] ?? {}) };
}

/** Destination configs, one per destination service seeded. */
export function warehouse(service: string, host: string): Config {
  const configs: Record<string, Config> = {
    snowflake: { host, port: 443, database: 'ANALYTICS', auth: 'PASSWORD', user: 'FIVETRAN_USER', password: 'snowflake-pass-28d1', role: 'FIVETRAN_ROLE' },
    big_query: { project_id: host, data_set_location: 'US', secret_key: '{"type":"service_account","private_key_id":"9f1c"}' },
    databricks: {
      server_host_name: host,
      port: 443,
      http_path: '/sql/1.0/warehouses/7a1b2c3d4e5f',
      catalog: 'finance',
      auth_type: 'PERSONAL_ACCESS_TOKEN',
      personal_access_token: 'dapi0123456789abcdef',
    },
    redshift: {
      host,
      port: 5439,
      database: 'apac',
      user: 'fivetran',
      password: 'redshift-pass-6e02',
      connection_type: 'SshTunnel',
      tunnel_host: 'bastion.apac.acme-data.io',
      tunnel_port: 22,
      tunnel_user: 'fivetran',
    },
    azure_sql_data_warehouse: { host, port: 1433, database: 'product', user: 'fivetran', password: 'synapse-pass-9a44', connection_type: 'ProxyAgent' },
    postgres_warehouse: { host, port: 5432, database: 'lab', user: 'fivetran', password: 'lab-pass-0c5e', connection_type: 'Directly' },
  };
  return { ...(configs[service] ?? {}) };
}
