/**
 * What the API refuses of a VXC's ends that the plan already knows, checked before any order: a
 * vNIC at an end that is not an MVE (or one the MVE lacks), a partner config its end does not
 * take, and a VXC to a cloud partner port without the partner config its order needs, the end a
 * resource of the stack or a product named by its UID outside it. Each case is judged against the world: the
 * sandbox refuses the order or the update exactly when the check does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrossCheckView, StackResource } from '../../../src/engine/contracts/resource-type.js';
import { getPartner } from '../../../src/lookups/interconnect/get-partner.js';
import { getProduct } from '../../../src/lookups/interconnect/get-product.js';
import { mve } from '../../../src/resources/interconnect/mve.js';
import { port } from '../../../src/resources/interconnect/port.js';
import { vxc } from '../../../src/resources/interconnect/vxc.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';
import { crossCheckView } from '../../support/cross-check-view.js';
import { interconnectContext, lookupContext } from '../../support/interconnect-context.js';
import { makePort } from './fixtures.js';
import { aws, awsPort } from './vxc-spec.js';

let sandbox: Sandbox;
let ctx: Awaited<ReturnType<typeof interconnectContext>>;
let portUid: string;
let otherPortUid: string;
let mveUid: string;
let awsUid: string;
beforeAll(async () => {
  sandbox = await startSandbox({ provisioningMs: 0 });
  ctx = await interconnectContext(sandbox.url);
  portUid = await makePort(ctx, 'cc-port');
  otherPortUid = await makePort(ctx, 'cc-port-2');
  const vendorConfig = { vendor: 'Cisco', imageId: 83, productSize: 'SMALL' as const, adminSshPublicKey: 'ssh-rsa AAAA', sshPublicKey: 'ssh-rsa AAAA', cloudInit: 'x' };
  mveUid = (await mve.create(ctx, { productName: 'cc-mve', locationId: 2, contractTermMonths: 1, vendorConfig, vnics: [{ description: 'one' }, { description: 'two' }] } as never)).id;
  awsUid = await awsPort(ctx);
});
afterAll(() => sandbox.close());

/** The stack the check sees: the port and MVE as recorded resources (unless `alone`: outside the stack), and the VXC checked. */
function stackOf(subject: StackResource, alone = false): StackResource[] {
  if (alone) return [subject];
  return [
    { address: 'port', token: port.token, recorded: { id: portUid, inputs: { productName: 'cc-port', portSpeed: 10000, locationId: 2 }, outputs: {} } },
    { address: 'otherPort', token: port.token, recorded: { id: otherPortUid, inputs: { productName: 'cc-port-2', portSpeed: 10000, locationId: 2 }, outputs: {} } },
    { address: 'mve', token: mve.token, recorded: { id: mveUid, inputs: { productName: 'cc-mve', vnics: [{ description: 'one' }, { description: 'two' }] }, outputs: {} } },
    subject,
  ];
}

/** The view a plan gives the check of the VXC, its lookups answered by the sandbox; `reads` counts them. */
async function viewOf(subject: StackResource, reads: string[] = [], alone = false): Promise<CrossCheckView> {
  const resources = stackOf(subject, alone);
  return crossCheckView(subject, {
    ctx: await lookupContext(sandbox.url),
    lookups: [getPartner, getProduct],
    reads,
    resources,
    resolve: (value) => resources.find((r) => r.recorded?.id === value),
  });
}

const base = () => ({ productName: 'cc-vxc', rateLimit: 100, contractTermMonths: 1 as const, aEnd: { requestedProductUid: portUid, vlan: 300 } });

/** What the check says of a VXC, as paths and messages. */
async function checked(inputs: Record<string, unknown>, recorded?: Record<string, unknown>, alone = false, reads: string[] = []): Promise<Array<[string, string]>> {
  const subject: StackResource = { address: 'subject', token: vxc.token, desired: inputs, ...(recorded ? { recorded: { id: 'v-1', inputs: recorded, outputs: {} } } : {}) };
  return (await vxc.crossCheck!(inputs as never, await viewOf(subject, reads, alone))).map((p) => [p.path.join('.'), p.message]);
}

