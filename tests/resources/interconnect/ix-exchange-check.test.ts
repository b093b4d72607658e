/**
 * The plan refuses, before any order, an IX on an exchange the API does not have, or on one
 * outside its port's metro, the port a resource of the stack or named by its product UID outside
 * it. Each case is judged against the world: the sandbox refuses the order
 * exactly when the check does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrossCheckView, StackResource } from '../../../src/engine/contracts/resource-type.js';
import { getIxPoints } from '../../../src/lookups/interconnect/get-ix-points.js';
import { getLocations } from '../../../src/lookups/interconnect/get-locations.js';
import { getProduct } from '../../../src/lookups/interconnect/get-product.js';
import { ix } from '../../../src/resources/interconnect/ix.js';
import { port } from '../../../src/resources/interconnect/port.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';
import { crossCheckView } from '../../support/cross-check-view.js';
import { interconnectContext, lookupContext } from '../../support/interconnect-context.js';
import { makePort } from './fixtures.js';

let sandbox: Sandbox;
let portUid: string;
beforeAll(async () => {
  sandbox = await startSandbox({ provisioningMs: 0 });
  portUid = await makePort(await interconnectContext(sandbox.url), 'ix-port', 2);
});
afterAll(() => sandbox.close());

/** The view a plan gives the check of one IX, on a port at location 2 (Sydney) the stack records (unless `alone`: outside the stack); `reads` counts the lookups. */
async function viewOf(subject: StackResource, reads: string[] = [], alone = false): Promise<CrossCheckView> {
  const held: StackResource = { address: 'port', token: port.token, recorded: { id: portUid, inputs: { productName: 'ix-port', portSpeed: 10000, locationId: 2 }, outputs: {} } };
  return crossCheckView(subject, {
    ctx: await lookupContext(sandbox.url),
    lookups: [getLocations, getIxPoints, getProduct],
    reads,
    resources: alone ? [subject] : [held, subject],
    resolve: (value) => (value === portUid && !alone ? held : undefined),
  });
}

const ixOn = (networkServiceType: string, vlan: number) => ({
  productName: 'ix',
  requestedProductUid: portUid,
  networkServiceType,
  rateLimit: 1000,
  vlan,
  macAddress: '00:11:22:33:44:55',
  asn: 64512,
});

type Case = [why: string, exchange: string, refused: RegExp | undefined];

const cases: Case[] = [
  ["an exchange in the port's metro", 'Sydney IX', undefined],
  ['the same in other letter case', 'sydney ix', undefined],
  ["an exchange in another metro than the port's", 'Melbourne IX', /^Melbourne IX is in Melbourne, not in Sydney, where the IX's port is$/],
  ['an exchange the API does not have', 'Sydny IX', /^no Internet Exchange is named "Sydny IX"$/],
];

describe("an IX's exchange, checked before any order and judged against the world", () => {
  it.each(cases.flatMap((c, i) => [[...c, 400 + i, false] as const, [`${c[0]}, the port outside the stack`, c[1], c[2], 420 + i, true] as const]))(
    '%s',
    async (_why, exchange, refused, vlan, alone) => {
      const inputs = ixOn(exchange, vlan);
      const reads: string[] = [];
      const problems = await ix.crossCheck!(inputs, await viewOf({ address: 'subject', token: ix.token, desired: inputs }, reads, alone));
      // The port outside the stack is read once, and only as a product of the account.
      expect(reads.filter((r) => r === getProduct.token)).toHaveLength(alone ? 1 : 0);
      expect(problems.map((p) => [p.path.join('.'), p.message])).toEqual(refused ? [['networkServiceType', expect.stringMatching(refused)]] : []);
      if (refused) expect(problems[0].detail).toMatch(/the exchanges in Sydney: "Sydney IX"/);
      const ctx = { ...(await interconnectContext(sandbox.url, 'subject', 1000)), recordId: (uid: string) => void accepted.push(uid) };
      const accepted: string[] = [];
      const failure = await ix.create(ctx, inputs).then(
        () => undefined,
        (err: Error) => err.message,
      );
      if (refused) expect([accepted, failure]).toEqual([[], expect.stringMatching(/Validation failed/)]);
      else expect(accepted).toHaveLength(1);
    },
  );

  it('reads nothing for an IX state records on the same exchange and port', async () => {
    const reads: string[] = [];
    const inputs = ixOn('Melbourne IX', 450);
    const recorded = { address: 'subject', token: ix.token, desired: inputs, recorded: { id: 'i-1', inputs, outputs: {} } };
    expect(await ix.crossCheck!(inputs, await viewOf(recorded, reads))).toEqual([]);
    expect(reads).toEqual([]);
  });
});
