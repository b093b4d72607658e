/**
 * The simulator's price table for interconnect products, following the drivers Megaport documents
 * (reference pricing-api.md §1.2): a Port by location and speed, an MCR by location and speed, an
 * MVE by size, a VXC by distance band (Metro / Zone / Interzone) and speed, a remote IX at VXC
 * rates and a local one free, and term discounts of 5 % at 24 months and 10 % at 36.
 *
 * Every figure below is invented for the simulator (Megaport publishes no price list to copy):
 * the USD amounts, the market factors, the exchange rates, the NAT gateway and IP block prices,
 * the add-on prices, the 10 % at 48 and 60 months (the docs name no larger discount than 36's)
 * and the day/hour split of validate's `price` (a 30-day month of 24-hour days).
 */
import type { Location } from './seed-locations.js';

/** Term discount by contract months; terms not listed pay the list price. */
export const TERM_DISCOUNT: Readonly<Record<number, number>> = { 24: 0.05, 36: 0.1, 48: 0.1, 60: 0.1 };

/** Each seeded market's billing currency (ISO 4217). */
export const MARKET_CURRENCY: Readonly<Record<string, string>> = { AU: 'AUD', SG: 'SGD', UK: 'GBP', DE: 'EUR', FR: 'EUR', US: 'USD' };

/** USD per unit of each currency the pricebook answers in; another currency is re-priced at these rates. */
const USD_PER_UNIT: Readonly<Record<string, number>> = { USD: 1, AUD: 0.66, SGD: 0.75, GBP: 1.27, EUR: 1.08 };

/** The location driver: how a market's list prices compare with the US market's. */
const MARKET_FACTOR: Readonly<Record<string, number>> = { US: 1, UK: 1.1, DE: 1.1, FR: 1.1, AU: 1.2, SG: 1.25 };

/** Port list price per month in USD (US market), by speed in Mbps. */
export const PORT_MONTHLY_USD: Readonly<Record<number, number>> = { 1000: 450, 10000: 1150, 100000: 4200, 400000: 11000 };

/** MCR list price per month in USD (US market), by speed in Mbps. */
export const MCR_MONTHLY_USD: Readonly<Record<number, number>> = { 1000: 350, 2500: 480, 5000: 620, 10000: 900, 25000: 1500, 50000: 2300, 100000: 3800 };

/** MVE list price per month in USD (US market), by size; the label (`MVE 2/8`) names the same size. */
export const MVE_MONTHLY_USD: Readonly<Record<string, number>> = { SMALL: 400, MEDIUM: 700, LARGE: 1200, X_LARGE_12: 1700 };

/** VXC distance bands: within one metro, within one network zone, or between zones. */
export type DistanceBand = 'METRO' | 'ZONE' | 'INTERZONE';

/** The network zone of each market, for the VXC distance band. */
const MARKET_ZONE: Readonly<Record<string, string>> = { AU: 'APAC', SG: 'APAC', UK: 'EMEA', DE: 'EMEA', FR: 'EMEA', US: 'AMER' };

/** VXC list price in USD: a fixed monthly charge plus a monthly rate per Mbps, by distance band. */
export const VXC_MONTHLY_USD: Readonly<Record<DistanceBand, { fixed: number; perMbps: number }>> = {
  METRO: { fixed: 40, perMbps: 0.3 },
  ZONE: { fixed: 80, perMbps: 0.9 },
  INTERZONE: { fixed: 150, perMbps: 2.4 },
};

/** NAT gateway list price in USD: fixed, per Mbps and per 1,000 sessions. */
export const NAT_GATEWAY_MONTHLY_USD = { fixed: 120, perMbps: 0.2, perThousandSessions: 15 };

/** IP block list price per month in USD, by prefix length. */
export const IP_BLOCK_MONTHLY_USD: Readonly<Record<string, number>> = { '/29': 15, '/28': 30, '/27': 60, '/26': 110, '/25': 200, '/24': 380 };

/** Add-on list prices per month in USD: a cross connect, and IPsec per block of 10 tunnels. */
export const ADD_ON_MONTHLY_USD = { CROSS_CONNECT: 100, IP_SEC_PER_10_TUNNELS: 75 };