/** The sandbox's answer to ordering these inputs: undefined when it takes the order, else its refusal. */
async function order(inputs: Record<string, unknown>): Promise<string | undefined> {
  return vxc.create(ctx, inputs as never).then(
    async (made) => void (await vxc.delete(ctx, made.id, { inputs: inputs as never, outputs: made.outputs })),
    (err: Error) => err.message,
  );
}

describe('a vNIC at a VXC end, checked before any order and judged against the world', () => {
  it('at an end that is a port: refused by the plan, and by the API when the update sends it', async () => {
    const made = { ...base(), bEnd: { requestedProductUid: otherPortUid, vlan: 301 } };
    const desired = { ...made, bEnd: { ...made.bEnd, vnicIndex: 1 } };
    expect(await checked(desired, made)).toEqual([['bEnd.vnicIndex', 'the B-End is otherPort (a Port): only an MVE end has vNICs']]);
    const created = await vxc.create(ctx, made);
    const refused = await vxc.update(ctx, created.id, { inputs: made, outputs: created.outputs }, desired).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(refused).toMatch(/bVnicIndex applies only to an MVE end/);
    await vxc.delete(ctx, created.id, { inputs: made, outputs: created.outputs });
  });

  it('at an MVE end: a vNIC it has passes and is ordered; one it lacks is refused by both', async () => {
    const has = { ...base(), bEnd: { requestedProductUid: mveUid, vlan: 302, vnicIndex: 1 } };
    expect(await checked(has)).toEqual([]);
    expect(await order(has)).toBeUndefined();
    const lacks = { ...base(), bEnd: { requestedProductUid: mveUid, vlan: 303, vnicIndex: 2 } };
    expect(await checked(lacks)).toEqual([['bEnd.vnicIndex', 'mve (an MVE) has no vNIC 2']]);
    expect(await order(lacks)).toMatch(/vNicIndex 2 does not exist on MVE/);
  });

  it('vNIC 0, the default every end has, is no problem anywhere', async () => {
    expect(await checked({ ...base(), aEnd: { ...base().aEnd, vnicIndex: 0 }, bEnd: { requestedProductUid: otherPortUid, vlan: 304, vnicIndex: 0 } })).toEqual([]);
  });
});

describe('a VXC to a cloud partner port without its partner config, checked before any order and judged against the world', () => {
  it('ordered without one: refused by the plan and by the API', async () => {
    const bare = { ...base(), bEnd: { requestedProductUid: awsUid } };
    expect(await checked(bare)).toEqual([['bEndPartnerConfig', `the B-End ${awsUid} is a AWS partner port: the API refuses a VXC to it without a partner config`]]);
    expect(await order(bare)).toMatch(/B-End partnerConfig is required for a AWS connection/);
    const withConfig = { ...bare, bEndPartnerConfig: aws() };
    expect(await checked(withConfig)).toEqual([]);
    expect(await order(withConfig)).toBeUndefined();
  });

  it('removed from a recorded AWS VXC (a replacement that would order it without one): refused by the plan', async () => {
    const made = { ...base(), bEnd: { requestedProductUid: awsUid }, bEndPartnerConfig: aws() };
    const { bEndPartnerConfig: _, ...removed } = made;
    expect(vxc.replace.when!.rules(made, removed).map((r) => r.path)).toEqual(['bEndPartnerConfig']);
    expect(await checked(removed, made)).toEqual([['bEndPartnerConfig', expect.stringMatching(/is a AWS partner port/)]]);
  });

  it('reads nothing for a VXC between own products, nor for one state records at the port without a config', async () => {
    const reads: string[] = [];
    const own = { ...base(), bEnd: { requestedProductUid: otherPortUid, vlan: 305 } };
    expect(await vxc.crossCheck!(own, await viewOf({ address: 'subject', token: vxc.token, desired: own }, reads))).toEqual([]);
    const asRecorded = { ...base(), bEnd: { requestedProductUid: awsUid } };
    const recorded = { address: 'subject', token: vxc.token, desired: asRecorded, recorded: { id: 'v-1', inputs: asRecorded, outputs: {} } };
    expect(await vxc.crossCheck!(asRecorded, await viewOf(recorded, reads))).toEqual([]);
    expect(reads).toEqual([]);
  });
});

