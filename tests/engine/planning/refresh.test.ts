import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReadPass } from '../../../src/engine/applying/context.js';
import type { ResourceType } from '../../../src/engine/contracts/resource-type.js';
import type { PendingOperation, ResourceState, StateSnapshot } from '../../../src/engine/contracts/state.js';
import { detectDrift } from '../../../src/engine/planning/drift.js';
import { refreshState } from '../../../src/engine/planning/refresh.js';
import { settlePending } from '../../../src/engine/applying/settle.js';
import type { EngineDeps } from '../../../src/engine/types.js';

/** A remote API of named things: one list call returns every thing of every kind, and each can be got by id. */
function fakeApi() {
  const things = new Map<string, { kind: string; name: string; gone?: boolean }>();
  const calls: string[] = [];
  return {
    things,
    calls,
    async list() {
      calls.push('list');
      return new Map([...things].filter(([, t]) => !t.gone));
    },
    async get(id: string) {
      calls.push(`get ${id}`);
      const thing = things.get(id);
      return thing && !thing.gone ? thing : undefined;
    },
  };
}

type Api = ReturnType<typeof fakeApi>;

/** A type of `kind` whose read gets one thing and whose readMany (unless `alone`) uses the shared list; `listed` filters what the list shows. */
function thingType(api: Api, kind: string, opts: { alone?: boolean; listed?: (id: string) => boolean; failList?: boolean; warnFor?: string } = {}): ResourceType {
  const outputs = (t: { name: string }) => ({ name: t.name });
  return {
    token: `fake:index/${kind}:${kind}`,
    provider: 'fake',
    description: kind,
    inputs: z.object({ name: z.string() }),
    outputs: z.object({ name: z.string() }),
    replace: {
      on: [],
    },
    async create() {
      throw new Error('not used');
    },
    async read(_ctx, id) {
      const t = await api.get(id);
      return t && t.kind === kind ? outputs(t) : undefined;
    },
    async update() {
      throw new Error('not used');
    },
    async delete() {},
    ...(opts.alone
      ? {}
      : {
          async readMany(ctx, targets) {
            if (opts.failList) throw new Error('GET /things: 503 unavailable');
            const all = await ctx.shared('things', () => api.list());
            const found = new Map<string, { name: string }>();
            for (const target of targets) {
              const t = all.get(target.id);
              if (t && t.kind === kind && (opts.listed?.(target.id) ?? true)) found.set(target.id, outputs(t));
              if (target.id === opts.warnFor) target.warn('this one was moved');
            }
            return found;
          },
        }),
  } satisfies ResourceType;
}

function depsFor(...types: ResourceType[]): EngineDeps {
  // One connection per provider, as a session keeps it.
  const connection = { client: {}, settings: {} };
  return {
    project: 'p',
    stack: 's',
    log: pino({ level: 'silent' }),
    workDir: '/tmp',
    resourceType: (token) => types.find((t) => t.token === token),
    lookup: () => undefined,
    connect: async () => connection,
  };
}

function record(address: string, type: ResourceType, id: string, name = id): ResourceState {
  return { address, type: type.token, id, inputs: { name }, outputs: { name }, dependencies: [], status: 'ok' };
}

function stateOf(resources: ResourceState[], pending: PendingOperation[] = []): StateSnapshot {
  return { version: 1, stack: 's', lineage: 'l', serial: 1, resources: Object.fromEntries(resources.map((r) => [r.address, r])), outputs: {}, pending };
}

function seed(api: Api, kind: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const id = `${kind}-${i}`;
    api.things.set(id, { kind, name: id });
    return id;
  });
}

describe('refresh reads each type in bulk where it lists', () => {
  it('reads every object of a listing type with one list call and no read by id', async () => {
    const api = fakeApi();
    const ports = thingType(api, 'port');
    const ids = seed(api, 'port', 5);
    const refreshed = await refreshState(stateOf(ids.map((id) => record(id, ports, id))), depsFor(ports));
    expect(api.calls).toEqual(['list']);
    expect(Object.keys(refreshed.resources).sort()).toEqual(ids);
    expect(refreshed.gone).toEqual([]);
  });

  it('reads an object the list left out once by id before calling it gone: a list can lag', async () => {
    const api = fakeApi();
    const ports = thingType(api, 'port', { listed: (id) => id !== 'port-1' && id !== 'port-2' });
    const ids = seed(api, 'port', 3);
    api.things.get('port-2')!.gone = true;
    const refreshed = await refreshState(stateOf(ids.map((id) => record(id, ports, id))), depsFor(ports));
    expect(api.calls.sort()).toEqual(['get port-1', 'get port-2', 'list']);
    expect(Object.keys(refreshed.resources).sort()).toEqual(['port-0', 'port-1']);
    expect(refreshed.gone).toEqual(['port-2']);
  });

  it('makes one list call for every type the same list serves', async () => {
    const api = fakeApi();
    const ports = thingType(api, 'port');
    const routers = thingType(api, 'router');
    const recorded = [...seed(api, 'port', 3).map((id) => record(id, ports, id)), ...seed(api, 'router', 3).map((id) => record(id, routers, id))];
    const refreshed = await refreshState(stateOf(recorded), depsFor(ports, routers));
    expect(api.calls).toEqual(['list']);
    expect(Object.keys(refreshed.resources)).toHaveLength(6);
  });

  it('reads each object of a type that cannot list by id, as before', async () => {
    const api = fakeApi();
    const keys = thingType(api, 'key', { alone: true });
    const ids = seed(api, 'key', 3);
    await refreshState(stateOf(ids.map((id) => record(id, keys, id))), depsFor(keys));
    expect(api.calls.sort()).toEqual(['get key-0', 'get key-1', 'get key-2']);
  });

  it('names the address a bulk read warned about', async () => {
    const api = fakeApi();
    const ports = thingType(api, 'port', { warnFor: 'port-1' });
    const ids = seed(api, 'port', 2);
    const warnings: string[] = [];
    await refreshState(stateOf(ids.map((id) => record(`edge${id.slice(-1)}`, ports, id))), depsFor(ports), 10, (m) => warnings.push(m));
    expect(warnings).toEqual(['edge1: this one was moved']);
  });

  it('fails naming every object of a bulk read that failed, the one error said once, without reading them one by one', async () => {
    const api = fakeApi();
    const ports = thingType(api, 'port', { failList: true });
    const ids = seed(api, 'port', 2);
    await expect(refreshState(stateOf(ids.map((id) => record(id, ports, id))), depsFor(ports))).rejects.toThrow('refresh failed:\n  2 resources (port-0, port-1): GET /things: 503 unavailable');
    expect(api.calls).toEqual([]);
  });
});

