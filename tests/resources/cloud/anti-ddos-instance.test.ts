import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRemote, UserError, WaitTimedOut } from '../../../src/kernel/errors.js';
import { antiDdosInstance, type AntiDdosInstanceInputs } from '../../../src/resources/cloud/anti-ddos-instance.js';
import { cloudResources } from '../../../src/resources/cloud/index.js';
import { Unknown } from '../../../src/kernel/values.js';
import { countActions, startHarness, type Harness } from '../../support/cloud-harness.js';
import { AmbiguousOrder } from '../../../src/kernel/errors.js';

const base = { area: 'EastChina', dataCenter: 'Yangzhou', bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 40 };

function issues(raw: Record<string, unknown>): { path: string; message: string }[] {
  const r = z.safeParse(antiDdosInstance.inputs, raw);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

describe('AntiDdosInstance inputs', () => {
  it('applies the defaults: month, one period', () => {
    expect(z.parse(antiDdosInstance.inputs, base)).toMatchObject({ chargeType: 'month', duration: 1 });
  });

  it.each([
    ['a data centre of the other area is reported at dataCenter with the valid ones', { ...base, area: 'NorthChina' }, 'dataCenter', 'valid data centres for NorthChina: Shijiazhuang'],
    ['EastChina lists its three centres', { ...base, dataCenter: 'Shijiazhuang' }, 'dataCenter', 'Zaozhuang, Yangzhou, Taizhou'],
    ['max below base is reported at maxDefenceValue', { ...base, baseDefenceValue: 60, maxDefenceValue: 50 }, 'maxDefenceValue', 'must not be less than baseDefenceValue (60)'],
    ['base defence under 30', { ...base, baseDefenceValue: 20 }, 'baseDefenceValue', '30'],
    ['bandwidth under 50', { ...base, bandwidth: 10 }, 'bandwidth', '50'],
    ['a name with spaces', { ...base, name: 'my shield' }, 'name', '1-63 characters'],
    ['a name of 64 characters', { ...base, name: 'a'.repeat(64) }, 'name', '1-63 characters'],
    ['an unknown charge type', { ...base, chargeType: 'week' }, 'chargeType', ''],
    ['duration above 9', { ...base, duration: 12 }, 'duration', ''],
  ])('rejects %s', (_name, raw, path, message) => {
    const found = issues(raw);
    expect(found.map((i) => i.path)).toContain(path);
    expect(found.find((i) => i.path === path)!.message).toContain(message);
  });

  it('accepts Chinese names, digits, - and _', () => {
    expect(issues({ ...base, name: '华东-防护_01' })).toEqual([]);
  });

  it('reports the pair rule even when another field is wrong, so all problems show at once', () => {
    expect(
      issues({ ...base, dataCenter: 'Shijiazhuang', bandwidth: 'wide' })
        .map((i) => i.path)
        .sort(),
    ).toEqual(['bandwidth', 'dataCenter']);
  });

  it('skips cross-field rules for values not known until apply', () => {
    const messages = [...issues({ ...base, area: new Unknown('x.area'), dataCenter: 'Shijiazhuang' }), ...issues({ ...base, baseDefenceValue: 60, maxDefenceValue: new Unknown('y.max') })].map(
      (i) => i.message,
    );
    expect(messages.some((m) => m.includes('valid data centres'))).toBe(false);
    expect(messages.some((m) => m.includes('must not be less than'))).toBe(false);
  });

  it('documents every input field', () => {
    const shape = (antiDdosInstance.inputs as unknown as { shape: Record<string, { description?: string }> }).shape;
    for (const [name, field] of Object.entries(shape)) expect(field.description, name).toBeTruthy();
  });
});

describe('AntiDdosInstance replace rules', () => {
  const prior = z.parse(antiDdosInstance.inputs, base);
  it.each([
    ['area and dataCenter are static replace paths', () => antiDdosInstance.replace.on.map((r) => r.path), ['area', 'dataCenter']],
    ['a different chargeType than state recorded', () => antiDdosInstance.replace.when!.rules(prior, { ...prior, chargeType: 'year' }).map((d) => d.path), ['chargeType']],
    ['a different duration than state recorded', () => antiDdosInstance.replace.when!.rules(prior, { ...prior, duration: 3 }).map((d) => d.path), ['duration']],
    [
      'nothing when state never knew them (imported)',
      () => antiDdosInstance.replace.when!.rules({ ...prior, chargeType: undefined, duration: undefined } as unknown as AntiDdosInstanceInputs, { ...prior, chargeType: 'year', duration: 2 }),
      [],
    ],
    ['the docs say both may replace', () => antiDdosInstance.replace.when?.inputs, ['chargeType', 'duration']],
    ['nothing for in-place fields', () => antiDdosInstance.replace.when!.rules(prior, { ...prior, name: 'x', bandwidth: 100, maxDefenceValue: 90 }), []],
  ])('%s', (_name, run, expected) => {
    expect(run()).toEqual(expected);
  });

  it.each([
    ["an imported instance (its purchase unknown) has the manifest's terms: no change", {}, { chargeType: 'year', duration: 2 }, { chargeType: 'year', duration: 2 }, true],
    [
      'one plumb bought with the defaults has those, though the manifest left them out',
      { chargeType: 'month', duration: 1 },
      { chargeType: 'year', duration: 1 },
      { chargeType: 'month', duration: 1 },
      false,
    ],
    ['one plumb bought, its outputs without terms, was bought with the defaults', {}, { chargeType: 'year', duration: 2 }, { chargeType: 'month', duration: 1 }, false],
    ['terms the manifest leaves out are not filled in', { chargeType: 'month', duration: 1 }, {}, {}, false],
  ])('asDeclared: %s', (_name, bought, written, expected, imported) => {
    const { chargeType: _c, duration: _d, ...recorded } = prior;
    const declared = antiDdosInstance.diff!.asDeclared!(recorded as AntiDdosInstanceInputs, bought as never, { ...recorded, ...written } as AntiDdosInstanceInputs, { imported });
    expect({ chargeType: declared.chargeType, duration: declared.duration }).toEqual({ chargeType: undefined, duration: undefined, ...expected });
  });

  it('a term changed from what plumb bought, where state left it out, replaces', () => {
    const { chargeType: _c, duration: _d, ...recorded } = prior;
    const desired = { ...recorded, chargeType: 'year' } as AntiDdosInstanceInputs;
    const declared = antiDdosInstance.diff!.asDeclared!(recorded as AntiDdosInstanceInputs, { chargeType: 'month', duration: 1 } as never, desired);
    expect(antiDdosInstance.replace.when!.rules(declared, desired).map((d) => d.path)).toEqual(['chargeType']);
  });

  it('keeps API-set outputs out of diffs', () => {
    expect(antiDdosInstance.diff?.remoteManaged).toEqual(['createTime', 'expireTime', 'status']);
    expect(antiDdosInstance.diff?.computedInputs).toEqual(['name']);
  });
});

describe('AntiDdosInstance lifecycle against the sandbox', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('is registered under its token', () => {
    expect(cloudResources.map((r) => r.token)).toContain('cloud:index/antiDdosInstance:AntiDdosInstance');
  });

  it('creates, reads, updates in place, replaces, deletes and deletes again', async () => {
    const ctx = h.resourceCtx('shield');
    const inputs = z.parse(antiDdosInstance.inputs, { ...base, name: 'shield-one' });
    await h.clearCalls();
    const created = await antiDdosInstance.create(ctx, inputs);
    expect(created.id).toMatch(/^usecure_ghp-[0-9a-f]{8}$/);
    expect(created.outputs).toMatchObject({
      antiDdosInstanceId: created.id,
      name: 'shield-one',
      area: 'EastChina',
      dataCenter: 'Yangzhou',
      bandwidth: 50,
      baseDefenceValue: 30,
      maxDefenceValue: 40,
      status: 'Started',
    });
    expect(created.outputs.createTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(created.outputs.expireTime) - Date.parse(created.outputs.createTime)).toBeGreaterThan(27 * 86400_000);
    expect(countActions(await h.actions(), 'BuyHighProtectGameService')).toBe(1);
    expect(h.recorded).toContain(created.id);

    const read = await antiDdosInstance.read(ctx, created.id, { inputs, outputs: created.outputs });
    expect(read).toEqual(created.outputs);
    // The API reports neither; what plumb bought with is kept.
    expect(read).toMatchObject({ chargeType: 'month', duration: 1 });

    await h.clearCalls();
    const desired = { ...inputs, name: 'shield-renamed', bandwidth: 100, maxDefenceValue: 80 };
    const updated = await antiDdosInstance.update(ctx, created.id, { inputs, outputs: created.outputs }, desired);
    expect(updated).toMatchObject({ antiDdosInstanceId: created.id, name: 'shield-renamed', bandwidth: 100, maxDefenceValue: 80 });
    const actions = await h.actions();
    expect(actions).toContain('ModifyHighProtectGameService');
    expect(actions).toContain('UpgradeHighProtectGameService');
    expect(actions).not.toContain('BuyHighProtectGameService');

    // Replacement: the engine creates the new one and deletes the old one.
    const moved = { ...desired, area: 'NorthChina' as const, dataCenter: 'Shijiazhuang' as const };
    const replacement = await antiDdosInstance.create(ctx, moved);
    expect(replacement.id).not.toBe(created.id);
    await antiDdosInstance.delete(ctx, created.id, { inputs: desired, outputs: updated });
    expect(await antiDdosInstance.read(ctx, created.id)).toBeUndefined();
    expect(await antiDdosInstance.read(ctx, replacement.id)).toMatchObject({ area: 'NorthChina', dataCenter: 'Shijiazhuang' });

    await antiDdosInstance.delete(ctx, replacement.id, { inputs: moved, outputs: replacement.outputs });
    await expect(antiDdosInstance.delete(ctx, replacement.id, { inputs: moved, outputs: replacement.outputs })).resolves.toBeUndefined();
    expect(await antiDdosInstance.read(ctx, replacement.id)).toBeUndefined();
  });

  it('names an instance after its address when no name is given', async () => {
    const created = await antiDdosInstance.create(h.resourceCtx('edge.shield'), z.parse(antiDdosInstance.inputs, base));
    expect(created.outputs.name).toMatch(/^edge-shield-[0-9a-f]{8}$/);
    await antiDdosInstance.delete(h.resourceCtx(), created.id, { inputs: z.parse(antiDdosInstance.inputs, base), outputs: created.outputs });
  });

  it('finds an instance it named, bought by an interrupted create, by the token of that order', async () => {
    const ctx = h.resourceCtx('edge.shield');
    const inputs = z.parse(antiDdosInstance.inputs, base);
    const order = { earliestMs: Date.now(), recorded: () => false };
    const bought = await antiDdosInstance.create(ctx, inputs);
    // The settling context carries the interrupted operation's token, as this one does.
    expect(await antiDdosInstance.findOwned?.({ ...h.resourceCtx('edge.shield'), operationToken: ctx.operationToken }, inputs, order)).toEqual({ id: bought.id, outputs: bought.outputs });
    expect(await antiDdosInstance.findOwned?.(h.resourceCtx('edge.shield'), inputs, order)).toBeUndefined();
    expect(await antiDdosInstance.findOwned?.(ctx, undefined, order)).toBeUndefined();
    await antiDdosInstance.delete(ctx, bought.id, { inputs, outputs: bought.outputs });
  });

  it('finds an instance named in the manifest only when it alone of that name, area and centre was bought since the order and is not in state', async () => {
    const named = z.parse(antiDdosInstance.inputs, { ...base, name: 'named-shield' });
    // The sandbox's clock counts whole seconds.
    const order = { earliestMs: Math.floor(Date.now() / 1000) * 1000, recorded: () => false };
    const first = await antiDdosInstance.create(h.resourceCtx('edge.shield'), named);
    const ctx = h.resourceCtx('edge.shield');
    expect(await antiDdosInstance.findOwned?.(ctx, named, order)).toEqual({ id: first.id, outputs: first.outputs });
    // Already recorded at some address; bought long before the order; another centre.
    expect(await antiDdosInstance.findOwned?.(ctx, named, { ...order, recorded: (id: string) => id === first.id })).toBeUndefined();
    expect(await antiDdosInstance.findOwned?.(ctx, named, { ...order, earliestMs: Date.now() + 3_600_000 })).toBeUndefined();
    expect(await antiDdosInstance.findOwned?.(ctx, { ...named, dataCenter: 'Taizhou' }, order)).toBeUndefined();

    // Two of that name since the order: neither is taken for it, and the refusal names both.
    const second = await antiDdosInstance.create(h.resourceCtx('edge.shield'), named);
    const ambiguous = await antiDdosInstance.findOwned!(ctx, named, order).catch((err: unknown) => err);
    expect(ambiguous).toBeInstanceOf(AmbiguousOrder);
    expect((ambiguous as AmbiguousOrder).candidates).toEqual([expect.stringContaining(first.id), expect.stringContaining(second.id)]);
    for (const made of [first, second]) await antiDdosInstance.delete(ctx, made.id, { inputs: named, outputs: made.outputs });
  });

  it('imports by id and reads only what the API reports', async () => {
    const list = await h.client.call<{ ServiceInfo: { ResourceId: string; Name: string }[] }>('DescribeNapServiceInfo', { NapType: 1 });
    const seeded = list.ServiceInfo.find((s) => s.Name === 'north-shield')!;
    const id = antiDdosInstance.importId!.parse(` ${seeded.ResourceId} `);
    expect(id).toBe(seeded.ResourceId);
    const observed = await antiDdosInstance.read(h.resourceCtx(), id);
    expect(observed).toMatchObject({ name: 'north-shield', area: 'NorthChina', dataCenter: 'Shijiazhuang', status: 'Stopped' });
    expect(Object.keys(observed!)).not.toContain('chargeType');
  });

  it('lists every instance for import discovery', async () => {
    const found = await antiDdosInstance.list!(h.resourceCtx());
    expect(found.map((f) => f.outputs.name)).toEqual(expect.arrayContaining(['edge-shield', 'north-shield', 'old-shield']));
    for (const f of found) expect(f.id).toBe(f.outputs.antiDdosInstanceId);
  });

  it('rejects a malformed import id with the format', () => {
    expect(() => antiDdosInstance.importId!.parse('usecure ghp/1')).toThrow(UserError);
    expect(() => antiDdosInstance.importId!.parse('')).toThrow(/expected <instance_id>/);
  });

  it('fails an update of an instance that is gone with not-found', async () => {
    const inputs = z.parse(antiDdosInstance.inputs, base);
    const err = await antiDdosInstance.update(h.resourceCtx(), 'usecure_ghp-00000000', { inputs, outputs: {} as never }, inputs).catch((e: unknown) => e);
    expect(isRemote(err, 'not-found')).toBe(true);
  });

  it('refuses to resize an expired instance with the API message', async () => {
    const list = await h.client.call<{ ServiceInfo: { ResourceId: string; Name: string }[] }>('DescribeNapServiceInfo', { NapType: 1 });
    const expired = list.ServiceInfo.find((s) => s.Name === 'old-shield')!;
    const inputs = z.parse(antiDdosInstance.inputs, { ...base, dataCenter: 'Zaozhuang', maxDefenceValue: 30 });
    const err = await antiDdosInstance.update(h.resourceCtx(), expired.ResourceId, { inputs, outputs: {} as never }, { ...inputs, bandwidth: 80 }).catch((e: unknown) => e);
    expect(isRemote(err, 'invalid')).toBe(true);
    expect((err as Error).message).toContain('expired');
  });
});

