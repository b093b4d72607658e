/**
 * An instance's inputs and the rules that depend on their values: which disk changes replace it
 * (a disk's type is fixed, a disk only grows, the data disks made with it cannot be added to or
 * removed), and what the plan says when a change stops and starts it.
 */
import * as z from 'zod';
import type { RecordOrigin, ReplaceRule } from '../../engine/contracts/resource-type.js';
import { nameField, remarkField, tagField } from './kit.js';

const BOOT_TYPES = ['local_normal', 'local_ssd', 'cloud_ssd', 'cloud_essd', 'cloud_rssd'] as const;
const DATA_TYPES = ['local_normal', 'local_ssd', 'cloud_normal', 'cloud_ssd', 'cloud_essd', 'cloud_rssd'] as const;
/** The largest data disk of each type, GB (the API's disk-type table). */
const DATA_MAX: Record<(typeof DATA_TYPES)[number], number> = { local_normal: 2000, local_ssd: 1000, cloud_normal: 8000, cloud_ssd: 8000, cloud_essd: 8000, cloud_rssd: 32000 };

const CLASSES = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/];

/** Inputs of an instance. */
export const instanceInputs = z
  .object({
    availabilityZone: z.string().min(1).describe('Zone, e.g. `cn-bj2-02`. Required.'),
    imageId: z.string().min(1).describe('Image id (`uimage-…`, see getImages). Required.'),
    machineType: z.enum(['N', 'C', 'G', 'O', 'OM', 'OMEM', 'OPRO', 'OPROG']).optional().describe('Machine type. Default `N`.'),
    cpu: z.number().int().min(1).max(64).optional().describe('CPU cores, 1–64. Default 4. A running instance is stopped and started again for it.'),
    memory: z
      .number()
      .int()
      .min(1024)
      .max(262144)
      .multipleOf(1024, 'memory must be a multiple of 1024 MB')
      .optional()
      .describe('Memory in MB, a multiple of 1024 from 1024 to 262144. Default 8192. A running instance is stopped and started again for it, as for `cpu`.'),
    bootDisk: z
      .object({ type: z.enum(BOOT_TYPES), size: z.number().int().min(20).max(500).multipleOf(10, 'size must be a multiple of 10 GB') })
      .strict()
      .describe(
        'Boot disk: `type` (`local_normal`, `local_ssd`, `cloud_ssd`, `cloud_essd`, `cloud_rssd`) and `size` (20–500 GB, step 10). Required. A larger size grows it in place; another type or a smaller size replaces the instance.',
      ),
    dataDisks: z
      .array(z.object({ type: z.enum(DATA_TYPES), size: z.number().int().min(20).max(32000) }).strict())
      .max(4)
      .optional()
      .describe(
        "Data disks made with the instance and deleted with it: `type` and `size` (GB, 20 up to the type's limit). A larger size grows one in place; adding, removing or retyping one replaces the instance (use a Disk and a DiskAttachment for disks that come and go).",
      ),
    vpcId: z.string().min(1).describe('VPC id (`uvnet-…`). Required.'),
    subnetId: z.string().min(1).describe('Subnet id (`subnet-…`) in that VPC. Required.'),
    securityGroupId: z.string().min(1).optional().describe("Security group (`firewall-…`). Default: the region's recommended web group."),
    password: z
      .string()
      .min(8, 'password must be 8-30 characters')
      .max(30, 'password must be 8-30 characters')
      .refine((p) => CLASSES.filter((c) => c.test(p)).length >= 2, 'password must mix at least two of: lower case, upper case, digits, symbols')
      .optional()
      .describe('Root password, 8–30 characters of at least two kinds. A secret. Set it or `keyPairId`. A running instance is stopped and started again for it.'),
    keyPairId: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Key pair to log in with instead of a password. Set like `password` (ResetUHostInstancePassword with LoginMode KeyPair) and checked on the instance after; where the API refuses it, the apply stops with the instance as it was and says how to make a new one with the key pair.',
      ),
    chargeType: z.enum(['month', 'year', 'dynamic', 'postpay', 'spot']).optional().describe('Billing: `month`, `year`, `dynamic` (hourly), `postpay` or `spot`. Default `month`.'),
    name: nameField(),
    remark: remarkField('Default empty.'),
    tag: tagField(),
  })
  .superRefine((v, ctx) => {
    if (v.password === undefined && v.keyPairId === undefined) ctx.addIssue({ code: 'custom', path: ['password'], message: 'set password or keyPairId: the instance needs a way to log in' });
    if (v.password !== undefined && v.keyPairId !== undefined) ctx.addIssue({ code: 'custom', path: ['keyPairId'], message: 'set password or keyPairId, not both' });
    (v.dataDisks ?? []).forEach((d, i) => {
      if (d && d.size > DATA_MAX[d.type]) ctx.addIssue({ code: 'custom', path: ['dataDisks', i, 'size'], message: `a ${d.type} data disk is at most ${DATA_MAX[d.type]} GB` });
    });
  });

