/**
 * The plan refuses, before any order, what the locations list already says the API refuses: a
 * location that does not exist or takes no orders, a product, speed, zone or MVE size it does
 * not offer. Each case is judged against the world: the sandbox refuses its order exactly when
 * the check does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CrossCheckView, ResourceType, StackResource } from '../../../src/engine/contracts/resource-type.js';
import { getLocations } from '../../../src/lookups/interconnect/get-locations.js';
import { getMveSizes } from '../../../src/lookups/interconnect/get-mve-sizes.js';
import { lagPort } from '../../../src/resources/interconnect/lag-port.js';
import { mcr } from '../../../src/resources/interconnect/mcr.js';
import { mve } from '../../../src/resources/interconnect/mve.js';
import { port } from '../../../src/resources/interconnect/port.js';
import { loadResourceTypes } from '../../../src/cli/catalog.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';
import { Unknown } from '../../../src/kernel/values.js';
import { interconnectContext, lookupContext } from '../../support/interconnect-context.js';
import { crossCheckView } from '../../support/cross-check-view.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ provisioningMs: 0 });
});
afterAll(() => sandbox.close());

/** The view a plan gives the check of one resource, its lookups answered by the sandbox; `reads` counts them. */
async function viewOf(subject: StackResource, reads: string[] = []): Promise<CrossCheckView> {
  return crossCheckView(subject, { ctx: await lookupContext(sandbox.url), lookups: [getLocations, getMveSizes], reads });
}

const portAt = (locationId: number, portSpeed = 10000, more: Record<string, unknown> = {}) => ({
  productName: 'where',
  portSpeed,
  locationId,
  contractTermMonths: 1,
  marketplaceVisibility: false,
  ...more,
});
const lagAt = (locationId: number, portSpeed = 10000, more: Record<string, unknown> = {}) => ({ ...portAt(locationId, portSpeed, more), lagCount: 2 });
const mcrAt = (locationId: number, portSpeed = 1000, more: Record<string, unknown> = {}) => ({ productName: 'where', portSpeed, locationId, contractTermMonths: 1, ...more });
const mveAt = (locationId: number, productSize = 'SMALL', more: Record<string, unknown> = {}) => ({
  productName: 'where',
  locationId,
  contractTermMonths: 1,
  vendorConfig: { vendor: 'Cisco', imageId: 83, productSize },
  ...more,
});

type Case = [why: string, type: ResourceType, inputs: Record<string, unknown>, refused: Array<[path: string, message: RegExp, detail?: RegExp]>];

