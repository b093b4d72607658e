/** What a resource type costs, in the words the reference docs and `plumb schema TOKEN` use. */
import type { ResourceType } from '../engine/contracts/resource-type.js';

/** What a type costs: the call that prices it and what an update and a delete may be charged, or why it has no price. */
export type CostDoc =
  | {
      /** The API call that prices it, as the type names it; absent when only its provider's way of pricing is known. */
      source?: string;
      /** The call, or the provider's way of pricing, in words (a call in backticks). */
      pricedBy: string;
      /** Whether the API prices an update itself: what it charges or refunds at once. */
      changePriced: boolean;
      /** Whether a delete before the term ends may cost the rest of the term. */
      termCharged: boolean;
    }
  | { unpriced: string };

/**
 * How each provider's types are priced, for a priced type that names no call: every interconnect
 * type is priced by the pricebook; each cloud type by a price Action of its own.
 */
const PROVIDER_PRICING: Readonly<Record<string, string>> = {
  interconnect: 'the pricebook (`POST /v4/pricebook/product`)',
  cloud: "the cloud API's price Action",
};

/** What a type costs, from its cost group; undefined for a type that has none (a registry test forbids that). */
export function costDoc(type: ResourceType): CostDoc | undefined {
  const cost = type.cost;
  if (!cost) return undefined;
  if ('unpriced' in cost) return { unpriced: cost.unpriced };
  const pricedBy = cost.source ? `\`${cost.source}\`` : (PROVIDER_PRICING[type.provider] ?? `a price call of ${type.provider} that the type does not name`);
  return { ...(cost.source && { source: cost.source }), pricedBy, changePriced: cost.change !== undefined, termCharged: cost.termEnds !== undefined };
}

/** What a type costs, as sentences. */
export function costWords(cost: CostDoc | undefined): string {
  if (!cost) return 'Not declared.';
  // A reason may itself begin with the words that introduce it.
  if ('unpriced' in cost) return sentence(`Not priced: ${cost.unpriced.replace(/^not priced: /i, '')}`);
  return [
    `Priced by ${cost.pricedBy}, in the API's currency (never converted).`,
    'An update is priced at its inputs before and after.',
    ...(cost.changePriced ? ['The API also prices the update itself: what it charges or refunds at once.'] : []),
    ...(cost.termCharged ? ['A delete before the term ends may cost the rest of the term.'] : []),
  ].join(' ');
}

/** A text ending with a full stop. */
function sentence(text: string): string {
  return text.endsWith('.') ? text : `${text}.`;
}

/** What a type costs, in a few words, for the index of types. */
export function costSummary(cost: CostDoc | undefined): string {
  if (!cost || 'unpriced' in cost) return costWords(cost);
  const also = [cost.changePriced ? 'an update charged or refunded at once' : '', cost.termCharged ? 'a delete before the term ends may cost the rest of it' : ''].filter(Boolean);
  return sentence(`Priced by ${cost.pricedBy}${also.length ? `; ${also.join('; ')}` : ''}`);
}