describe('AntiDdosInstance provisioning over time', () => {
  it('waits until a bought instance becomes visible, reporting progress', async () => {
    const h = await startHarness({ provisioningMs: 600 });
    try {
      const started = Date.now();
      const created = await antiDdosInstance.create(h.resourceCtx('slow'), z.parse(antiDdosInstance.inputs, base));
      expect(Date.now() - started).toBeGreaterThanOrEqual(550);
      expect(h.progress).toContain('not listed yet');
      expect(created.outputs.status).toBe('Started');
    } finally {
      await h.close();
    }
  });

  it('gives up after the wait time with the last status, having recorded the id: a timeout, which keeps the instance as still provisioning', async () => {
    const h = await startHarness({ provisioningMs: 60_000 });
    try {
      const err = await antiDdosInstance.create(h.resourceCtx('never', 300), z.parse(antiDdosInstance.inputs, base)).catch((e: unknown) => e);
      expect(h.recorded).toHaveLength(1);
      expect(h.recorded[0]).toMatch(/^usecure_ghp-/);
      expect(err).toBeInstanceOf(WaitTimedOut);
      expect((err as Error).message).toMatch(/timed out after 0\.\d s waiting for anti-DDoS instance .* to be listed \(last status: not listed yet\)/);
    } finally {
      await h.close();
    }
  });
});
