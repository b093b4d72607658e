/**
 * The generated lifecycle suite (tests/support/generated-lifecycle.ts) can fail: a type whose
 * handlers lie to the plan is caught by what the world shows. Each case breaks one handler of a
 * registered type (the very object the engine loads) for one cycle, and expects the cycle to name
 * what went wrong; the same cycle with the handler intact passes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceType } from '../../src/engine/contracts/resource-type.js';
import { loadResourceTypes } from '../../src/cli/catalog.js';
import { runVariation } from '../support/generated-cycle.js';
import { TypeWorld } from '../support/generated-type.js';
import { fieldVariations, type Variation } from '../support/generated-variations.js';
import { cloudLifecycle } from './cloud/specs.js';

const TOKEN = 'cloud:index/eip:Eip';
const type = (await loadResourceTypes(['cloud'])).get(TOKEN) as ResourceType<any, any>;
const spec = cloudLifecycle.specs.find((s) => s.type.token === TOKEN)!;

/** Runs one cycle of the variation with one of the type's handlers replaced, then restores it. */
async function withHandler<K extends 'update' | 'delete' | 'read'>(key: K, handler: ResourceType<any, any>[K], run: () => Promise<unknown>): Promise<unknown> {
  const original = type[key];
  type[key] = handler;
  try {
    return await run();
  } finally {
    type[key] = original;
  }
}

describe('the generated lifecycle suite catches a type that lies', () => {
  const t = new TypeWorld(cloudLifecycle, spec);
  let bandwidth: Variation;
  let internetType: Variation;
  beforeAll(async () => {
    await t.start();
    await t.baseline();
    const variation = (field: string) => fieldVariations(field, t.varyContext()).variations.find((v) => v.kind === 'change')!;
    [bandwidth, internetType] = [variation('bandwidth'), variation('internetType')];
  });
  afterAll(() => t.stop());

  it('the cycles pass with the handlers as they are', async () => {
    await expect(runVariation(t, bandwidth)).resolves.toMatchObject({ planned: 'update', seen: 'world' });
    await expect(runVariation(t, internetType)).resolves.toMatchObject({ planned: 'replace create-first', seen: 'world' });
  });

  it('an update that sends nothing, yet reports the change made', async () => {
    const error = await withHandler(
      'update',
      async (_ctx, _id, prior, desired) => ({ ...prior.outputs, bandwidth: desired.bandwidth }),
      () => runVariation(t, bandwidth).catch((e: Error) => e),
    );
    expect(String(error)).toMatch(/the update sent nothing/);
    // It recorded the change as made; the next refresh reads what the API has.
    expect(String(error)).toMatch(/after the change, the next plan still updates subject: \/bandwidth/);
    expect(String(error)).toMatch(/after the change, drift exits 2: bandwidth/);
  });

  it('a delete that leaves the object in the world', async () => {
    const error = await withHandler(
      'delete',
      async () => {},
      () => runVariation(t, internetType).catch((e: Error) => e),
    );
    expect(String(error)).toMatch(/the replaced object is still in the world/);
    expect(String(error)).toMatch(/after the destroy, the world still has/);
    // What the broken delete left behind goes, so that the next case starts from an empty world.
    await t.stack.apply(true);
  });

  it('an update that orders a second object instead of changing the first', async () => {
    const error = await withHandler(
      'update',
      async (ctx, _id, prior, desired) => {
        await type.create(ctx, desired);
        return { ...prior.outputs, bandwidth: desired.bandwidth };
      },
      () => runVariation(t, bandwidth).catch((e: Error) => e),
    );
    expect(String(error)).toMatch(/an update ordered an object/);
    expect(String(error)).toMatch(/after the destroy, the world has records it did not have before/);
  });
});
