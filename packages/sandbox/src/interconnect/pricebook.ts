/**
 * `POST /v4/pricebook/product` and the `price` of each `/v3/networkdesign/validate` line item,
 * both from the table in prices.ts. Request fields and the PriceBookDTO reply follow megaportgo's
 * pricing_types.go; the validate `price` object its NATGatewayOrderPrice (nat_gateway_types.go).
 */
import { isInt, isObject, ok, validationFailed } from './envelope.js';
import type { OrderPlan } from './order-common.js';
import {
  connectionUsd,
  distanceBand,
  ipsecUsd,
  IP_BLOCK_MONTHLY_USD,
  knownCurrency,
  MCR_MONTHLY_USD,
  MVE_MONTHLY_USD,
  NAT_GATEWAY_MONTHLY_USD,
  PORT_MONTHLY_USD,
  quote,
  ADD_ON_MONTHLY_USD,
  type Quote,
  type QuoteInput,
} from './prices.js';
import type { Handler } from './router.js';
import { findIxPoint, MVE_SIZES } from './seed-catalog.js';
import { findLocation, LOCATIONS, type Location } from './seed-locations.js';
import { resolveEnd, TERMS_MONTHS, type InterconnectDb, type ProductRecord } from './store.js';

type Body = Record<string, unknown>;

/** Reads the location in `field`, noting it when missing or unknown. */
function location(body: Body, field: string, errors: string[]): Location | undefined {
  const id = body[field];
  if (!isInt(id)) {
    errors.push(`${field} is required`);
    return undefined;
  }
  const loc = findLocation(id);
  if (!loc) errors.push(`Location ${id} does not exist`);
  return loc;
}

/** Reads `speed` and checks it against a table's speeds when one is given. */
function speed(body: Body, errors: string[], table?: Readonly<Record<number, number>>): number | undefined {
  const s = body.speed;
  if (!isInt(s) || s < 1) {
    errors.push('speed is required (Mbps)');
    return undefined;
  }
  if (table && !(s in table)) {
    errors.push(`No price for speed ${s} Mbps; priced speeds are ${Object.keys(table).join(', ')}`);
    return undefined;
  }
  return s;
}

/** The add-ons of a pricing request, in USD; `allowed` names the types this product takes. */
function addOns(body: Body, allowed: string[], errors: string[]): Array<{ addOnType: string; usd: number }> {
  if (body.addOns === undefined || body.addOns === null) return [];
  if (!Array.isArray(body.addOns)) {
    errors.push('addOns must be a list');
    return [];
  }
  const out: Array<{ addOnType: string; usd: number }> = [];
  for (const a of body.addOns) {
    const type = isObject(a) && typeof a.addOnType === 'string' ? a.addOnType.toUpperCase() : '';
    if (!isObject(a) || !allowed.includes(type)) {
      errors.push(allowed.length ? `addOns: addOnType must be ${allowed.join(' or ')}` : 'addOns: this product takes no add-ons');
      continue;
    }
    if (type === 'IP_SEC') {
      const count = a.tunnelCount ?? 10;
      if (!isInt(count) || count < 1) errors.push('addOns: tunnelCount must be a positive whole number');
      else out.push({ addOnType: type, usd: ipsecUsd(count) });
    } else if (a.crossConnectRequested !== false) out.push({ addOnType: type, usd: ADD_ON_MONTHLY_USD.CROSS_CONNECT });
  }
  return out;
}

/** One product type's request: the quote input without the shared fields and add-ons, or undefined when broken. */
type Reader = (body: Body, errors: string[]) => Omit<QuoteInput, 'productType' | 'term' | 'currency' | 'addOnsUsd'> | undefined;

/** The add-ons each product type takes: a cross connect for a Port, IPsec tunnels for an MCR. */
const ADD_ONS: Record<string, string[]> = { MEGAPORT: ['CROSS_CONNECT'], MCR2: ['IP_SEC'] };

/** The MVE size `size` (SMALL…) or `mveLabel` (`MVE 2/8`, or `MVE_2_8` as megaportgo's test writes it) names. */
const sizeOf = (body: Body) => {
  const wanted = [body.size, body.mveLabel].find((v) => typeof v === 'string' && v) as string | undefined;
  const squash = (s: string) => s.replace(/[\s_/]/g, '').toUpperCase();
  return wanted === undefined ? undefined : MVE_SIZES.find((s) => s.size === wanted.toUpperCase() || squash(s.label) === squash(wanted));
};

