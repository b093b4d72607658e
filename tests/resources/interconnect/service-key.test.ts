import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interconnectProvider } from '../../../src/providers/interconnect/index.js';
import type { ResourceContext } from '../../../src/engine/contracts/resource-type.js';
import { serviceKey, serviceKeyInputs } from '../../../src/resources/interconnect/service-key.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';
import { keyBase } from './attached-specs.js';
import { makePort } from './fixtures.js';
import { contextWait } from '../../../src/engine/applying/wait.js';
import { AmbiguousOrder } from '../../../src/kernel/errors.js';

const base = keyBase;
const window = { startTime: '2030-01-01T00:00:00Z', endTime: '2030-06-30T00:00:00Z' };

describe('service key rules', () => {
  const valid = { productUid: 'p', active: true, maxSpeed: 100, singleUse: false };
  const cases: Array<{ name: string; input: Record<string, unknown>; issues: string[] }> = [
    { name: 'a multi-use key needs no vlan', input: valid, issues: [] },
    { name: 'a single-use key without vlan is an issue on vlan', input: { ...valid, singleUse: true }, issues: ['vlan'] },
    { name: 'a single-use key with vlan is fine', input: { ...valid, singleUse: true, vlan: 10 }, issues: [] },
    { name: 'singleUse not known yet (not a plain value) is left for later', input: { ...valid, singleUse: { $unknown: 'x' } }, issues: ['singleUse'] },
    { name: 'the vlan check runs even when another field fails', input: { ...valid, singleUse: true, maxSpeed: 'fast' }, issues: ['maxSpeed', 'vlan'] },
    { name: 'a window that ends before it starts', input: { ...valid, validFor: { startTime: window.endTime, endTime: window.startTime } }, issues: ['validFor.endTime'] },
    { name: 'validFor needs ISO 8601 with a zone', input: { ...valid, validFor: { startTime: '2030-01-01', endTime: window.endTime } }, issues: ['validFor.startTime'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const result = serviceKeyInputs.safeParse(c.input);
      const paths = result.success ? [] : result.error.issues.map((i) => i.path.join('.')).sort();
      expect(paths).toEqual(c.issues);
    });
  }

  it.each([
    [
      "the same window written another way is the manifest's",
      { validFor: { startTime: '2030-01-01T00:00:00.000Z', endTime: '2030-12-31T00:00:00Z' } },
      { validFor: { startTime: '2030-01-01T08:00:00+08:00', endTime: '2030-12-31T00:00:00Z' } },
      'desired',
    ],
    [
      'another window stays a change',
      { validFor: { startTime: '2030-01-01T00:00:00Z', endTime: '2030-12-31T00:00:00Z' } },
      { validFor: { startTime: '2030-01-02T00:00:00Z', endTime: '2030-12-31T00:00:00Z' } },
      'recorded',
    ],
    ['VLAN 0 (the API\'s "none") is a VLAN left out', { vlan: 0 }, {}, 'desired'],
  ])('asDeclared: %s', (_name, recorded, desired, expected) => {
    const declared = serviceKey.diff!.asDeclared!({ ...valid, ...recorded } as never, {} as never, { ...valid, ...desired } as never);
    expect(declared).toEqual(expected === 'desired' ? { ...valid, ...desired } : { ...valid, ...recorded });
  });

  it('the fields the API sets only at creation force replacement; active and validFor change in place', () => {
    expect(serviceKey.replace.on.map((r) => r.path).sort()).toEqual(['description', 'maxSpeed', 'preApproved', 'productUid', 'singleUse', 'vlan']);
    expect(serviceKey.secrets?.paths).toEqual(['key']);
  });
});

