/**
 * Destination, group, user, team and role lookups against the sandbox (conformance suite).
 */
import { expect } from 'vitest';
import { getDestination } from '../../../src/lookups/pipeline/get-destination.js';
import { getDestinationCertificates } from '../../../src/lookups/pipeline/get-destination-certificates.js';
import { getDestinationFingerprints } from '../../../src/lookups/pipeline/get-destination-fingerprints.js';
import { getDestinations } from '../../../src/lookups/pipeline/get-destinations.js';
import { getGroup } from '../../../src/lookups/pipeline/get-group.js';
import { getGroupSshKey } from '../../../src/lookups/pipeline/get-group-ssh-key.js';
import { getGroupUsers } from '../../../src/lookups/pipeline/get-group-users.js';
import { getGroups } from '../../../src/lookups/pipeline/get-groups.js';
import { getRoles } from '../../../src/lookups/pipeline/get-roles.js';
import { getTeam } from '../../../src/lookups/pipeline/get-team.js';
import { getTeamConnectionMemberships } from '../../../src/lookups/pipeline/get-team-connection-memberships.js';
import { getTeamConnectorMemberships } from '../../../src/lookups/pipeline/get-team-connector-memberships.js';
import { getTeamGroupMemberships } from '../../../src/lookups/pipeline/get-team-group-memberships.js';
import { getTeamUserMemberships } from '../../../src/lookups/pipeline/get-team-user-memberships.js';
import { getUser } from '../../../src/lookups/pipeline/get-user.js';
import { getUsers } from '../../../src/lookups/pipeline/get-users.js';
import { describeLookups } from './conformance.js';

const TEAM = 'sturdy_beaver';
const missing = (lookup: string, entity: string, key = 'id', id = 'ghost_id') => ({ args: { [key]: id }, message: `${lookup}: ${entity} "${id}" not found` });

describeLookups('destination, group, user, team and role lookups', [
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
]);
