import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { port } from '../../../src/resources/interconnect/port.js';
import { vxc } from '../../../src/resources/interconnect/vxc.js';
import { startSandbox } from '@plumb/sandbox';
import { interconnectContext } from '../../support/interconnect-context.js';
import { mcrPrefixFilterList } from '../../../src/resources/interconnect/mcr-prefix-filter-list.js';
import { observedEntries } from '../../../src/resources/interconnect/prefix-lists.js';
import { Unknown } from '../../../src/kernel/values.js';
import { prefixList as list } from './attached-specs.js';
import { makeMcr } from './fixtures.js';

const issues = (value: unknown) => (z.safeParse(mcrPrefixFilterList.inputs, value).error?.issues ?? []).map((i) => ({ path: i.path.join('.'), message: i.message }));
const one = (entry: Record<string, unknown>, addressFamily = 'IPv4') => issues({ mcrId: 'abcd-1234', description: 'x', addressFamily, entries: [{ action: 'permit', ...entry }] });

describe('prefix entry checks (positioned at the offending field)', () => {
  const cases: Array<[string, Record<string, unknown>, string, Array<{ path: string; message: RegExp }>]> = [
    ['a canonical IPv4 prefix is fine', { prefix: '10.0.0.0/8' }, 'IPv4', []],
    ['host bits name the network meant', { prefix: '10.0.0.1/8' }, 'IPv4', [{ path: 'entries.0.prefix', message: /^10\.0\.0\.1\/8 has host bits set; did you mean 10\.0\.0\.0\/8\?$/ }]],
    ['IPv6 host bits name the compressed network', { prefix: '2001:db8::1/32' }, 'IPv6', [{ path: 'entries.0.prefix', message: /did you mean 2001:db8::\/32\?/ }]],
    ['a prefix of the other family', { prefix: '2001:db8::/32' }, 'IPv4', [{ path: 'entries.0.prefix', message: /IPv6 prefix but the list's addressFamily is IPv4/ }]],
    ['not a CIDR at all', { prefix: '10.0.0.0' }, 'IPv4', [{ path: 'entries.0.prefix', message: /not a CIDR prefix/ }]],
    ['ge shorter than the prefix', { prefix: '10.0.0.0/16', ge: 8 }, 'IPv4', [{ path: 'entries.0.ge', message: /at least 16/ }]],
    ['le beyond the family', { prefix: '10.0.0.0/16', le: 33 }, 'IPv4', [{ path: 'entries.0.le', message: /longer than 32/ }]],
    ['le up to 128 is fine for IPv6', { prefix: '2001:db8::/32', le: 128 }, 'IPv6', []],
    ['ge greater than le', { prefix: '10.0.0.0/8', ge: 28, le: 24 }, 'IPv4', [{ path: 'entries.0.ge', message: /greater than le 24/ }]],
  ];
  for (const [name, entry, family, expected] of cases) {
    it(name, () => {
      const found = one(entry, family);
      expect(found).toHaveLength(expected.length);
      expected.forEach((e, i) => {
        expect(found[i].path).toBe(e.path);
        expect(found[i].message).toMatch(e.message);
      });
    });
  }

  it('a value not known until apply is not checked', () => {
    expect(one({ prefix: new Unknown('x') }).filter((i) => i.message !== 'Invalid input: expected string, received Unknown')).toEqual([]);
    expect(
      issues({ mcrId: 'abcd-1234', description: 'x', addressFamily: new Unknown('f'), entries: [{ action: 'permit', prefix: '10.0.0.0/8', le: 24 }] }).filter((i) => i.path !== 'addressFamily'),
    ).toEqual([]);
  });

  it('every broken entry is reported, even when another field fails', () => {
    const found = issues({
      mcrId: 'abcd-1234',
      description: '',
      addressFamily: 'IPv4',
      entries: [
        { action: 'permit', prefix: '10.0.0.1/8' },
        { action: 'deny', prefix: '10.1.0.0/16', ge: 8 },
      ],
    });
    expect(found.map((i) => i.path)).toEqual(expect.arrayContaining(['description', 'entries.0.prefix', 'entries.1.ge']));
  });
});

describe('observed entries never differ from an unchanged list', () => {
  const cases: Array<[string, Array<Record<string, unknown>>, Array<Record<string, unknown>>, Array<Record<string, unknown>>]> = [
    [
      'ge/le read back as given',
      [{ action: 'permit', prefix: '10.0.0.0/8', ge: 16, le: 24 }],
      [{ action: 'permit', prefix: '10.0.0.0/8', ge: 16, le: 24 }],
      [{ action: 'permit', prefix: '10.0.0.0/8', ge: 16, le: 24 }],
    ],
    [
      'defaults stored explicitly keep the prior spelling',
      [{ action: 'permit', prefix: '10.0.0.0/8', ge: 8, le: 32 }],
      [{ action: 'permit', prefix: '10.0.0.0/8' }],
      [{ action: 'permit', prefix: '10.0.0.0/8' }],
    ],
    [
      'a real change shows the API value',
      [{ action: 'permit', prefix: '10.0.0.0/8', le: 16 }],
      [{ action: 'permit', prefix: '10.0.0.0/8', le: 24 }],
      [{ action: 'permit', prefix: '10.0.0.0/8', le: 16 }],
    ],
    ['omitted ge/le stay omitted', [{ action: 'deny', prefix: '2001:db8::/32' }], [{ action: 'deny', prefix: '2001:db8::/32' }], [{ action: 'deny', prefix: '2001:db8::/32' }]],
  ];
  for (const [name, observed, prior, expected] of cases) {
    it(name, () => expect(observedEntries(observed as never, prior as never)).toEqual(expected));
  }
});

describe('import id', () => {
  for (const bad of ['nocolon', 'abcd-1234:0', 'abcd-1234:1.5', 'abcd-1234:abc', ':12']) {
    it(`"${bad}" is refused, naming the format`, () => {
      expect(() => mcrPrefixFilterList.importId!.parse(bad)).toThrow('<mcr_uid>:<prefix_list_id>');
    });
  }
  it('a well-formed id is kept', () => expect(mcrPrefixFilterList.importId!.parse('abcd-1234:0042')).toBe('abcd-1234:42'));
});

describe('deleting a list still referenced by a BGP connection', () => {
  it('retries the conflict until the VXC lets go, and a list already gone is done', async () => {
    const sandbox = await startSandbox({ provisioningMs: 0 });
    try {
      const ctx = await interconnectContext(sandbox.url, 'pfl', 20_000);
      const mcrId = await makeMcr(ctx, 'pfl-busy');
      const portId = (await port.create(ctx, { productName: 'pfl-port', portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false })).id;
      const created = await mcrPrefixFilterList.create(ctx, list(mcrId));
      const user = {
        productName: 'filtered',
        rateLimit: 100,
        contractTermMonths: 1,
        aEnd: { requestedProductUid: portId, vlan: 900 },
        bEnd: { requestedProductUid: mcrId },
        bEndPartnerConfig: {
          partner: 'vrouter' as const,
          interfaces: [{ ipAddresses: ['10.2.0.1/30'], bgpConnections: [{ peerAsn: 65002, localIpAddress: '10.2.0.1', peerIpAddress: '10.2.0.2', importWhitelist: 'customer-routes' }] }],
        },
      };
      const filtered = await vxc.create(ctx, user);
      const removal = mcrPrefixFilterList.delete(ctx, created.id, { inputs: list(mcrId), outputs: created.outputs });
      await new Promise((r) => setTimeout(r, 500));
      expect(await mcrPrefixFilterList.read(ctx, created.id)).toBeDefined();
      await vxc.delete(ctx, filtered.id, { inputs: user, outputs: filtered.outputs });
      await removal;
      expect(await mcrPrefixFilterList.read(ctx, created.id)).toBeUndefined();
      await mcrPrefixFilterList.delete(ctx, created.id, { inputs: list(mcrId), outputs: created.outputs });
    } finally {
      await sandbox.close();
    }
  });

  it('a second list with the same description is refused, naming the import id', async () => {
    const sandbox = await startSandbox({ provisioningMs: 0 });
    try {
      const ctx = await interconnectContext(sandbox.url);
      const mcrId = await makeMcr(ctx, 'pfl-dupe');
      const first = await mcrPrefixFilterList.create(ctx, list(mcrId));
      await expect(mcrPrefixFilterList.create(ctx, list(mcrId))).rejects.toThrow(/already has a prefix filter list named "customer-routes"/);
      expect(first.id).toMatch(/:\d+$/);
    } finally {
      await sandbox.close();
    }
  });
});
