import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffInputs, pathMatches } from '../../src/engine/diff/diff.js';
import type { ProviderDef } from '../../src/providers/provider.js';
import type { ResourceContext, ResourceType } from '../../src/resources/handler.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';

/** What a resource type's lifecycle test needs to know about it. */
export interface LifecycleSpec<In, Env = unknown> {
  type: ResourceType<In>;
  provider: ProviderDef;
  /** Provider settings (defaults applied by the provider's schema). */
  settings?: Record<string, unknown>;
  /** Creates what the resource needs first (a port for a VXC...) and returns it. */
  setup?(ctx: (address: string) => Promise<ResourceContext>): Promise<Env>;
  /** Inputs to create with. */
  create(env: Env): In;
  /** Inputs that differ only in fields changed in place. */
  update(env: Env): In;
  /** Inputs that differ in a field that forces replacement (omit when nothing does). */
  replace?(env: Env): In;
  /** Checks that the observed outputs reflect the inputs. */
  reflects(outputs: Record<string, unknown>, inputs: In): void;
  /** The import id of a created object (default: its id). */
  importId?(id: string, outputs: Record<string, unknown>): string;
  /** A malformed import id, when the type has an import format. */
  badImportId?: string;
}

/**
 * The lifecycle every resource type passes against its sandbox, over real HTTP: create, read,
 * update in place, replacement (classified by the type's own rules, then delete + create),
 * delete, delete of an already-deleted object, and import.
 */
export function describeLifecycle<In, Env>(spec: LifecycleSpec<In, Env>): void {
  describe(`${spec.type.token} lifecycle`, () => {
    let sandbox: Sandbox;
    let env: Env;
    const log = pino({ level: 'silent' });
    const ctx = async (address: string): Promise<ResourceContext> => {
      const settings = spec.provider.settings.parse(spec.settings ?? {});
      const client = await spec.provider.connect(settings, { sandboxUrl: async () => sandbox.url, log, env: {} });
      return {
        client,
        settings,
        log,
        address,
        project: 'lifecycle',
        stack: 'lifecycle',
        operationToken: `token-${address}-${Math.random().toString(36).slice(2)}`,
        waitTimeMs: 30_000,
        progress: () => {},
        warn: () => {},
        recordId: () => {},
        shared: (_key, make) => make(),
      };
    };
    beforeAll(async () => {
      sandbox = await startSandbox({ provisioningMs: 0 });
      env = spec.setup ? await spec.setup(ctx) : (undefined as Env);
    });
    afterAll(async () => sandbox.close());

    it('creates, reads, updates in place, deletes, and deletes again', async () => {
      const c = await ctx('subject');
      const inputs = spec.create(env);
      const created = await spec.type.create(c, inputs);
      expect(created.id).toBeTruthy();
      const read = (await spec.type.read(c, created.id, { inputs, outputs: created.outputs })) as Record<string, unknown>;
      expect(read).toBeDefined();
      spec.reflects(read, inputs);

      const changed = spec.update(env);
      const diff = diffInputs(inputs as Record<string, unknown>, changed as Record<string, unknown>);
      expect(diff.changed.length).toBeGreaterThan(0);
      expect(diff.changed.filter((p) => spec.type.replaceOn.some((r) => pathMatches(p, r.path)))).toEqual([]);
      const updated = await spec.type.update(c, created.id, { inputs, outputs: created.outputs }, changed);
      spec.reflects(updated as Record<string, unknown>, changed);
      spec.reflects((await spec.type.read(c, created.id)) as Record<string, unknown>, changed);

      await spec.type.delete(c, created.id, { inputs: changed, outputs: updated });
      expect(await spec.type.read(c, created.id)).toBeUndefined();
      await spec.type.delete(c, created.id, { inputs: changed, outputs: updated });
    });

    if (spec.replace) {
      it('a replace-forcing change is classified by the type\'s rules, and the replacement lives', async () => {
        const c = await ctx('replaced');
        const inputs = spec.create(env);
        const first = await spec.type.create(c, inputs);
        const next = spec.replace!(env);
        const diff = diffInputs(inputs as Record<string, unknown>, next as Record<string, unknown>);
        const forced = [
          ...diff.changed.filter((p) => spec.type.replaceOn.some((r) => pathMatches(p, r.path))),
          ...(spec.type.replaceWhen?.(inputs, next) ?? []).map((d) => d.path),
        ];
        expect(forced.length).toBeGreaterThan(0);
        if (spec.type.deleteBeforeReplace) await spec.type.delete(c, first.id, { inputs, outputs: first.outputs });
        const second = await spec.type.create(await ctx('replaced'), next);
        if (!spec.type.deleteBeforeReplace) await spec.type.delete(c, first.id, { inputs, outputs: first.outputs });
        expect(second.id).not.toBe(first.id);
        expect(await spec.type.read(c, first.id)).toBeUndefined();
        spec.reflects((await spec.type.read(c, second.id)) as Record<string, unknown>, next);
        await spec.type.delete(c, second.id, { inputs: next, outputs: second.outputs });
      });
    }

    it('imports an existing object by its import id', async () => {
      const c = await ctx('imported');
      const inputs = spec.create(env);
      const created = await spec.type.create(c, inputs);
      const raw = spec.importId ? spec.importId(created.id, created.outputs as Record<string, unknown>) : created.id;
      const id = spec.type.importId ? spec.type.importId.parse(raw) : raw;
      const read = (await spec.type.read(c, id)) as Record<string, unknown>;
      expect(read).toBeDefined();
      spec.reflects(read, inputs);
      if (spec.badImportId !== undefined) expect(() => spec.type.importId!.parse(spec.badImportId!)).toThrow(spec.type.importId!.format);
      await spec.type.delete(c, id, { inputs, outputs: read });
    });
  });
}
