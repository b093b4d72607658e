import * as z from 'zod';
import type { InterconnectSettings } from '../../providers/interconnect/settings.js';
import { Secret, Unknown, reveal } from '../../kernel/values.js';
import { defaultsAsDeclared, unreportedFromManifest } from '../as-declared.js';
import type { RecordOrigin, ReplaceRule, ResourceType } from '../../engine/contracts/resource-type.js';
import { oneOf, oneOfText, tagsSchema } from '../schema.js';
import { parseProductUid } from './port.js';
import { liveOfType, type ApiProduct } from '../../providers/interconnect/api/products.js';
import { PRODUCT_FACTS, productFacts, productFactsShape } from '../../providers/interconnect/api/views.js';
import {
  CONTRACT_TERMS,
  type Ctx,
  cancel,
  findByToken,
  mapLimited,
  modifyProduct,
  observedTags,
  order,
  orderedTags,
  productDisown,
  productOwner,
  readListed,
  readProductOfType,
  sameSpelling,
  sharedList,
  tagList,
  tagsAfterUpdate,
  waitReady,
  DIVERSITY_ZONES,
} from './kit.js';
import { contractNotes, productProvisioning } from './product-hooks.js';
import { locationCheck } from './location-checks.js';
import { imageCheck } from './mve-image-check.js';
import { PRICEBOOK, pricebookQuote, termEnd } from './cost.js';

/** MVE instance sizes (vCPU/GB RAM): SMALL 2/8, MEDIUM 4/16, LARGE 8/32, X_LARGE_12 12/48. */
export const MVE_SIZES = ['SMALL', 'MEDIUM', 'LARGE', 'X_LARGE_12'] as const;

/** Vendor config keys the API returns; every other key is write-only (keys, licences, passwords). */
const RETURNED = ['vendor', 'imageId', 'productSize'] as const;

const text = (what: string) => z.string().optional().describe(what);

/** The image, size and vendor bootstrap settings of an MVE, fixed at order time. */
const vendorConfigSchema = z
  .object({
    vendor: z.string().min(1).describe("Vendor of the image as getMveImages names it, e.g. Cisco, Fortinet, Palo Alto Networks; plan refuses one that is not the image's vendor."),
    imageId: z.number().int().positive().describe('Image id from getMveImages; plan refuses one the list lacks.'),
    productSize: oneOfText(MVE_SIZES, 'Instance size from getMveSizes: SMALL (2 vCPU/8 GB), MEDIUM, LARGE or X_LARGE_12; the image must offer it. Default SMALL.').optional(),
    adminSshPublicKey: text('SSH public key of the admin user (Cisco, Fortinet, Palo Alto, VMware).'),
    sshPublicKey: text('SSH public key for CLI access (Cisco, Fortinet, Palo Alto, VMware, 6WIND).'),
    manageLocally: z.boolean().optional().describe('Cisco: manage the device locally instead of through a controller.'),
    cloudInit: text('Cloud-init / bootstrap configuration (Cisco, Aviatrix); write-only.'),
    fmcIpAddress: text('Cisco FTDv: address of the Firewall Management Center.'),
    fmcRegistrationKey: text('Cisco FTDv: registration key for the Firewall Management Center; write-only.'),
    fmcNatId: text('Cisco FTDv: NAT id for the Firewall Management Center.'),
    licenseData: text('Licence data (Fortinet, Palo Alto); write-only.'),
    adminPasswordHash: text('Palo Alto: hash of the admin password; write-only.'),
    accountName: text('Aruba: account name.'),
    accountKey: text('Aruba: account key; write-only.'),
    systemTag: text('Aruba: system tag.'),
    ionKey: text('Prisma SD-WAN: ION key; write-only.'),
    secretKey: text('Prisma SD-WAN: secret key; write-only.'),
    directorAddress: text('Versa: director address.'),
    controllerAddress: text('Versa: controller address.'),
    localAuth: text('Versa: local authentication string; write-only.'),
    remoteAuth: text('Versa: remote authentication string; write-only.'),
    serialNumber: text('Versa: serial number.'),
    vcoAddress: text('VMware: orchestrator (VCO) address.'),
    vcoActivationCode: text('VMware: orchestrator activation code; write-only.'),
    token: text('Meraki: bootstrap token; write-only.'),
  })
  .strict();

/** One network interface of the MVE. */
const vnicSchema = z
  .object({
    description: z.string().min(1, 'must not be empty: the API refuses an empty vNIC description').describe('Description of the interface, not empty.'),
    vlan: z.number().int().min(0).max(4093).optional().describe('VLAN of the interface, 2 to 4093; 0 or omitted = none.'),
  })
  .strict();

