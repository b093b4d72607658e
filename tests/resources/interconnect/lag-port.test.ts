import { expect } from 'vitest';
import { interconnectProvider } from '../../../src/providers/interconnect/index.js';
import { lagPort } from '../../../src/resources/interconnect/lag-port.js';
import { describeLifecycle } from '../../support/lifecycle.js';

const base = { productName: 'life-lag', portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false, lagCount: 2 };

describeLifecycle({
  type: lagPort,
  provider: interconnectProvider,
  create: () => ({ ...base, resourceTags: { env: 'test' } }),
  update: () => ({ ...base, productName: 'life-lag-renamed', contractTermMonths: 24, costCentre: 'cc-7', marketplaceVisibility: true, resourceTags: { env: 'prod' } }),
  replace: () => ({ ...base, lagCount: 3 }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({
      productName: inputs.productName,
      portSpeed: inputs.portSpeed,
      locationId: inputs.locationId,
      contractTermMonths: inputs.contractTermMonths,
      marketplaceVisibility: inputs.marketplaceVisibility,
      lagCount: inputs.lagCount,
    });
    expect(outputs.lagPortUids).toHaveLength(inputs.lagCount);
    expect((outputs.lagPortUids as string[])[0]).toBe(outputs.productUid);
    expect(outputs.resourceTags).toEqual(inputs.resourceTags ?? {});
    if (inputs.costCentre) expect(outputs.costCentre).toBe(inputs.costCentre);
    expect(outputs.provisioningStatus).toMatch(/CONFIGURED|LIVE/);
    expect(outputs.createDate).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  },
  badImportId: 'x',
});
