import { expect } from 'vitest';
import { cloudProvider } from '../../src/providers/cloud/index.js';
import { antiDdosAllowedDomain } from '../../src/resources/cloud/anti-ddos-allowed-domain.js';
import { antiDdosInstance } from '../../src/resources/cloud/anti-ddos-instance.js';
import { describeLifecycle } from '../support/lifecycle.js';

const settings = { region: 'cn-bj2', projectId: 'org-sandbox' };
const instance = { area: 'EastChina', dataCenter: 'Yangzhou', bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 40, chargeType: 'month', duration: 1 };

describeLifecycle({
  type: antiDdosInstance,
  provider: cloudProvider,
  settings,
  create: () => antiDdosInstance.inputs.parse({ ...instance, name: 'shared-suite' }),
  update: () => antiDdosInstance.inputs.parse({ ...instance, name: 'shared-suite-renamed', bandwidth: 100, maxDefenceValue: 80 }),
  replace: () => antiDdosInstance.inputs.parse({ ...instance, name: 'shared-suite', dataCenter: 'Zaozhuang' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ name: inputs.name, dataCenter: inputs.dataCenter, bandwidth: inputs.bandwidth, maxDefenceValue: inputs.maxDefenceValue });
  },
  badImportId: '',
});

describeLifecycle({
  type: antiDdosAllowedDomain,
  provider: cloudProvider,
  settings,
  async setup(ctx) {
    const created = await antiDdosInstance.create(await ctx('owner'), antiDdosInstance.inputs.parse({ ...instance, name: 'domain-owner' }));
    return created.id;
  },
  create: (instanceId) => ({ instanceId, domain: 'example.com', comment: 'first' }),
  update: (instanceId) => ({ instanceId, domain: 'example.com', comment: 'second' }),
  replace: (instanceId) => ({ instanceId, domain: 'example.org', comment: 'first' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ instanceId: inputs.instanceId, domain: inputs.domain, comment: inputs.comment });
  },
  badImportId: 'no-slash-here',
});