/** Inputs of an MVE (virtual edge): a vendor network appliance running at a location. */
export const mveInputs = z
  .object({
    productName: z.string().min(1).describe('Identifiable name of the MVE.'),
    locationId: z
      .number()
      .int()
      .positive()
      .describe('Numeric location id (from getLocation) of a location offering MVE; plan refuses one that does not exist, takes no orders or cannot run the size asked.'),
    contractTermMonths: oneOf(CONTRACT_TERMS, 'Contract term in months: 1 (month to month), 12, 24, 36, 48 or 60.'),
    diversityZone: oneOfText(DIVERSITY_ZONES, 'Diversity zone; allocated by the API when omitted.').optional(),
    vendorConfig: vendorConfigSchema.describe(
      "Image, size and vendor bootstrap settings; secret as a whole. Fixed at order time: a change of vendor, imageId, productSize or any vendor field, added and removed ones included, replaces the MVE. The API returns only vendor, imageId and productSize, so the other fields of an MVE read by `plumb import` are taken as the manifest's (until plumb replaces it with one it orders).",
    ),
    vnics: z
      .array(vnicSchema)
      .min(1)
      .max(5)
      .optional()
      .describe('Network interfaces, 1 to 5. Descriptions change in place; adding or removing one, or changing a VLAN, replaces the MVE. Default: one "Data Plane" interface.'),
    costCentre: z.string().max(255).optional().describe('Customer reference on invoices, at most 255 characters.'),
    promoCode: z.string().optional().describe('Promotion code, sent with the order only and never validated; a later change is only recorded.'),
    resourceTags: tagsSchema.optional().describe('Tags on the MVE. Default: none.'),
  })
  .strict();

/** Everything an MVE exposes: its inputs as the API reports them plus the computed fields. */
export const mveOutputs = mveInputs.extend({
  ...productFactsShape,
  vendor: z.string().optional().describe('Vendor key the API reports, e.g. CISCO.'),
  imageId: z.number().optional().describe('Id of the running image.'),
  mveSize: z.string().optional().describe('Instance size, e.g. SMALL.'),
  mveLabel: z.string().optional().describe('Size label, e.g. "MVE 2/8" (vCPU/GB RAM).'),
});

type MveInputs = z.infer<typeof mveInputs>;
type MveOutputs = z.infer<typeof mveOutputs>;
type VendorConfig = MveInputs['vendorConfig'];

/** The fields an MVE change can send in place, and their names in the modify call. */
const MODIFIABLE: Array<[string, string]> = [
  ['productName', 'name'],
  ['contractTermMonths', 'term'],
];

