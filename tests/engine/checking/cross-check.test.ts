import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkManifest, crossCheckStack } from '../../../src/engine/checking/check-manifest.js';
import type { EngineCatalog } from '../../../src/engine/contracts/catalog.js';
import type { CrossCheckView } from '../../../src/engine/contracts/resource-type.js';
import { parseManifest } from '../../../src/manifest/parse.js';
import { loadResourceTypes, providers } from '../../../src/cli/catalog.js';
import { Unknown } from '../../../src/kernel/values.js';

const resourceTypes = await loadResourceTypes();

/** One fake type whose cross-check records what it was shown, and says what it is told to. */
function fakeCatalog(say: (desired: Record<string, unknown>, view: CrossCheckView) => Array<{ path: Array<string | number>; message: string }>) {
  const seen: Array<{ address: string; desired: Record<string, unknown>; view: CrossCheckView }> = [];
  const catalog: EngineCatalog = {
    resourceTypes: new Map([
      [
        'fake:index/thing:Thing',
        {
          token: 'fake:index/thing:Thing',
          inputs: z.object({ name: z.string(), peer: z.string().optional() }).strict(),
          outputs: z.object({ uid: z.string() }),
          crossCheck(desired: Record<string, unknown>, view: CrossCheckView) {
            seen.push({ address: view.address, desired, view });
            return say(desired, view);
          },
        },
      ],
    ]),
    providers: [],
    functions: async () => new Map(),
  };
  return { catalog, seen };
}

const twoThings = 'name: x\nresources:\n  a: { type: fake:Thing, properties: { name: a } }\n  b:\n    type: fake:Thing\n    properties:\n      name: b\n      peer: "${a.uid}"\n';

