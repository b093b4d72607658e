/**
 * The conformance spec of every cloud lookup function, run by tests/lookups/conformance.test.ts
 * against the sandbox's seed: a function the registry holds without a spec here fails that suite,
 * naming this file.
 */
import pino from 'pino';
import { expect } from 'vitest';
import { getAntiDdosInstances } from '../../../src/lookups/cloud/get-anti-ddos-instances.js';
import { getAntiDdosIps } from '../../../src/lookups/cloud/get-anti-ddos-ips.js';
import { getBaremetalImages } from '../../../src/lookups/cloud/get-baremetal-images.js';
import { getDbBackups } from '../../../src/lookups/cloud/get-db-backups.js';
import { getDbInstances } from '../../../src/lookups/cloud/get-db-instances.js';
import { getDbParameterGroups } from '../../../src/lookups/cloud/get-db-parameter-groups.js';
import { getDisks } from '../../../src/lookups/cloud/get-disks.js';
import { getEips } from '../../../src/lookups/cloud/get-eips.js';
import { getIamGroups } from '../../../src/lookups/cloud/get-iam-groups.js';
import { getIamPolicy } from '../../../src/lookups/cloud/get-iam-policy.js';
import { getImages } from '../../../src/lookups/cloud/get-images.js';
import { getInstances } from '../../../src/lookups/cloud/get-instances.js';
import { getLabelResources } from '../../../src/lookups/cloud/get-label-resources.js';
import { getLabels } from '../../../src/lookups/cloud/get-labels.js';
import { getLbAttachments } from '../../../src/lookups/cloud/get-lb-attachments.js';
import { getLbListeners } from '../../../src/lookups/cloud/get-lb-listeners.js';
import { getLbRules } from '../../../src/lookups/cloud/get-lb-rules.js';
import { getLbSsls } from '../../../src/lookups/cloud/get-lb-ssls.js';
import { getLbs } from '../../../src/lookups/cloud/get-lbs.js';
import { getNatGateways } from '../../../src/lookups/cloud/get-nat-gateways.js';
import { getProjects } from '../../../src/lookups/cloud/get-projects.js';
import { getUs3Buckets } from '../../../src/lookups/cloud/get-us3-buckets.js';
import { getVpcs } from '../../../src/lookups/cloud/get-vpcs.js';
import { getVpnConnections } from '../../../src/lookups/cloud/get-vpn-connections.js';
import { getVpnCustomerGateways } from '../../../src/lookups/cloud/get-vpn-customer-gateways.js';
import { getVpnGateways } from '../../../src/lookups/cloud/get-vpn-gateways.js';
import { getZones } from '../../../src/lookups/cloud/get-zones.js';
import { terraformConfig } from '../../../src/lookups/cloud/terraform-config.js';
import { cloudProvider } from '../../../src/providers/cloud/index.js';
import type { LookupContext, LookupFunction } from '../../../src/engine/contracts/lookup.js';
import type { ProviderLookupSpecs, Seeded } from '../../support/lookup-conformance.js';

const log = pino({ level: 'silent' });
/** The seeded ids, for checks (which see only the result). */
const seededIds: Seeded = {};

/** Names of the items of a list, sorted. */
function names(items: { name: string }[]): string[] {
  return items.map((i) => i.name).sort();
}

async function connect(url: string, pageSize?: number) {
  const settings = cloudProvider.settings.parse({ region: 'cn-bj2', projectId: 'org-sandbox' });
  const client = await cloudProvider.connect(settings, { sandboxUrl: async () => url, log, env: {} });
  if (pageSize) client.pageSize = pageSize;
  return { client, settings };
}

/** The first id a lookup gives for these arguments. */
async function firstId(url: string, fn: LookupFunction, args: Record<string, unknown>): Promise<string> {
  const { client, settings } = await connect(url);
  const ctx: LookupContext = { client, settings, log, warn: () => undefined, workDir: '.' };
  return ((await fn.invoke(ctx, fn.args.parse(args))) as { ids: string[] }).ids[0];
}

