/** What the engine asks of every interconnect product: whether it is ready, and what its delete means. */
import { READY } from '../../providers/interconnect/api/products.js';

/** Whether a product is ready for use: CONFIGURED or LIVE (a type without a status always is). */
export function productReady(outputs: Record<string, unknown>): boolean {
  const status = outputs.provisioningStatus;
  return status === undefined || READY.includes(String(status));
}

/**
 * What deleting a product means for its contract: cancelled at the end of the term (it stays live
 * until then), or now, possibly with an early termination charge.
 */
export function contractNotes(outputs: Record<string, unknown>, atEndOfTerm: boolean): string[] {
  const end = outputs.contractEndDate;
  if (typeof end !== 'string' || !(Date.parse(end) > Date.now())) return [];
  return [atEndOfTerm ? `cancelled at the end of its term: it stays live until ${end.slice(0, 10)}` : `contract ends ${end.slice(0, 10)}; cancelling now may incur early termination`];
}
