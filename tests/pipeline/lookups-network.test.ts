/**
 * Private link, agent, quickstart package, connector metadata and webhook lookups against the
 * sandbox (conformance suite).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getConnectorsMetadata } from '../../src/lookups/pipeline/get-connectors-metadata.js';
import { getHybridDeploymentAgent } from '../../src/lookups/pipeline/get-hybrid-deployment-agent.js';
import { getHybridDeploymentAgents } from '../../src/lookups/pipeline/get-hybrid-deployment-agents.js';
import { getPrivateLink } from '../../src/lookups/pipeline/get-private-link.js';
import { getPrivateLinks } from '../../src/lookups/pipeline/get-private-links.js';
import { getProxyAgent } from '../../src/lookups/pipeline/get-proxy-agent.js';
import { getProxyAgents } from '../../src/lookups/pipeline/get-proxy-agents.js';
import { getQuickstartPackage } from '../../src/lookups/pipeline/get-quickstart-package.js';
import { getQuickstartPackages } from '../../src/lookups/pipeline/get-quickstart-packages.js';
import { getWebhooks } from '../../src/lookups/pipeline/get-webhooks.js';
import { describeLookups } from './conformance.js';
import { clientFor, contextFor, pipelineSandbox, type PipelineSandbox } from './helpers.js';
import type { Sender } from '../../src/providers/http.js';

const missing = (lookup: string, entity: string, id = 'ghost_id') => ({ args: { id }, message: `${lookup}: ${entity} "${id}" not found` });

describeLookups('networking, agent, package, metadata and webhook lookups', [
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
    check: (r) =>
      expect(r).toEqual({ id: 'polar_stoat', displayName: 'azure-weu-proxy', groupRegion: 'AZURE_WESTEUROPE', createdBy: 'noble_yak', registredAt: '2024-01-23T09:00:00.000000Z' }),
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
]);

describe('objects that leave optional fields out', () => {
  let sandbox: PipelineSandbox;
  beforeAll(async () => (sandbox = await pipelineSandbox()));
  afterAll(async () => sandbox.close());

  it('reads a proxy agent with only its id (the OpenAPI document requires none of its fields): null where the API says nothing', async () => {
    const served: Sender = async () => ({ status: 200, ok: true, headers: { get: (name) => (name.toLowerCase() === 'content-type' ? 'application/json' : null) }, text: JSON.stringify({ code: 'Success', data: { id: 'bare_agent' } }) });
    const r = await getProxyAgent.invoke(contextFor(clientFor(sandbox, { send: served })), { id: 'bare_agent' } as never);
    expect(r).toEqual({ id: 'bare_agent', displayName: null, groupRegion: null, createdBy: null, registredAt: null });
  });
});
