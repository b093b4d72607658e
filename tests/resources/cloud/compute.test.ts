/** The compute types' own rules: which Actions each change sends and in what order, what stops the instance, what waits, what the lookups see. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isRemote } from '../../../src/kernel/errors.js';
import { getDisks } from '../../../src/lookups/cloud/get-disks.js';
import { getInstances } from '../../../src/lookups/cloud/get-instances.js';
import { disk, diskInputs } from '../../../src/resources/cloud/disk.js';
import { diskAttachment } from '../../../src/resources/cloud/disk-attachment.js';
import { instance } from '../../../src/resources/cloud/instance.js';
import { instanceInputs, type InstanceInputs } from '../../../src/resources/cloud/instance-inputs.js';
import { subnet } from '../../../src/resources/cloud/subnet.js';
import { vpc } from '../../../src/resources/cloud/vpc.js';
import { startHarness, type Harness } from '../../support/cloud-harness.js';
import { run } from '../../support/cloud-lookup-kit.js';

const ZONE = 'cn-bj2-02';
let h: Harness;
let base: InstanceInputs;
beforeAll(async () => {
  h = await startHarness();
  base = await network(h, 130);
});
afterAll(() => h.close());

/** A VPC and subnet on the harness (each waited for until listed), and an instance's inputs in them. */
async function network(on: Harness, range: number): Promise<InstanceInputs> {
  const c = on.resourceCtx('net');
  const home = await vpc.create(c, { name: `compute-${range}`, cidrBlocks: [`10.${range}.0.0/16`] });
  const sub = await subnet.create(c, { vpcId: home.id, cidrBlock: `10.${range}.1.0/24` });
  const images = await on.client.pageAll<{ ImageId: string }>('DescribeImage', { Zone: ZONE, ImageType: 'Base' }, 'ImageSet');
  return instanceInputs.parse({
    availabilityZone: ZONE,
    imageId: images[0].ImageId,
    cpu: 1,
    memory: 2048,
    bootDisk: { type: 'cloud_ssd', size: 40 },
    dataDisks: [{ type: 'cloud_ssd', size: 50 }],
    vpcId: home.id,
    subnetId: sub.id,
    password: 'Compute-pass-1',
  });
}

/** The writes `act` hands the client, with their parameters, in order. */
async function sentParams(act: () => Promise<unknown>): Promise<Array<Record<string, unknown>>> {
  const spy = vi.spyOn(h.client, 'call');
  try {
    await act();
    return spy.mock.calls.filter(([action]) => !action.startsWith('Describe')).map(([Action, params]) => ({ Action, ...params }));
  } finally {
    spy.mockRestore();
  }
}

/** The Actions `act` sends, in order, reads left out. */
async function writes(act: () => Promise<unknown>): Promise<string[]> {
  await h.clearCalls();
  await act();
  return (await h.actions()).filter((a) => !a.startsWith('Describe'));
}

async function made(name: string, more: Partial<InstanceInputs> = {}) {
  const inputs = { ...base, name, ...more };
  return { inputs, created: await instance.create(h.resourceCtx(name), inputs) };
}

