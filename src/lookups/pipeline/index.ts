/**
 * Every pipeline lookup function, one file each. Tokens are `pipeline:index/<fn>:<fn>`.
 */
import type { LookupFunction } from '../../engine/contracts/lookup.js';
import { getConnectionCertificates } from './get-connection-certificates.js';
import { getConnectionFingerprints } from './get-connection-fingerprints.js';
import { getConnectionSchemas } from './get-connection-schemas.js';
import { getConnection } from './get-connection.js';
import { getConnections } from './get-connections.js';
import { getConnectorCertificates } from './get-connector-certificates.js';
import { getConnectorFingerprints } from './get-connector-fingerprints.js';
import { getConnector } from './get-connector.js';
import { getConnectorsMetadata } from './get-connectors-metadata.js';
import { getConnectors } from './get-connectors.js';
import { getDestinationCertificates } from './get-destination-certificates.js';
import { getDestinationFingerprints } from './get-destination-fingerprints.js';
import { getDestination } from './get-destination.js';
import { getDestinations } from './get-destinations.js';
import { getGroupConnections } from './get-group-connections.js';
import { getGroupSshKey } from './get-group-ssh-key.js';
import { getGroupUsers } from './get-group-users.js';
import { getGroup } from './get-group.js';
import { getGroups } from './get-groups.js';
import { getHybridDeploymentAgent } from './get-hybrid-deployment-agent.js';
import { getHybridDeploymentAgents } from './get-hybrid-deployment-agents.js';
import { getPrivateLink } from './get-private-link.js';
import { getPrivateLinks } from './get-private-links.js';
import { getProxyAgent } from './get-proxy-agent.js';
import { getProxyAgents } from './get-proxy-agents.js';
import { getQuickstartPackage } from './get-quickstart-package.js';
import { getQuickstartPackages } from './get-quickstart-packages.js';
import { getRoles } from './get-roles.js';
import { getTeamConnectionMemberships } from './get-team-connection-memberships.js';
import { getTeamConnectorMemberships } from './get-team-connector-memberships.js';
import { getTeamGroupMemberships } from './get-team-group-memberships.js';
import { getTeamUserMemberships } from './get-team-user-memberships.js';
import { getTeam } from './get-team.js';
import { getUser } from './get-user.js';
import { getUsers } from './get-users.js';
import { getWebhooks } from './get-webhooks.js';

/** Every pipeline lookup function. */
export const pipelineLookups: LookupFunction[] = [
  getConnectionCertificates,
  getConnectionFingerprints,
  getConnectionSchemas,
  getConnection,
  getConnections,
  getConnectorCertificates,
  getConnectorFingerprints,
  getConnector,
  getConnectorsMetadata,
  getConnectors,
  getDestinationCertificates,
  getDestinationFingerprints,
  getDestination,
  getDestinations,
  getGroupConnections,
  getGroupSshKey,
  getGroupUsers,
  getGroup,
  getGroups,
  getHybridDeploymentAgent,
  getHybridDeploymentAgents,
  getPrivateLink,
  getPrivateLinks,
  getProxyAgent,
  getProxyAgents,
  getQuickstartPackage,
  getQuickstartPackages,
  getRoles,
  getTeamConnectionMemberships,
  getTeamConnectorMemberships,
  getTeamGroupMemberships,
  getTeamUserMemberships,
  getTeam,
  getUser,
  getUsers,
  getWebhooks,
];
