/**
 * Instance: a UHost virtual machine in a subnet, with its boot disk and data disks.
 *
 * Name, remark and tag change in place while it runs (ModifyUHostInstanceName/Remark/Tag), the
 * security group too (GrantFirewall), and a disk grows in place (ResizeAttachedDisk). CPU and
 * memory (ResizeUHostInstance) and the password or key pair (ResetUHostInstancePassword) need it
 * stopped: a running instance is stopped, changed and started again, and the plan says so. A key
 * pair put on it in place is checked on it after: where the API refuses it or leaves it off, the
 * apply stops, the instance running as before, and says to replace it. The
 * zone, image, machine type, network, billing and disk types cannot change: those replace it.
 * Deleting stops it first (Terminate needs it stopped) and deletes its data disks with it.
 * Import by the instance id (`uhost-…`).
 */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { RemoteError, UserError } from '../../kernel/errors.js';
import { describeHost, failedState, settled, stopIfRunning, waitState, whileStopped } from './instance-power.js';
import { HOST_LISTING, type HostInfo } from '../../providers/cloud/api/uhost.js';
import { diskReplacements, instanceInputs, loginChanged, resizeNotes, unreported, type InstanceInputs } from './instance-inputs.js';
import { imageInZone } from './cross-checks.js';
import { autoName, DEFAULT_TAG, deleteListed, ownedAmong, prefixedId, listingVerbs, type CloudCtx } from './kit.js';
import { createAndWait } from './create.js';
import { describeAll, describeOne } from '../../providers/cloud/api/listing.js';
import { cloudChange, cloudQuote, prepaid } from './cost.js';
import { hostPrice } from '../../providers/cloud/api/prices.js';

/** What is read back about an instance. */
export const instanceOutputs = z.object({
  instanceId: z.string().describe('Instance id, e.g. `uhost-1a2b3c4d`.'),
  availabilityZone: z.string().describe('Zone.'),
  imageId: z.string().describe('Image it was made from.'),
  machineType: z.string().describe('Machine type (`N`, `C`, `O`, ...).'),
  cpu: z.number().describe('CPU cores.'),
  memory: z.number().describe('Memory, MB.'),
  bootDisk: z.object({ type: z.string(), size: z.number() }).describe('Boot disk: type and size (GB).'),
  dataDisks: z.array(z.object({ type: z.string(), size: z.number() })).describe('Data disks made with it: type and size (GB). Disks attached to it later (DiskAttachment) are not among them.'),
  dataDiskIds: z.array(z.string()).describe('Ids of the data disks made with it, in order.'),
  vpcId: z.string().describe('VPC.'),
  subnetId: z.string().describe('Subnet.'),
  chargeType: z.string().describe('`month`, `year`, `dynamic`, `postpay` or `spot`.'),
  name: z.string().describe('Name.'),
  tag: z.string().describe('Tag.'),
  remark: z.string().describe('Remark.'),
  privateIp: z.string().describe('Private address in the subnet.'),
  state: z.string().describe('`Running`, `Stopped`, `Initializing`, ...'),
  createTime: z.string().describe('When it was made (RFC 3339).'),
  expireTime: z.string().describe('When the billing period ends (RFC 3339), empty when none.'),
});

/** Observed instance. */
export type InstanceOutputs = z.output<typeof instanceOutputs>;

const lower = (v: unknown) => str(v).toLowerCase();
const wireCase = (v: string) => v.charAt(0).toUpperCase() + v.slice(1);

type HostDisk = NonNullable<HostInfo['DiskSet']>[number];

/**
 * The data disks made with the instance. DescribeUHostInstance lists in DiskSet every disk attached
 * to it, a UDisk attached later too (UHostDiskSet `Type: Udisk`): the ones made with it are those
 * recorded when it was made (`made`), or, for an instance plumb did not make, those not marked Udisk.
 */
function ownDataDisks(h: HostInfo, made?: readonly string[]): HostDisk[] {
  const data = (h.DiskSet ?? []).filter((d) => d.IsBoot !== 'True');
  return Array.isArray(made) ? data.filter((d) => made.includes(d.DiskId)) : data.filter((d) => d.Type !== 'Udisk');
}