describe('an instance changes in place, stopping it only for what the API requires', () => {
  it('renaming, retagging and remarking a running instance are their own calls, without a stop', async () => {
    const { inputs, created } = await made('rename-me');
    const next = { ...inputs, name: 'renamed', tag: 'web', remark: 'front' };
    expect(await writes(() => instance.update(h.resourceCtx(), created.id, { inputs, outputs: created.outputs }, next))).toEqual([
      'ModifyUHostInstanceName',
      'ModifyUHostInstanceRemark',
      'ModifyUHostInstanceTag',
    ]);
    expect(await instance.read(h.resourceCtx(), created.id)).toMatchObject({ name: 'renamed', tag: 'web', remark: 'front', state: 'Running' });
  });

  it('resizing a running instance stops it, resizes it and starts it again, in that order', async () => {
    const { inputs, created } = await made('resize-me');
    const next = { ...inputs, cpu: 2, memory: 4096 };
    expect(await writes(() => instance.update(h.resourceCtx(), created.id, { inputs, outputs: created.outputs }, next))).toEqual(['StopUHostInstance', 'ResizeUHostInstance', 'StartUHostInstance']);
    expect(await instance.read(h.resourceCtx(), created.id)).toMatchObject({ cpu: 2, memory: 4096, state: 'Running' });
  });

  it('a stopped instance is resized and left stopped', async () => {
    const { inputs, created } = await made('stopped-one');
    await h.client.call('StopUHostInstance', { UHostId: created.id });
    const next = { ...inputs, cpu: 2 };
    expect(await writes(() => instance.update(h.resourceCtx(), created.id, { inputs, outputs: created.outputs }, next))).toEqual(['ResizeUHostInstance']);
    expect((await instance.read(h.resourceCtx(), created.id))?.state).toBe('Stopped');
  });

  it('a new password and a resize share one stop; the password goes as base64 and nothing read back holds it', async () => {
    const { inputs, created } = await made('rekey-me');
    const next = { ...inputs, cpu: 2, password: 'Compute-pass-2' };
    let after: unknown;
    const sent = await sentParams(async () => (after = await instance.update(h.resourceCtx(), created.id, { inputs, outputs: created.outputs }, next)));
    expect(sent.map((q) => q.Action)).toEqual(['StopUHostInstance', 'ResizeUHostInstance', 'ResetUHostInstancePassword', 'StartUHostInstance']);
    expect(sent[2]).toMatchObject({ LoginMode: 'Password', Password: Buffer.from('Compute-pass-2').toString('base64') });
    expect(JSON.stringify(after)).not.toContain('Compute-pass');
  });

  it('a key pair instead of the password is put on the instance in place, and the instance then lists it', async () => {
    const { inputs, created } = await made('key-me');
    const next = { ...inputs, password: undefined, keyPairId: 'uhostkp-office' };
    const sent = await sentParams(() => instance.update(h.resourceCtx(), created.id, { inputs, outputs: created.outputs }, next));
    expect(sent.map((q) => q.Action)).toEqual(['StopUHostInstance', 'ResetUHostInstancePassword', 'StartUHostInstance']);
    expect(sent[1]).toMatchObject({ LoginMode: 'KeyPair', KeyPairId: 'uhostkp-office' });
    const seen = (await h.client.call<{ UHostSet: Array<{ KeyPair?: { KeyPairId?: string }; State: string }> }>('DescribeUHostInstance', { 'UHostIds.0': created.id })).UHostSet[0];
    expect([seen.KeyPair?.KeyPairId, seen.State]).toEqual(['uhostkp-office', 'Running']);
  });

  it('where the API will not put the key pair on the instance, the update stops saying to replace it, the instance running as before', async () => {
    const { inputs, created } = await made('key-refused');
    const c = h.resourceCtx('keyRefused');
    // An API that takes only a Password from ResetUHostInstancePassword, as older SDKs list it.
    const passwordOnly = Object.create(h.client) as typeof h.client;
    passwordOnly.call = ((action: string, params: Record<string, unknown> = {}, ...rest: unknown[]) => {
      const sent = action === 'ResetUHostInstancePassword' ? Object.fromEntries(Object.entries(params).filter(([k]) => k !== 'LoginMode' && k !== 'KeyPairId')) : params;
      return (h.client.call as (...a: unknown[]) => unknown)(action, sent, ...rest);
    }) as typeof h.client.call;
    const next = { ...inputs, password: undefined, keyPairId: 'uhostkp-office' };
    const failed = await instance.update({ ...c, client: passwordOnly }, created.id, { inputs, outputs: created.outputs }, next).then(
      () => undefined,
      (err: unknown) => err as { message: string; hint?: string },
    );
    expect(failed?.message).toContain(`instance ${created.id} does not log in with key pair uhostkp-office: ResetUHostInstancePassword refused it`);
    expect(failed?.hint).toBe('replace it, made with the key pair: plumb apply --replace keyRefused');
    const seen = (await h.client.call<{ UHostSet: Array<{ KeyPair?: { KeyPairId?: string }; State: string }> }>('DescribeUHostInstance', { 'UHostIds.0': created.id })).UHostSet[0];
    expect([seen.KeyPair?.KeyPairId, seen.State]).toEqual([undefined, 'Running']);
  });

  it('a grown disk is one ResizeAttachedDisk, without a stop', async () => {
    const { inputs, created } = await made('grow-me');
    const next = { ...inputs, dataDisks: [{ type: 'cloud_ssd' as const, size: 80 }] };
    expect(await writes(() => instance.update(h.resourceCtx(), created.id, { inputs, outputs: created.outputs }, next))).toEqual(['ResizeAttachedDisk']);
    expect((await instance.read(h.resourceCtx(), created.id))?.dataDisks).toEqual([{ type: 'cloud_ssd', size: 80 }]);
  });

  it('deleting a running instance stops it first, then terminates it with its data disks', async () => {
    const { inputs, created } = await made('delete-me');
    const calls = await sentParams(() => instance.delete(h.resourceCtx(), created.id, { inputs, outputs: created.outputs }));
    expect(calls.map((q) => q.Action)).toEqual(['StopUHostInstance', 'TerminateUHostInstance']);
    expect(calls[1]).toMatchObject({ ReleaseUDisk: true });
  });

  it('a terminate the API refuses (still running) is a conflict, sent once', async () => {
    const { created } = await made('refused');
    await h.clearCalls();
    const err = await h.client.call('TerminateUHostInstance', { UHostId: created.id }).catch((e: unknown) => e);
    expect(isRemote(err, 'conflict')).toBe(true);
    expect(await h.actions()).toEqual(['TerminateUHostInstance']);
  });
});