/** The cloud lookups' conformance specs, against the sandbox's seeded project. */
export const cloudLookupSpecs: ProviderLookupSpecs = {
  provider: 'cloud',
  file: 'tests/lookups/cloud/specs.ts',
  connect: (url, { pageSize }) => connect(url, pageSize),
  async seed(url) {
    seededIds.edge = await firstId(url, getAntiDdosInstances, { nameRegex: '^edge' });
    seededIds.webLb = await firstId(url, getLbs, { nameRegex: '^web-lb$' });
    seededIds.https = await firstId(url, getLbListeners, { loadBalancerId: seededIds.webLb, nameRegex: '^https$' });
    return seededIds;
  },
  specs: [
    { fn: getAntiDdosInstances, args: {}, pagedPath: 'DescribeNapServiceInfo', check: (r) => expect(names(r.instances)).toEqual(['edge-shield', 'north-shield', 'old-shield']) },
    { fn: getAntiDdosIps, args: (seeded) => ({ instanceId: seeded.edge }), check: (r) => expect(r.totalCount).toBe(3) },
    { fn: getBaremetalImages, args: { availabilityZone: 'cn-bj2-02' }, pagedPath: 'DescribePHostImage', check: (r) => expect(r.totalCount).toBe(8) },
    { fn: getDbBackups, args: {}, check: (r) => expect(r.totalCount).toBe(16) },
    { fn: getDbInstances, args: {}, check: (r) => expect(names(r.dbInstances)).toEqual(['legacy-db', 'orders-db', 'users-db']) },
    { fn: getDbParameterGroups, args: { availabilityZone: 'cn-bj2-02' }, check: (r) => expect(r.totalCount).toBe(6) },
    { fn: getDisks, args: {}, check: (r) => expect(r.totalCount).toBe(7) },
    { fn: getEips, args: {}, check: (r) => expect(r.totalCount).toBe(6) },
    { fn: getIamGroups, args: {}, check: (r) => expect(r.names).toEqual(['Administrators', 'Developers', 'DBAs', 'Auditors', 'NetOps', 'SecOps']) },
    { fn: getIamPolicy, args: { name: 'UHostReadOnlyAccess', type: 'System' }, check: (r) => expect(r).toMatchObject({ urn: 'ucs:iam::ucs:policy/UHostReadOnlyAccess', scope: 'Project' }) },
    { fn: getImages, args: { availabilityZone: 'cn-bj2-02' }, check: (r) => expect(r.totalCount).toBe(11) },
    { fn: getInstances, args: {}, check: (r) => expect(names(r.instances)).toEqual(['api-1', 'batch-1', 'cache-1', 'odd-1', 'web-1', 'web-2']) },
    {
      fn: getLabelResources,
      args: { key: 'env', value: 'prod', projectIds: ['org-sandbox'], resourceTypes: ['uhost'] },
      check: (r) => expect(names(r.resources)).toEqual(['api-1', 'web-1', 'web-2']),
    },
    { fn: getLabels, args: {}, check: (r) => expect(r.labels.map((l: { key: string; value: string }) => `${l.key}=${l.value}`)).toContain('env=prod') },
    { fn: getLbAttachments, args: (seeded) => ({ loadBalancerId: seeded.webLb, listenerId: seeded.https }), check: (r) => expect(r.totalCount).toBe(3) },
    { fn: getLbListeners, args: (seeded) => ({ loadBalancerId: seeded.webLb }), check: (r) => expect(r.ids).toContain(seededIds.https) },
    { fn: getLbRules, args: (seeded) => ({ loadBalancerId: seeded.webLb, listenerId: seeded.https }), check: (r) => expect(r.totalCount).toBe(3) },
    { fn: getLbSsls, args: {}, check: (r) => expect(names(r.lbSsls)).toEqual(['api-example-com', 'wildcard-example-net', 'www-example-com']) },
    { fn: getLbs, args: {}, check: (r) => expect(r.ids).toContain(seededIds.webLb) },
    { fn: getNatGateways, args: {}, check: (r) => expect(names(r.natGateways)).toEqual(['prod-nat', 'staging-nat']) },
    { fn: getProjects, args: {}, check: (r) => expect(names(r.projects)).toEqual(['Analytics', 'Default', 'Edge Security']) },
    { fn: getUs3Buckets, args: {}, check: (r) => expect(names(r.us3Buckets)).toEqual(['db-dumps', 'logs-archive', 'static-assets', 'static-assets-staging', 'user-uploads']) },
    { fn: getVpcs, args: {}, check: (r) => expect(names(r.vpcs)).toEqual(['prod', 'shared-services', 'staging']) },
    { fn: getVpnConnections, args: {}, check: (r) => expect(names(r.vpnConnections)).toEqual(['lab-tunnel', 'office-tunnel', 'partner-tunnel']) },
    { fn: getVpnCustomerGateways, args: {}, check: (r) => expect(names(r.vpnCustomerGateways)).toEqual(['beijing-office', 'lab', 'partner-dc']) },
    { fn: getVpnGateways, args: {}, check: (r) => expect(names(r.vpnGateways)).toEqual(['office-vpn', 'partner-vpn']) },
    { fn: getZones, args: {}, check: (r) => expect(r.ids).toEqual(['cn-bj2-02', 'cn-bj2-03', 'cn-bj2-04', 'cn-bj2-05']) },
    { fn: terraformConfig, args: {}, check: (r) => expect(r.result).toMatchObject({ insecure: false, max_retries: 3 }) },
  ],
};