describe('an end named by its product UID, outside the stack, checked as one of the stack is and judged against the world', () => {
  it('a vNIC at a port: refused by the plan and by the API; each end is read once, as a partner port then as a product', async () => {
    const reads: string[] = [];
    const made = { ...base(), bEnd: { requestedProductUid: otherPortUid, vlan: 310 } };
    const desired = { ...made, aEnd: { ...made.aEnd, vnicIndex: 1 }, bEnd: { ...made.bEnd, vnicIndex: 1 } };
    expect(await checked(desired, made, true, reads)).toEqual([
      ['aEnd.vnicIndex', `the A-End is product ${portUid} (a Port): only an MVE end has vNICs`],
      ['bEnd.vnicIndex', `the B-End is product ${otherPortUid} (a Port): only an MVE end has vNICs`],
    ]);
    expect(reads.sort()).toEqual([getPartner.token, getPartner.token, getProduct.token, getProduct.token]);
    const created = await vxc.create(ctx, made);
    const refused = await vxc.update(ctx, created.id, { inputs: made, outputs: created.outputs }, { ...made, aEnd: desired.aEnd }).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(refused).toMatch(/aVnicIndex applies only to an MVE end/);
    await vxc.delete(ctx, created.id, { inputs: made, outputs: created.outputs });
  });

  it('a vNIC at an MVE: one it has passes and is ordered; one it lacks is refused by both', async () => {
    const has = { ...base(), bEnd: { requestedProductUid: mveUid, vlan: 311, vnicIndex: 1 } };
    expect(await checked(has, undefined, true)).toEqual([]);
    expect(await order(has)).toBeUndefined();
    const lacks = { ...base(), bEnd: { requestedProductUid: mveUid, vlan: 312, vnicIndex: 2 } };
    expect(await checked(lacks, undefined, true)).toEqual([['bEnd.vnicIndex', `product ${mveUid} (an MVE) has no vNIC 2`]]);
    expect(await order(lacks)).toMatch(/vNicIndex 2 does not exist on MVE/);
  });

  it('a cloud partner config at an end that is a port: refused by the plan and by the API, in or outside the stack', async () => {
    const ordered = { ...base(), aEndPartnerConfig: aws(), bEnd: { requestedProductUid: otherPortUid, vlan: 313 } };
    expect(await checked(ordered, undefined, true)).toEqual([['aEndPartnerConfig.partner', `an aws partner config needs an AWS partner port at the A-End, and it is product ${portUid} (a Port)`]]);
    expect(await checked(ordered)).toEqual([['aEndPartnerConfig.partner', 'an aws partner config needs an AWS partner port at the A-End, and it is port (a Port)']]);
    expect(await order(ordered)).toMatch(/A-End partnerConfig: connectType AWS needs a AWS partner port at the A-End/);
  });

  it('a router config at an end that is not an MCR: refused by the plan and by the API', async () => {
    const router = { partner: 'a-end' as const, interfaces: [{ ipAddresses: ['10.1.0.1/30'] }] };
    const ordered = { ...base(), aEndPartnerConfig: router, bEnd: { requestedProductUid: otherPortUid, vlan: 314 } };
    expect(await checked(ordered, undefined, true)).toEqual([['aEndPartnerConfig.partner', `an a-end partner config needs an MCR at the A-End, and it is product ${portUid} (a Port)`]]);
    expect(await order(ordered)).toMatch(/A-End partnerConfig: a virtual router configuration needs an MCR at the A-End/);
  });

  it('a cloud partner config of another cloud than its partner port: refused by the plan and by the API', async () => {
    const google = { partner: 'google' as const, pairingKey: '00000000-0000-0000-0000-000000000000/australia-southeast1/1' };
    const ordered = { ...base(), bEnd: { requestedProductUid: awsUid }, bEndPartnerConfig: google };
    expect(await checked(ordered, undefined, true)).toEqual([['bEndPartnerConfig.partner', `a google partner config (GOOGLE) does not match the B-End, partner port ${awsUid} (AWS)`]]);
    expect(await order(ordered)).toMatch(/B-End partnerConfig: connectType GOOGLE does not match the AWS partner port/);
  });

  it('a cloud partner config at its partner port passes, and is ordered', async () => {
    const ordered = { ...base(), bEnd: { requestedProductUid: awsUid }, bEndPartnerConfig: aws() };
    expect(await checked(ordered, undefined, true)).toEqual([]);
    expect(await order(ordered)).toBeUndefined();
  });
});