const cases: Case[] = [
  [
    'a port at a location id that does not exist',
    port,
    portAt(9999),
    [['locationId', /^no location has id 9999$/, /nearest ids that take this order: 151 \(Telehouse Paris 2 Voltaire, Paris\); 150 .*getLocations/]],
  ],
  [
    'a port at a location that takes no orders',
    port,
    portAt(6),
    [['locationId', /^location 6 \(Equinix SY4, Sydney\) is Restricted: it takes no new port orders$/, /closest locations that take this order: 3 \(Equinix SY3, Sydney\), 0 km away/]],
  ],
  ['a port pre-ordered at a location being built', port, portAt(78), []],
  [
    'an MCR at a location being built, where only ports are pre-ordered',
    mcr,
    mcrAt(78),
    [['locationId', /is Deployment: it takes no new MCR orders$/, /closest locations that take this order: 4 \(Global Switch Sydney, Sydney\), 7 km away/]],
  ],
  [
    'a port speed the location does not offer',
    port,
    portAt(3, 400000),
    [
      [
        'portSpeed',
        /^location 3 \(Equinix SY3, Sydney\) offers no 400000 Mbps port$/,
        /its port speeds: 1000, 10000, 100000 Mbps; the closest locations that offer 400000 Mbps: 2 \(Equinix SY1, Sydney\), 1 km away/,
      ],
    ],
  ],
  [
    'a port speed only the other diversity zone offers',
    port,
    portAt(2, 400000, { diversityZone: 'red' }),
    [['portSpeed', /offers no 400000 Mbps port in diversity zone red$/, /speeds in diversity zone red: 1000, 10000, 100000 Mbps; another zone here offers it/]],
  ],
  ['a port speed the zone named offers', port, portAt(2, 400000, { diversityZone: 'blue' }), []],
  [
    'a LAG in a diversity zone the location does not have',
    lagPort,
    lagAt(9, 10000, { diversityZone: 'blue' }),
    [['diversityZone', /^location 9 \(NEXTDC M2, Melbourne\) has no diversity zone blue$/, /its zones: red/]],
  ],
  ['a LAG of a speed one zone offers', lagPort, lagAt(7, 400000), []],
  [
    'an MCR speed the location offers for ports but not for MCRs',
    mcr,
    mcrAt(9, 25000),
    [
      [
        'portSpeed',
        /^location 9 \(NEXTDC M2, Melbourne\) offers no 25000 Mbps MCR$/,
        /its MCR speeds: 1000, 2500, 5000, 10000 Mbps; the closest locations that offer 25000 Mbps: 7 \(NEXTDC M1, Melbourne\)/,
      ],
    ],
  ],
  ['an MCR speed only one zone offers, with no zone named', mcr, mcrAt(3, 100000), []],
  ['an MCR speed the zone named does not offer', mcr, mcrAt(3, 100000, { diversityZone: 'red' }), [['portSpeed', /offers no 100000 Mbps MCR in diversity zone red/, /another zone here offers it/]]],
  [
    'an MVE larger than the location allows',
    mve,
    mveAt(9, 'X_LARGE_12'),
    [['vendorConfig.productSize', /^location 9 \(NEXTDC M2, Melbourne\) offers no X_LARGE_12 MVE \(12 vCPUs\): at most 4 vCPUs$/, /closest locations that offer 12 vCPUs: 7 \(NEXTDC M1/]],
  ],
  ['an MVE size the location allows', mve, mveAt(9, 'MEDIUM'), []],
  [
    'an MVE at a location that takes no orders',
    mve,
    mveAt(62),
    [['locationId', /^location 62 \(Digital Realty SIN10, Singapore\) is Extended: it takes no new MVE orders$/, /closest locations that take this order: 60 /]],
  ],
];

describe('what the locations list says, checked before any order and judged against the world', () => {
  it.each(cases)('%s', async (_why, type, inputs, refused) => {
    const problems = await type.crossCheck!(inputs, await viewOf({ address: 'subject', token: type.token, desired: inputs }));
    expect(problems.map((p) => p.path.join('.'))).toEqual(refused.map(([path]) => path));
    refused.forEach(([, message, detail], i) => {
      expect(problems[i].message).toMatch(message);
      if (detail) expect(problems[i].detail).toMatch(detail);
    });
    // The world: the sandbox refuses the order exactly when the check does. An order is accepted
    // once the API gives it an id (a port pre-ordered at a site being built is not ready for long).
    const ctx = { ...(await interconnectContext(sandbox.url, 'subject', 1000)), recordId: (id: string) => void accepted.push(id) };
    const accepted: string[] = [];
    const failure = await type.create(ctx, inputs).then(
      () => undefined,
      (err: Error) => err.message,
    );
    if (refused.length) expect([accepted, failure]).toEqual([[], expect.stringMatching(/Validation failed/)]);
    else expect(accepted).toHaveLength(1);
  });

  it('reads nothing, and says nothing, for a resource state records where the manifest puts it, or a location not known yet', async () => {
    const reads: string[] = [];
    const inputs = portAt(6);
    const recorded = { address: 'subject', token: port.token, desired: inputs, recorded: { id: 'p-1', inputs: { ...inputs, diversityZone: 'red' }, outputs: {} } };
    expect(await port.crossCheck!(inputs, await viewOf(recorded, reads))).toEqual([]);
    const unknown = { ...portAt(6), locationId: new Unknown('getLocation.id') };
    expect(await port.crossCheck!(unknown as never, await viewOf({ address: 'subject', token: port.token, desired: unknown }, reads))).toEqual([]);
    expect(reads).toEqual([]);
  });

  it('checks a recorded resource the plan replaces at another location, reading each list once', async () => {
    const reads: string[] = [];
    const inputs = mveAt(9, 'X_LARGE_12');
    const view = await viewOf({ address: 'subject', token: mve.token, desired: inputs, recorded: { id: 'm-1', inputs: mveAt(7, 'X_LARGE_12'), outputs: {} } }, reads);
    expect((await mve.crossCheck!(inputs, view)).map((p) => p.path.join('.'))).toEqual(['vendorConfig.productSize']);
    expect((await mve.crossCheck!(inputs, view)).length).toBe(1);
    expect(reads).toEqual([getLocations.token, getMveSizes.token]);
  });
});

/** The top-level inputs of a type, as its JSON Schema lists them. */
function inputNames(type: ResourceType): string[] {
  const json = z.toJSONSchema(type.inputs, { unrepresentable: 'any', io: 'input' }) as { properties?: Record<string, unknown> };
  return Object.keys(json.properties ?? {});
}

describe('every registered type ordered at a location is checked the same way', async () => {
  const located = [...(await loadResourceTypes()).values()].filter((type) => inputNames(type).includes('locationId'));

  it('the types with a locationId are known', () => {
    // A new one is checked by the cases below without being named here.
    expect(located.map((type) => type.token)).toEqual(expect.arrayContaining([port.token, lagPort.token, mcr.token, mve.token]));
  });

  it.each(located.map((type) => [type.token, type] as const))('%s: a location id that does not exist, and a speed the location does not offer', async (_token, type) => {
    expect(type.crossCheck, `${type.token} has no cross-check`).toBeDefined();
    const check = async (inputs: Record<string, unknown>) =>
      (await type.crossCheck!(inputs, await viewOf({ address: 'subject', token: type.token, desired: inputs }))).map((p) => [p.path.join('.'), p.message]);
    expect(await check({ locationId: 9999 })).toEqual([['locationId', 'no location has id 9999']]);
    // Location 3 (Equinix SY3) offers no 400 Gbps of anything.
    if (inputNames(type).includes('portSpeed'))
      expect(await check({ locationId: 3, portSpeed: 400000 })).toEqual([['portSpeed', expect.stringMatching(/^location 3 \(Equinix SY3, Sydney\) offers no 400000 Mbps /)]]);
  });
});

describe('a diversity zone is red or blue, for every registered type that takes one', async () => {
  const zoned = [...(await loadResourceTypes()).values()].filter((type) => inputNames(type).includes('diversityZone'));

  it('the types with a diversityZone are known', () => {
    // A new one is checked below without being named here.
    expect(zoned.map((type) => type.token)).toEqual(expect.arrayContaining([port.token, lagPort.token, mcr.token, mve.token]));
  });

  it('the API refuses any other name in an order', async () => {
    const ctx = { ...(await interconnectContext(sandbox.url, 'subject', 1000)), recordId: (id: string) => void accepted.push(id) };
    const accepted: string[] = [];
    const failure = await port.create(ctx, portAt(2, 10000, { diversityZone: 'green' })).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect([accepted, failure]).toEqual([[], expect.stringMatching(/Invalid diversity zone green; use red or blue/)]);
  });

  it.each(zoned.map((type) => [type.token, type] as const))('%s: any other name is refused at validate, at the input, saying what is valid', (_token, type) => {
    const at = (diversityZone: string) => {
      const parsed = z.safeParse(type.inputs, { diversityZone });
      return parsed.success ? [] : parsed.error.issues.filter((i) => i.path.join('.') === 'diversityZone').map((i) => i.message);
    };
    for (const name of ['green', 'RED', ' blue', '']) expect(at(name), name).toEqual(['must be one of "red", "blue"']);
    expect([at('red'), at('blue')]).toEqual([[], []]);
  });
});
