import { cloneJson, isInt, isObject } from './envelope.js';
import { newUid } from './ids.js';
import { checkLocation, commonOrderFields, pickZone, serviceReply, type OrderChecker, type OrderPlan } from './order-common.js';
import { findMveImage, MVE_SIZES, sameVendor } from './seed-catalog.js';
import type { AddOnRecord, McrRecord, MveRecord, PortRecord } from './store.js';

/** Default MCR ASN when the order names none. */
export const DEFAULT_MCR_ASN = 133937;

function bool(v: unknown, fallback: boolean, what: string, errors: string[]): boolean {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') errors.push(`${what} must be true or false`);
  return v === true;
}

/** A Port order (productType MEGAPORT); `lagPortCount` >= 1 orders a LAG of that many member ports. */
export const checkPortOrder: OrderChecker = (o, scope, errors) => {
  const start = errors.length;
  const common = commonOrderFields(o, errors);
  const site = checkLocation(o.locationId, errors, true);
  const speed = o.portSpeed;
  if (!isInt(speed)) errors.push('portSpeed is required');
  const lag = o.lagPortCount ?? 0;
  if (!isInt(lag) || lag < 0 || lag > 8) errors.push('lagPortCount must be between 1 and 8');
  const isLag = isInt(lag) && lag > 0;
  if (isLag && isInt(speed) && speed < 10000) errors.push('LAG ports must be 10000 Mbps or faster');
  const visible = bool(o.marketplaceVisibility, false, 'marketplaceVisibility', errors);
  const config = isObject(o.config) ? o.config : {};
  const zone = site && isInt(speed) ? pickZone(site.loc, config.diversityZone, (z) => z.megaportSpeedMbps.includes(speed), `Port speed ${speed} Mbps is not available`, errors) : undefined;
  if (!site || !zone || !isInt(speed) || errors.length > start) return undefined;
  const aggregationId = isLag ? scope.nextAggregationId++ : null;
  const count = isLag ? (lag as number) : 1;
  const records: PortRecord[] = [];
  for (let i = 0; i < count; i++) {
    records.push({
      productType: 'MEGAPORT',
      productUid: newUid(),
      productId: scope.nextProductId++,
      productName: common.productName,
      createDate: scope.clock.now,
      term: common.term,
      costCentre: common.costCentre,
      promoCode: common.promoCode,
      resourceTags: common.resourceTags,
      locked: false,
      locationId: site.loc.id,
      portSpeed: speed,
      diversityZone: zone,
      marketplaceVisibility: visible,
      preOrder: site.preOrder,
      aggregationId,
      lagPrimary: isLag && i === 0,
    });
  }
  const plan: OrderPlan = {
    kind: isLag ? 'LAG' : 'Port',
    records,
    effects: [],
    reply: records.map((r) =>
      serviceReply(r, {
        provisioningStatus: r.preOrder ? 'NEW' : 'DEPLOYABLE',
        portSpeed: r.portSpeed,
        locationId: r.locationId,
        aggregationId: r.aggregationId,
        lagPrimary: r.lagPrimary,
      }),
    ),
  };
  return plan;
};

function checkAddOns(list: unknown, now: number, errors: string[]): AddOnRecord[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) {
    errors.push('addOns must be a list');
    return [];
  }
  const out: AddOnRecord[] = [];
  for (const a of list) {
    if (!isObject(a) || String(a.addOnType ?? 'IP_SEC').toUpperCase() !== 'IP_SEC') {
      errors.push('addOns: only addOnType IP_SEC is supported');
      continue;
    }
    const count = a.tunnelCount === undefined || a.tunnelCount === 0 ? 10 : a.tunnelCount;
    if (!isInt(count) || ![10, 20, 30].includes(count)) errors.push('addOns: tunnelCount must be 10, 20 or 30');
    else out.push({ addOnUid: newUid(), addOnType: 'IP_SEC', tunnelCount: count, createDate: now });
  }
  if (out.length > 1) errors.push('addOns: an MCR can have one IP_SEC add-on');
  return out;
}

