/** What every type's quote shares. */
import { UserError } from '../kernel/errors.js';
import { containsUnknown } from '../kernel/values.js';

/**
 * Refuses a question with a value known only after apply (a plan's desired inputs may hold one):
 * the price is not known yet, and saying so beats asking the API about a placeholder.
 */
export function knownBeforeApply(params: Record<string, unknown>): void {
  const unknown = Object.keys(params).filter((k) => containsUnknown(params[k]));
  if (unknown.length) throw new UserError(`the price depends on ${unknown.join(', ')}, known only after apply`);
}
