/**
 * An allowed domain whose add may have been lost: it is added once, looked for after a failure
 * that may have added it, and added again only when it is not listed. An add that is still
 * unknown when the create gives up is adopted by the next create, never added a second time.
 */
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRemote } from '../../../src/kernel/errors.js';
import { antiDdosAllowedDomain } from '../../../src/resources/cloud/anti-ddos-allowed-domain.js';
import { antiDdosInstance } from '../../../src/resources/cloud/anti-ddos-instance.js';
import { startHarness, type Harness } from '../../support/cloud-harness.js';

let h: Harness;
let instanceId: string;
beforeAll(async () => {
  h = await startHarness();
  const inputs = z.parse(antiDdosInstance.inputs, { area: 'EastChina', dataCenter: 'Taizhou', bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 30 });
  instanceId = (await antiDdosInstance.create(h.resourceCtx('shield'), inputs)).id;
});
afterAll(async () => h.close());

/** Actions sent since the log was cleared, each with the status it got (0: no answer). */
async function sent(action: string): Promise<number[]> {
  const calls = (await (await h.admin('calls?provider=cloud', 'GET')).json()) as Array<{ query: { Action?: string }; status: number }>;
  return calls.filter((c) => c.query.Action === action).map((c) => c.status);
}

/** The entries of the instance's allow list for one domain. */
async function entries(domain: string): Promise<Array<{ Domain: string; Remark?: string }>> {
  const body = await h.client.call<{ DomainList?: Array<{ Domain: string; Remark?: string }> }>('GetNapAllowListDomain', { ResourceId: instanceId });
  return (body.DomainList ?? []).filter((d) => d.Domain === domain);
}

async function withFaults<T>(next: unknown[], run: () => Promise<T>): Promise<T> {
  await h.clearCalls();
  await h.admin('faults', 'POST', { provider: 'cloud', next });
  try {
    return await run();
  } finally {
    await h.admin('faults', 'DELETE');
  }
}

const ADD = 'Action=AddNapAllowListDomain';

describe('an allowed domain whose add gets no answer', () => {
  const cases: Array<[string, Record<string, unknown>, number[]]> = [
    ['its answer lost after it was carried out: added once', { match: ADD, drop: 'reply' }, [0]],
    ['its connection closed before it was handled: added again only after finding nothing', { match: ADD, drop: 'request' }, [0, 200]],
    ['answered 500 without being handled: added again only after finding nothing', { match: ADD, status: 500 }, [500, 200]],
  ];
  cases.forEach(([name, fault, adds], i) => {
    it(name, async () => {
      const domain = `lost-${i}.com`;
      const created = await withFaults([fault], () => antiDdosAllowedDomain.create(h.resourceCtx('site'), { instanceId, domain, comment: 'shop' }));
      expect(await sent('AddNapAllowListDomain')).toEqual(adds);
      expect(created).toMatchObject({ id: `${instanceId}/${domain}`, outputs: { status: 'Success', comment: 'shop' } });
      expect(await entries(domain)).toEqual([expect.objectContaining({ Domain: domain, Remark: 'shop' })]);
    });
  });

  it('whose check fails too: the create is left unknown, and the next create adopts the entry without a second add', async () => {
    const domain = 'lost-unknown.com';
    const list = 'Action=GetNapAllowListDomain';
    // The look-up before the add passes (a fault of nothing); the four sends of the check fail.
    const next = [{ match: list }, { match: ADD, drop: 'reply' }, ...Array.from({ length: 4 }, () => ({ match: list, status: 503 }))];
    const failure = await withFaults(next, () => antiDdosAllowedDomain.create(h.resourceCtx('site'), { instanceId, domain, comment: 'shop' })).catch((err: unknown) => err);
    // Unavailable: the engine keeps the create pending and settles it on the next plan.
    expect(isRemote(failure, 'unavailable')).toBe(true);
    expect(await sent('AddNapAllowListDomain')).toEqual([0]);
    await h.clearCalls();
    const again = await antiDdosAllowedDomain.create(h.resourceCtx('site'), { instanceId, domain, comment: 'shop' });
    expect(await sent('AddNapAllowListDomain')).toEqual([]);
    expect(again.outputs).toMatchObject({ status: 'Success', comment: 'shop' });
    expect(await entries(domain)).toHaveLength(1);
  });
});
