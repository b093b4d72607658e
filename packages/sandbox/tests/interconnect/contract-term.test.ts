/** A product's contract ends its term's months after it starts, on the month's last day when that month is shorter (as billing months run). */
import { describe, expect, it } from 'vitest';
import { addMonths } from '../../src/interconnect/store.js';

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
