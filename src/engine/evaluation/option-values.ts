import type { ResourceOptions } from '../../manifest/ast.js';
import { Unknown, reveal } from '../../kernel/values.js';
import { EvalError, evaluate, type Scope } from './evaluate.js';

/**
 * A resource's options written as expressions, evaluated when planning, before its inputs:
 * `protect` (which must then be known: it decides what the plan may do) is set on the options,
 * and the `replacementTrigger` value is returned (`value` absent without the option). A problem
 * is an EvalError at the option. With `unknown` at `wait` (the checks made before any call, where
 * resources and lookups give nothing yet), a protect not known yet is left to the plan.
 */
export async function optionValues(address: string, options: ResourceOptions, scope: Scope, unknown: 'wait' | 'refuse' = 'refuse'): Promise<{ value?: { value: unknown } }> {
  if (options.protectExpr) {
    const protect = reveal(await evaluate(options.protectExpr, scope));
    const waiting = protect instanceof Unknown && unknown === 'wait';
    if (typeof protect !== 'boolean' && !waiting) {
      const what = protect instanceof Unknown ? 'is known only after apply' : `is ${JSON.stringify(protect)}`;
      throw new EvalError(options.protectExpr.pos, `option protect of ${address} must be true or false when planning; it ${what}`, 'protect may use config and variables, not what resources make');
    }
    if (typeof protect === 'boolean') options.protect = protect;
  }
  if (!options.replacementTrigger) return {};
  return { value: { value: await evaluate(options.replacementTrigger, scope) } };
}

/** `work`, failing with a message naming `what` once `ms` (customTimeouts.read) has passed; as it is without one. */
export async function withDeadline<T>(work: Promise<T>, ms: number | undefined, what: string): Promise<T> {
  if (ms === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what} took longer than customTimeouts.read (${ms / 1000}s)`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