function toOutputs(h: HostInfo, made?: readonly string[]): InstanceOutputs {
  const disks = h.DiskSet ?? [];
  const boot = disks.find((d) => d.IsBoot === 'True');
  const own = ownDataDisks(h, made);
  const ip = h.IPSet?.find((i) => i.Type === 'Private');
  return {
    instanceId: h.UHostId,
    availabilityZone: str(h.Zone),
    imageId: str(h.BasicImageId),
    machineType: str(h.MachineType),
    cpu: Number(h.CPU ?? 0),
    memory: Number(h.Memory ?? 0),
    bootDisk: { type: lower(boot?.DiskType), size: Number(boot?.Size ?? 0) },
    dataDisks: own.map((d) => ({ type: lower(d.DiskType), size: Number(d.Size) })),
    dataDiskIds: own.map((d) => d.DiskId),
    vpcId: str(ip?.VPCId),
    subnetId: str(ip?.SubnetId),
    chargeType: lower(h.ChargeType),
    name: str(h.Name),
    tag: str(h.Tag) || DEFAULT_TAG,
    remark: str(h.Remark),
    privateIp: str(ip?.IP),
    state: str(h.State),
    createTime: rfc3339(h.CreateTime),
    expireTime: h.ExpireTime ? rfc3339(h.ExpireTime) : '',
  };
}

/**
 * ResetUHostInstancePassword takes LoginMode KeyPair and a KeyPairId (the vendor's docs and SDK);
 * where the API refuses them, or answers without putting the key pair on the instance (it
 * reports it, KeyPair.KeyPairId), only a new instance made with the key pair logs in with it.
 */
function keyPairNotTaken(address: string, id: string, keyPairId: string, refused: Error | undefined): UserError {
  const how = refused ? `refused it: ${refused.message}` : 'answered without putting it on the instance';
  return new UserError(
    `instance ${id} does not log in with key pair ${keyPairId}: ResetUHostInstancePassword ${how}. The instance keeps its login and runs as before`,
    `replace it, made with the key pair: plumb apply --replace ${address}`,
  );
}

/** The login the inputs ask for, as Create and ResetUHostInstancePassword take it. */
function login(inputs: InstanceInputs): Record<string, string | undefined> {
  if (inputs.keyPairId) return { LoginMode: 'KeyPair', KeyPairId: inputs.keyPairId };
  return { LoginMode: 'Password', Password: Buffer.from(inputs.password ?? '', 'utf8').toString('base64') };
}

/** Whether a listed instance is the one these inputs (and this name) ask for. */
function isFor(h: HostInfo, name: string, inputs: InstanceInputs): boolean {
  const seen = toOutputs(h);
  return seen.name === name && seen.subnetId === inputs.subnetId && seen.availabilityZone === inputs.availabilityZone;
}

const describe = (ctx: CloudCtx, id: string) => describeOne<HostInfo>(ctx.client, HOST_LISTING, id);

/** Grows the disks whose declared size is larger than the live one (one ResizeAttachedDisk each). */
async function growDisks(ctx: CloudCtx, live: HostInfo, made: readonly string[] | undefined, desired: InstanceInputs): Promise<void> {
  const wanted = [
    { disk: (live.DiskSet ?? []).find((d) => d.IsBoot === 'True'), size: desired.bootDisk.size },
    ...ownDataDisks(live, made).map((disk, i) => ({ disk, size: desired.dataDisks?.[i]?.size })),
  ];
  for (const { disk, size } of wanted) {
    if (!disk || size === undefined || size <= Number(disk.Size)) continue;
    const body = await ctx.client.call<{ NeedRestart?: boolean }>('ResizeAttachedDisk', { Zone: live.Zone, UHostId: live.UHostId, DiskId: disk.DiskId, DiskSpace: size });
    if (body.NeedRestart) ctx.warn(`disk ${disk.DiskId} of ${live.UHostId} grew to ${size} GB; the space is usable after the instance restarts`);
  }
}

