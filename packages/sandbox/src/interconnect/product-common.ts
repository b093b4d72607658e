import { COMPANY } from './ids.js';
import { isTerminating, liveDate, terminateDate, type Clock, type ProvisioningStatus } from './provisioning.js';
import { currentTerm, type InterconnectDb, type McrRecord, type ProductRecord } from './store.js';

/** The fields every product type shares in its GET representation (epoch-millisecond dates). */
export function commonFields(p: ProductRecord, db: InterconnectDb, clock: Clock, status: ProvisioningStatus): Record<string, unknown> {
  const term = currentTerm(p, clock.now);
  return {
    productId: p.productId,
    productUid: p.productUid,
    productName: p.productName,
    productType: p.productType,
    provisioningStatus: status,
    secondaryName: null,
    createDate: p.createDate,
    createdBy: COMPANY.userUid,
    liveDate: liveDate(p, db, clock),
    terminateDate: terminateDate(p, db, clock),
    contractStartDate: term.start,
    contractEndDate: term.end,
    contractTermMonths: p.term,
    costCentre: p.costCentre,
    companyUid: COMPANY.companyUid,
    companyName: COMPANY.companyName,
    locked: p.locked,
    adminLocked: false,
    cancelable: !isTerminating(status),
    attributeTags: {},
  };
}

/** Cable standard reported for a physical interface of this speed. */
export function mediaFor(speed: number): string {
  if (speed >= 400000) return '400GBASE-LR8';
  if (speed >= 100000) return '100GBASE-LR4';
  if (speed >= 10000) return '10GBASE-LR';
  return '1000BASE-LX';
}

/** The MCR's virtual router resource, which VXC reads embed too. */
export function virtualRouter(m: McrRecord): Record<string, unknown> {
  return { id: m.productId, mcrAsn: m.asn, name: m.productName, resource_name: 'virtual_router', resource_type: 'virtual_router', speed: m.portSpeed };
}
