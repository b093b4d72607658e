/**
 * The seeded connections: 43 across six groups, covering every sync frequency, schedule type,
 * data-delay sensitivity, networking method and status the API documents. Rows state only what
 * differs from a healthy, directly connected, six-hourly connection.
 */
import type { Alert, Connection, ConnectionStatus } from '../model.js';
import { azureBlob, database, dynamodb, gcs, mongo, s3, saas, sftp, sheet } from './configs.js';
import { AGENT, GROUP, LINK, PROXY, USER } from './ids.js';

interface Row {
  id: string;
  group: string;
  service: string;
  schema: string;
  created: string;
  config: Record<string, unknown>;
  by?: string | null;
  version?: number;
  freq?: number;
  daily?: string;
  manual?: boolean;
  paused?: boolean;
  trialPause?: boolean;
  delay?: Connection['data_delay_sensitivity'];
  threshold?: number;
  net?: Connection['networking_method'];
  link?: string;
  proxy?: string;
  agent?: string;
  setup?: ConnectionStatus['setup_state'];
  sync?: ConnectionStatus['sync_state'];
  delayed?: boolean;
  historical?: boolean;
  tasks?: Alert[];
  warnings?: Alert[];
  succeeded?: string | null;
  failed?: string | null;
}

const LAST_SYNC = '2025-06-14T08:05:12.118204Z';
const LAST_FAILURE = '2025-06-13T21:40:03.550917Z';
const RECONNECT: Alert = { code: 'reconnect', message: 'Reconnect: the stored credentials were rejected by the source' };
const RESYNC_WARNING: Alert = { code: 'resync_table_warning', message: 'Table public.orders_archive needs a re-sync after a schema change' };

/** A connection record from a row; paused connections report `sync_state: paused`, as the API pairs them. */
function connection(row: Row): Connection {
  const paused = row.paused ?? false;
  const sync = paused ? 'paused' : (row.sync ?? 'scheduled');
  const setup = row.setup ?? 'connected';
  const record: Connection = {
    id: row.id,
    group_id: row.group,
    service: row.service,
    service_version: row.version ?? 1,
    schema: row.schema,
    connected_by: row.by === undefined ? USER.maria : row.by,
    created_at: row.created,
    succeeded_at: row.succeeded === undefined ? (setup === 'connected' ? LAST_SYNC : null) : row.succeeded,
    failed_at: row.failed === undefined ? (setup === 'broken' ? LAST_FAILURE : null) : row.failed,
    paused,
    pause_after_trial: row.trialPause ?? false,
    sync_frequency: row.freq ?? 360,
    schedule_type: row.manual ? 'manual' : 'auto',
    data_delay_sensitivity: row.delay ?? 'NORMAL',
    data_delay_threshold: row.delay === 'CUSTOM' ? (row.threshold ?? 60) : 0,
    networking_method: row.net ?? 'Directly',
    proxy_agent_id: row.proxy ?? null,
    private_link_id: row.link ?? null,
    hybrid_deployment_agent_id: row.agent ?? null,
    status: {
      setup_state: setup,
      sync_state: sync,
      update_state: row.delayed ? 'delayed' : 'on_schedule',
      is_historical_sync: row.historical ?? false,
      rescheduled_for: sync === 'rescheduled' ? '2025-06-14T09:00:00.000000Z' : null,
      tasks: row.tasks ?? (setup === 'broken' ? [RECONNECT] : []),
      warnings: row.warnings ?? [],
    },
    config: row.config,
  };
  // The API returns daily_sync_time only for daily syncs with a chosen start hour.
  if (record.sync_frequency === 1440 && row.daily) record.daily_sync_time = row.daily;
  return record;
}

const A = GROUP.analytics;
const M = GROUP.marketing;
const F = GROUP.financeEu;
const P = GROUP.apac;
const Z = GROUP.productAzure;
const L = GROUP.onPremLab;

