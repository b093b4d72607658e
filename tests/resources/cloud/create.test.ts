/**
 * createAndWait, the create the cloud types share: a create whose answer is lost after it was
 * carried out is answered with what the type's findOwned finds, with the id where the Action's
 * answer holds it (a field, the first item of a list, a field of that item), and sent once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disk } from '../../../src/resources/cloud/disk.js';
import { eip } from '../../../src/resources/cloud/eip.js';
import { vpc } from '../../../src/resources/cloud/vpc.js';
import { ZONE } from './compute-specs.js';
import { startHarness, type Harness } from '../../support/cloud-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

/** The statuses the create Action got (0: its answer was dropped). */
async function sent(action: string): Promise<number[]> {
  const calls = (await (await h.admin('calls?provider=cloud', 'GET')).json()) as Array<{ query: { Action?: string }; status: number }>;
  return calls.filter((c) => c.query.Action === action).map((c) => c.status);
}

describe('a create whose answer is lost after it was carried out', () => {
  const cases: Array<[string, string, () => Promise<{ id: string; outputs: { name: string } }>]> = [
    ['a VPC, whose id is a field of the answer (VPCId)', 'CreateVPC', () => vpc.create(h.resourceCtx('net'), { name: 'lost-vpc', cidrBlocks: ['10.30.0.0/16'] })],
    ['a disk, whose id is the first of a list (UDiskId[0])', 'CreateUDisk', () => disk.create(h.resourceCtx('data'), { availabilityZone: ZONE, size: 20, name: 'lost-disk' })],
    ['an EIP, whose id is a field of the first of a list (EIPSet[0].EIPId)', 'AllocateEIP', () => eip.create(h.resourceCtx('ip'), { name: 'lost-eip', internetType: 'bgp', bandwidth: 2 })],
  ];
  for (const [name, action, create] of cases) {
    it(`${name}: is sent once, and answers with the object it made`, async () => {
      await h.clearCalls();
      await h.admin('faults', 'POST', { provider: 'cloud', next: [{ match: `Action=${action}`, drop: 'reply' }] });
      try {
        const made = await create();
        expect(await sent(action)).toEqual([0]);
        expect(made.id).toMatch(/^[a-z]+-[A-Za-z0-9]+$/);
        expect(made.outputs.name).toMatch(/^lost-/);
      } finally {
        await h.admin('faults', 'DELETE');
      }
    });
  }
});