/** The request reader of each `productType` the pricebook prices. */
const READERS: Record<string, Reader> = {
  MEGAPORT: (body, errors) => {
    const [loc, mbps] = [location(body, 'locationId', errors), speed(body, errors, PORT_MONTHLY_USD)];
    return loc && mbps ? { location: loc, coreUsd: PORT_MONTHLY_USD[mbps] } : undefined;
  },
  MCR2: (body, errors) => {
    const [loc, mbps] = [location(body, 'locationId', errors), speed(body, errors, MCR_MONTHLY_USD)];
    return loc && mbps ? { location: loc, coreUsd: MCR_MONTHLY_USD[mbps] } : undefined;
  },
  MVE: (body, errors) => {
    const loc = location(body, 'locationId', errors);
    const size = sizeOf(body);
    if (!size) errors.push(`size or mveLabel must name an MVE size (${MVE_SIZES.map((s) => s.size).join(', ')})`);
    return loc && size ? { location: loc, coreUsd: MVE_MONTHLY_USD[size.size] } : undefined;
  },
  VXC: (body, errors) => {
    const [a, b, mbps] = [location(body, 'aLocationId', errors), location(body, 'bLocationId', errors), speed(body, errors)];
    return a && b && mbps ? { location: a, ...connectionUsd(distanceBand(a, b), mbps) } : undefined;
  },
  IX: (body, errors) => {
    const [port, mbps] = [location(body, 'portLocationId', errors), speed(body, errors)];
    const ix = findIxPoint(body.ixType);
    if (!ix) errors.push(`ixType ${String(body.ixType ?? '(none)')} is not an IX; see GET /v2/ixp`);
    if (!port || !mbps || !ix) return undefined;
    return ixUsd(port, ix.metro, mbps);
  },
  NAT_GATEWAY: (body, errors) => {
    const [loc, mbps] = [location(body, 'locationId', errors), speed(body, errors)];
    const sessions = body.sessionCount;
    if (!isInt(sessions) || sessions < 1) errors.push('sessionCount is required');
    if (!loc || !mbps || !isInt(sessions) || sessions < 1) return undefined;
    const t = NAT_GATEWAY_MONTHLY_USD;
    return { location: loc, coreUsd: t.fixed + t.perMbps * mbps + (t.perThousandSessions * sessions) / 1000 };
  },
  IP_ADDRESS: (body, errors) => {
    const loc = location(body, 'locationId', errors);
    const block = typeof body.ipBlock === 'string' ? IP_BLOCK_MONTHLY_USD[body.ipBlock] : undefined;
    if (block === undefined) errors.push(`ipBlock must be one of ${Object.keys(IP_BLOCK_MONTHLY_USD).join(', ')}`);
    return loc && block !== undefined ? { location: loc, coreUsd: block } : undefined;
  },
};

/** An IX from a port at `port`: free in the port's own metro, at VXC rates by distance band otherwise (docs: ix-pricing). */
function ixUsd(port: Location, ixMetro: string, mbps: number): Omit<QuoteInput, 'productType' | 'term' | 'currency' | 'addOnsUsd'> {
  if (port.metro === ixMetro) return { location: port, coreUsd: 0 };
  const ixSite = LOCATIONS.find((l) => l.metro === ixMetro) ?? port;
  return { location: port, ...connectionUsd(distanceBand(port, ixSite), mbps) };
}

/** Reads `term`: absent or 0 is month-to-month. */
function term(body: Body, errors: string[]): number {
  const t = body.term === undefined || body.term === null || body.term === 0 ? 1 : body.term;
  if (!isInt(t) || !TERMS_MONTHS.includes(t)) errors.push(`Invalid term ${String(t)}. Valid terms are 1, 12, 24, 36, 48, 60 months`);
  return isInt(t) ? t : 1;
}

/** The PriceBookDTO of a quote. */
function priceBookDto(q: Quote): Record<string, unknown> {
  return {
    productType: q.productType,
    currency: q.currency,
    monthlyRate: q.monthlyRate,
    monthlyRackRate: q.monthlyRackRate,
    prices: q.charges.map((c) => ({ ...c })),
    discounts: q.termDiscount ? [{ discountReason: 'TERM', amount: q.termDiscount }] : [],
  };
}

/**
 * `POST /v4/pricebook/product[?companyId=|companyUid=]`: one product configuration with its
 * `productType` → `{message, terms, data: PriceBookDTO}`; 400 `Validation failed` lists what is wrong.
 * The sandbox has one company, so a companyId/companyUid is accepted and prices as the caller's own.
 */
export const productPricing: Handler = (ctx) => {
  const errors: string[] = [];
  if (ctx.req.query.has('companyId') && ctx.req.query.has('companyUid')) errors.push('companyId and companyUid are mutually exclusive');
  const body = ctx.req.body;
  if (!isObject(body)) throw validationFailed([...errors, 'The request body must be a JSON object']);
  const type = typeof body.productType === 'string' ? body.productType.toUpperCase() : '';
  const reader = READERS[type];
  if (!reader) throw validationFailed([...errors, `productType must be one of ${Object.keys(READERS).join(', ')}`]);
  if (body.currency !== undefined && (typeof body.currency !== 'string' || !knownCurrency(body.currency.toUpperCase()))) errors.push(`Unsupported currency ${String(body.currency)}`);
  const months = type === 'IP_ADDRESS' ? 1 : term(body, errors);
  const input = reader(body, errors);
  const addOnsUsd = addOns(body, ADD_ONS[type] ?? [], errors);
  if (!input || errors.length) throw validationFailed(errors);
  const currency = typeof body.currency === 'string' ? body.currency.toUpperCase() : undefined;
  const q = quote({ ...input, addOnsUsd, productType: type, term: months, currency });
  return ok(`Pricing for ${type}`, priceBookDto(q));
};

