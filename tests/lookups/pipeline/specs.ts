/**
 * The conformance spec of every pipeline lookup function, run by tests/lookups/conformance.test.ts
 * against the sandbox's seed: a function the registry holds without a spec here fails that suite,
 * naming this file.
 */
import { expect } from 'vitest';
import { getConnection } from '../../../src/lookups/pipeline/get-connection.js';
import { getConnectionCertificates } from '../../../src/lookups/pipeline/get-connection-certificates.js';
import { getConnectionFingerprints } from '../../../src/lookups/pipeline/get-connection-fingerprints.js';
import { getConnectionSchemas } from '../../../src/lookups/pipeline/get-connection-schemas.js';
import { getConnections } from '../../../src/lookups/pipeline/get-connections.js';
import { getConnector } from '../../../src/lookups/pipeline/get-connector.js';
import { getConnectorCertificates } from '../../../src/lookups/pipeline/get-connector-certificates.js';
import { getConnectorFingerprints } from '../../../src/lookups/pipeline/get-connector-fingerprints.js';
import { getConnectors } from '../../../src/lookups/pipeline/get-connectors.js';
import { getConnectorsMetadata } from '../../../src/lookups/pipeline/get-connectors-metadata.js';
import { getDestination } from '../../../src/lookups/pipeline/get-destination.js';
import { getDestinationCertificates } from '../../../src/lookups/pipeline/get-destination-certificates.js';
import { getDestinationFingerprints } from '../../../src/lookups/pipeline/get-destination-fingerprints.js';
import { getDestinations } from '../../../src/lookups/pipeline/get-destinations.js';
import { getGroup } from '../../../src/lookups/pipeline/get-group.js';
import { getGroupConnections } from '../../../src/lookups/pipeline/get-group-connections.js';
import { getGroupSshKey } from '../../../src/lookups/pipeline/get-group-ssh-key.js';
import { getGroupUsers } from '../../../src/lookups/pipeline/get-group-users.js';
import { getGroups } from '../../../src/lookups/pipeline/get-groups.js';
import { getHybridDeploymentAgent } from '../../../src/lookups/pipeline/get-hybrid-deployment-agent.js';
import { getHybridDeploymentAgents } from '../../../src/lookups/pipeline/get-hybrid-deployment-agents.js';
import { getPrivateLink } from '../../../src/lookups/pipeline/get-private-link.js';
import { getPrivateLinks } from '../../../src/lookups/pipeline/get-private-links.js';
import { getProxyAgent } from '../../../src/lookups/pipeline/get-proxy-agent.js';
import { getProxyAgents } from '../../../src/lookups/pipeline/get-proxy-agents.js';
import { getQuickstartPackage } from '../../../src/lookups/pipeline/get-quickstart-package.js';
import { getQuickstartPackages } from '../../../src/lookups/pipeline/get-quickstart-packages.js';
import { getRoles } from '../../../src/lookups/pipeline/get-roles.js';
import { getTeam } from '../../../src/lookups/pipeline/get-team.js';
import { getTeamConnectionMemberships } from '../../../src/lookups/pipeline/get-team-connection-memberships.js';
import { getTeamConnectorMemberships } from '../../../src/lookups/pipeline/get-team-connector-memberships.js';
import { getTeamGroupMemberships } from '../../../src/lookups/pipeline/get-team-group-memberships.js';
import { getTeamUserMemberships } from '../../../src/lookups/pipeline/get-team-user-memberships.js';
import { getUser } from '../../../src/lookups/pipeline/get-user.js';
import { getUsers } from '../../../src/lookups/pipeline/get-users.js';
import { getWebhooks } from '../../../src/lookups/pipeline/get-webhooks.js';
import { PipelineClient } from '../../../src/providers/pipeline/client.js';
import type { ProviderLookupSpecs } from '../../support/lookup-conformance.js';
import { pipelineCall, TEST_KEY, TEST_SECRET } from '../../support/pipeline-sandbox.js';

const TEAM = 'sturdy_beaver';
const missing = (lookup: string, entity: string, key = 'id', id = 'ghost_id') => ({ args: { [key]: id }, message: `${lookup}: ${entity} "${id}" not found` });
const missingConnection = (lookup: string, id = 'ghost_conn') => ({ args: { id }, message: `${lookup}: connection "${id}" not found` });

