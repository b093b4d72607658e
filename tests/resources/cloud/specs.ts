/**
 * The lifecycle spec of every cloud resource type, run by tests/resources/lifecycle.test.ts: a type
 * the registry holds without a spec here fails that suite, naming this file.
 */
import * as z from 'zod';
import { expect } from 'vitest';
import { cloudProvider, type CloudClient } from '../../../src/providers/cloud/index.js';
import { antiDdosAllowedDomain } from '../../../src/resources/cloud/anti-ddos-allowed-domain.js';
import { antiDdosInstance } from '../../../src/resources/cloud/anti-ddos-instance.js';
import { lifecycleSpec, type LifecycleWorld, type ProviderLifecycleSpecs } from '../../support/lifecycle.js';
import { computeSpecs } from './compute-specs.js';
import { lbSpecs } from './lb-specs.js';
import { natVpnSpecs } from './nat-vpn-specs.js';
import { networkSpecs } from './network-specs.js';
import { uadsLabelSpecs } from './uads-label-specs.js';

const instance = { area: 'EastChina', dataCenter: 'Yangzhou', bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 40, chargeType: 'month', duration: 1 } as const;

/** The project's anti-DDoS instances as the API lists them, by id. */
async function instances(world: LifecycleWorld): Promise<string[]> {
  const client = (await world.ctx('census')).client as CloudClient;
  return (await client.pageAll<{ ResourceId: string }>('DescribeNapServiceInfo', { NapType: 1 }, 'ServiceInfo')).map((i) => i.ResourceId);
}

/** The lifecycle spec of AntiDdosInstance. */
export const antiDdosInstanceSpec = lifecycleSpec({
  type: antiDdosInstance,
  create: () => z.parse(antiDdosInstance.inputs, { ...instance, name: 'shared-suite' }),
  update: () => z.parse(antiDdosInstance.inputs, { ...instance, name: 'shared-suite-renamed', bandwidth: 100, maxDefenceValue: 80 }),
  replace: () => z.parse(antiDdosInstance.inputs, { ...instance, name: 'shared-suite', dataCenter: 'Zaozhuang' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ name: inputs.name, dataCenter: inputs.dataCenter, bandwidth: inputs.bandwidth, maxDefenceValue: inputs.maxDefenceValue });
  },
  badImportId: '',
  ghostId: () => 'usecure_ghp-00000000',
  createCall: 'Action=BuyHighProtectGameService',
  census: instances,
});

/** The lifecycle spec of AntiDdosAllowedDomain, on an instance made first. */
export const antiDdosAllowedDomainSpec = lifecycleSpec({
  type: antiDdosAllowedDomain,
  async setup(ctx) {
    return (await antiDdosInstance.create(await ctx('owner'), z.parse(antiDdosInstance.inputs, { ...instance, name: 'domain-owner' }))).id;
  },
  create: (instanceId: string) => ({ instanceId, domain: 'example.com', comment: 'first' }),
  update: (instanceId) => ({ instanceId, domain: 'example.com', comment: 'second' }),
  replace: (instanceId) => ({ instanceId, domain: 'example.org', comment: 'first' }),
  // One entry per domain on an instance: a second is another domain.
  another: (instanceId) => ({ instanceId, domain: 'example.net', comment: 'other' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ instanceId: inputs.instanceId, domain: inputs.domain, comment: inputs.comment });
  },
  badImportId: 'no-slash-here',
  ghostId: (instanceId) => `${instanceId}/ghost.example`,
  createCall: 'Action=AddNapAllowListDomain',
  async census(world, instanceId) {
    const client = (await world.ctx('census')).client as CloudClient;
    const body = await client.call<{ DomainList?: Array<{ Domain: string; Status?: number }> }>('GetNapAllowListDomain', { ResourceId: instanceId });
    // Status 3 and 5: being deleted, deleted.
    return (body.DomainList ?? []).filter((d) => d.Status !== 3 && d.Status !== 5).map((d) => `${instanceId}/${d.Domain}`);
  },
});

/** The cloud resource types' lifecycle specs. */
export const cloudLifecycle: ProviderLifecycleSpecs = {
  provider: cloudProvider,
  settings: { region: 'cn-bj2', projectId: 'org-sandbox' },
  specs: [antiDdosInstanceSpec, antiDdosAllowedDomainSpec, ...networkSpecs, ...computeSpecs, ...natVpnSpecs, ...lbSpecs, ...uadsLabelSpecs],
};
