import * as z from 'zod';
import type { CatalogProvider } from '../engine/contracts/catalog.js';

/*
 * plumb's own config keys (`plumb:<key>`), set as any config key is (the manifest's config, the
 * stack's settings file, --config, PLUMB_CONFIG_plumb__<key>) and checked with the manifest where
 * a provider's settings are: a misspelt key is named, a bad value positioned, before any call.
 */

/** The namespace of plumb's own config keys. */
export const OWN_NAMESPACE = 'plumb';

/** The most a plan may raise the monthly cost: one amount for each currency, or an amount per currency named (the others unlimited). */
export type BudgetLimit = number | Record<string, number>;

const CURRENCY = /^[A-Z]{3}$/;

/** Why a value is not a budget; undefined when it is one. */
function limitProblem(value: unknown): string | undefined {
  const amount = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  if (amount(value)) return undefined;
  const expected = 'expected an amount of 0 or more (500), or a map of currency to amount ({ USD: 500, CNY: 3000 })';
  if (!value || typeof value !== 'object' || Array.isArray(value)) return expected;
  for (const [currency, n] of Object.entries(value)) {
    if (!CURRENCY.test(currency)) return `"${currency}" is not a currency code: write the API's three capitals (USD, CNY)`;
    if (!amount(n)) return `${currency}: ${JSON.stringify(n)} is not an amount of 0 or more`;
  }
  return Object.keys(value).length ? undefined : `an empty map sets no budget: ${expected}`;
}

/** A number as a flag, variable or `plumb config set` gives it (text); a map as JSON text. */
function fromText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (/^[\d.]+$/.test(text) && Number.isFinite(Number(text))) return Number(text);
  if (!text.startsWith('{')) return value;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return value;
  }
}

const limitSchema = z.preprocess(
  fromText,
  z.unknown().superRefine((value, ctx) => {
    const problem = limitProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

/** plumb's own config keys, checked where a provider's settings are (a misspelt key is named, a bad value positioned). */
export const ownSettings: CatalogProvider = {
  name: OWN_NAMESPACE,
  settings: z.strictObject({
    maxMonthlyIncrease: limitSchema
      .optional()
      .describe(
        'The most a plan may raise the monthly cost: an amount applied to each currency (500), or a map of currency to amount ({ USD: 500, CNY: 3000 }; a currency not named is unlimited). Over it, plan and apply stop before any order. --max-monthly-increase wins over it.',
      ),
  }) as never,
  envVars: {},
  secretSettings: [],
};