/** One charge of a quote, in the pricebook's `prices[]` terms. */
export interface Charge {
  chargeReason: 'CORE' | 'CORE_SURCHARGE' | 'ADD_ON_CHARGE';
  frequency: 'ONCE' | 'MONTHLY' | 'YEARLY';
  /** List amount in the quote's currency. */
  amount: number;
  addOnType?: string;
}

/** A priced product configuration, before it is shaped as a PriceBookDTO or a validate `price`. */
export interface Quote {
  productType: string;
  currency: string;
  /** Monthly list price: every MONTHLY charge. */
  monthlyRackRate: number;
  /** Monthly price after the term discount. */
  monthlyRate: number;
  /** The term discount's monthly amount (0 when the term has none). */
  termDiscount: number;
  charges: Charge[];
  /** Per-Mbps parts of the list price, for connections (0 otherwise). */
  fixedRecurringCharge: number;
  mbpsRate: number;
  longHaulMbpsRate: number;
}

/** What goes into a quote, in USD at US-market prices. */
export interface QuoteInput {
  productType: string;
  /** The location whose market sets the price and, by default, the currency. */
  location: Location;
  term: number;
  /** Requested currency; the market's own when absent. */
  currency?: string;
  coreUsd: number;
  addOnsUsd?: Array<{ addOnType: string; usd: number }>;
  /** For connections: the fixed part and per-Mbps rate inside `coreUsd`, and whether the rate is long-haul. */
  perMbps?: { fixedUsd: number; mbpsUsd: number; longHaul: boolean };
}

/** True when the pricebook can answer in this currency. */
export function knownCurrency(code: string): boolean {
  return code in USD_PER_UNIT;
}

/** The currency a location is billed in. */
export function currencyOf(location: Location): string {
  return MARKET_CURRENCY[location.market] ?? 'USD';
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Prices a configuration: location factor, currency, add-ons, term discount. */
export function quote(input: QuoteInput): Quote {
  const currency = input.currency ?? currencyOf(input.location);
  const factor = (MARKET_FACTOR[input.location.market] ?? 1) / (USD_PER_UNIT[currency] ?? 1);
  const local = (usd: number): number => round2(usd * factor);
  const charges: Charge[] = [{ chargeReason: 'CORE', frequency: 'MONTHLY', amount: local(input.coreUsd) }];
  for (const a of input.addOnsUsd ?? []) charges.push({ chargeReason: 'ADD_ON_CHARGE', frequency: 'MONTHLY', amount: local(a.usd), addOnType: a.addOnType });
  const monthlyRackRate = round2(charges.filter((c) => c.frequency === 'MONTHLY').reduce((sum, c) => sum + c.amount, 0));
  const termDiscount = round2(monthlyRackRate * (TERM_DISCOUNT[input.term] ?? 0));
  const per = input.perMbps;
  return {
    productType: input.productType,
    currency,
    monthlyRackRate,
    monthlyRate: round2(monthlyRackRate - termDiscount),
    termDiscount,
    charges,
    fixedRecurringCharge: per ? local(per.fixedUsd) : 0,
    mbpsRate: per && !per.longHaul ? local(per.mbpsUsd) : 0,
    longHaulMbpsRate: per?.longHaul ? local(per.mbpsUsd) : 0,
  };
}

/** The distance band between two locations. */
export function distanceBand(a: Location, b: Location): DistanceBand {
  if (a.metro === b.metro) return 'METRO';
  return MARKET_ZONE[a.market] === MARKET_ZONE[b.market] ? 'ZONE' : 'INTERZONE';
}

/** The USD core price and per-Mbps parts of a connection of `speed` Mbps over a band. */
export function connectionUsd(band: DistanceBand, speed: number): { coreUsd: number; perMbps: NonNullable<QuoteInput['perMbps']> } {
  const row = VXC_MONTHLY_USD[band];
  return { coreUsd: row.fixed + row.perMbps * speed, perMbps: { fixedUsd: row.fixed, mbpsUsd: row.perMbps, longHaul: band === 'INTERZONE' } };
}

/** The monthly USD price of an IPsec add-on with this many tunnels. */
export function ipsecUsd(tunnelCount: number): number {
  return ADD_ON_MONTHLY_USD.IP_SEC_PER_10_TUNNELS * Math.max(1, Math.ceil(tunnelCount / 10));
}