describe('cross-checks in the engine', () => {
  it('a reference resolves to the resource it names before it exists; a problem is placed at its input', async () => {
    const { catalog, seen } = fakeCatalog((desired, view) => {
      const peer = view.resolve(desired.peer);
      return peer ? [{ path: ['peer'], message: `${view.address} needs ${peer.address}` }] : [];
    });
    const result = await checkManifest(twoThings, 'm.yaml', catalog, { env: {} });
    expect(result.diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.address} ${d.summary}`)).toEqual(['8:13 b b needs a']);
    expect(seen.map((s) => s.address).sort()).toEqual(['a', 'b']);
    expect(seen.find((s) => s.address === 'b')!.desired.peer).toBeInstanceOf(Unknown);
    expect(seen[0].view.stateRead).toBe(false);
    expect(seen[0].view.lookup).toBeUndefined();
  });

  it('with state, recorded resources are in the view, a recorded id resolves to its resource, shared indexes are built once, and lookups may be made', async () => {
    // A check that wants to read remotely asks for the lookup; it is given one once every check passed without.
    const { catalog, seen } = fakeCatalog((_desired, view) => (view.lookup, []));
    const { manifest } = parseManifest(twoThings, 'm.yaml', { resources: ['fake:index/thing:Thing'], functions: [] });
    const recorded = {
      a: { type: 'fake:index/thing:Thing', id: 'uid-a', inputs: { name: 'a' }, outputs: { uid: 'uid-a' } },
      gone: { type: 'fake:index/thing:Thing', id: 'uid-g', inputs: { name: 'g' }, outputs: { uid: 'uid-g' } },
    };
    const calls: string[] = [];
    await crossCheckStack(manifest, catalog, recorded, async (token) => calls.push(token));
    expect(seen.filter((s) => s.address === 'b').map((s) => typeof s.view.lookup)).toEqual(['undefined', 'function']);
    const view = seen.filter((s) => s.address === 'b').at(-1)!.view;
    expect(view.stateRead).toBe(true);
    expect(view.resources.map((r) => [r.address, Boolean(r.desired), Boolean(r.recorded)])).toEqual([
      ['a', true, true],
      ['b', true, false],
      ['gone', false, true],
    ]);
    // What checks share is built once per plan.
    let builds = 0;
    const first = view.memo('index', () => ++builds);
    expect(seen.find((s) => s.address === 'a')!.view.memo('index', () => ++builds)).toBe(first);
    expect(builds).toBe(1);
    expect(view.resolve('uid-g')?.address).toBe('gone');
    expect(view.resolve(new Unknown('a.uid'))?.address).toBe('a');
    expect(view.resolve('elsewhere')).toBeUndefined();
    await view.lookup!('fake:index/getIt:getIt', {});
    expect(calls).toEqual(['fake:index/getIt:getIt']);
  });

  it('reads remotely only for a manifest validate passes: a problem it shows against itself stops the reads, one only state shows does not', async () => {
    const recorded = { gone: { type: 'fake:index/thing:Thing', id: 'uid-g', inputs: { name: 'g' }, outputs: { uid: 'uid-g' } } };
    const { manifest } = parseManifest(twoThings, 'm.yaml', { resources: ['fake:index/thing:Thing'], functions: [] });
    const check = (onlyWithState: boolean) => (_desired: Record<string, unknown>, view: CrossCheckView) => {
      if (view.address === 'a') return view.lookup ? (void view.lookup('fake:index/getIt:getIt', {}), []) : [];
      const shown = !onlyWithState || view.resources.some((r) => r.recorded && !r.desired);
      return shown ? [{ path: ['name'], message: `${view.address} clashes` }] : [];
    };
    for (const [onlyWithState, reads] of [
      [false, []],
      [true, ['fake:index/getIt:getIt']],
    ] as const) {
      const calls: string[] = [];
      const { catalog } = fakeCatalog(check(onlyWithState));
      const diagnostics = await crossCheckStack(manifest, catalog, recorded, async (token) => calls.push(token));
      expect(diagnostics.map((d) => d.summary)).toEqual(['b clashes']);
      expect(calls).toEqual(reads);
    }
  });

  it('a manifest without a type that cross-checks is not evaluated again', async () => {
    const { manifest } = parseManifest(
      'name: x\nresources:\n  p: { type: interconnect:McrPrefixFilterList, properties: { mcrId: uid-r, description: d, addressFamily: IPv4, entries: [{ action: permit, prefix: 10.0.0.0/8 }] } }\n',
      'm.yaml',
      {
        resources: resourceTypes.keys(),
        functions: [],
      },
    );
    const lookups: string[] = [];
    expect(await crossCheckStack(manifest, interconnectCatalog, {}, async (t) => lookups.push(t))).toEqual([]);
    expect(lookups).toEqual([]);
  });
});

const interconnectCatalog: EngineCatalog = { resourceTypes, providers, functions: async () => new Map() };

const port = (name: string, speed = 1000) =>
  `  ${name}: { type: interconnect:Port, properties: { productName: ${name}, portSpeed: ${speed}, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false } }\n`;
const mcr = (name: string, speed = 1000) => `  ${name}: { type: interconnect:Mcr, properties: { productName: ${name}, portSpeed: ${speed}, locationId: 2, contractTermMonths: 1 } }\n`;
const vxc = (name: string, a: string, vlan: number, rate = 100, extra = '') =>
  `  ${name}:\n    type: interconnect:Vxc\n    properties:\n      productName: ${name}\n      rateLimit: ${rate}\n      contractTermMonths: 1\n      aEnd: { requestedProductUid: "${a}", vlan: ${vlan} }\n${extra}`;
const parse = (body: string) => parseManifest(`name: x\nresources:\n${body}`, 'm.yaml', { resources: resourceTypes.keys(), functions: [] }).manifest;
const said = (diagnostics: Array<{ summary: string; detail?: string; address?: string }>) => diagnostics.map((d) => `${d.address}: ${d.summary}`);

describe('interconnect cross-checks', () => {
  it('two VXCs asking for one VLAN on a port: the later is told, naming the other', async () => {
    const result = await checkManifest(
      `name: x\nresources:\n${port('edge')}${vxc('one', '${edge.productUid}', 100)}${vxc('two', '${edge.productUid}', 100)}${vxc('three', '${edge.productUid}', 101)}`,
      'm.yaml',
      interconnectCatalog,
      { env: {} },
    );
    expect(said(result.diagnostics)).toEqual(['two: VLAN 100 is already used on edge by one']);
  });

  it("a VLAN a recorded VXC holds on that port, by the port's recorded UID, is refused before the order", async () => {
    const recorded = {
      edge: { type: 'interconnect:index/port:Port', id: 'uid-edge', inputs: { productName: 'edge', portSpeed: 1000 }, outputs: {} },
      old: { type: 'interconnect:index/vxc:Vxc', id: 'uid-old', inputs: { aEnd: { requestedProductUid: 'uid-edge' } }, outputs: { aEndCurrent: { productUid: 'uid-edge', vlan: 200 } } },
    };
    const diagnostics = await crossCheckStack(parse(`${port('edge')}${vxc('renamed', '${edge.productUid}', 200)}`), interconnectCatalog, recorded);
    expect(said(diagnostics)).toEqual(['renamed: VLAN 200 is already used on edge by old (recorded; this manifest no longer declares it)']);
    expect(diagnostics[0].detail).toContain('plumb state mv old renamed');
  });

  it('a rate limit above the port, MCR or LAG at an end', async () => {
    const lag = '  lag: { type: interconnect:LagPort, properties: { productName: lag, portSpeed: 10000, lagCount: 2, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false } }\n';
    const body = `${port('edge')}${mcr('router', 2500)}${lag}${vxc('fast', '${edge.productUid}', 100, 5000, '      bEnd: { requestedProductUid: "${router.productUid}" }\n')}${vxc('ok', '${lag.productUid}', 100, 20000)}${vxc('tooFast', '${lag.productUid}', 101, 20001)}`;
    const result = await checkManifest(`name: x\nresources:\n${body}`, 'm.yaml', interconnectCatalog, { env: {} });
    expect(said(result.diagnostics)).toEqual([
      'fast: rateLimit 5000 is more than the 1000 Mbps of edge (a Port)',
      'fast: rateLimit 5000 is more than the 2500 Mbps of router (an MCR)',
      'tooFast: rateLimit 20001 is more than the 20000 Mbps of lag (a LAG of 2 × 10000 Mbps)',
    ]);
  });

  const bgp = (list: string) =>
    `      bEnd: { requestedProductUid: "\${router.productUid}" }\n      bEndPartnerConfig:\n        partner: vrouter\n        interfaces:\n          - bgpConnections:\n              - { peerAsn: 65030, localIpAddress: 10.0.0.1, peerIpAddress: 10.0.0.2, importWhitelist: ${list} }\n`;
  const list =
    '  routes: { type: interconnect:McrPrefixFilterList, properties: { mcrId: "${router.productUid}", description: customer-routes, addressFamily: IPv4, entries: [{ action: permit, prefix: 10.0.0.0/8 }] } }\n';

  it('a BGP filter naming a list a new MCR will not have: the closest list is suggested; one it will have passes', async () => {
    const manifest = parse(
      `${port('edge')}${mcr('router')}${list}${vxc('typo', '${edge.productUid}', 100, 100, bgp('customer-route'))}${vxc('right', '${edge.productUid}', 101, 100, bgp('customer-routes'))}`,
    );
    const diagnostics = await crossCheckStack(manifest, interconnectCatalog, {});
    expect(said(diagnostics)).toEqual(['typo: MCR router has no prefix filter list "customer-route"']);
    expect(diagnostics[0].detail).toBe('did you mean "customer-routes"? its lists: "customer-routes"');
    expect(diagnostics[0].pos).toMatchObject({ line: 18 });
  });

  it('for an MCR that exists, a list neither manifest nor state names is looked up before it is called missing', async () => {
    const manifest = parse(`${port('edge')}${mcr('router')}${vxc('made', '${edge.productUid}', 100, 100, bgp('portal-made'))}${vxc('typo', '${edge.productUid}', 101, 100, bgp('portal-mad'))}`);
    const recorded = { router: { type: 'interconnect:index/mcr:Mcr', id: 'uid-r', inputs: { productName: 'router', portSpeed: 1000 }, outputs: {} } };
    const asked: unknown[] = [];
    // The new port and MCR have their locations looked up too; only the lists are counted here.
    const lookup = async (token: string, args: Record<string, unknown>) => {
      if (token !== 'interconnect:index/getMcrPrefixFilterLists:getMcrPrefixFilterLists') return undefined;
      asked.push(args);
      return { prefixFilterLists: [{ description: 'portal-made' }] };
    };
    expect(said(await crossCheckStack(manifest, interconnectCatalog, recorded, lookup))).toEqual(['typo: MCR router has no prefix filter list "portal-mad"']);
    // Asked once, for both VXCs on that MCR.
    expect(asked).toEqual([{ mcrId: 'uid-r' }]);
    // Without a way to look (validate), nothing is said of an MCR that may have lists of its own.
    expect(await crossCheckStack(manifest, interconnectCatalog, recorded)).toEqual([]);
  });
});
