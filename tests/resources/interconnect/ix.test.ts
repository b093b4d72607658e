import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ix } from '../../../src/resources/interconnect/ix.js';
import { port } from '../../../src/resources/interconnect/port.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';
import { interconnectContext } from '../../support/interconnect-context.js';
import { ixBase as base } from './attached-specs.js';

describe('IX rules', () => {
  it('another exchange is the only replacement, not the same name in other letter case; attribute tags, which the API sets, are refused with a reason', () => {
    const input = { ...base, requestedProductUid: 'p' };
    expect(ix.replace.on).toEqual([]);
    expect(ix.replace.when!.rules(input, { ...input, networkServiceType: 'Melbourne IX' }).map((d) => d.path)).toEqual(['networkServiceType']);
    expect(ix.replace.when!.rules(input, { ...input, networkServiceType: input.networkServiceType.toLowerCase() })).toEqual([]);
    expect(ix.replace.when?.inputs).toEqual(['networkServiceType']);
    expect(z.safeParse(ix.inputs, { ...input, attributeTags: {} }).success).toBe(true);
    const refused = z.safeParse(ix.inputs, { ...input, attributeTags: { a: 'b' } });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['attributeTags', expect.stringMatching(/set by the API/)]]);
    expect(z.safeParse(ix.inputs, { ...input, macAddress: 'nope' }).success).toBe(false);
  });
});

describe("IX recorded inputs in the manifest's terms", () => {
  it.each([
    ['shutdown false as reported is the input left out', { shutdown: false }, {}, {}],
    ['shutdown false written, where the record has none, is the same', {}, { shutdown: false }, { shutdown: false }],
    ['a shut-down IX is a change from a manifest that leaves it out', { shutdown: true }, {}, { shutdown: true }],
  ])('%s', (_name, recorded, desired, expected) => {
    const input = { ...base, requestedProductUid: 'p' };
    expect(ix.diff!.asDeclared!({ ...input, ...recorded } as never, {} as never, { ...input, ...desired } as never)).toEqual({ ...input, ...expected });
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
