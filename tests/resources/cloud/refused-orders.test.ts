/**
 * An order the cloud API refuses outright fails the apply at once and leaves nothing to wait for:
 * a BindEIP to a host that does not exist (4218) is sent once, no create is kept as one that may
 * have gone through, and the next apply, with the host fixed, binds at once. Judged by the calls
 * the sandbox took and by its world (the EIP bound to the host).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callText, takeCalls } from '../../support/generated-calls.js';
import { TypeWorld } from '../../support/generated-type.js';
import { eipAssociationSpec } from './network-specs.js';
import { cloudLifecycle } from './specs.js';

const t = new TypeWorld(cloudLifecycle, eipAssociationSpec);
beforeAll(() => t.start());
afterAll(() => t.stop());

/** Resolves to an error once `ms` have passed, so an apply that waits on is a failure said in time. */
const within = <T>(ms: number, run: Promise<T>) => Promise.race([run, new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`did not end within ${ms / 1000} s`)), ms).unref())]);

it('a refused bind is sent once, keeps nothing pending, and the next apply binds at once', async () => {
  const { eipId, resourceId } = t.base as { eipId: string; resourceId: string };
  await takeCalls(t.sandbox, t.provider);
  t.stack.declare({ eipId, resourceId: 'uhost-0000dead' });
  const refused = await within(20_000, t.stack.apply());
  const binds = (await takeCalls(t.sandbox, t.provider)).map(callText).filter((c) => c.includes('Action=BindEIP'));
  expect('report' in refused && refused.report?.ok).toBe(false);
  expect(binds).toHaveLength(1);
  expect((await t.stack.state()).pending ?? []).toEqual([]);

  t.stack.declare(t.base);
  const bound = await within(20_000, t.stack.apply());
  expect('report' in bound && bound.report?.ok).toBe(true);
  const world = t.world();
  const eip = [...world.keys()].find((k) => k.startsWith('/eips/') && k.includes(eipId))!.replace(/\/[^/]+$/, '');
  expect(world.get(`${eip}/Status`)).toBe('used');
  expect(world.get(`${eip}/Resource/ResourceID`)).toBe(resourceId);
}, 60_000);
