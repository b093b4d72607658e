import * as z from 'zod';
import { Secret } from '../../../kernel/values.js';
import type { ApiProduct } from './products.js';
import { isoDate } from './views.js';

/**
 * A VXC as plumb describes it, from the wire (reference §3.5): where its ends are now, the
 * connection details (their credentials sealed) and the computed fields. Its ends in the
 * manifest's terms are the resource's business (resources/interconnect/vxc-ends.ts).
 */

/** Where an end is now, as the API reports it (outputs only). */
export const endCurrent = z
  .object({
    productUid: z.string().describe('UID of the product the end is on now; a partner port may have been rotated by the provider.'),
    productName: z.string().optional().describe('Name of that product or partner port.'),
    locationId: z.number().optional().describe('Location id of that product.'),
    location: z.string().optional().describe('Location name.'),
    vlan: z.number().optional().describe('VLAN in use; absent when untagged.'),
    innerVlan: z.number().optional().describe('Inner VLAN in use, if any.'),
    vnicIndex: z.number().optional().describe('vNIC index on an MVE.'),
    ownerUid: z.string().optional().describe('UID of the company that owns that product.'),
  })
  .strict();

/** An end of a VXC in the API's words. */
export type ApiEnd = {
  productUid: string;
  productName?: string | null;
  locationId?: number | null;
  location?: string | null;
  vlan?: number | null;
  innerVlan?: number | null;
  vNicIndex?: number | null;
  ownerUid?: string | null;
};

/** The current-end output of an API end. */
export function currentEnd(api: ApiEnd | undefined): z.infer<typeof endCurrent> | undefined {
  if (!api?.productUid) return undefined;
  const out: z.infer<typeof endCurrent> = { productUid: api.productUid };
  if (api.productName) out.productName = api.productName;
  if (typeof api.locationId === 'number') out.locationId = api.locationId;
  if (api.location) out.location = api.location;
  if (typeof api.vlan === 'number') out.vlan = api.vlan;
  if (api.innerVlan) out.innerVlan = api.innerVlan;
  if (typeof api.vNicIndex === 'number') out.vnicIndex = api.vNicIndex;
  if (api.ownerUid) out.ownerUid = api.ownerUid;
  return out;
}

/** What the API reports about a VXC beyond its inputs; set by the API, never a change. */
export const vxcComputed = {
  productUid: z.string().describe("Product UID, the VXC's id."),
  productId: z.number().optional().describe('Numeric product id.'),
  productType: z.string().optional().describe('VXC.'),
  provisioningStatus: z.string().describe('DEPLOYABLE, CONFIGURED, LIVE, DECOMMISSIONING, DECOMMISSIONED...'),
  aEndCurrent: endCurrent.optional().describe('Where the A-End is now.'),
  bEndCurrent: endCurrent.optional().describe('Where the B-End is now (a partner port UID may differ from the requested one after a rotation).'),
  cspConnections: z.array(z.record(z.string(), z.unknown())).optional().describe('Cloud and router connection details of the ends (AWS VIF, Azure peers, MCR interfaces...).'),
  distanceBand: z.string().optional().describe('METRO, ZONE or INTERCONTINENTAL.'),
  usageAlgorithm: z.string().optional().describe('Billing usage algorithm.'),
  secondaryName: z.string().optional().describe('Secondary name, if any.'),
  adminLocked: z.boolean().optional().describe("Locked by the provider's staff."),
  locked: z.boolean().optional().describe('Locked against changes and cancellation.'),
  cancelable: z.boolean().optional().describe('Whether it can be cancelled now.'),
  attributeTags: z.record(z.string(), z.string()).optional().describe('Attribute tags set by the provider.'),
  companyName: z.string().optional().describe('Owning company.'),
  companyUid: z.string().optional().describe('UID of the owning company.'),
  createdBy: z.string().optional().describe('UID of the user who ordered it.'),
  createDate: z.string().optional().describe('Order date, RFC 3339.'),
  liveDate: z.string().optional().describe('Date it first went live, RFC 3339.'),
  contractStartDate: z.string().optional().describe('Contract start, RFC 3339.'),
  contractEndDate: z.string().optional().describe('Contract end, RFC 3339.'),
  terminateDate: z.string().optional().describe('Termination date, RFC 3339, once cancelled.'),
  lastUpdated: z.string().optional().describe('Last change, RFC 3339.'),
};

/** Fields of a connection's details that hold a credential: an auth, service, shared or pairing key, a BGP password, an IPsec key. */
const CREDENTIAL = /^(auth_?key|service_?key|shared_?key|pairing_?key|password|pre_?shared_?key)$/i;

/** A copy of connection details with every credential in it sealed as a Secret. */
function sealCredentials(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sealCredentials);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, CREDENTIAL.test(key) && field !== null && field !== undefined ? new Secret(field) : sealCredentials(field)]));
}

/** A VXC as the API reports it: the fields it echoes of the inputs (not the ends or tags) and every computed field. */
export function vxcFacts(p: ApiProduct) {
  const csp = p.resources?.csp_connection;
  return {
    productName: p.productName as string,
    rateLimit: p.rateLimit as number,
    contractTermMonths: p.contractTermMonths as number,
    costCentre: (p.costCentre ?? '') as string,
    ...(p.shutdown ? { shutdown: true } : {}),
    productUid: p.productUid,
    productId: p.productId as number | undefined,
    productType: p.productType as string | undefined,
    provisioningStatus: p.provisioningStatus,
    aEndCurrent: currentEnd(p.aEnd),
    bEndCurrent: currentEnd(p.bEnd),
    // One connection comes as an object, several as an array. The API echoes the credentials
    // it was given there: they are sealed as the inputs they came from are.
    cspConnections: csp === undefined || csp === null ? undefined : (sealCredentials(Array.isArray(csp) ? csp : [csp]) as Array<Record<string, unknown>>),
    distanceBand: (p.distanceBand ?? undefined) as string | undefined,
    usageAlgorithm: (p.usageAlgorithm ?? undefined) as string | undefined,
    secondaryName: (p.secondaryName ?? undefined) as string | undefined,
    adminLocked: p.adminLocked as boolean | undefined,
    locked: p.locked as boolean | undefined,
    cancelable: p.cancelable as boolean | undefined,
    attributeTags: (p.attributeTags ?? undefined) as Record<string, string> | undefined,
    companyName: p.companyName as string | undefined,
    companyUid: p.companyUid as string | undefined,
    createdBy: p.createdBy as string | undefined,
    createDate: isoDate(p.createDate),
    liveDate: isoDate(p.liveDate),
    contractStartDate: isoDate(p.contractStartDate),
    contractEndDate: isoDate(p.contractEndDate),
    terminateDate: isoDate(p.terminateDate),
    lastUpdated: isoDate(p.lastUpdated),
  };
}