/** An MVE (Megaport Virtual Edge). */
export const mve: ResourceType<MveInputs, MveOutputs, Ctx['client'], InterconnectSettings> = {
  token: 'interconnect:index/mve:Mve',
  provider: 'interconnect',
  description: 'An MVE (virtual edge): a vendor SD-WAN or firewall appliance at a location; find images with getMveImages and sizes with getMveSizes.',
  inputs: mveInputs,
  outputs: mveOutputs,
  secrets: {
    // The whole vendor config is secret: it holds keys and licences, and secret paths are top-level.
    paths: ['vendorConfig'],
  },
  diff: {
    computedInputs: ['diversityZone', 'costCentre', 'vnics'],
    recordOnly: ['promoCode'],
    asDeclared: (recorded, _outputs, desired, origin) => {
      const vendorConfig = vendorConfigAsDeclared(recorded.vendorConfig, desired.vendorConfig, origin);
      return vendorConfig === recorded.vendorConfig ? recorded : { ...recorded, vendorConfig };
    },
    remoteManaged: [...PRODUCT_FACTS, 'vendor', 'imageId', 'mveSize', 'mveLabel'],
  },
  replace: {
    on: [
      { path: 'locationId', reason: 'an MVE cannot move to another location' },
      { path: 'diversityZone', reason: 'an MVE cannot move to another diversity zone' },
      { path: 'vendorConfig.vendor', reason: 'the image of an MVE is fixed at order time' },
      { path: 'vendorConfig.imageId', reason: 'the image of an MVE is fixed at order time' },
      { path: 'vendorConfig.productSize', reason: 'the size of an MVE is fixed at order time' },
    ],
    when: {
      // The plan hands over inputs with the (secret) vendor config still wrapped.
      rules: (prior, desired) => {
        const [before, after] = [reveal(prior), reveal(desired)];
        return [...vendorFieldChanges(before.vendorConfig, after.vendorConfig), ...vnicChanges(before.vnics, after.vnics)];
      },
      inputs: ['vendorConfig', 'vnics'],
    },
  },
  notes: {
    delete: (recorded) => contractNotes(recorded.outputs, false),
  },
  provisioning: productProvisioning,
  cost: {
    source: PRICEBOOK,
    termEnds: termEnd,
    quote: (inputs, ctx) => pricebookQuote(ctx, { productType: 'MVE', locationId: inputs.locationId, size: reveal(inputs.vendorConfig)?.productSize ?? 'SMALL', term: inputs.contractTermMonths }),
  },
  crossCheck: async (desired, view) => [...(await locationCheck('mve')(desired, view)), ...(await imageCheck(desired, view))],
  importId: { format: '<product_uid>', parse: parseProductUid },
  owner: productOwner,
  disown: productDisown,

  async create(ctx, inputs) {
    const [uid] = await order(ctx, {
      productName: inputs.productName,
      term: inputs.contractTermMonths,
      productType: 'MVE',
      locationId: inputs.locationId,
      config: inputs.diversityZone ? { diversityZone: inputs.diversityZone } : {},
      vendorConfig: inputs.vendorConfig,
      ...(inputs.vnics ? { vnics: inputs.vnics.map((v) => ({ description: v.description, vlan: v.vlan ?? 0 })) } : {}),
      ...(inputs.costCentre ? { costCentre: inputs.costCentre } : {}),
      ...(inputs.promoCode ? { promoCode: inputs.promoCode } : {}),
      resourceTags: tagList(ctx, inputs.resourceTags),
    });
    ctx.recordId(uid);
    const product = await waitReady(ctx, uid, 'MVE');
    return { id: uid, outputs: toOutputs(product, orderedTags(inputs.resourceTags), inputs) };
  },

  async read(ctx, id, prior) {
    const product = await readProductOfType(ctx, id, 'MVE', 'an MVE');
    // A refresh may hand over the recorded inputs with the vendor config still wrapped as secret.
    return product && toOutputs(product, await observedTags(ctx, id, prior), prior && reveal(prior.inputs));
  },

  readMany: (ctx, targets) => readListed(ctx, targets, 'MVE', async (p, t) => toOutputs(p, await observedTags(ctx, p.productUid, t.prior), t.prior && reveal(t.prior.inputs))),

  async update(ctx, id, prior, desired) {
    // The modify takes each vNIC's description, by position; VLANs and the number of vNICs are
    // fixed at order time (a change of either replaces the MVE), so the update does not carry them.
    const wanted = desired.vnics?.map((v) => ({ description: v.description }));
    const current = prior.inputs.vnics?.map((v) => ({ description: v.description }));
    const vnics = wanted && JSON.stringify(wanted) !== JSON.stringify(current) ? { vnics: wanted } : {};
    await modifyProduct(ctx, 'mve', id, prior, desired, MODIFIABLE, vnics);
    if (!sameFields(desired.vendorConfig, prior.inputs.vendorConfig)) {
      ctx.warn('vendorConfig fields the API never returns are recorded as given; the MVE keeps the configuration it was ordered with');
    }
    const product = await waitReady(ctx, id, 'MVE');
    return toOutputs(product, tagsAfterUpdate(prior, desired), desired);
  },

  async delete(ctx, id) {
    // safeDelete refuses while VXCs still use the MVE, instead of cutting them off.
    await cancel(ctx, id, 'CANCEL_NOW', true);
  },

  async list(ctx) {
    const mves = liveOfType(await sharedList(ctx), 'MVE');
    return mapLimited(mves, async (p) => ({ id: p.productUid, outputs: toOutputs(p, await observedTags(ctx, p.productUid, undefined)) }));
  },

  async findOwned(ctx, inputs) {
    const found = await findByToken(ctx, liveOfType(await sharedList(ctx), 'MVE'), inputs?.productName, ctx);
    return found && { id: found.productUid, outputs: toOutputs(found, await observedTags(ctx, found.productUid, undefined)) };
  },
};

/**
 * Write-only vendor fields force replacement when their recorded value changes, is added or is
 * removed: the MVE boots with what it was ordered with (an MVE plumb ordered without one was
 * never sent it). An imported MVE's record takes the manifest's (see vendorConfigAsDeclared).
 */
function vendorFieldChanges(prior: VendorConfig | undefined, desired: VendorConfig | undefined): ReplaceRule[] {
  const before = (prior ?? {}) as Record<string, unknown>;
  const after = (desired ?? {}) as Record<string, unknown>;
  const out: ReplaceRule[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if ((RETURNED as readonly string[]).includes(key)) continue;
    if (before[key] !== after[key]) out.push({ path: `vendorConfig.${key}`, reason: 'vendor settings are applied when the MVE boots and cannot be changed' });
  }
  return out;
}