/** The pipeline lookups' conformance specs. */
export const pipelineLookupSpecs: ProviderLookupSpecs = {
  provider: 'pipeline',
  file: 'tests/lookups/pipeline/specs.ts',
  async connect(url, { pageSize }) {
    const client = new PipelineClient({ baseUrl: `${url}/pipeline/v1`, apiKey: TEST_KEY, apiSecret: TEST_SECRET, ...(pageSize ? { pageSize } : {}) });
    return { client, settings: { apiKey: TEST_KEY, apiSecret: TEST_SECRET, apiUrl: client.baseUrl } };
  },
  // A connection's schema is read once captured: ample_kitten's is, for getConnectionSchemas.
  async seed(url) {
    await pipelineCall(url, 'POST', '/connections/ample_kitten/schemas/reload', { exclude_mode: 'PRESERVE' });
    return {};
  },
  specs: [
    {
      fn: getConnection,
      args: { id: 'velvet_fox' },
      check: (r) => {
        expect(r).toMatchObject({ id: 'velvet_fox', groupId: 'decent_dropsy', service: 'google_sheets', serviceVersion: '1', name: 'sheets.budget' });
        expect(r).toMatchObject({ syncFrequency: 1440, dailySyncTime: '03:00', paused: true, networkingMethod: 'Directly', privateLinkId: null });
        expect(r.destinationSchema).toEqual({ name: 'sheets', prefix: null, table: 'budget', tableGroupName: null });
        expect(r.status).toMatchObject({ setupState: 'incomplete', syncState: 'paused', isHistoricalSync: true, tasks: [{ code: 'reconnect', message: 'Reconnect' }] });
      },
      notFound: missingConnection('getConnection'),
    },
    {
      fn: getConnector,
      args: { id: 'ample_kitten' },
      check: (r) => {
        expect(r).toMatchObject({ id: 'ample_kitten', service: 'postgres', serviceVersion: '3', networkingMethod: 'SshTunnel', syncFrequency: 15 });
        expect(r.destinationSchema).toEqual({ name: null, prefix: 'pg_orders', table: null, tableGroupName: null });
        expect(r.config).toMatchObject({ host: 'orders-db.internal.acme-data.io', port: 5432, password: '******', replicationSlot: 'fivetran_orders', tunnelPort: 22 });
      },
      notFound: missingConnection('getConnector'),
    },
    {
      fn: getConnections,
      args: { groupId: 'decent_dropsy' },
      pagedPath: '/v1/connections',
      notFound: { args: { groupId: 'ghost_group' }, message: 'getConnections: group "ghost_group" not found' },
      check: (r) => {
        expect(r.id).toBe('0');
        expect(r.groupId).toBe('decent_dropsy');
        expect(r.connections).toHaveLength(13);
        expect(r.connections.every((c: any) => c.groupId === 'decent_dropsy')).toBe(true);
        expect(r.connections[0]).not.toHaveProperty('status');
      },
    },
    {
      fn: getConnectors,
      args: {},
      pagedPath: '/v1/connections',
      check: (r) => {
        expect(r.connectors.length).toBeGreaterThanOrEqual(40);
        expect(new Set(r.connectors.map((c: any) => c.groupId)).size).toBe(6);
      },
    },
    {
      fn: getGroupConnections,
      args: { id: 'sharp_heron' },
      pagedPath: '/v1/groups/sharp_heron/connections',
      check: (r) => {
        expect(r.id).toBe('sharp_heron');
        expect(r.connections.map((c: any) => c.id)).toContain('lanky_stork');
        const stork = r.connections.find((c: any) => c.id === 'lanky_stork');
        expect(stork).toMatchObject({ paused: true, pauseAfterTrial: true, status: { syncState: 'paused' } });
      },
      notFound: { args: { id: 'ghost_group' }, message: 'getGroupConnections: group "ghost_group" not found' },
    },
    {
      fn: getConnectionCertificates,
      args: { id: 'ample_kitten' },
      pagedPath: '/v1/connections/ample_kitten/certificates',
      check: (r) => {
        expect(r.id).toBe('ample_kitten');
        expect(r.certificates).toHaveLength(3);
        expect(r.certificates[0]).toMatchObject({ name: 'CN=Acme Internal Root CA', type: 'TLS', validatedBy: 'wise_owl' });
        expect(r.certificates[0].publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
      },
      notFound: missingConnection('getConnectionCertificates'),
    },
    {
      fn: getConnectionFingerprints,
      args: { id: 'ample_kitten' },
      pagedPath: '/v1/connections/ample_kitten/fingerprints',
      check: (r) => {
        expect(r.fingerprints).toHaveLength(3);
        expect(r.fingerprints[0].publicKey).toMatch(/^ssh-rsa /);
      },
      notFound: missingConnection('getConnectionFingerprints'),
    },
    {
      fn: getConnectionSchemas,
      args: { id: 'ample_kitten' },
      check: (r) => {
        expect(r.id).toBe('ample_kitten');
        expect(r.schemas.length).toBeGreaterThan(0);
        expect(r.schemas[0]).toMatchObject({ name: expect.any(String), enabled: expect.any(Boolean), tables: expect.any(Array) });
      },
      notFound: missing('getConnectionSchemas', 'connection schema', 'id', 'ghost_conn'),
    },
    {
      fn: getConnectorCertificates,
      args: { id: 'ample_kitten' },
      pagedPath: '/v1/connections/ample_kitten/certificates',
      check: (r) => {
        expect(r).toMatchObject({ id: 'ample_kitten', connectorId: 'ample_kitten' });
        expect(r.certificates).toHaveLength(3);
      },
      notFound: missingConnection('getConnectorCertificates'),
    },
    {
      fn: getConnectorFingerprints,
      args: { id: 'ample_kitten' },
      pagedPath: '/v1/connections/ample_kitten/fingerprints',
      check: (r) => {
        expect(r).toMatchObject({ id: 'ample_kitten', connectorId: 'ample_kitten' });
        expect(r.fingerprints).toHaveLength(3);
      },
      notFound: missingConnection('getConnectorFingerprints'),
    },
    {
      fn: getDestination,
      args: { id: 'quiet_badger' },
      check: (r) => {
        expect(r).toMatchObject({ id: 'quiet_badger', groupId: 'quiet_badger', service: 'databricks', region: 'AWS_EU_CENTRAL_1', timeZoneOffset: '+1' });
        expect(r).toMatchObject({ setupStatus: 'connected', networkingMethod: 'PrivateLink', privateLinkId: 'eager_lemur', proxyAgentId: null, daylightSavingTimeEnabled: false });
        expect(r.config).toMatchObject({ serverHostName: 'dbc-7a1b2c3d-4e5f.cloud.databricks.com', personalAccessToken: '******', authType: 'PERSONAL_ACCESS_TOKEN' });
      },
      notFound: missing('getDestination', 'destination'),
    },
    {
      fn: getDestinations,
      args: {},
      pagedPath: '/v1/destinations',
      check: (r) => {
        expect(r.destinations).toHaveLength(6);
        expect(r.destinations.find((d: any) => d.id === 'mellow_lynx')).toMatchObject({ networkingMethod: 'ProxyAgent', proxyAgentId: 'polar_stoat', setupStatus: 'incomplete' });
        expect(r.destinations[0]).not.toHaveProperty('config');
      },
    },
    {
      fn: getDestinationCertificates,
      args: { id: 'decent_dropsy' },
      pagedPath: '/v1/destinations/decent_dropsy/certificates',
      check: (r) => {
        expect(r).toMatchObject({ id: 'decent_dropsy', destinationId: 'decent_dropsy' });
        expect(r.certificates.map((c: any) => c.name)).toContain('CN=*.us-east-1.snowflakecomputing.com');
      },
      notFound: missing('getDestinationCertificates', 'destination'),
    },
    {
      fn: getDestinationFingerprints,
      args: { id: 'brisk_otter' },
      pagedPath: '/v1/destinations/brisk_otter/fingerprints',
      check: (r) => {
        expect(r).toMatchObject({ id: 'brisk_otter', destinationId: 'brisk_otter' });
        expect(r.fingerprints).toHaveLength(3);
      },
      notFound: missing('getDestinationFingerprints', 'destination'),
    },
    {
      fn: getGroup,
      args: { id: 'decent_dropsy' },
      check: (r) => expect(r).toEqual({ id: 'decent_dropsy', name: 'Analytics Warehouse', createdAt: '2023-01-12T09:14:22.418263Z' }),
      notFound: missing('getGroup', 'group'),
    },
    {
      fn: getGroups,
      args: {},
      pagedPath: '/v1/groups',
      check: (r) => {
        expect(r.id).toBe('0');
        expect(r.groups.map((g: any) => g.name)).toContain('Finance EU');
        expect(r.groups).toHaveLength(6);
      },
    },
    {
      fn: getGroupSshKey,
      args: { id: 'decent_dropsy' },
      check: (r) => {
        expect(r.id).toBe('decent_dropsy');
        expect(r.publicKey).toMatch(/^ssh-rsa \S+ fivetran user key$/);
      },
      notFound: missing('getGroupSshKey', 'group'),
    },
    {
      fn: getGroupUsers,
      args: { id: 'decent_dropsy' },
      pagedPath: '/v1/groups/decent_dropsy/users',
      check: (r) => {
        expect(r.users).toHaveLength(5);
        expect(r.users.find((u: any) => u.id === 'calm_panda')).toMatchObject({ email: 'dev.patel@acme-data.io', role: 'Destination Analyst' });
      },
      notFound: missing('getGroupUsers', 'group'),
    },
    {
      fn: getUsers,
      args: {},
      pagedPath: '/v1/users',
      check: (r) => {
        expect(r.users.length).toBeGreaterThanOrEqual(8);
        expect(r.users.find((u: any) => u.id === 'noble_yak')).toMatchObject({ active: false });
      },
    },
    {
      fn: getUser,
      args: { id: 'gentle_crane' },
      check: (r) => expect(r).toMatchObject({ id: 'gentle_crane', givenName: 'Tom', invited: true, verified: false, loggedInAt: null, role: 'Account Billing' }),
      notFound: missing('getUser', 'user'),
    },
    {
      fn: getTeam,
      args: { id: TEAM },
      check: (r) => expect(r).toEqual({ id: TEAM, name: 'Data Platform', description: 'Owns the warehouses, private networking and ingestion', role: 'Account Reviewer' }),
      notFound: missing('getTeam', 'team'),
    },
    {
      fn: getTeamConnectionMemberships,
      args: { id: TEAM },
      pagedPath: `/v1/teams/${TEAM}/connections`,
      check: (r) => {
        expect(r.id).toBe(TEAM);
        expect(r.connections).toHaveLength(4);
        expect(r.connections[0]).toEqual({ connectionId: 'ample_kitten', role: 'Connector Administrator', createdAt: '2023-02-01T09:10:00.000000Z' });
      },
      notFound: missing('getTeamConnectionMemberships', 'team'),
    },
    {
      fn: getTeamConnectorMemberships,
      args: { teamId: TEAM },
      pagedPath: `/v1/teams/${TEAM}/connections`,
      check: (r) => {
        expect(r).toMatchObject({ id: TEAM, teamId: TEAM });
        expect(r.connectors.map((c: any) => c.connectorId)).toContain('fresh_clam');
      },
      notFound: missing('getTeamConnectorMemberships', 'team', 'teamId'),
    },
    {
      fn: getTeamGroupMemberships,
      args: { teamId: TEAM },
      pagedPath: `/v1/teams/${TEAM}/groups`,
      check: (r) => {
        expect(r).toMatchObject({ id: TEAM, teamId: TEAM });
        expect(r.groups.map((g: any) => g.groupId)).toEqual(['decent_dropsy', 'brisk_otter', 'amber_falcon']);
      },
      notFound: missing('getTeamGroupMemberships', 'team', 'teamId'),
    },
    {
      fn: getTeamUserMemberships,
      args: { teamId: TEAM },
      pagedPath: `/v1/teams/${TEAM}/users`,
      check: (r) => {
        expect(r).toMatchObject({ id: TEAM, teamId: TEAM });
        expect(r.users[0]).toEqual({ userId: 'wise_owl', role: 'Team Manager', createdAt: '2023-02-01T09:00:00.000000Z' });
        expect(r.users).toHaveLength(4);
      },
      notFound: missing('getTeamUserMemberships', 'team', 'teamId'),
    },
    {
      fn: getRoles,
      args: {},
      pagedPath: '/v1/roles',
      check: (r) => {
        expect(r.roles.find((x: any) => x.name === 'Data Steward')).toMatchObject({ isCustom: true, scopes: ['DESTINATION', 'CONNECTOR'], isDeprecated: false, replacementRoleName: null });
        expect(r.roles.find((x: any) => x.name === 'Read Only')).toMatchObject({ isDeprecated: true, replacementRoleName: 'Account Reviewer' });
      },
    },
    {
      fn: getPrivateLink,
      args: { id: 'eager_lemur' },
      check: (r) => {
        expect(r).toMatchObject({ id: 'eager_lemur', name: 'dbx_eu_central', service: 'DATABRICKS_AWS', cloudProvider: 'AWS', state: 'OK', createdBy: 'wise_owl' });
        expect(r.configMap).toEqual({ workspace_url: 'https://dbc-7a1b2c3d-4e5f.cloud.databricks.com' });
        expect(r.host).toMatch(/privatelink/);
      },
      notFound: missing('getPrivateLink', 'private link'),
    },
    {
      fn: getPrivateLinks,
      args: {},
      pagedPath: '/v1/private-links',
      check: (r) => {
        expect(new Set(r.items.map((l: any) => l.state))).toEqual(new Set(['OK', 'CREATING', 'FAIL', 'UPDATING']));
        expect(r.items.find((l: any) => l.state === 'CREATING')).toMatchObject({ host: null });
        expect(r.items[0]).not.toHaveProperty('configMap');
      },
    },
    {
      fn: getProxyAgent,
      args: { id: 'polar_stoat' },
      check: (r) => expect(r).toEqual({ id: 'polar_stoat', displayName: 'azure-weu-proxy', groupRegion: 'AZURE_WESTEUROPE', createdBy: 'noble_yak', registredAt: '2024-01-23T09:00:00.000000Z' }),
      notFound: missing('getProxyAgent', 'proxy agent'),
    },
    {
      fn: getProxyAgents,
      args: {},
      pagedPath: '/v1/proxy',
      check: (r) => {
        expect(r.items).toHaveLength(3);
        expect(Object.keys(r.items[0]).sort()).toEqual(['createdBy', 'displayName', 'groupRegion', 'id', 'registredAt']);
      },
    },
    {
      fn: getHybridDeploymentAgent,
      args: { id: 'cosmic_beetle' },
      check: (r) => expect(r).toEqual({ id: 'cosmic_beetle', displayName: 'lab-docker-01', groupId: 'amber_falcon', registeredAt: '2024-06-05T10:00:00.000000Z' }),
      notFound: missing('getHybridDeploymentAgent', 'hybrid deployment agent'),
    },
    {
      fn: getHybridDeploymentAgents,
      args: {},
      pagedPath: '/v1/hybrid-deployment-agents',
      check: (r) => expect(r.items.map((a: any) => a.groupId)).toEqual(['amber_falcon', 'amber_falcon', 'decent_dropsy']),
    },
    {
      fn: getQuickstartPackage,
      args: { id: 'rapid_manatee' },
      check: (r) => {
        expect(r).toMatchObject({ id: 'rapid_manatee', name: 'shopify', version: '0.13.2', connectorTypes: ['shopify'] });
        expect(r.outputModelNames).toContain('shopify__orders');
        expect(r.configurableVariables.shopify__calendar_start_date).toEqual({ type: 'DATE', description: 'First date of the calendar spine', allowedValues: [] });
      },
      notFound: missing('getQuickstartPackage', 'quickstart package'),
    },
    {
      fn: getQuickstartPackages,
      args: {},
      pagedPath: '/v1/transformations/package-metadata',
      check: (r) => {
        expect(r.packages.map((p: any) => p.name)).toEqual(['fivetran_log', 'salesforce', 'hubspot', 'stripe', 'shopify']);
        expect(r.packages[3].configurableVariables.stripe_timezone.allowedValues).toContain('Europe/Berlin');
      },
    },
    {
      fn: getConnectorsMetadata,
      args: {},
      pagedPath: '/v1/metadata/connector-types',
      check: (r) => {
        expect(r.sources.length).toBeGreaterThanOrEqual(30);
        expect(r.sources.find((s: any) => s.id === 'postgres')).toMatchObject({ name: 'PostgreSQL', type: 'Database', linkToDocs: 'https://fivetran.com/docs/connectors/postgres' });
      },
    },
    {
      fn: getWebhooks,
      args: {},
      pagedPath: '/v1/webhooks',
      check: (r) => {
        expect(r.webhooks).toHaveLength(3);
        expect(r.webhooks[0]).toMatchObject({ id: 'fancy_llama', type: 'account', groupId: null, secret: '******' });
        expect(r.webhooks[2]).toMatchObject({ type: 'group', groupId: 'sharp_heron', active: false });
      },
    },
  ],
};