/** The Instance resource type. */
export const instance: ResourceType<InstanceInputs, InstanceOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/instance:Instance',
  provider: 'cloud',
  description: 'A virtual machine (UHost) in a subnet, with its boot and data disks; resized and re-keyed in place, stopping it only when the API requires. Import id: the instance id (`uhost-…`).',
  inputs: instanceInputs,
  outputs: instanceOutputs,
  secrets: {
    paths: ['password'],
  },
  diff: {
    computedInputs: ['name'],
    // The API never reports the login or the security group: an imported object takes the manifest's.
    asDeclared: (recorded, _outputs, desired, origin) =>
      defaultsAsDeclared(unreported(recorded, desired, origin), desired, { machineType: 'N', cpu: 4, memory: 8192, dataDisks: [], chargeType: 'month', tag: DEFAULT_TAG, remark: '' }),
    remoteManaged: ['privateIp', 'state', 'createTime', 'expireTime'],
  },
  replace: {
    on: [
      { path: 'availabilityZone', reason: 'an instance cannot move to another zone (no API Action)' },
      { path: 'imageId', reason: 'only ReinstallUHostInstance changes the image, and it erases the boot disk' },
      { path: 'machineType', reason: 'ResizeUHostInstance changes CPU and memory, never the machine type' },
      { path: 'vpcId', reason: 'an instance cannot move to another VPC (no API Action)' },
      { path: 'subnetId', reason: 'an instance cannot move to another subnet (ModifyUHostIP changes its address within its subnet only)' },
      { path: 'chargeType', reason: "no Action changes an instance's billing period" },
    ],
    when: {
      inputs: ['bootDisk', 'dataDisks'],
      rules: (prior, desired) => diskReplacements(prior, desired),
    },
  },
  notes: {
    update: (prior, desired) => resizeNotes(prior, desired),
    delete: () => ['stopped first (TerminateUHostInstance needs it stopped); its data disks are deleted with it'],
  },
  provisioning: {
    ready: (outputs) => outputs.state === 'Running' || outputs.state === 'Stopped',
    failed: (outputs) => failedState(str(outputs.state)),
    // The API lists a new instance at once, Initializing until it runs.
    appearsWithinMs: 0,
  },
  cost: {
    quote: (inputs, ctx) =>
      cloudQuote(
        ctx,
        hostPrice,
        inputs.chargeType,
        {
          Zone: inputs.availabilityZone,
          ImageId: inputs.imageId,
          MachineType: inputs.machineType ?? 'N',
          CPU: inputs.cpu ?? 4,
          Memory: inputs.memory ?? 8192,
          Disks: [{ ...inputs.bootDisk, boot: 'True' }, ...(inputs.dataDisks ?? []).map((d) => ({ ...d, boot: 'False' }))].map((d) => ({ IsBoot: d.boot, Type: d.type.toUpperCase(), Size: d.size })),
        },
        'with its disks',
      ),
    source: 'GetUHostInstancePrice',
    // GetUHostUpgradePrice takes CPU and memory only: disks that grow with them are not in its
    // amount (the basis says so), and disks growing alone have no such price (their monthly change shows).
    async change(prior, desired, ctx) {
      const [cpu, memory] = [desired.cpu ?? 4, desired.memory ?? 8192];
      if (!prepaid(prior.outputs.chargeType) || (cpu === prior.outputs.cpu && memory === prior.outputs.memory)) return undefined;
      const disksGrow = desired.bootDisk.size !== prior.outputs.bootDisk.size || (desired.dataDisks ?? []).some((d, i) => d.size !== prior.outputs.dataDisks[i]?.size);
      const params = { Zone: prior.outputs.availabilityZone, UHostId: prior.id, CPU: cpu, Memory: memory };
      return cloudChange(ctx, 'GetUHostUpgradePrice', params, `for the rest of the paid period${disksGrow ? "; CPU and memory only, not the disks' growth" : ''}`);
    },
  },
  // An image not offered in the zone is refused by CreateUHostInstance: found before any order.
  crossCheck: imageInZone,
  importId: prefixedId('uhost', 'instance'),

  create(ctx, inputs) {
    const disks = [{ ...inputs.bootDisk, boot: 'True' }, ...(inputs.dataDisks ?? []).map((d) => ({ ...d, boot: 'False' }))];
    const params = {
      Zone: inputs.availabilityZone,
      ImageId: inputs.imageId,
      ...login(inputs),
      MachineType: inputs.machineType ?? 'N',
      CPU: inputs.cpu ?? 4,
      Memory: inputs.memory ?? 8192,
      Disks: disks.map((d) => ({ IsBoot: d.boot, Type: d.type.toUpperCase(), Size: d.size })),
      VPCId: inputs.vpcId,
      SubnetId: inputs.subnetId,
      SecurityGroupId: inputs.securityGroupId,
      ChargeType: wireCase(inputs.chargeType ?? 'month'),
      Name: inputs.name ?? autoName(ctx.address, ctx.operationToken),
      Tag: inputs.tag,
    };
    return createAndWait(ctx, {
      what: 'instance',
      action: 'CreateUHostInstance',
      params,
      idAt: 'UHostIds[0]',
      within: 0,
      findOwned: (order) => instance.findOwned!(ctx, inputs, order),
      async settle(id) {
        const seen = await waitState(ctx, id, ['Running']);
        // Nothing else is attached to it yet: every data disk it lists now was made with it.
        const made = (seen.DiskSet ?? []).filter((d) => d.IsBoot !== 'True').map((d) => d.DiskId);
        // CreateUHostInstance takes no remark.
        if (inputs.remark) await ctx.client.call('ModifyUHostInstanceRemark', { Zone: seen.Zone, UHostId: id, Remark: inputs.remark });
        return toOutputs(inputs.remark ? await describeHost(ctx, id) : seen, made);
      },
    });
  },

  ...listingVerbs<HostInfo, InstanceOutputs>(HOST_LISTING, (record, prior) => toOutputs(record, prior?.dataDiskIds)),

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const name = inputs.name ?? autoName(ctx.address, ctx.operationToken);
    const found = ownedAmong(
      `instance named "${name}"`,
      await describeAll<HostInfo>(ctx.client, HOST_LISTING),
      (h) => isFor(h, name, inputs),
      order,
      (h) => h.UHostId,
    );
    return found && { id: found.UHostId, outputs: toOutputs(found) };
  },

  async update(ctx, id, prior, desired) {
    const live = await settled(ctx, id);
    const made = prior.outputs.dataDiskIds;
    const seen = toOutputs(live, made);
    const common = { Zone: live.Zone, UHostId: id };
    if (desired.name !== undefined && desired.name !== seen.name) await ctx.client.call('ModifyUHostInstanceName', { ...common, Name: desired.name });
    if ((desired.remark ?? '') !== seen.remark) await ctx.client.call('ModifyUHostInstanceRemark', { ...common, Remark: desired.remark ?? '' });
    if ((desired.tag ?? DEFAULT_TAG) !== seen.tag) await ctx.client.call('ModifyUHostInstanceTag', { ...common, Tag: desired.tag ?? DEFAULT_TAG });
    if (desired.securityGroupId && desired.securityGroupId !== prior.inputs.securityGroupId) {
      await ctx.client.call('GrantFirewall', { FWId: desired.securityGroupId, ResourceType: 'uhost', ResourceId: id });
    }
    await growDisks(ctx, live, made, desired);
    const [cpu, memory] = [desired.cpu ?? 4, desired.memory ?? 8192];
    const resize = cpu !== seen.cpu || memory !== seen.memory;
    const rekey = loginChanged(prior.inputs, desired);
    let refused: Error | undefined;
    if (resize || rekey) {
      await whileStopped(ctx, id, async () => {
        if (resize) await ctx.client.call('ResizeUHostInstance', { ...common, CPU: cpu, Memory: memory });
        if (!rekey) return;
        try {
          await ctx.client.call('ResetUHostInstancePassword', { ...common, ...login(desired) });
        } catch (err) {
          // A key pair the API will not put on it: started again as it was, then said below.
          if (!desired.keyPairId || !(err instanceof RemoteError) || err.kind !== 'invalid') throw err;
          refused = err;
        }
      });
    }
    const now = await describeHost(ctx, id);
    if (rekey && desired.keyPairId && (refused || now.KeyPair?.KeyPairId !== desired.keyPairId)) throw keyPairNotTaken(ctx.address, id, desired.keyPairId, refused);
    return toOutputs(now, made);
  },

  async delete(ctx, id) {
    const exists = async () => (await describe(ctx, id)) !== undefined;
    if (!(await exists())) return;
    await stopIfRunning(ctx, id);
    await deleteListed(ctx, `instance ${id}`, exists, () => ctx.client.call('TerminateUHostInstance', { UHostId: id, ReleaseUDisk: true, ReleaseEIP: false }));
  },
};
