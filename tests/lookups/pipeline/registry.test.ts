/**
 * The pipeline lookup list: every function the issue names is there once, under its token (the
 * conformance suite, tests/lookups/conformance.test.ts, covers each one).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pipelineLookups } from '../../../src/lookups/pipeline/index.js';
import { undocumented } from '../../support/lookup-conformance.js';

const EXPECTED = [
  'getConnection',
  'getConnectionCertificates',
  'getConnectionFingerprints',
  'getConnections',
  'getConnectionSchemas',
  'getConnector',
  'getConnectorCertificates',
  'getConnectorFingerprints',
  'getConnectors',
  'getConnectorsMetadata',
  'getDestination',
  'getDestinationCertificates',
  'getDestinationFingerprints',
  'getGroupSshKey',
  'getGroupUsers',
  'getGroups',
  'getHybridDeploymentAgent',
  'getHybridDeploymentAgents',
  'getPrivateLink',
  'getPrivateLinks',
  'getProxyAgent',
  'getProxyAgents',
  'getQuickstartPackage',
  'getQuickstartPackages',
  'getRoles',
  'getTeam',
  'getTeamConnectionMemberships',
  'getTeamConnectorMemberships',
  'getTeamGroupMemberships',
  'getTeamUserMemberships',
  'getUsers',
  'getUser',
  'getGroup',
  'getGroupConnections',
  'getDestinations',
  'getWebhooks',
];

describe('pipeline lookups', () => {
  it('registers every lookup of the issue exactly once under pipeline:index/<fn>:<fn>', () => {
    const tokens = pipelineLookups.map((f) => f.token);
    expect(new Set(tokens).size).toBe(tokens.length);
    expect([...tokens].sort()).toEqual(EXPECTED.map((n) => `pipeline:index/${n}:${n}`).sort());
  });

  it('finds undocumented fields at any depth (the doc check itself works)', () => {
    const schema = z.object({
      ok: z.string().describe('documented'),
      bare: z.string(),
      list: z.array(z.object({ inner: z.number() })).describe('documented'),
      maybe: z.object({ deep: z.boolean() }).nullable().describe('documented'),
    });
    expect(undocumented(schema)).toEqual(['bare', 'list.[].inner', 'maybe.deep']);
  });
});