const ROWS: Row[] = [
  // Analytics Warehouse (Snowflake, us-east-1)
  {
    id: 'ample_kitten',
    group: A,
    service: 'postgres',
    schema: 'pg_orders',
    created: '2023-01-20T10:02:11.301922Z',
    freq: 15,
    net: 'SshTunnel',
    version: 3,
    config: database('postgres', 'orders-db.internal.acme-data.io', 'orders', 'SshTunnel'),
  },
  {
    id: 'lucid_parrot',
    group: A,
    service: 'mysql',
    schema: 'mysql_shop',
    created: '2023-02-03T14:45:09.118373Z',
    freq: 60,
    net: 'PrivateLink',
    link: LINK.ordersUse1,
    config: database('mysql', 'shop-db.cluster-c8x1.us-east-1.rds.amazonaws.com', 'shop', 'PrivateLink'),
  },
  {
    id: 'fresh_clam',
    group: A,
    service: 'sql_server',
    schema: 'mssql_erp',
    created: '2023-02-17T09:12:44.774120Z',
    net: 'ProxyAgent',
    proxy: PROXY.newYork,
    by: USER.liam,
    config: database('sql_server', 'erp-sql01.nyc.acme-data.io', 'erp', 'ProxyAgent'),
  },
  { id: 'rigid_spruce', group: A, service: 'salesforce', schema: 'salesforce', created: '2023-03-01T16:20:00.004512Z', delay: 'HIGH', config: saas('salesforce') },
  { id: 'zesty_mango', group: A, service: 'hubspot', schema: 'hubspot', created: '2023-03-09T11:31:27.990213Z', freq: 720, paused: true, by: USER.dev, config: saas('hubspot') },
  { id: 'humble_pine', group: A, service: 'stripe', schema: 'stripe', created: '2023-04-12T08:00:51.310045Z', freq: 30, delay: 'CUSTOM', threshold: 90, config: saas('stripe') },
  {
    id: 'velvet_fox',
    group: A,
    service: 'google_sheets',
    schema: 'sheets.budget',
    created: '2024-03-01T10:00:00.000000Z',
    freq: 1440,
    daily: '03:00',
    paused: true,
    setup: 'incomplete',
    historical: true,
    tasks: [{ code: 'reconnect', message: 'Reconnect' }],
    by: USER.sofia,
    config: sheet('1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'budget_range'),
  },
  {
    id: 'tawny_owlet',
    group: A,
    service: 's3',
    schema: 'files.orders_export',
    created: '2023-06-22T13:14:15.161718Z',
    freq: 1440,
    delay: 'LOW',
    config: s3('acme-exports-us-east-1', 'orders/', 'csv'),
  },
  {
    id: 'dusty_ember',
    group: A,
    service: 'zendesk',
    schema: 'zendesk',
    created: '2023-07-30T19:42:08.552001Z',
    freq: 120,
    sync: 'rescheduled',
    warnings: [{ code: 'api_quota', message: 'Zendesk API quota reached; the sync resumes when it resets' }],
    config: saas('zendesk'),
  },
  { id: 'crisp_willow', group: A, service: 'jira', schema: 'jira', created: '2023-09-05T07:07:07.070707Z', freq: 180, manual: true, by: USER.liam, config: saas('jira') },
  {
    id: 'bright_comet',
    group: A,
    service: 'mongo',
    schema: 'mongo_events',
    created: '2023-10-11T22:10:33.481516Z',
    freq: 5,
    net: 'UnmanagedProxyAgent',
    sync: 'syncing',
    config: mongo(['events-shard-00-00.acme-data.io:27017', 'events-shard-00-01.acme-data.io:27017']),
  },
  { id: 'silky_acorn', group: A, service: 'github', schema: 'github', created: '2023-11-19T15:55:02.240000Z', freq: 480, delay: 'SYNC_FREQUENCY', setup: 'broken', config: saas('github') },
  {
    id: 'woven_basil',
    group: A,
    service: 'oracle',
    schema: 'oracle_finance',
    created: '2024-01-08T09:30:12.771193Z',
    freq: 60,
    agent: AGENT.analyticsPodman,
    config: database('oracle', 'ora-fin01.internal.acme-data.io', 'FINPROD', 'Directly'),
  },

  // Marketing Insights (BigQuery, us-east4)
  { id: 'jovial_lark', group: M, service: 'google_ads', schema: 'google_ads', created: '2023-03-04T12:00:41.118200Z', by: USER.dev, config: saas('google_ads') },
  { id: 'lanky_stork', group: M, service: 'facebook_ads', schema: 'facebook_ads', created: '2023-03-04T12:20:17.900001Z', paused: true, trialPause: true, by: USER.dev, config: saas('facebook_ads') },
  { id: 'nimble_tern', group: M, service: 'linkedin_ads', schema: 'linkedin_ads', created: '2023-05-15T10:10:10.101010Z', freq: 720, delay: 'HIGH', config: saas('linkedin_ads') },
  { id: 'ruddy_quail', group: M, service: 'google_analytics_4', schema: 'ga4', created: '2023-06-01T06:06:06.606060Z', freq: 1440, daily: '06:00', config: saas('google_analytics_4') },
  { id: 'sunny_gannet', group: M, service: 'marketo', schema: 'marketo', created: '2023-08-08T18:18:18.181818Z', freq: 120, setup: 'broken', delayed: true, config: saas('marketo') },
  { id: 'mossy_plover', group: M, service: 'shopify', schema: 'shopify', created: '2023-10-02T09:41:55.321654Z', freq: 60, delay: 'CUSTOM', threshold: 45, config: saas('shopify') },
  { id: 'pale_kestrel', group: M, service: 'intercom', schema: 'intercom', created: '2024-02-14T14:14:14.141414Z', freq: 1, sync: 'syncing', config: saas('intercom') },
  {
    id: 'windy_egret',
    group: M,
    service: 'gcs',
    schema: 'gcs.campaign_files',
    created: '2024-04-20T20:04:20.042004Z',
    freq: 1440,
    daily: '23:00',
    paused: true,
    config: gcs('acme-campaign-drops', 'exports/', 'csv'),
  },

  // Finance EU (Databricks, eu-central-1)
  {
    id: 'stoic_newt',
    group: F,
    service: 'sql_server',
    schema: 'mssql_ledger',
    created: '2023-05-20T08:15:00.150015Z',
    freq: 60,
    net: 'PrivateLink',
    link: LINK.erpEuc1,
    by: USER.hana,
    config: database('sql_server', 'ledger-sql.eu-central-1.acme-data.io', 'ledger', 'PrivateLink'),
  },
  {
    id: 'prim_cedar',
    group: F,
    service: 'postgres',
    schema: 'pg_billing_eu',
    created: '2023-05-21T09:00:00.000900Z',
    freq: 30,
    net: 'PrivateLink',
    link: LINK.erpEuc1,
    sync: 'syncing',
    historical: true,
    by: USER.hana,
    config: database('postgres', 'billing-pg.eu-central-1.acme-data.io', 'billing', 'PrivateLink'),
  },
  { id: 'frosty_maple', group: F, service: 'xero', schema: 'xero', created: '2023-06-30T12:30:30.303030Z', freq: 720, config: saas('xero') },
  {
    id: 'quick_aspen',
    group: F,
    service: 'quickbooks',
    schema: 'quickbooks',
    created: '2023-07-07T07:17:27.372747Z',
    freq: 1440,
    daily: '01:00',
    paused: true,
    by: USER.tom,
    config: saas('quickbooks'),
  },
  {
    id: 'tender_birch',
    group: F,
    service: 'netsuite_suiteanalytics',
    schema: 'netsuite',
    created: '2023-09-12T11:11:11.111111Z',
    version: 2,
    delayed: true,
    warnings: [RESYNC_WARNING],
    config: saas('netsuite_suiteanalytics'),
  },
  {
    id: 'gusty_cliff',
    group: F,
    service: 'sftp',
    schema: 'sftp.bank_statements',
    created: '2024-01-15T15:01:05.105105Z',
    freq: 1440,
    net: 'SshTunnel',
    config: sftp('sftp.bank-partner.eu', '/outgoing/statements'),
  },
  {
    id: 'noisy_fjord',
    group: F,
    service: 'workday',
    schema: 'workday',
    created: '2025-05-30T16:45:00.450045Z',
    freq: 480,
    setup: 'incomplete',
    historical: true,
    by: USER.amara,
    tasks: [{ code: 'setup_tests_failed', message: 'Finish setup: the report URL returned 403' }],
    config: saas('workday'),
  },

  // APAC Operations (Redshift over SSH, ap-southeast-2)
  {
    id: 'hazy_reef',
    group: P,
    service: 'mysql',
    schema: 'mysql_apac_shop',
    created: '2023-08-10T01:10:10.010101Z',
    freq: 30,
    net: 'SshTunnel',
    by: USER.amara,
    config: database('mysql', 'shop-db.syd.acme-data.io', 'shop_apac', 'SshTunnel'),
  },
  { id: 'bumpy_dune', group: P, service: 'shopify', schema: 'shopify_au', created: '2023-08-11T02:20:20.020202Z', freq: 60, config: saas('shopify') },
  { id: 'lofty_cove', group: P, service: 'zendesk', schema: 'zendesk_apac', created: '2023-09-01T03:30:30.030303Z', freq: 180, paused: true, config: saas('zendesk') },
  {
    id: 'shiny_atoll',
    group: P,
    service: 'dynamodb',
    schema: 'dynamo_sessions',
    created: '2023-12-24T04:40:40.040404Z',
    freq: 15,
    delay: 'SYNC_FREQUENCY',
    config: dynamodb('ap-southeast-2', 'arn:aws:iam::483920193457:role/fivetran-dynamodb'),
  },
  {
    id: 'sleek_delta',
    group: P,
    service: 'google_sheets',
    schema: 'sheets.targets',
    created: '2024-02-02T05:50:50.050505Z',
    freq: 1440,
    daily: '22:00',
    config: sheet('1ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210', 'quarterly_targets'),
  },
  { id: 'amber_mesa', group: P, service: 'asana', schema: 'asana', created: '2024-03-03T06:00:00.600600Z', freq: 720, manual: true, delay: 'LOW', config: saas('asana') },

  // Product Analytics Azure (Synapse behind a proxy agent, westeurope)
  {
    id: 'wild_ridge',
    group: Z,
    service: 'azure_sql_db',
    schema: 'azure_sql_app',
    created: '2024-01-25T10:00:00.100000Z',
    freq: 60,
    net: 'ProxyAgent',
    proxy: PROXY.westEurope,
    by: USER.chen,
    config: database('azure_sql_db', 'app-sql.database.windows.net', 'app', 'ProxyAgent'),
  },
  {
    id: 'grand_bluff',
    group: Z,
    service: 'azure_blob_storage',
    schema: 'blob.clickstream',
    created: '2024-01-26T11:00:00.110000Z',
    freq: 15,
    net: 'ProxyAgent',
    proxy: PROXY.westEurope,
    config: azureBlob('acmeclickstream', 'events'),
  },
  { id: 'dim_harbor', group: Z, service: 'segment', schema: 'segment', created: '2024-02-10T12:00:00.120000Z', freq: 5, config: saas('segment') },
  { id: 'cold_tundra', group: Z, service: 'github', schema: 'github_product', created: '2024-02-11T13:00:00.130000Z', paused: true, setup: 'broken', config: saas('github') },
  {
    id: 'lush_canyon',
    group: Z,
    service: 'postgres',
    schema: 'pg_app_replica',
    created: '2024-05-05T14:00:00.140000Z',
    freq: 120,
    net: 'PrivateLink',
    link: LINK.azureSql,
    setup: 'broken',
    tasks: [{ code: 'private_link_failed', message: 'The private link azure_sql_src is in state FAIL' }],
    config: database('postgres', 'app-replica.postgres.database.azure.com', 'app', 'PrivateLink'),
  },

  // On-prem Lab (hybrid deployment agents)
  {
    id: 'iron_glade',
    group: L,
    service: 'oracle',
    schema: 'oracle_mes',
    created: '2024-06-10T08:00:00.080000Z',
    freq: 60,
    agent: AGENT.labDocker,
    by: USER.amara,
    config: database('oracle', 'mes-ora.plant.local', 'MES', 'Directly'),
  },
  {
    id: 'copper_vale',
    group: L,
    service: 'sql_server',
    schema: 'mssql_plant',
    created: '2024-06-11T09:00:00.090000Z',
    freq: 30,
    agent: AGENT.labKubernetes,
    net: 'SshTunnel',
    config: database('sql_server', 'plant-sql.plant.local', 'plant', 'SshTunnel'),
  },
  {
    id: 'misty_marsh',
    group: L,
    service: 'postgres',
    schema: 'pg_sensors',
    created: '2024-06-12T10:00:00.100000Z',
    freq: 5,
    delay: 'CUSTOM',
    threshold: 30,
    paused: true,
    agent: AGENT.labKubernetes,
    config: database('postgres', 'sensors-pg.plant.local', 'sensors', 'Directly'),
  },
  {
    id: 'quiet_grove',
    group: L,
    service: 'mysql',
    schema: 'mysql_inventory',
    created: '2025-06-01T11:00:00.110000Z',
    setup: 'incomplete',
    agent: AGENT.labDocker,
    by: null,
    config: database('mysql', 'inventory-db.plant.local', 'inventory', 'Directly'),
  },
];

/** Fresh copies of the seeded connections. */
export function seedConnections(): Connection[] {
  return ROWS.map(connection);
}
