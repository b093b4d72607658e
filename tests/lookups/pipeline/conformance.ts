/**
 * One conformance suite for every pipeline lookup, run against the sandbox over HTTP: the seeded
 * answer, paging across more than one page, a not-found id naming the lookup and id, a 429
 * retried after its Retry-After, and a doc string on every argument and result field.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { RemoteError } from '../../../src/errors.js';
import type { LookupFunction } from '../../../src/lookups/function.js';
import { clientFor, contextFor, pipelineSandbox, recordingSleep, type PipelineSandbox } from '../../support/pipeline-sandbox.js';

/** One lookup's case: the call, what its answer must hold, and which generic checks apply. */
export interface LookupCase {
  fn: LookupFunction;
  /** Arguments as the CLI would pass them (strings). */
  args: Record<string, unknown>;
  check(result: any): void;
  /** The paged API path (below the sandbox prefix) the lookup lists; checked with page size 2. */
  pagedPath?: string;
  /** Arguments naming an unknown object, and the error message expected. */
  notFound?: { args: Record<string, unknown>; message: string };
}

/** Paths of fields (in objects, arrays, records, nullable/optional wrappers) that lack a description. */
export function undocumented(schema: z.ZodType, path = ''): string[] {
  const def = (schema as unknown as { _zod: { def: Record<string, any> } })._zod.def;
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, field]) => [
        ...(field.description ? [] : [`${path}${key}`]),
        ...undocumented(field, `${path}${key}.`),
      ]);
    case 'array':
      return undocumented(def.element, `${path}[].`);
    case 'record':
      return undocumented(def.valueType, `${path}{}.`);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      return undocumented(def.innerType, path);
    case 'pipe':
      return undocumented(def.out, path);
    default:
      return [];
  }
}

/** Runs the conformance suite over a table of lookup cases. */
export function describeLookups(title: string, cases: LookupCase[]): void {
  describe(title, () => {
    let sandbox: PipelineSandbox;
    beforeAll(async () => (sandbox = await pipelineSandbox()));
    afterAll(async () => sandbox.close());
    beforeEach(async () => {
      await sandbox.throttle(0, 0);
      await sandbox.clearCalls();
    });

    for (const c of cases) {
      describe(c.fn.token, () => {
        it('documents every argument and result field', () => {
          expect(undocumented(c.fn.args)).toEqual([]);
          expect(undocumented(c.fn.result)).toEqual([]);
          expect(c.fn.description).toBeTruthy();
        });

        it('returns the seeded data in the result schema', async () => {
          const result = await c.fn.invoke(contextFor(clientFor(sandbox)), c.args);
          c.check(result);
          expect(c.fn.result.parse(result)).toEqual(result);
        });

        if (c.pagedPath) {
          it('pages across more than one page and loses nothing', async () => {
            const whole = await c.fn.invoke(contextFor(clientFor(sandbox)), c.args);
            await sandbox.clearCalls();
            const paged = await c.fn.invoke(contextFor(clientFor(sandbox, { pageSize: 2 })), c.args);
            const pages = (await sandbox.calls()).filter((call) => call.path === c.pagedPath);
            expect(pages.length).toBeGreaterThan(1);
            expect(pages.every((call) => call.query.limit === '2')).toBe(true);
            expect(paged).toEqual(whole);
          });
        }

        if (c.notFound) {
          const notFound = c.notFound;
          it('names the lookup and the id when the object does not exist', async () => {
            const err = await c.fn.invoke(contextFor(clientFor(sandbox)), notFound.args).then(
              () => undefined,
              (e: unknown) => e,
            );
            expect(err).toBeInstanceOf(RemoteError);
            expect((err as RemoteError).kind).toBe('not-found');
            expect((err as RemoteError).message).toBe(notFound.message);
          });
        }

        it('retries a 429 after the Retry-After it was given', async () => {
          const expected = await c.fn.invoke(contextFor(clientFor(sandbox)), c.args);
          await sandbox.clearCalls();
          await sandbox.throttle(1, 2);
          const { sleep, waits } = recordingSleep();
          const result = await c.fn.invoke(contextFor(clientFor(sandbox, { retry: { sleep } })), c.args);
          expect(waits).toEqual([2000]);
          expect(result).toEqual(expected);
          expect((await sandbox.calls())[0].status).toBe(429);
        });

        it('carries its token and provider', () => {
          expect(c.fn.token).toMatch(/^pipeline:index\/(get[A-Z]\w+):\1$/);
          expect(c.fn.provider).toBe('pipeline');
        });
      });
    }
  });
}
