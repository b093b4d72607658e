/**
 * The plan refuses, before any order, what the MVE images list already says the API refuses: an
 * image id that does not exist, a vendor that is not the image's. Each case is judged against the
 * world: the sandbox refuses the order exactly when the check does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrossCheckView, StackResource } from '../../../src/engine/contracts/resource-type.js';
import { getLocations } from '../../../src/lookups/interconnect/get-locations.js';
import { getMveImages } from '../../../src/lookups/interconnect/get-mve-images.js';
import { getMveSizes } from '../../../src/lookups/interconnect/get-mve-sizes.js';
import { mve } from '../../../src/resources/interconnect/mve.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';
import { interconnectContext, lookupContext } from '../../support/interconnect-context.js';
import { crossCheckView } from '../../support/cross-check-view.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ provisioningMs: 0 });
});
afterAll(() => sandbox.close());

/** The view a plan gives the check of one MVE, its lookups answered by the sandbox; `reads` counts them. */
async function viewOf(subject: StackResource, reads: string[] = []): Promise<CrossCheckView> {
  return crossCheckView(subject, { ctx: await lookupContext(sandbox.url), lookups: [getLocations, getMveSizes, getMveImages], reads });
}

const mveWith = (vendor: string, imageId: number) => ({ productName: 'image', locationId: 2, contractTermMonths: 1, vendorConfig: { vendor, imageId, productSize: 'SMALL' } });

type Case = [why: string, vendor: string, imageId: number, refused: Array<[path: string, message: RegExp]>];

const cases: Case[] = [
  ["the image's vendor by name", 'Cisco', 83, []],
  ["the image's vendor by its key", 'PALO_ALTO', 0, []],
  ['another vendor than the image', 'Fortinet', 83, [['vendorConfig.vendor', /^image 83 \(.*\) is a Cisco image, not Fortinet$/]]],
  ['an image id that does not exist', 'Cisco', 99999, [['vendorConfig.imageId', /^no MVE image has id 99999$/]]],
];

describe("an MVE's image and vendor, checked before any order and judged against the world", () => {
  it.each(cases)('%s', async (_why, vendor, id, refused) => {
    // Image 0 stands for the first Palo Alto Networks image the list has.
    const paloAlto = ((await getMveImages.invoke(await lookupContext(sandbox.url), { vendorFilter: 'Palo Alto Networks' })) as { mveImages: Array<{ id: number }> }).mveImages[0].id;
    const inputs = mveWith(vendor, id || paloAlto);
    const problems = await mve.crossCheck!(inputs as never, await viewOf({ address: 'subject', token: mve.token, desired: inputs }));
    expect(problems.map((p) => p.path.join('.'))).toEqual(refused.map(([path]) => path));
    refused.forEach(([, message], i) => expect(problems[i].message).toMatch(message));
    const ctx = { ...(await interconnectContext(sandbox.url, 'subject', 1000)), recordId: (uid: string) => void accepted.push(uid) };
    const accepted: string[] = [];
    const failure = await mve.create(ctx, inputs as never).then(
      () => undefined,
      (err: Error) => err.message,
    );
    if (refused.length) expect([accepted, failure]).toEqual([[], expect.stringMatching(/Validation failed/)]);
    else expect(accepted).toHaveLength(1);
  });

  it('reads no image list for an MVE state records with the same image and vendor', async () => {
    const reads: string[] = [];
    const inputs = mveWith('Fortinet', 83);
    const recorded = { address: 'subject', token: mve.token, desired: inputs, recorded: { id: 'm-1', inputs, outputs: {} } };
    expect(await mve.crossCheck!(inputs as never, await viewOf(recorded, reads))).toEqual([]);
    expect(reads).not.toContain(getMveImages.token);
  });
});
