/** The lifecycle spec of Vxc: a port to a cloud's partner port, with the partner config the cloud needs. */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { InterconnectClient } from '../../../src/providers/interconnect/client.js';
import type { ResourceContext } from '../../../src/engine/contracts/resource-type.js';
import { vxc } from '../../../src/resources/interconnect/vxc.js';
import { lifecycleSpec } from '../../support/lifecycle.js';
import { BUY, liveProducts, makePort } from './fixtures.js';

/** The VXC's own port and an AWS partner port in the same metro. */
export type VxcEnds = { port: string; aws: string };

/** An AWS partner config. */
export const aws = (ownerAccount = '123456789012') => ({ partner: 'aws' as const, type: 'private' as const, ownerAccount, asn: 65001 });

/** The AWS partner port in Sydney's blue zone, as the API lists partner ports. */
export async function awsPort(ctx: ResourceContext<InterconnectClient>): Promise<string> {
  const { data } = await ctx.client.get<Array<{ productUid: string; connectType: string; locationId: number; diversityZone: string }>>('/v2/dropdowns/partner/megaports');
  return data.find((p) => p.connectType === 'AWS' && p.locationId === 2 && p.diversityZone === 'blue')!.productUid;
}

/** A VXC's fixture from the port to AWS. */
export const toAws = (env: VxcEnds) => ({
  productName: 'life-vxc',
  rateLimit: 100,
  contractTermMonths: 1,
  aEnd: { requestedProductUid: env.port, vlan: 100 },
  bEnd: { requestedProductUid: env.aws },
  bEndPartnerConfig: aws(),
  resourceTags: { env: 'test' },
});

/** The lifecycle spec of Vxc. */
export const vxcSpec = lifecycleSpec({
  type: vxc,
  async setup(ctx): Promise<VxcEnds> {
    const c = await ctx('port');
    return { port: await makePort(c, 'vxc-life-port'), aws: await awsPort(c) };
  },
  create: toAws,
  update: (env) => ({
    ...toAws(env),
    productName: 'life-vxc-renamed',
    rateLimit: 200,
    aEnd: { requestedProductUid: env.port, vlan: 101 },
    shutdown: true,
    costCentre: 'cc-1',
    resourceTags: { env: 'prod' },
  }),
  replace: (env) => ({ ...toAws(env), bEndPartnerConfig: aws('210987654321') }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ productName: inputs.productName, rateLimit: inputs.rateLimit, contractTermMonths: inputs.contractTermMonths });
    expect(outputs.aEnd).toMatchObject({ requestedProductUid: inputs.aEnd.requestedProductUid, vlan: inputs.aEnd.vlan });
    expect((outputs.bEndCurrent as { productUid: string }).productUid).toBe(inputs.bEnd?.requestedProductUid);
    expect(outputs.shutdown ?? false).toBe(inputs.shutdown ?? false);
    expect(outputs.resourceTags).toEqual(inputs.resourceTags ?? {});
    // The API never returns partner configs: the engine keeps the manifest's.
    expect(outputs.bEndPartnerConfig).toBeUndefined();
    expect(outputs.provisioningStatus).toMatch(/CONFIGURED|LIVE/);
    expect(outputs.createDate).toMatch(/^\d{4}-\d\d-\d\dT/);
  },
  badImportId: 'x',
  ghostId: () => randomUUID(),
  createCall: BUY,
  census: async (world) => (await liveProducts(world)).vxcs.map((p) => p.productUid),
});
