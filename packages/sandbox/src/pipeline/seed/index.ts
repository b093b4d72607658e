/**
 * The seeded pipeline account, assembled from its parts. Every call returns a deep copy, so
 * one sandbox's changes never leak into another's (tests run several in one process).
 */
import type { PipelineData } from '../model.js';
import { groupMembers, groups, roles, teamMemberships, teams, users } from './accounts.js';
import { connectorTypes, packages, webhooks } from './catalog.js';
import { seedConnections } from './connections.js';
import { certificates, destinations, fingerprints, groupKeys, hybridAgents, privateLinks, proxyAgents } from './network.js';

/** Version of the seed's shape; stored data of another version is replaced by a fresh seed. */
export const SEED_VERSION = 3;

/** A fresh copy of the seeded account. */
export function seedPipeline(): PipelineData {
  return structuredClone({
    version: SEED_VERSION,
    groups,
    groupKeys,
    destinations,
    connections: seedConnections(),
    certificates,
    fingerprints,
    users,
    groupMembers,
    userConnections: [],
    teams,
    teamMemberships,
    roles,
    privateLinks,
    proxyAgents,
    hybridAgents,
    packages,
    connectorTypes,
    webhooks,
    externalLogs: [],
    transformationProjects: [],
    transformations: [],
    pending: {},
  });
}