/**
 * The recorded vendor config in the manifest's terms. The API returns only vendor, imageId and
 * productSize: a write-only field the record of an imported MVE lacks is the manifest's, as far
 * as anyone can tell (one an MVE plumb ordered lacks was not sent: adding it replaces the MVE); the vendor's name in other letter case is the manifest's spelling; SMALL,
 * the default size, stands for a size left out. The config stays secret.
 */
function vendorConfigAsDeclared(recorded: unknown, desired: unknown, origin: RecordOrigin | undefined): VendorConfig {
  if (!recorded || !desired || recorded instanceof Unknown || desired instanceof Unknown) return recorded as VendorConfig;
  const before = reveal(recorded) as Record<string, unknown>;
  const want = reveal(desired) as Record<string, unknown>;
  const writeOnly = Object.keys(want).filter((key) => !(RETURNED as readonly string[]).includes(key));
  let out = defaultsAsDeclared(unreportedFromManifest(before, want, writeOnly, origin), want, { productSize: 'SMALL' });
  if (typeof out.vendor === 'string' && typeof want.vendor === 'string' && out.vendor !== want.vendor && out.vendor.toLowerCase() === want.vendor.toLowerCase()) {
    out = { ...out, vendor: want.vendor };
  }
  if (out === before) return recorded as VendorConfig;
  return (recorded instanceof Secret ? new Secret(out) : out) as unknown as VendorConfig;
}

/** Adding or removing an interface, or changing its VLAN, needs a new MVE; descriptions change in place. */
function vnicChanges(prior: MveInputs['vnics'], desired: MveInputs['vnics']): ReplaceRule[] {
  if (!prior || !desired) return [];
  if (prior.length !== desired.length) return [{ path: 'vnics', reason: 'the number of interfaces of an MVE is fixed at order time' }];
  return desired.flatMap((v, i) => ((v.vlan ?? 0) === (prior[i].vlan ?? 0) ? [] : [{ path: `vnics[${i}].vlan`, reason: 'the VLAN of an MVE interface is fixed at order time' }]));
}

/** Whether two flat objects hold the same fields (key order aside). */
function sameFields(a: object | undefined, b: object | undefined): boolean {
  const canon = (o: object | undefined) => JSON.stringify(Object.entries(o ?? {}).sort(([x], [y]) => x.localeCompare(y)));
  return canon(a) === canon(b);
}

/** The vendor config to record: returned fields from the API, write-only ones as recorded. */
function observedVendorConfig(p: ApiProduct, prior: VendorConfig | undefined): VendorConfig {
  const api = (p.vendorConfig ?? {}) as Record<string, unknown>;
  const imageId = (api.imageId ?? p.resources?.virtual_machine?.[0]?.image?.id) as number;
  const returned: Record<string, unknown> = { vendor: sameSpelling(api.vendor ?? p.vendor, prior?.vendor), imageId, productSize: api.productSize ?? p.mveSize };
  if (!prior) return returned as VendorConfig;
  const out: Record<string, unknown> = { ...prior };
  // Only fields the manifest gave are compared, so a default the API filled in is no change.
  for (const key of RETURNED) if (out[key] !== undefined && returned[key] !== undefined) out[key] = returned[key];
  return out as VendorConfig;
}

function observedVnics(p: ApiProduct, prior: MveInputs['vnics']): MveInputs['vnics'] {
  const vnics = (p.vnics ?? []) as Array<{ description?: string; vlan?: number | null }>;
  if (!vnics.length) return prior;
  return vnics.map((v, i) => ({
    description: v.description ?? '',
    // 0 is how the API says "no VLAN"; it stays out unless the manifest wrote it.
    ...(v.vlan || prior?.[i]?.vlan !== undefined ? { vlan: v.vlan ?? 0 } : {}),
  }));
}

function toOutputs(p: ApiProduct, tags: Record<string, string>, inputs?: Partial<MveInputs>): MveOutputs {
  return {
    productName: p.productName,
    locationId: p.locationId,
    contractTermMonths: p.contractTermMonths,
    diversityZone: p.diversityZone || inputs?.diversityZone,
    vendorConfig: observedVendorConfig(p, inputs?.vendorConfig),
    vnics: observedVnics(p, inputs?.vnics),
    costCentre: p.costCentre ?? '',
    // The API never returns the promo code; keep what was ordered.
    promoCode: inputs?.promoCode,
    resourceTags: tags,
    ...productFacts(p),
    vendor: p.vendor ?? undefined,
    imageId: (p.resources?.virtual_machine?.[0]?.image?.id ?? p.vendorConfig?.imageId) || undefined,
    mveSize: p.mveSize ?? undefined,
    mveLabel: p.mveLabel ?? undefined,
  };
}