describe('drift reads in bulk', () => {
  it('reports in sync, drifted and deleted from one list call and one read by id of the missing object', async () => {
    const api = fakeApi();
    const ports = thingType(api, 'port');
    const ids = seed(api, 'port', 3);
    api.things.get('port-1')!.name = 'renamed';
    api.things.get('port-2')!.gone = true;
    const report = await detectDrift(stateOf(ids.map((id) => record(id, ports, id))), undefined, depsFor(ports));
    expect(report.resources.map((r) => [r.address, r.status])).toEqual([
      ['port-0', 'in-sync'],
      ['port-1', 'drifted'],
      ['port-2', 'deleted'],
    ]);
    expect(api.calls.sort()).toEqual(['get port-2', 'list']);
  });

  it('reports a failed bulk read as the error of each object it was for, and reads the other types', async () => {
    const api = fakeApi();
    const ports = thingType(api, 'port', { failList: true });
    const keys = thingType(api, 'key', { alone: true });
    const state = stateOf([record('a', ports, seed(api, 'port', 1)[0]), record('b', keys, seed(api, 'key', 1)[0])]);
    const report = await detectDrift(state, undefined, depsFor(ports, keys));
    expect(report.resources.map((r) => [r.address, r.status, r.error])).toEqual([
      ['a', 'error', 'GET /things: 503 unavailable'],
      ['b', 'in-sync', undefined],
    ]);
  });

  it('shares one list call between the stacks checked in one pass', async () => {
    const api = fakeApi();
    const ports = thingType(api, 'port');
    const [one, two] = seed(api, 'port', 2);
    const pass = new ReadPass();
    const deps = depsFor(ports);
    await Promise.all([
      detectDrift(stateOf([record('a', ports, one)]), undefined, { ...deps, stack: 'one' }, 10, pass),
      detectDrift(stateOf([record('a', ports, two)]), undefined, { ...deps, stack: 'two' }, 10, pass),
    ]);
    expect(api.calls).toEqual(['list']);
  });

  it('does not share a list between provider accounts', async () => {
    const api = fakeApi();
    const ports = thingType(api, 'port');
    const [one, two] = seed(api, 'port', 2);
    const pass = new ReadPass();
    const account = (name: string): EngineDeps => ({ ...depsFor(ports), connect: async () => ({ client: { account: name }, settings: {} }) });
    await detectDrift(stateOf([record('a', ports, one)]), undefined, account('one'), 10, pass);
    await detectDrift(stateOf([record('a', ports, two)]), undefined, account('two'), 10, pass);
    expect(api.calls).toEqual(['list', 'list']);
  });
});

describe('settling reads in bulk', () => {
  it('reads every interrupted create whose order was accepted with one list call', async () => {
    const api = fakeApi();
    const ports = thingType(api, 'port');
    const ids = seed(api, 'port', 4);
    const pending = ids.map((id, i): PendingOperation => ({ address: `p${i}`, type: ports.token, action: 'create', token: `t${i}`, id, inputs: { name: id }, at: new Date().toISOString() }));
    const settled = await settlePending(stateOf([], pending), depsFor(ports));
    expect(api.calls).toEqual(['list']);
    expect(Object.keys(settled.resources).sort()).toEqual(['p0', 'p1', 'p2', 'p3']);
    expect(settled.notes.filter((n) => n.includes('it is adopted'))).toHaveLength(4);
  });

  it('refuses an interrupted operation of a type it does not know, rather than forget the object it may have made', async () => {
    const api = fakeApi();
    const ports = thingType(api, 'port');
    const pending: PendingOperation[] = [{ address: 'gone', type: 'old:index/thing:Thing', action: 'create', token: 't', inputs: { name: 'x' }, at: new Date().toISOString() }];
    await expect(settlePending(stateOf([], pending), depsFor(ports))).rejects.toThrow(
      /gone: an interrupted create of old:index\/thing:Thing, a resource type this plumb does not know, cannot be settled/,
    );
  });

  it('reads an interrupted delete the list no longer shows by id once, and finds it gone', async () => {
    const api = fakeApi();
    const ports = thingType(api, 'port');
    const [id] = seed(api, 'port', 1);
    api.things.get(id)!.gone = true;
    const pending: PendingOperation[] = [{ address: 'p', type: ports.token, action: 'delete', token: 't', id, at: new Date().toISOString() }];
    const settled = await settlePending(stateOf([record('p', ports, id)], pending), depsFor(ports));
    expect(api.calls).toEqual(['list', `get ${id}`]);
    expect(settled.resources).toEqual({});
    expect(settled.notes).toEqual([`p: an interrupted delete finished remotely (${id} is gone)`]);
  });
});
