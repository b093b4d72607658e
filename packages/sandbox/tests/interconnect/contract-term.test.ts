/** A product's contract runs its term's months from the order and renews for as long again at each end; a month end falls on the month's last day when that month is shorter (as billing months run). */
import { describe, expect, it } from 'vitest';
import { addMonths, currentTerm } from '../../src/interconnect/store.js';

const iso = (ts: number) => new Date(ts).toISOString();

describe('contract months', () => {
  it.each([
    ['a day every month has', '2026-05-15T10:00:00.000Z', 12, '2027-05-15T10:00:00.000Z'],
    ['31 January + 1 month is 28 February, not 3 March', '2027-01-31T00:00:00.000Z', 1, '2027-02-28T00:00:00.000Z'],
    ['29 February + 12 months is 28 February', '2028-02-29T00:00:00.000Z', 12, '2029-02-28T00:00:00.000Z'],
    ['31 August + 1 month is 30 September', '2026-08-31T08:00:00.000Z', 1, '2026-09-30T08:00:00.000Z'],
  ])('%s', (_why, from, months, want) => {
    expect(iso(addMonths(Date.parse(from), months))).toBe(want);
  });
});

describe('the term a product reports', () => {
  const order = { createDate: Date.parse('2025-01-31T00:00:00.000Z'), term: 12 };
  it.each([
    ['its first term, while it runs', '2025-06-01T00:00:00.000Z', '2025-01-31T00:00:00.000Z', '2026-01-31T00:00:00.000Z'],
    ['the renewed term once the first has ended (the same length again)', '2026-02-01T00:00:00.000Z', '2026-01-31T00:00:00.000Z', '2027-01-31T00:00:00.000Z'],
    ['at the very end of a term, the next one', '2026-01-31T00:00:00.000Z', '2026-01-31T00:00:00.000Z', '2027-01-31T00:00:00.000Z'],
  ])('%s', (_why, now, start, end) => {
    const term = currentTerm(order, Date.parse(now));
    expect([iso(term.start), iso(term.end)]).toEqual([start, end]);
  });
});
