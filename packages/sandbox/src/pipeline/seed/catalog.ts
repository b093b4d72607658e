/**
 * Seeded catalogue data: the connector types the account can use (every service of a seeded
 * connection plus a few more), quickstart transformation packages, and webhooks.
 */
import type { ConnectorType, QuickstartPackage, Webhook } from '../model.js';
import { GROUP, USER } from './ids.js';
import { serviceMetadata } from './metadata.js';

type Category = ConnectorType['type'];

const SERVICES: Array<[id: string, name: string, type: Category, extra?: Partial<ConnectorType>]> = [
  ['anaplan', 'Anaplan', 'Finance'],
  ['asana', 'Asana', 'Productivity'],
  ['azure_blob_storage', 'Azure Blob Storage', 'File'],
  ['azure_sql_db', 'Azure SQL Database', 'Database'],
  ['dynamodb', 'Amazon DynamoDB', 'Database'],
  ['facebook_ads', 'Facebook Ads', 'Marketing'],
  ['fivetran_log', 'Fivetran Platform', 'Free', { connector_class: 'lite' }],
  ['gcs', 'Google Cloud Storage', 'File'],
  ['github', 'GitHub', 'Engineering'],
  ['google_ads', 'Google Ads', 'Marketing'],
  ['google_analytics_4', 'Google Analytics 4', 'Marketing'],
  ['google_sheets', 'Google Sheets', 'File'],
  ['hubspot', 'HubSpot', 'Marketing'],
  ['intercom', 'Intercom', 'Support'],
  ['jira', 'Jira', 'Engineering'],
  ['linkedin_ads', 'LinkedIn Ad Analytics', 'Marketing'],
  ['marketo', 'Marketo', 'Marketing'],
  ['mongo', 'MongoDB', 'Database'],
  ['mysql', 'MySQL', 'Database'],
  ['netsuite_suiteanalytics', 'NetSuite SuiteAnalytics', 'Finance'],
  ['oracle', 'Oracle', 'Database'],
  ['postgres', 'PostgreSQL', 'Database'],
  ['quickbooks', 'QuickBooks', 'Finance'],
  ['s3', 'Amazon S3', 'File'],
  ['salesforce', 'Salesforce', 'Sales'],
  ['segment', 'Segment', 'Events'],
  ['sftp', 'SFTP', 'File'],
  ['shopify', 'Shopify', 'Sales'],
  ['sql_server', 'SQL Server', 'Database'],
  ['stripe', 'Stripe', 'Finance'],
  ['workday', 'Workday HCM', 'HumanResources', { service_status: 'beta' }],
  ['xero', 'Xero', 'Finance'],
  ['zendesk', 'Zendesk Support', 'Support'],
  ['clickup', 'ClickUp', 'Productivity', { service_status: 'private_preview', connector_class: 'lite' }],
  ['google_play', 'Google Play', 'Marketing', { service_status: 'sunset' }],
];

/** What a service of the category can do: every one is configured through the API and hashes columns; a database also captures deletes, keeps history and is reached privately. */
function features(type: Category): ConnectorType['supported_features'] {
  const ids = ['API_CONFIGURABLE', 'COLUMN_HASHING', 'RE_SYNC', ...(type === 'Database' ? ['CAPTURE_DELETES', 'HISTORY', 'PRIVATE_NETWORKING'] : [])];
  return ids.map((id) => ({ id, notes: id === 'CAPTURE_DELETES' ? 'All tables' : '' }));
}

/** Connector types, in catalogue (alphabetical) order. */
export const connectorTypes: ConnectorType[] = SERVICES.map(([id, name, type, extra]) => ({
  id,
  name,
  type,
  description: `${name} is a ${type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()} source that syncs into your destination.`,
  icon_url: `https://fivetran.com/integrations/${id}/resources/${id}.svg`,
  icons: [`https://fivetran.com/integrations/${id}/resources/${id}.svg`, `https://fivetran.com/integrations/${id}/resources/${id}.png`],
  link_to_docs: `https://fivetran.com/docs/connectors/${id}`,
  link_to_erd: `https://fivetran.com/docs/connectors/${id}#schemainformation`,
  connector_class: 'standard',
  service_status: 'general_availability',
  service_status_updated_at: '2024-01-15',
  supported_features: features(type),
  ...serviceMetadata(id),
  ...extra,
}));