describe('what replaces an instance or a disk, and what the plan says of a stop', () => {
  const was = { bootDisk: { type: 'cloud_ssd', size: 40 }, dataDisks: [{ type: 'cloud_ssd', size: 50 }] } as InstanceInputs;
  it('a smaller or retyped disk, or another count of data disks, replaces the instance, naming the field and the rule; a larger one does not', () => {
    expect(instance.replace.when!.rules(was, { ...was, dataDisks: [{ type: 'cloud_ssd', size: 60 }] })).toEqual([]);
    expect(instance.replace.when!.rules(was, { ...was, bootDisk: { type: 'cloud_ssd', size: 30 } })).toEqual([
      { path: 'bootDisk.size', reason: 'a disk only grows (ResizeAttachedDisk takes a larger size)' },
    ]);
    expect(instance.replace.when!.rules(was, { ...was, dataDisks: [{ type: 'cloud_rssd', size: 50 }] })).toEqual([{ path: 'dataDisks[0].type', reason: "a disk's type is fixed when it is made" }]);
    expect(instance.replace.when!.rules(was, { ...was, dataDisks: [] })).toEqual([{ path: 'dataDisks', reason: expect.stringContaining('no Action adds one') }]);
    expect(disk.replace.when!.rules({ availabilityZone: ZONE, size: 50 }, { availabilityZone: ZONE, size: 40 })).toEqual([{ path: 'size', reason: expect.stringContaining('a disk only grows') }]);
  });

  it('a resize or a new password says the instance is stopped and started again, never the password; a rename says nothing', () => {
    const prior = { ...was, cpu: 1, memory: 2048, password: 'Old-pass-1' } as InstanceInputs;
    const [note] = instance.notes!.update!(prior, { ...prior, cpu: 2, password: 'New-pass-2' });
    expect(note).toBe(
      'a running instance is stopped, resized to 2 CPU / 2048 MB (ResizeUHostInstance) and its login reset (ResetUHostInstancePassword), and started again: the API makes these changes only to a stopped instance',
    );
    expect(note).not.toContain('pass-');
    expect(instance.notes!.update!(prior, { ...prior, name: 'x' })).toEqual([]);
    expect(instance.notes!.update!(prior, { ...prior, password: undefined, keyPairId: 'uhostkp-1' })).toEqual([
      'a running instance is stopped, its login reset (ResetUHostInstancePassword), and started again: the API makes these changes only to a stopped instance',
      'the key pair uhostkp-1 is put on it in place and checked on the instance after; where the API refuses it or does not put it there, the apply stops with the instance running as before, and only replacing it (plumb apply --replace) makes one that logs in with the key pair',
    ]);
  });
});