describe('a service key someone deactivated', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ provisioningMs: 0 });
  });
  afterAll(async () => sandbox.close());
  const ctx = async (address: string): Promise<ResourceContext> => {
    const settings = interconnectProvider.settings.parse({});
    const log = pino({ level: 'silent' });
    const client = await interconnectProvider.connect(settings, { sandboxUrl: async () => sandbox.url, log, env: {} });
    return {
      client,
      settings,
      log,
      address,
      project: 's',
      stack: 's',
      operationToken: 't',
      waitTimeMs: 30_000,
      progress: () => {},
      warn: () => {},
      recordId: () => {},
      shared: (_key, make) => make(),
      wait: contextWait(),
    };
  };

  it('is still reported while recorded, so a plan reactivates it in place instead of ordering a new key', async () => {
    const c = await ctx('k');
    const inputs = { ...base, productUid: await makePort(c, 'deact-port') };
    const created = await serviceKey.create(c, inputs);
    const off = await serviceKey.update(c, created.id, { inputs, outputs: created.outputs }, { ...inputs, active: false });
    expect(off.active).toBe(false);
    expect((await serviceKey.read(c, created.id, { inputs, outputs: created.outputs }))?.active).toBe(false);
    // With nothing recorded (an import, a check after delete) an inactive key is a deleted one.
    expect(await serviceKey.read(c, created.id)).toBeUndefined();
    // The same through the bulk read a plan makes: the recorded key is the API's deactivated one.
    const listed = await serviceKey.readMany!(c, [{ id: created.id, prior: { inputs: { ...inputs, active: false }, outputs: off }, warn: () => {} }]);
    expect(listed.get(created.id)).toMatchObject({ active: false, key: created.id });
    const on = await serviceKey.update(c, created.id, { inputs: { ...inputs, active: false }, outputs: off }, inputs);
    expect(on).toMatchObject({ active: true, key: created.id });
    await serviceKey.delete(c, created.id, { inputs, outputs: on });
  });
});

describe('a service key made by an interrupted create', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ provisioningMs: 0 });
  });
  afterAll(async () => sandbox.close());
  const warnings: string[] = [];
  const ctx = async (address: string): Promise<ResourceContext> => {
    const settings = interconnectProvider.settings.parse({});
    const log = pino({ level: 'silent' });
    const client = await interconnectProvider.connect(settings, { sandboxUrl: async () => sandbox.url, log, env: {} });
    return {
      client,
      settings,
      log,
      address,
      project: 's',
      stack: 's',
      operationToken: 't',
      waitTimeMs: 30_000,
      progress: () => {},
      warn: (m) => warnings.push(m),
      recordId: () => {},
      shared: (_key, make) => make(),
      wait: contextWait(),
    };
  };

  it('is found when it alone on the port, of that use and VLAN, was made since the order and is not in state; two are named by time, never by value', async () => {
    const c = await ctx('k');
    const inputs = { ...base, productUid: await makePort(c, 'found-key-port') };
    const order = { earliestMs: Date.now(), recorded: () => false };
    const first = await serviceKey.create(c, inputs);
    expect(await serviceKey.findOwned!(c, inputs, order)).toEqual({ id: first.id, outputs: first.outputs });
    expect(await serviceKey.findOwned!(c, inputs, { ...order, recorded: (id: string) => id === first.id })).toBeUndefined();
    expect(await serviceKey.findOwned!(c, inputs, { ...order, earliestMs: Date.now() + 3_600_000 })).toBeUndefined();
    expect(await serviceKey.findOwned!(c, { ...inputs, vlan: 101 }, order)).toBeUndefined();

    const second = await serviceKey.create(c, inputs);
    const ambiguous = (await serviceKey.findOwned!(c, inputs, order).catch((err: unknown) => err)) as AmbiguousOrder;
    expect(ambiguous).toBeInstanceOf(AmbiguousOrder);
    expect(ambiguous.message).toMatch(/^may have made any of 2 active service key on \S+s: one made at /);
    expect(ambiguous.message).not.toContain(first.id);
    expect(ambiguous.message).not.toContain(second.id);
  });
});