/** The quote of a product an order would create, at its location's currency. */
function recordQuote(r: ProductRecord, db: InterconnectDb): Quote | undefined {
  const at = (id: number) => findLocation(id);
  switch (r.productType) {
    case 'MEGAPORT': {
      const loc = at(r.locationId);
      return loc && quote({ productType: r.productType, location: loc, term: r.term, coreUsd: PORT_MONTHLY_USD[r.portSpeed] ?? 0 });
    }
    case 'MCR2': {
      const loc = at(r.locationId);
      const extra = r.addOns.map((a) => ({ addOnType: a.addOnType, usd: ipsecUsd(a.tunnelCount) }));
      return loc && quote({ productType: r.productType, location: loc, term: r.term, coreUsd: MCR_MONTHLY_USD[r.portSpeed] ?? 0, addOnsUsd: extra });
    }
    case 'MVE': {
      const loc = at(r.locationId);
      return loc && quote({ productType: r.productType, location: loc, term: r.term, coreUsd: MVE_MONTHLY_USD[r.size] ?? 0 });
    }
    case 'VXC': {
      const [a, b] = [resolveEnd(db, r.aEnd.productUid), resolveEnd(db, r.bEnd.productUid)].map((t) => (t ? at(t.kind === 'own' ? t.product.locationId : t.port.locationId) : undefined));
      return a && b && quote({ productType: r.productType, location: a, term: r.term, ...connectionUsd(distanceBand(a, b), r.rateLimit) });
    }
    case 'IX': {
      const port = db.products[r.portUid];
      const loc = port && port.productType === 'MEGAPORT' ? at(port.locationId) : undefined;
      const ix = findIxPoint(r.networkServiceType);
      return loc && ix && quote({ productType: r.productType, term: r.term, ...ixUsd(loc, ix.metro, r.rateLimit) });
    }
  }
}

/** Validate's `price` object: NATGatewayOrderPrice's fields; a day is 1/30 of a month, an hour 1/24 of a day (invented split). */
function validatePrice(q: Quote, count: number): Record<string, unknown> {
  const times = (n: number) => Math.round(n * count * 100) / 100;
  const monthlyRate = times(q.monthlyRate);
  return {
    hourlySetup: 0,
    dailySetup: 0,
    monthlySetup: times(q.charges.filter((c) => c.frequency === 'ONCE').reduce((s, c) => s + c.amount, 0)),
    hourlyRate: Math.round((monthlyRate / 30 / 24) * 10000) / 10000,
    dailyRate: Math.round((monthlyRate / 30) * 100) / 100,
    monthlyRate,
    fixedRecurringCharge: times(q.fixedRecurringCharge),
    longHaulMbpsRate: q.longHaulMbpsRate,
    mbpsRate: q.mbpsRate,
    currency: q.currency,
    productType: q.productType,
    monthlyRackRate: times(q.monthlyRackRate),
  };
}

/**
 * Validate's line items for one order item's plan: one per product it creates, except a LAG, which
 * is one item priced as its ports together (docs: "each Port in the LAG is treated individually").
 * `productUid` is the order item's own (the port a VXC or IX is ordered on), or null for a new service;
 * the metro is in a field literally named `string`, as megaportgo's NATGatewayValidateResult reads it.
 */
export function validateLineItems(item: Record<string, unknown>, plan: OrderPlan, db: InterconnectDb): Array<Record<string, unknown>> {
  // A LAG's members are alike: price the first, times the number of ports.
  const [records, ports] = plan.kind === 'LAG' ? [plan.records.slice(0, 1), plan.records.length] : [plan.records, 1];
  const out: Array<Record<string, unknown>> = [];
  for (const r of records) {
    const q = recordQuote(r, db);
    if (!q) continue;
    out.push({ productUid: typeof item.productUid === 'string' ? item.productUid : null, productType: r.productType, string: metroOf(r, db), price: validatePrice(q, ports) });
  }
  return out;
}

function metroOf(r: ProductRecord, db: InterconnectDb): string {
  if (r.productType === 'VXC') {
    const a = resolveEnd(db, r.aEnd.productUid);
    return (a && findLocation(a.kind === 'own' ? a.product.locationId : a.port.locationId)?.metro) ?? '';
  }
  if (r.productType === 'IX') return findIxPoint(r.networkServiceType)?.metro ?? '';
  return findLocation(r.locationId)?.metro ?? '';
}