describe('inputs the API would refuse are refused before any call', () => {
  it("no way to log in, memory off the 1024 MB step, a data disk over its type's limit, each at its path", () => {
    const r = instanceInputs.safeParse({ ...base, password: undefined, memory: 3000, dataDisks: [{ type: 'local_ssd', size: 1500 }] });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['memory', 'memory must be a multiple of 1024 MB'],
      ['password', 'set password or keyPairId: the instance needs a way to log in'],
      ['dataDisks.0.size', 'a local_ssd data disk is at most 1000 GB'],
    ]);
    expect(diskInputs.safeParse({ availabilityZone: ZONE, size: 9000 }).error?.issues.map((i) => i.message)).toEqual([
      'size 9000 GB is over 8000, the most for data_disk (rssd_data_disk goes to 32000)',
    ]);
  });
});

describe('disks', () => {
  it('a detached disk grows with ResizeUDisk, an attached one with ResizeAttachedDisk; a rename is RenameUDisk', async () => {
    const c = h.resourceCtx('vol');
    const inputs = { availabilityZone: ZONE, size: 20, name: 'grow-vol' };
    const vol = await disk.create(c, inputs);
    expect(await writes(() => disk.update(c, vol.id, { inputs, outputs: vol.outputs }, { ...inputs, size: 30, name: 'grown-vol' }))).toEqual(['RenameUDisk', 'ResizeUDisk']);
    const { created } = await made('vol-host');
    await diskAttachment.create(c, { diskId: vol.id, instanceId: created.id });
    expect(await writes(() => disk.update(c, vol.id, { inputs, outputs: vol.outputs }, { ...inputs, size: 40, name: 'grown-vol' }))).toEqual(['ResizeAttachedDisk']);
    expect(await disk.read(c, vol.id)).toMatchObject({ size: 40, status: 'InUse', instanceId: created.id });
  });

  it('a detach that stops the instance first starts it again after', async () => {
    const c = h.resourceCtx('vol');
    const vol = await disk.create(c, { availabilityZone: ZONE, size: 20, name: 'stop-vol' });
    const { created } = await made('stop-host');
    const inputs = { diskId: vol.id, instanceId: created.id, stopInstanceBeforeDetaching: true };
    const on = await diskAttachment.create(c, inputs);
    expect(await writes(() => diskAttachment.delete(c, on.id, { inputs, outputs: on.outputs }))).toEqual(['StopUHostInstance', 'DetachUDisk', 'StartUHostInstance']);
    expect(await disk.read(c, vol.id)).toMatchObject({ status: 'Available', instanceId: '' });
  });
});

describe('waiting honours the states the objects pass through', () => {
  it('create waits through Initializing, attach through Attaching, detach through Detaching', async () => {
    const slow = await startHarness({ provisioningMs: 300 });
    try {
      const inputs = await network(slow, 131);
      const c = slow.resourceCtx('slow');
      const host = await instance.create(c, { ...inputs, name: 'slow-host' });
      expect(slow.progress).toContain('Initializing');
      expect(host.outputs.state).toBe('Running');
      const vol = await disk.create(c, { availabilityZone: ZONE, size: 20, name: 'slow-vol' });
      expect(slow.progress).toContain('Initializating');
      const on = await diskAttachment.create(c, { diskId: vol.id, instanceId: host.id });
      expect(slow.progress).toContain('Attaching');
      await diskAttachment.delete(c, on.id, { inputs: { diskId: vol.id, instanceId: host.id }, outputs: on.outputs });
      expect(slow.progress).toContain('Detaching');
      await disk.delete(c, vol.id, { inputs: { availabilityZone: ZONE, size: 20 }, outputs: vol.outputs });
      expect(await disk.read(c, vol.id)).toBeUndefined();
    } finally {
      await slow.close();
    }
  });
});

describe('the lookups answer with what these resources made', () => {
  it('getInstances and getDisks list a new instance and disk', async () => {
    const { created } = await made('looked-up-host', { tag: 'lookup' });
    const vol = await disk.create(h.resourceCtx('vol'), { availabilityZone: ZONE, size: 30, name: 'looked-up-vol' });
    const hosts = await run(h, getInstances, { ids: [created.id] });
    expect(hosts.instances).toEqual([expect.objectContaining({ id: created.id, name: 'looked-up-host', tag: 'lookup', cpu: 1 })]);
    const disks = await run(h, getDisks, { ids: [vol.id] });
    expect(disks.disks).toEqual([expect.objectContaining({ id: vol.id, name: 'looked-up-vol', diskSize: 30 })]);
  });
});