/** Inputs of an instance. */
export type InstanceInputs = z.output<typeof instanceInputs>;

interface DiskSpec {
  type: string;
  size: number;
}

/** One disk's change that cannot be made in place. */
function diskRule(path: string, was: DiskSpec | undefined, now: DiskSpec | undefined): ReplaceRule[] {
  if (!was || !now) return [];
  if (was.type !== now.type) return [{ path: `${path}.type`, reason: "a disk's type is fixed when it is made" }];
  if (now.size < was.size) return [{ path: `${path}.size`, reason: 'a disk only grows (ResizeAttachedDisk takes a larger size)' }];
  return [];
}

/** The disk changes that replace an instance, each with the API's rule. */
export function diskReplacements(prior: InstanceInputs, desired: InstanceInputs): ReplaceRule[] {
  const out = diskRule('bootDisk', prior.bootDisk, desired.bootDisk);
  const [was, now] = [prior.dataDisks ?? [], desired.dataDisks ?? []];
  if (!Array.isArray(was) || !Array.isArray(now)) return out;
  if (was.length !== now.length) {
    return [...out, { path: 'dataDisks', reason: 'CreateUHostInstance makes these data disks and no Action adds one to or removes one from them' }];
  }
  return [...out, ...was.flatMap((d, i) => diskRule(`dataDisks[${i}]`, d, now[i]))];
}

/**
 * Whether the login changes: a recorded object without one (imported: the API never reports it)
 * takes the manifest's as its own.
 */
export function loginChanged(prior: InstanceInputs, desired: InstanceInputs): boolean {
  if (prior.password === undefined && prior.keyPairId === undefined) return false;
  return prior.password !== desired.password || prior.keyPairId !== desired.keyPairId;
}

/**
 * The recorded inputs with what the API never reports (login, security group) taken from the
 * manifest where the record of an imported instance lacks it. An instance plumb made was sent
 * exactly its record: a security group added to the manifest later is granted in place.
 */
export function unreported(recorded: InstanceInputs, desired: InstanceInputs, origin: RecordOrigin | undefined): InstanceInputs {
  if (!origin?.imported) return recorded;
  const login = recorded.password === undefined && recorded.keyPairId === undefined ? { password: desired.password, keyPairId: desired.keyPairId } : {};
  return { ...recorded, ...login, securityGroupId: recorded.securityGroupId ?? desired.securityGroupId };
}

/** What the plan says of an update that stops and starts the instance. */
export function resizeNotes(prior: InstanceInputs, desired: InstanceInputs): string[] {
  const steps: string[] = [];
  if ((prior.cpu ?? 4) !== (desired.cpu ?? 4) || (prior.memory ?? 8192) !== (desired.memory ?? 8192)) {
    steps.push(`resized to ${String(desired.cpu ?? 4)} CPU / ${String(desired.memory ?? 8192)} MB (ResizeUHostInstance)`);
  }
  const login = loginChanged(prior, desired);
  if (login) steps.push('its login reset (ResetUHostInstancePassword)');
  if (!steps.length) return [];
  const notes = [`a running instance is stopped, ${steps.join(' and ')}, and started again: the API makes these changes only to a stopped instance`];
  if (login && desired.keyPairId !== undefined) {
    notes.push(
      `the key pair ${desired.keyPairId} is put on it in place and checked on the instance after; where the API refuses it or does not put it there, the apply stops with the instance running as before, and only replacing it (plumb apply --replace) makes one that logs in with the key pair`,
    );
  }
  return notes;
}
