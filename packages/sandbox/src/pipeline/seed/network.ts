/**
 * Seeded destinations and the ways the vendor reaches customer systems: private links in every
 * state, proxy and hybrid deployment agents, group SSH keys, and approved certificates and
 * fingerprints. Hashes and keys are derived from labels so they look real and stay stable.
 */
import { createHash } from 'node:crypto';
import type { Certificate, Destination, Fingerprint, HybridAgent, PrivateLink, ProxyAgent } from '../model.js';
import { warehouse } from './configs.js';
import { ACCOUNT_ID, AGENT, GROUP, LINK, PROXY, USER } from './ids.js';

function digest(label: string, algorithm: 'sha1' | 'sha256' = 'sha256'): Buffer {
  return createHash(algorithm).update(label).digest();
}

function destination(id: string, service: string, region: string, offset: string, host: string, extra: Partial<Destination> = {}): Destination {
  return {
    id,
    group_id: id,
    service,
    region,
    time_zone_offset: offset,
    setup_status: 'connected',
    daylight_saving_time_enabled: false,
    networking_method: 'Directly',
    private_link_id: null,
    proxy_agent_id: null,
    hybrid_deployment_agent_id: null,
    config: warehouse(service, host),
    ...extra,
  };
}

/** One destination per group, each of a different service and region. */
export const destinations: Destination[] = [
  destination(GROUP.analytics, 'snowflake', 'AWS_US_EAST_1', '-5', 'xy12345.us-east-1.snowflakecomputing.com', { daylight_saving_time_enabled: true }),
  destination(GROUP.marketing, 'big_query', 'GCP_US_EAST4', '-5', 'marketing-insights-prod', { daylight_saving_time_enabled: true }),
  destination(GROUP.financeEu, 'databricks', 'AWS_EU_CENTRAL_1', '+1', 'dbc-7a1b2c3d-4e5f.cloud.databricks.com', { networking_method: 'PrivateLink', private_link_id: LINK.dbxEu }),
  destination(GROUP.apac, 'redshift', 'AWS_AP_SOUTHEAST_2', '+10', 'apac-dw.c9xk2.ap-southeast-2.redshift.amazonaws.com', { networking_method: 'SshTunnel' }),
  destination(GROUP.productAzure, 'azure_sql_data_warehouse', 'AZURE_WESTEUROPE', '0', 'product-synapse.sql.azuresynapse.net', {
    setup_status: 'incomplete',
    networking_method: 'ProxyAgent',
    proxy_agent_id: PROXY.westEurope,
  }),
  destination(GROUP.onPremLab, 'postgres_warehouse', 'AZURE_EASTUS2', '-5', 'lab-pg.plant.local', {
    setup_status: 'broken',
    hybrid_deployment_agent_id: AGENT.labDocker,
  }),
];

/** The SSH public key of a group, which the vendor reaches SSH tunnels of its connections with. */
export function groupPublicKey(id: string): string {
  return `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ${digest(`group-key-${id}`).toString('base64')} fivetran user key`;
}

/** The SSH public key of each seeded group. */
export const groupKeys: Record<string, string> = Object.fromEntries(Object.values(GROUP).map((id) => [id, groupPublicKey(id)]));

function link(id: string, name: string, service: string, region: string, state: PrivateLink['state'], summary: string, config: Record<string, string>, created: string): PrivateLink {
  const cloud = service.endsWith('_AZURE') ? 'AZURE' : service.endsWith('_GCP') ? 'GCP' : 'AWS';
  return {
    id,
    name,
    region,
    service,
    cloud_provider: cloud,
    state,
    state_summary: summary,
    host: state === 'OK' || state === 'UPDATING' ? `${name.replace(/_/g, '-')}.privatelink.${region.toLowerCase().replace(/_/g, '-')}.fivetran.internal` : null,
    account_id: ACCOUNT_ID,
    created_at: created,
    created_by: USER.maria,
    config,
  };
}

