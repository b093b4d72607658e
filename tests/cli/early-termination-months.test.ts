/**
 * The months left of a term, as an early termination charges them: whole calendar months back from
 * the term's end, a part month counted as a whole one, month ends kept (a month back from 31 March
 * is the last day of February).
 */
import { describe, expect, it } from 'vitest';
import { addMonths, monthsLeft } from '../../src/cli/early-termination.js';

const at = (iso: string) => new Date(iso);

describe('addMonths keeps the day within the month', () => {
  it.each([
    ['a day every month has moves as it is', '2026-05-15T10:00:00Z', 1, '2026-06-15T10:00:00.000Z'],
    ['31 January + 1 month is the last day of February', '2027-01-31T00:00:00Z', 1, '2027-02-28T00:00:00.000Z'],
    ['in a leap year, 29 February', '2028-01-31T00:00:00Z', 1, '2028-02-29T00:00:00.000Z'],
    ['31 March − 1 month is the last day of February', '2027-03-31T12:00:00Z', -1, '2027-02-28T12:00:00.000Z'],
    ['across a year back', '2027-01-15T00:00:00Z', -2, '2026-11-15T00:00:00.000Z'],
    ['across a year forward', '2026-11-30T00:00:00Z', 3, '2027-02-28T00:00:00.000Z'],
  ])('%s', (_why, from, months, want) => {
    expect(addMonths(at(from), months).toISOString()).toBe(want);
  });
});

describe('monthsLeft counts a part month as a whole one', () => {
  it.each([
    ['the example: 29 November to 1 May is 5 months and 2 days, so 6', '2026-11-29T03:00:00Z', '2027-05-01T00:00:00Z', 6],
    ['a term just begun has all its months left', '2026-11-29T03:00:01Z', '2027-11-29T03:00:00Z', 12],
    ['exactly a whole number of months', '2026-11-29T03:00:00Z', '2027-11-29T03:00:00Z', 12],
    ['one second past a month boundary starts a part month', '2026-12-29T03:00:01Z', '2027-11-29T03:00:00Z', 11],
    ['a few hours left is a month', '2027-11-28T22:00:00Z', '2027-11-29T03:00:00Z', 1],
    ['an ended term has none', '2027-11-29T03:00:00Z', '2027-11-29T03:00:00Z', 0],
    ['a term past its end has none', '2028-01-01T00:00:00Z', '2027-11-29T03:00:00Z', 0],
    ['a term ending on the 31st: 30 April back to 31 January is 9 months exactly', '2026-04-30T00:00:00Z', '2027-01-31T00:00:00Z', 9],
    ['a term ending on the last of February: from 31 January, one month', '2027-01-31T00:00:00Z', '2027-02-28T00:00:00Z', 1],
    ['a term ending on 31 March: from 28 February, one month exactly (the month back ends on the 28th)', '2027-02-28T00:00:00Z', '2027-03-31T00:00:00Z', 1],
    ['a term ending on 30 March: from 28 February, one month (February has no 30th: its month ends on the 28th)', '2027-02-28T00:00:00Z', '2027-03-30T00:00:00Z', 1],
    ['a term ending on 30 March: from 27 February, a month and a day, so 2', '2027-02-27T00:00:00Z', '2027-03-30T00:00:00Z', 2],
  ])('%s', (_why, now, ends, want) => {
    expect(monthsLeft(at(now), at(ends))).toBe(want);
  });
});
