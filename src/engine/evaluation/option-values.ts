import type { ResourceOptions } from '../../manifest/ast.js';
import { Unknown, reveal } from '../../kernel/values.js';
import { EvalError, evaluate, type Scope } from './evaluate.js';
import { parseDuration } from '../../manifest/duration.js';

/**
 * A resource's options written as expressions, evaluated when planning, before its inputs:
 * `protect` and `customTimeouts` (which must then be known: they decide what the plan may do
 * and how long apply waits) are set on the options,
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
  if (options.customTimeoutExprs) await timeoutValues(address, options, scope, unknown);
  if (!options.replacementTrigger) return {};
  return { value: { value: await evaluate(options.replacementTrigger, scope) } };
}

/**
 * `customTimeouts` written as expressions (`create: ${timeout}`): each must be a duration when
 * planning (apply waits by it), as Pulumi takes it: a string like 30m.
 */
async function timeoutValues(address: string, options: ResourceOptions, scope: Scope, unknown: 'wait' | 'refuse'): Promise<void> {
  for (const [verb, expr] of Object.entries(options.customTimeoutExprs ?? {})) {
    const value = reveal(await evaluate(expr, scope));
    if (value instanceof Unknown && unknown === 'wait') continue;
    const ms = typeof value === 'string' ? parseDuration(value) : undefined;
    if (ms === undefined) {
      const what = value instanceof Unknown ? 'it is known only after apply' : `not ${JSON.stringify(value)}`;
      throw new EvalError(
        expr.pos,
        `option customTimeouts.${verb} of ${address} must be a duration like 90s, 30m or 1h when planning; ${what}`,
        'customTimeouts may use config and variables, not what resources make',
      );
    }
    (options.customTimeouts ??= {})[verb as keyof NonNullable<ResourceOptions['customTimeouts']>] = ms;
  }
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