/** Private links in every state the API documents except DESTROYING. */
export const privateLinks: PrivateLink[] = [
  link(
    LINK.dbxEu,
    'dbx_eu_central',
    'DATABRICKS_AWS',
    'AWS_EU_CENTRAL_1',
    'OK',
    'Private link is ready',
    { workspace_url: 'https://dbc-7a1b2c3d-4e5f.cloud.databricks.com' },
    '2023-05-19T09:00:00.000000Z',
  ),
  link(
    LINK.ordersUse1,
    'orders_db_use1',
    'SOURCE_AWS',
    'AWS_US_EAST_1',
    'OK',
    'Private link is ready',
    { connection_service_name: 'com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f67890' },
    '2023-02-01T12:00:00.000000Z',
  ),
  link(
    LINK.erpEuc1,
    'erp_db_euc1',
    'SOURCE_AWS',
    'AWS_EU_CENTRAL_1',
    'OK',
    'Private link is ready',
    { connection_service_name: 'com.amazonaws.vpce.eu-central-1.vpce-svc-0fedcba987654321' },
    '2023-05-19T09:30:00.000000Z',
  ),
  link(
    LINK.billingGcp,
    'billing_db_gcp',
    'SOURCE_GCP',
    'GCP_US_EAST4',
    'CREATING',
    'Waiting for the service attachment to accept the endpoint',
    { private_connection_service_id: 'projects/acme-billing/regions/us-east4/serviceAttachments/billing-db' },
    '2025-06-13T16:00:00.000000Z',
  ),
  link(
    LINK.azureSql,
    'azure_sql_src',
    'SOURCE_AZURE',
    'AZURE_WESTEUROPE',
    'FAIL',
    'The private endpoint connection was rejected by the private link service',
    { pls_id: '/subscriptions/7c1e0000-0000-0000-0000-000000000000/resourceGroups/app/providers/Microsoft.Network/privateLinkServices/app-pg-pls' },
    '2024-05-04T10:00:00.000000Z',
  ),
  link(
    LINK.apacRedshift,
    'apac_redshift',
    'REDSHIFT_AWS',
    'AWS_AP_SOUTHEAST_2',
    'UPDATING',
    'Applying the new cluster identifier',
    { aws_account_id: '483920193457', cluster_identifier: 'apac-dw' },
    '2024-09-09T09:09:09.090909Z',
  ),
];

/** Proxy agents; the regions are proxy regions (a superset of destination regions). */
export const proxyAgents: ProxyAgent[] = [
  {
    id: PROXY.frankfurt,
    account_id: ACCOUNT_ID,
    display_name: 'dc-frankfurt-proxy',
    region: 'AWS_EU_CENTRAL_1',
    created_by: USER.hana,
    registered_at: '2023-05-22T08:00:00.000000Z',
    version: '1.4.2',
    status: 'NOT_CONNECTED',
  },
  {
    id: PROXY.newYork,
    account_id: ACCOUNT_ID,
    display_name: 'onprem-nyc-proxy',
    region: 'AWS_US_EAST_1',
    created_by: USER.liam,
    registered_at: '2023-02-16T15:00:00.000000Z',
    version: '1.5.0',
    status: 'CONNECTED',
  },
  {
    id: PROXY.westEurope,
    account_id: ACCOUNT_ID,
    display_name: 'azure-weu-proxy',
    region: 'AZURE_WESTEUROPE',
    created_by: USER.chen,
    registered_at: '2024-01-23T09:00:00.000000Z',
    version: '1.5.0',
    status: 'CONNECTED',
  },
];

