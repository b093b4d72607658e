/**
 * What a change does to a recorded object's term, as the plan's cost says it: which changes cut a
 * term short (a delete, a replace), which do not (an update, a delete that only forgets, a term
 * ended or none), and one cancelled at the end of its term instead. The interconnect types that
 * carry a contract end all report it, and every priced one names its price call.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { termCut } from '../../src/cli/early-termination.js';
import { loadResourceTypes } from '../../src/cli/catalog.js';
import type { Cost, ResourceType } from '../../src/engine/contracts/resource-type.js';
import type { ResourceState } from '../../src/engine/contracts/state.js';
import type { Change, EngineDeps } from '../../src/engine/types.js';
import type { Price } from '../../src/cli/cost.js';

const NOW = new Date('2026-11-29T03:00:00Z');
const TOKEN = 'interconnect:index/port:Port';

/** A type with a term as the fake's cost says, and a provider whose settings are `settings`. */
function depsWith(cost: Partial<Extract<Cost, { quote: unknown }>>, settings: Record<string, unknown> = {}): EngineDeps {
  const type = { token: TOKEN, provider: 'interconnect', cost: { quote: () => Promise.reject(new Error('not asked')), ...cost } } as unknown as ResourceType;
  return {
    resourceType: (t: string) => (t === TOKEN ? type : undefined),
    connect: () => Promise.resolve({ settings }),
  } as unknown as EngineDeps;
}

const recorded = (outputs: Record<string, unknown>): ResourceState => ({ address: 'port', type: TOKEN, id: 'p-1', inputs: {}, outputs }) as unknown as ResourceState;
const change = (action: string, extra: Partial<Change> = {}): Change => ({ address: 'port', type: TOKEN, action, ...extra }) as unknown as Change;
const priced: Price = { monthly: 500, oneOff: 0, currency: 'USD' };
const ends = '2027-05-01T00:00:00.000Z';
const term = { termEnds: (o: Record<string, unknown>) => o.contractEndDate as string | undefined };

describe('termCut', () => {
  it.each([
    ['a delete before the term ends pays the months left at the monthly price', change('delete'), priced, term, {}, { earlyTermination: { ends, monthsLeft: 6, amount: 3000, currency: 'USD' } }],
    ['a replace deletes the recorded object, so it pays the same', change('replace'), priced, term, {}, { earlyTermination: { ends, monthsLeft: 6, amount: 3000, currency: 'USD' } }],
    ['a price that cannot be had leaves the amount out, never a zero', change('delete'), { unavailable: 'the price call failed' }, term, {}, { earlyTermination: { ends, monthsLeft: 6 } }],
    ['an update keeps the object and its term', change('update'), priced, term, {}, {}],
    ['a delete that only forgets (retainOnDelete) cuts nothing', change('delete', { retain: true }), priced, term, {}, {}],
    ['a type without a term has nothing to cut', change('delete'), priced, {}, {}, {}],
    [
      'cancelled at the end of its term, it stays live and billed until then',
      change('delete'),
      priced,
      { ...term, cancelsAtTermEnd: (s: Record<string, unknown>) => s.cancelAtEndOfTerm === true },
      { cancelAtEndOfTerm: true },
      { staysLiveUntil: ends },
    ],
    [
      'a provider that cancels now charges the rest of the term',
      change('delete'),
      priced,
      { ...term, cancelsAtTermEnd: (s: Record<string, unknown>) => s.cancelAtEndOfTerm === true },
      { cancelAtEndOfTerm: false },
      { earlyTermination: { ends, monthsLeft: 6, amount: 3000, currency: 'USD' } },
    ],
  ])('%s', async (_why, c, before, cost, settings, want) => {
    expect(await termCut(c, recorded({ contractEndDate: ends }), before, depsWith(cost, settings), NOW)).toEqual(want);
  });

  it('a term already ended has nothing left to pay', async () => {
    expect(await termCut(change('delete'), recorded({ contractEndDate: '2026-11-01T00:00:00.000Z' }), priced, depsWith(term), NOW)).toEqual({});
  });
});

describe('interconnect types and their terms', async () => {
  const types = [...(await loadResourceTypes(['interconnect'])).values()];
  const outputKeys = (t: ResourceType) => (t.outputs instanceof z.ZodObject ? Object.keys(t.outputs.shape) : []);

  it.each(types.filter((t) => outputKeys(t).includes('contractEndDate')).map((t) => [t.token, t] as const))('%s reports when its term ends', (_token, t) => {
    expect(t.cost && 'quote' in t.cost && typeof t.cost.termEnds).toBe('function');
  });

  it.each(types.filter((t) => t.cost && 'quote' in t.cost).map((t) => [t.token, t] as const))('%s names the call that prices it', (_token, t) => {
    expect(t.cost && 'source' in t.cost && t.cost.source).toBe('POST /v4/pricebook/product');
  });

  it('a month-to-month product has no term to pay off; a 12-month one ends when the API says', async () => {
    const port = types.find((t) => t.token === TOKEN)!;
    const termEnds = (port.cost as { termEnds(o: unknown): string | undefined }).termEnds;
    expect(termEnds({ contractTermMonths: 1, contractEndDate: ends })).toBeUndefined();
    expect(termEnds({ contractTermMonths: 12, contractEndDate: ends })).toBe(ends);
    expect(termEnds({ contractTermMonths: 12 })).toBeUndefined();
  });
});