const boolean = (description: string) => ({ type: 'BOOLEAN', description, allowed_values: ['true', 'false'] });

/** Quickstart transformation packages with their configurable variables. */
export const packages: QuickstartPackage[] = [
  {
    id: 'lively_orca',
    name: 'fivetran_log',
    version: '1.9.1',
    connector_types: ['fivetran_log'],
    output_model_names: ['fivetran_platform__audit_table', 'fivetran_platform__connection_status', 'fivetran_platform__mar_table_history', 'fivetran_platform__usage_mar_destination_history'],
    configurable_variables: {
      fivetran_platform_using_sync_alert_messages: boolean('Whether the platform connection syncs alert messages'),
      fivetran_platform_using_transformations: boolean('Whether transformation tables are synced'),
    },
  },
  {
    id: 'crisp_dolphin',
    name: 'salesforce',
    version: '1.2.1',
    connector_types: ['salesforce'],
    output_model_names: ['salesforce__opportunity_enhanced', 'salesforce__contact_enhanced', 'salesforce__daily_activity', 'salesforce__manager_performance'],
    configurable_variables: {
      salesforce__user_role_enabled: boolean('Whether the user_role table is used'),
      salesforce__lead_enabled: boolean('Whether the lead table is used'),
    },
  },
  {
    id: 'gleaming_narwhal',
    name: 'hubspot',
    version: '0.22.0',
    connector_types: ['hubspot'],
    output_model_names: ['hubspot__contacts', 'hubspot__companies', 'hubspot__deals', 'hubspot__email_campaigns'],
    configurable_variables: {
      hubspot_marketing_enabled: boolean('Whether marketing objects are modelled'),
      hubspot_sales_enabled: boolean('Whether sales objects are modelled'),
      hubspot_service_enabled: boolean('Whether service (ticket) objects are modelled'),
    },
  },
  {
    id: 'patient_seal',
    name: 'stripe',
    version: '0.16.0',
    connector_types: ['stripe'],
    output_model_names: ['stripe__balance_transactions', 'stripe__customer_overview', 'stripe__invoice_details', 'stripe__subscription_details'],
    configurable_variables: {
      stripe__using_subscriptions: boolean('Whether subscription tables are modelled'),
      stripe_timezone: { type: 'STRING', description: 'Time zone for daily rollups', allowed_values: ['UTC', 'America/New_York', 'Europe/Berlin', 'Australia/Sydney'] },
    },
  },
  {
    id: 'rapid_manatee',
    name: 'shopify',
    version: '0.13.2',
    connector_types: ['shopify'],
    output_model_names: ['shopify__orders', 'shopify__customers', 'shopify__products', 'shopify__daily_shop'],
    configurable_variables: {
      shopify__calendar_start_date: { type: 'DATE', description: 'First date of the calendar spine', allowed_values: [] },
      shopify_using_fulfillment_event: boolean('Whether fulfillment events are modelled'),
    },
  },
];

/** Account and group webhooks; secrets are masked on the way out. */
export const webhooks: Webhook[] = [
  {
    id: 'fancy_llama',
    type: 'account',
    group_id: null,
    url: 'https://hooks.acme-data.io/fivetran/account',
    events: ['connection_failure', 'sync_end'],
    active: true,
    secret: 'whsec-account-3b1f',
    created_at: '2023-04-01T10:00:00.000000Z',
    created_by: USER.maria,
  },
  {
    id: 'regal_zebra',
    type: 'group',
    group_id: GROUP.analytics,
    url: 'https://hooks.acme-data.io/fivetran/analytics',
    events: ['sync_start', 'sync_end', 'status'],
    active: true,
    secret: 'whsec-analytics-77c2',
    created_at: '2023-05-02T11:00:00.000000Z',
    created_by: USER.amara,
  },
  {
    id: 'subtle_mink',
    type: 'group',
    group_id: GROUP.marketing,
    url: 'https://hooks.acme-data.io/fivetran/marketing',
    events: ['sync_end'],
    active: false,
    secret: 'whsec-marketing-0e9d',
    created_at: '2024-02-20T12:00:00.000000Z',
    created_by: USER.dev,
  },
];
