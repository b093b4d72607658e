/**
 * The lookup conformance suite, run by tests/lookups/conformance.test.ts for every function in
 * src/cli/catalog.ts against the sandbox over HTTP: its doc strings, its token, the answer
 * its spec expects (in its result schema), a 429 waited out with the same answer, paging that
 * loses nothing and a not-found naming the lookup where its spec says so.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { RemoteError } from '../../src/kernel/errors.js';
import type { LookupContext, LookupFunction } from '../../src/engine/contracts/lookup.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';

/** One function's spec: a call the sandbox's seed answers, and what that answer must hold. */
export interface LookupSpec {
  fn: LookupFunction;
  /** Arguments as a manifest gives them (parsed by the function's argument schema); given the seeded ids where a function needs them. */
  args: Record<string, unknown> | ((seeded: Seeded) => Record<string, unknown>);
  check(result: any): void;
  /** Part of the paged call (`METHOD /path {query}`): with a page size of 2 it is made more than once and nothing is lost. */
  pagedPath?: string;
  /** Arguments naming an unknown object, and the message the not-found error must carry. */
  notFound?: { args: LookupSpec['args']; message: string };
}

/** Ids of the objects a provider's `seed` made, by name. */
export type Seeded = Record<string, string>;

/** A provider's lookup specs, and how a client of it reaches the sandbox. */
export interface ProviderLookupSpecs {
  provider: string;
  /** The spec file, named when a function lacks a spec. */
  file: string;
  /** A client and settings against the sandbox at `url`; `pageSize` where the provider pages. */
  connect(url: string, options: { pageSize?: number }): Promise<{ client: unknown; settings: unknown }>;
  /** Objects to make before the suite, beyond the sandbox's own seed. */
  seed?(url: string): Promise<Seeded>;
  specs: LookupSpec[];
}

/** One call the sandbox logged. */
interface Call {
  method: string;
  path: string;
  query: Record<string, unknown>;
  status: number;
}

/** Paths of fields (in objects, arrays, records, nullable/optional wrappers) that lack a description. */
export function undocumented(schema: z.ZodType, path = ''): string[] {
  const def = (schema as unknown as { _zod: { def: Record<string, any> } })._zod.def;
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, field]) => [...(field.description ? [] : [`${path}${key}`]), ...undocumented(field, `${path}${key}.`)]);
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

const log = pino({ level: 'silent' });

/** Runs the conformance suite for each of a provider's specs given, against one sandbox. */
export function describeLookups(owner: ProviderLookupSpecs, specs: LookupSpec[]): void {
  describe(`${owner.provider} lookups`, () => {
    let sandbox: Sandbox;
    let seeded: Seeded = {};
    const workDir = mkdtempSync(join(tmpdir(), 'plumb-lookup-'));
    const admin = (method: string, name: string, body?: unknown) =>
      fetch(`${sandbox.url}/_sandbox/${name}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const calls = async () => (await (await admin('GET', `calls?provider=${owner.provider}`)).json()) as Call[];
    const invoke = async (fn: LookupFunction, args: LookupSpec['args'], options: { pageSize?: number } = {}) => {
      const { client, settings } = await owner.connect(sandbox.url, options);
      const ctx: LookupContext = { client, settings, log, warn: () => undefined, workDir };
      return fn.invoke(ctx, fn.args.parse(typeof args === 'function' ? args(seeded) : args));
    };

    beforeAll(async () => {
      sandbox = await startSandbox({ provisioningMs: 0 });
      seeded = (await owner.seed?.(sandbox.url)) ?? {};
    });
    afterAll(async () => sandbox.close());
    beforeEach(async () => {
      await admin('DELETE', 'faults');
      await admin('DELETE', 'calls');
    });

    for (const spec of specs) describeLookup(owner, spec, { admin, calls, invoke });
  });
}

/** What one function's tests reach the sandbox through. */
interface SuiteWorld {
  admin(method: string, name: string, body?: unknown): Promise<Response>;
  calls(): Promise<Call[]>;
  invoke(fn: LookupFunction, args: LookupSpec['args'], options?: { pageSize?: number }): Promise<unknown>;
}

/** The conformance tests of one function. */
function describeLookup(owner: ProviderLookupSpecs, spec: LookupSpec, { admin, calls, invoke }: SuiteWorld): void {
  const { fn } = spec;
  describe(fn.token, () => {
    it('carries a description, its provider and a token of its provider', () => {
      expect(fn.description).toBeTruthy();
      expect(fn.provider).toBe(owner.provider);
      expect(fn.token.startsWith(`${owner.provider}:`), fn.token).toBe(true);
    });

    it('documents every argument and result field', () => {
      expect(undocumented(fn.args)).toEqual([]);
      expect(undocumented(fn.result)).toEqual([]);
    });

    it('answers from the seed, in its result schema', async () => {
      const result = await invoke(fn, spec.args);
      const checked = fn.result.safeParse(result);
      expect(checked.success, checked.success ? '' : JSON.stringify(checked.error.issues.slice(0, 3))).toBe(true);
      spec.check(result);
    });

    it('waits out a 429 and gives the same answer', async () => {
      const expected = await invoke(fn, spec.args);
      const made = (await calls()).length;
      await admin('DELETE', 'calls');
      await admin('POST', 'faults', { provider: owner.provider, next: [{ match: '', status: 429, retryAfter: '0' }] });
      expect(await invoke(fn, spec.args)).toEqual(expected);
      // A function that calls nothing (a provider method) never meets the fault.
      expect((await calls()).filter((call) => call.status === 429)).toHaveLength(made > 0 ? 1 : 0);
    });

    if (spec.pagedPath) {
      const part = spec.pagedPath;
      it('pages across more than one page and loses nothing', async () => {
        const whole = await invoke(fn, spec.args);
        await admin('DELETE', 'calls');
        const paged = await invoke(fn, spec.args, { pageSize: 2 });
        const pages = (await calls()).filter((call) => `${call.method} ${call.path} ${JSON.stringify(call.query)}`.includes(part));
        expect(pages.length).toBeGreaterThan(1);
        expect(paged).toEqual(whole);
      });
    }

    if (spec.notFound) {
      const notFound = spec.notFound;
      it('names the lookup and the id when the object does not exist', async () => {
        const err = await invoke(fn, notFound.args).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(RemoteError);
        expect((err as RemoteError).kind).toBe('not-found');
        expect((err as RemoteError).message).toBe(notFound.message);
      });
    }
  });
}
