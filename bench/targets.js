// The window's bound of a figure and the targets of the rate-window work (issue 33), judged from
// the measured calls: what the interconnect API's window (500 calls per rolling 5 minutes per
// address) lets a client do at best, with plumb's concurrency of 10 and 150 ms per call.

export const WINDOW = { limit: 500, windowMs: 5 * 60_000 };
export const CONCURRENCY = 10;

/**
 * The least time C calls need from a quiet window: none while C fits in it; else the window's
 * first 500 at once, each further 500 once the calls before them have left (5 minutes later),
 * and the last batch's own run time at the concurrency cap.
 */
export function windowNeedsS(calls, latencyMs) {
  if (calls <= WINDOW.limit) return 0;
  const waits = Math.ceil((calls - WINDOW.limit) / WINDOW.limit);
  const last = calls - WINDOW.limit * waits;
  return (waits * WINDOW.windowMs) / 1000 + (Math.ceil(last / CONCURRENCY) * latencyMs) / 1000;
}

/** The window's bound of a figure of `calls` calls whose run with no limit took `noLimitS`. */
export function windowBoundS(calls, noLimitS, latencyMs) {
  return Math.max(noLimitS, windowNeedsS(calls, latencyMs));
}

/**
 * The least time the last of a run's calls could be made after `startMs`, given every call the
 * window has seen since it was quiet (`atMs`, the sandbox's log, this run's calls among them): the
 * n-th call cannot be made before the (n - 500)-th has left the window. 0 when the window never
 * filled.
 */
export function windowDelayS(atMs, startMs) {
  const sorted = [...atMs].sort((a, b) => a - b);
  const over = sorted.length - WINDOW.limit;
  if (over <= 0) return 0;
  return Math.max(0, (sorted[over - 1] + WINDOW.windowMs - startMs) / 1000);
}

/**
 * The no-change plan's target at `products` products, judged from the plan with the window
 * (`plan`) and with no limit (`noLimit`): 60 products within 1.5 times the plan with no limit;
 * 300 within 5 s; 3,000 within 10% of the window's bound. Undefined at other sizes.
 */
export function planTarget(products, plan, noLimit, latencyMs) {
  if (!plan || !noLimit) return undefined;
  const bound = windowBoundS(plan.calls, noLimit.wallS, latencyMs);
  const refused = plan.refused ? `, ${plan.refused} refused` : '';
  const judged = (text, ok) => ({ text: `${text}${refused}`, met: ok && !plan.refused, boundS: bound });
  if (products === 60) return judged(`≤ 1.5 × the plan with no limit (${noLimit.wallS.toFixed(1)} s): ${plan.wallS.toFixed(1)} s`, plan.wallS <= 1.5 * noLimit.wallS);
  if (products === 300) return judged(`≤ 5 s: ${plan.wallS.toFixed(1)} s`, plan.wallS <= 5);
  if (products === 3000) return judged(`within 10% of the window's bound (${bound.toFixed(0)} s): ${plan.wallS.toFixed(0)} s`, plan.wallS <= 1.1 * bound);
  return undefined;
}

/**
 * Whether a run sharing the window with others waited only what the window requires: none of
 * its calls refused, and its wait (its wall time beyond the same plan's with no limit) within
 * 2 s (a node process's start-up and the ledger's file on a busy host) of the wait the window
 * asked (how much later than the run with no limit made it its last call could be made).
 */
export function sharedTarget(run, noLimitS) {
  const waitedS = Math.max(0, run.wallS - noLimitS);
  const needS = Math.max(0, run.windowDelayS - noLimitS);
  return { waitedS, needS, met: run.refused === 0 && waitedS <= needS + 2 };
}

export const verdict = (met) => (met ? 'target met' : 'target missed');
