import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interconnectProvider } from '../../../src/providers/interconnect/index.js';
import { ix } from '../../../src/resources/interconnect/ix.js';
import { port } from '../../../src/resources/interconnect/port.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server.js';
import { describeLifecycle } from '../../support/lifecycle.js';
import { interconnectContext } from '../../support/interconnect-context.js';

/** Two ports in Sydney (the IX can move between them) and one in Melbourne (another exchange). */
interface Ports {
  sydney: string;
  sydneyOther: string;
  melbourne: string;
}

const base = { productName: 'life-ix', networkServiceType: 'Sydney IX', rateLimit: 1000, vlan: 2001, macAddress: '00:11:22:33:44:55', asn: 64496 };

describeLifecycle<Parameters<typeof ix.create>[1], Ports>({
  type: ix,
  provider: interconnectProvider,
  async setup(ctx) {
    const make = async (name: string, locationId: number) =>
      (await port.create(await ctx(name), { productName: name, portSpeed: 10000, locationId, contractTermMonths: 1, marketplaceVisibility: false })).id;
    return { sydney: await make('ix-syd-1', 2), sydneyOther: await make('ix-syd-3', 3), melbourne: await make('ix-mel-1', 7) };
  },
  create: (ports) => ({ ...base, requestedProductUid: ports.sydney }),
  // Every in-place field at once, including a move to another port in the same metro.
  update: (ports) => ({
    ...base,
    requestedProductUid: ports.sydneyOther,
    productName: 'life-ix-renamed',
    rateLimit: 2000,
    vlan: 2002,
    macAddress: '00:11:22:33:44:66',
    asn: 64497,
    costCentre: 'cc-ix',
    publicGraph: false,
    reverseDns: 'peer.example.net',
    shutdown: true,
  }),
  replace: (ports) => ({ ...base, requestedProductUid: ports.melbourne, networkServiceType: 'Melbourne IX' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({
      productName: inputs.productName,
      requestedProductUid: inputs.requestedProductUid,
      networkServiceType: inputs.networkServiceType,
      rateLimit: inputs.rateLimit,
      vlan: inputs.vlan,
      macAddress: inputs.macAddress,
      asn: inputs.asn,
      shutdown: inputs.shutdown ?? false,
    });
    if (inputs.costCentre) expect(outputs.costCentre).toBe(inputs.costCentre);
    if (inputs.publicGraph !== undefined) expect(outputs.publicGraph).toBe(inputs.publicGraph);
    if (inputs.reverseDns) expect(outputs.reverseDns).toBe(inputs.reverseDns);
    expect(outputs.provisioningStatus).toMatch(/CONFIGURED|LIVE/);
    expect(outputs.createDate).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/);
    expect(outputs.ixPeerMacro).toBe(`AS${inputs.asn}`);
  },
  badImportId: 'x',
});

describe('IX rules', () => {
  it('another exchange is the only replacement, not the same name in other letter case; attribute tags, which the API sets, are refused with a reason', () => {
    const input = { ...base, requestedProductUid: 'p' };
    expect(ix.replaceOn).toEqual([]);
    expect(ix.replaceWhen!(input, { ...input, networkServiceType: 'Melbourne IX' }).map((d) => d.path)).toEqual(['networkServiceType']);
    expect(ix.replaceWhen!(input, { ...input, networkServiceType: input.networkServiceType.toLowerCase() })).toEqual([]);
    expect(ix.replaceSometimes).toEqual(['networkServiceType']);
    expect(ix.inputs.safeParse({ ...input, attributeTags: {} }).success).toBe(true);
    const refused = ix.inputs.safeParse({ ...input, attributeTags: { a: 'b' } });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['attributeTags', expect.stringMatching(/set by the API/)]]);
    expect(ix.inputs.safeParse({ ...input, macAddress: 'nope' }).success).toBe(false);
  });
});

describe('IX recorded inputs in the manifest\'s terms', () => {
  it.each([
    ['shutdown false as reported is the input left out', { shutdown: false }, {}, {}],
    ['shutdown false written, where the record has none, is the same', {}, { shutdown: false }, { shutdown: false }],
    ['a shut-down IX is a change from a manifest that leaves it out', { shutdown: true }, {}, { shutdown: true }],
  ])('%s', (_name, recorded, desired, expected) => {
    const input = { ...base, requestedProductUid: 'p' };
    expect(ix.asDeclared!({ ...input, ...recorded } as never, {} as never, { ...input, ...desired } as never)).toEqual({ ...input, ...expected });
  });
});

describe('IX updates', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ provisioningMs: 0 });
  });
  afterAll(async () => sandbox.close());

  it('removing reverseDns clears it, and the MAC keeps the spelling given when the API lower-cases it', async () => {
    const c = await interconnectContext(sandbox.url);
    const portUid = (await port.create(c, { productName: 'rdns-port', portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false })).id;
    const inputs = { ...base, requestedProductUid: portUid, macAddress: 'AA:BB:CC:DD:EE:FF', reverseDns: 'peer.example.net' };
    const created = await ix.create(c, inputs);
    expect(created.outputs).toMatchObject({ reverseDns: 'peer.example.net', macAddress: 'AA:BB:CC:DD:EE:FF' });
    expect((await ix.read(c, created.id))?.macAddress).toBe('aa:bb:cc:dd:ee:ff');
    const { reverseDns: _dropped, ...without } = inputs;
    const updated = await ix.update(c, created.id, { inputs, outputs: created.outputs }, without);
    expect(updated.reverseDns).toBeUndefined();
    await ix.delete(c, created.id, { inputs: without, outputs: updated });
  });
});
