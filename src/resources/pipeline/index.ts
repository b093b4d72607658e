import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { connection } from './connection.js';
import { connectionSchedule } from './connection-schedule.js';
import { connectionSchemaConfig } from './connection-schema-config.js';
import { connectionCertificates } from './connection-certificates.js';
import { connectionFingerprints } from './connection-fingerprints.js';
import { destinationCertificates } from './destination-certificates.js';
import { destinationFingerprints } from './destination-fingerprints.js';
import { destination } from './destination.js';
import { group } from './group.js';
import { team } from './team.js';
import { teamConnectionMembership } from './team-connection-membership.js';
import { teamGroupMembership } from './team-group-membership.js';
import { teamUserMembership } from './team-user-membership.js';
import { user } from './user.js';
import { userConnectionMembership } from './user-connection-membership.js';
import { userGroupMembership } from './user-group-membership.js';
import { webhook } from './webhook.js';
import { externalLogging } from './external-logging.js';
import { hybridDeploymentAgent } from './hybrid-deployment-agent.js';
import { privateLink } from './private-link.js';
import { proxyAgent } from './proxy-agent.js';
import { transformation } from './transformation.js';
import { transformationProject } from './transformation-project.js';

/** Every pipeline resource type. */
export const pipelineResources: ResourceType[] = [
  group,
  destination,
  connection,
  connectionSchedule,
  user,
  team,
  teamUserMembership,
  teamGroupMembership,
  teamConnectionMembership,
  userGroupMembership,
  userConnectionMembership,
  webhook,
  connectionSchemaConfig,
  connectionCertificates,
  connectionFingerprints,
  destinationCertificates,
  destinationFingerprints,
  privateLink,
  proxyAgent,
  hybridDeploymentAgent,
  externalLogging,
  transformationProject,
  transformation,
];