/** Hybrid deployment agents of the on-prem lab and the analytics group. */
export const hybridAgents: HybridAgent[] = [
  {
    id: AGENT.labDocker,
    display_name: 'lab-docker-01',
    group_id: GROUP.onPremLab,
    registered_at: '2024-06-05T10:00:00.000000Z',
    version: '2.3.1',
    enabled: true,
    online: true,
    created_by: USER.amara,
    deployment_type: 'DOCKER',
    updated_at: '2025-06-01T10:00:00.000000Z',
    last_used_at: '2025-06-14T08:00:00.000000Z',
  },
  {
    id: AGENT.labKubernetes,
    display_name: 'lab-k8s-prod',
    group_id: GROUP.onPremLab,
    registered_at: '2024-06-06T10:00:00.000000Z',
    version: '2.3.1',
    enabled: true,
    online: false,
    created_by: USER.amara,
    deployment_type: 'KUBERNETES',
    updated_at: '2025-05-20T10:00:00.000000Z',
    last_used_at: '2025-06-12T23:00:00.000000Z',
  },
  {
    id: AGENT.analyticsPodman,
    display_name: 'analytics-podman',
    group_id: GROUP.analytics,
    registered_at: '2024-01-05T10:00:00.000000Z',
    version: '2.2.0',
    enabled: true,
    online: true,
    created_by: USER.maria,
    deployment_type: 'PODMAN',
    updated_at: '2024-12-01T10:00:00.000000Z',
    last_used_at: '2025-06-14T07:00:00.000000Z',
  },
];

function certificate(label: string, name: string, validatedBy: string, date: string): Certificate {
  const der = digest(`cert-${label}`);
  return {
    hash: digest(`hash-${label}`).toString('base64url'),
    name,
    type: 'TLS',
    sha1: digest(`cert-${label}`, 'sha1').toString('hex').toUpperCase(),
    sha256: der.toString('hex').toUpperCase(),
    public_key: `-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${der.toString('base64')}\n-----END PUBLIC KEY-----`,
    validated_by: validatedBy,
    validated_date: date,
  };
}

function fingerprint(label: string, validatedBy: string, date: string): Fingerprint {
  return {
    hash: digest(`fp-${label}`).toString('base64').replace(/=+$/, ''),
    public_key: `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ${digest(`key-${label}`).toString('base64')} ${label}`,
    validated_by: validatedBy,
    validated_date: date,
  };
}

/** Approved certificates by owner path; the first connection and destination have enough to span pages. */
export const certificates: Record<string, Certificate[]> = {
  'connections/ample_kitten': [
    certificate('orders-db-root', 'CN=Acme Internal Root CA', USER.maria, '2023-01-20T10:05:00.000000Z'),
    certificate('orders-db-intermediate', 'CN=Acme Internal Issuing CA 2', USER.maria, '2023-01-20T10:05:30.000000Z'),
    certificate('orders-db-leaf', 'CN=orders-db.internal.acme-data.io', USER.liam, '2024-02-11T09:00:00.000000Z'),
  ],
  'connections/stoic_newt': [certificate('ledger-sql', 'CN=ledger-sql.eu-central-1.acme-data.io', USER.hana, '2023-05-20T08:20:00.000000Z')],
  'destinations/decent_dropsy': [
    certificate('snowflake-root', 'CN=DigiCert Global Root G2', USER.maria, '2023-01-12T09:20:00.000000Z'),
    certificate('snowflake-intermediate', 'CN=DigiCert Global G2 TLS RSA SHA256 2020 CA1', USER.maria, '2023-01-12T09:20:10.000000Z'),
    certificate('snowflake-leaf', 'CN=*.us-east-1.snowflakecomputing.com', USER.maria, '2024-12-02T12:00:00.000000Z'),
  ],
};

/** Approved SSH host-key fingerprints by owner path. */
export const fingerprints: Record<string, Fingerprint[]> = {
  'connections/ample_kitten': [
    fingerprint('bastion-rsa', USER.maria, '2023-01-20T10:03:00.000000Z'),
    fingerprint('bastion-ecdsa', USER.maria, '2023-01-20T10:03:05.000000Z'),
    fingerprint('bastion-ed25519', USER.liam, '2024-07-01T08:00:00.000000Z'),
  ],
  'connections/gusty_cliff': [fingerprint('bank-sftp', USER.hana, '2024-01-15T15:05:00.000000Z')],
  'destinations/brisk_otter': [
    fingerprint('apac-bastion-rsa', USER.amara, '2023-08-07T23:30:00.000000Z'),
    fingerprint('apac-bastion-ecdsa', USER.amara, '2023-08-07T23:30:05.000000Z'),
    fingerprint('apac-bastion-ed25519', USER.amara, '2025-01-10T04:00:00.000000Z'),
  ],
};
