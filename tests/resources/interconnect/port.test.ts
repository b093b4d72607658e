import { expect } from 'vitest';
import { interconnectProvider } from '../../../src/providers/interconnect/index.js';
import { port } from '../../../src/resources/interconnect/port.js';
import { describeLifecycle } from '../../support/lifecycle.js';

const base = { productName: 'life-port', portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false };

describeLifecycle({
  type: port,
  provider: interconnectProvider,
  create: () => ({ ...base, resourceTags: { env: 'test' } }),
  update: () => ({ ...base, productName: 'life-port-renamed', contractTermMonths: 24, costCentre: 'cc-42', marketplaceVisibility: true, resourceTags: { env: 'prod' } }),
  replace: () => ({ ...base, portSpeed: 100000 }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ productName: inputs.productName, portSpeed: inputs.portSpeed, locationId: inputs.locationId, contractTermMonths: inputs.contractTermMonths, marketplaceVisibility: inputs.marketplaceVisibility });
    expect(outputs.resourceTags).toEqual(inputs.resourceTags ?? {});
    if (inputs.costCentre) expect(outputs.costCentre).toBe(inputs.costCentre);
    expect(outputs.provisioningStatus).toMatch(/CONFIGURED|LIVE/);
  },
  badImportId: 'x',
});