/** An MCR order (productType MCR2). */
export const checkMcrOrder: OrderChecker = (o, scope, errors) => {
  const start = errors.length;
  const common = commonOrderFields(o, errors);
  const site = checkLocation(o.locationId, errors, false);
  const speed = o.portSpeed;
  if (!isInt(speed)) errors.push('portSpeed is required');
  const config = isObject(o.config) ? o.config : {};
  const asn = config.mcrAsn === undefined || config.mcrAsn === 0 ? DEFAULT_MCR_ASN : config.mcrAsn;
  if (!isInt(asn) || asn < 1 || asn > 4294967295) errors.push('config.mcrAsn must be a valid ASN');
  const visible = bool(o.marketplaceVisibility, true, 'marketplaceVisibility', errors);
  const addOns = checkAddOns(o.addOns, scope.clock.now, errors);
  const zone = site && isInt(speed) ? pickZone(site.loc, config.diversityZone, (z) => z.mcrSpeedMbps.includes(speed), `MCR speed ${speed} Mbps is not available`, errors) : undefined;
  if (!site || !zone || !isInt(speed) || !isInt(asn) || errors.length > start) return undefined;
  const record: McrRecord = {
    productType: 'MCR2',
    productUid: newUid(),
    productId: scope.nextProductId++,
    productName: common.productName,
    createDate: scope.clock.now,
    term: common.term,
    costCentre: common.costCentre,
    promoCode: common.promoCode,
    resourceTags: common.resourceTags,
    locked: false,
    locationId: site.loc.id,
    portSpeed: speed,
    diversityZone: zone,
    marketplaceVisibility: visible,
    asn,
    addOns,
  };
  return { kind: 'MCR', records: [record], reply: [serviceReply(record)], effects: [] };
};

/** An MVE order: vendorConfig names the image (`imageId`), vendor and size; `vnics` the network interfaces. */
export const checkMveOrder: OrderChecker = (o, scope, errors) => {
  const start = errors.length;
  const common = commonOrderFields(o, errors);
  const site = checkLocation(o.locationId, errors, false);
  const vc = isObject(o.vendorConfig) ? o.vendorConfig : undefined;
  if (!vc) errors.push('vendorConfig is required');
  const found = vc ? findMveImage(vc.imageId) : undefined;
  if (vc && !found) errors.push(`MVE image ${String(vc.imageId)} does not exist`);
  if (vc && found && typeof vc.vendor === 'string' && !sameVendor(vc.vendor, found.product)) {
    errors.push(`vendorConfig.vendor ${vc.vendor} does not match image ${found.image.id} (${found.product.vendor})`);
  }
  const wanted = typeof vc?.productSize === 'string' ? vc.productSize : typeof vc?.mveLabel === 'string' ? vc.mveLabel : 'SMALL';
  const size = MVE_SIZES.find((s) => s.size === wanted.toUpperCase() || s.label === wanted);
  if (!size) errors.push(`vendorConfig.productSize ${wanted} is not an MVE size (SMALL, MEDIUM, LARGE, X_LARGE_12)`);
  else if (found && !found.image.availableSizes.includes(size.label)) errors.push(`Image ${found.image.id} is not available in size ${size.label}`);
  const vnics = checkVnics(o.vnics, errors);
  const config = isObject(o.config) ? o.config : {};
  const fits = (z: { mveAvailable: boolean; mveMaxCpuCoreCount: number | null }) => z.mveAvailable && (z.mveMaxCpuCoreCount === null || !size || size.cpuCoreCount <= z.mveMaxCpuCoreCount);
  const what = size ? `MVE size ${size.label} is not available` : 'MVE is not available';
  const zone = site ? pickZone(site.loc, config.diversityZone, fits, what, errors) : undefined;
  if (!site || !zone || !found || !size || !vc || errors.length > start) return undefined;
  const record: MveRecord = {
    productType: 'MVE',
    productUid: newUid(),
    productId: scope.nextProductId++,
    productName: common.productName,
    createDate: scope.clock.now,
    term: common.term,
    costCentre: common.costCentre,
    promoCode: common.promoCode,
    resourceTags: common.resourceTags,
    locked: false,
    locationId: site.loc.id,
    diversityZone: zone,
    marketplaceVisibility: false,
    imageId: found.image.id,
    size: size.size,
    vendorConfig: { ...cloneJson(vc), productSize: size.size, mveLabel: size.label },
    vnics,
  };
  const reply = serviceReply(record, { vendor: found.product.vendorKey, mveSize: size.size });
  return { kind: 'MVE', records: [record], reply: [reply], effects: [] };
};

/** Checks an MVE's network interfaces (at most five); none ordered gives one data-plane vNIC. */
export function checkVnics(list: unknown, errors: string[]): Array<{ description: string; vlan: number }> {
  if (list === undefined || list === null) return [{ description: 'Data Plane', vlan: 0 }];
  if (!Array.isArray(list) || list.length === 0 || list.length > 5) {
    errors.push('vnics must be a list of 1 to 5 network interfaces');
    return [];
  }
  return list.map((v, i) => {
    if (!isObject(v)) {
      errors.push(`vnics[${i}] must be an object`);
      return { description: '', vlan: 0 };
    }
    const vlan = v.vlan ?? 0;
    if (!isInt(vlan) || vlan < 0 || vlan > 4093) errors.push(`vnics[${i}].vlan must be between 0 and 4093`);
    return { description: typeof v.description === 'string' ? v.description : '', vlan: isInt(vlan) ? vlan : 0 };
  });
}
