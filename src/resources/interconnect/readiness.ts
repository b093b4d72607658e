import { READY } from './product.js';

/** Whether a product is ready for use: CONFIGURED or LIVE (a type without a status always is). */
export function productReady(outputs: Record<string, unknown>): boolean {
  const status = outputs.provisioningStatus;
  return status === undefined || READY.includes(String(status));
}
