import { describe, expect, it } from 'vitest';
import { renderReport } from '../../../src/cli/render-apply.js';
import { paint, writePlan } from '../../../src/cli/render-plan.js';
import { confirmQuestion } from '../../../src/cli/run.js';
import type { Change, Plan } from '../../../src/engine/types.js';

const LONG = 'a BGP peer description far longer than the hundred and twenty characters after which partner configs used to end in an ellipsis';

function plan(changes: Array<Partial<Change>>, extra: Partial<Plan> = {}): Plan {
  const full = changes.map((c) => ({ address: 'x', type: 'interconnect:index/vxc:Vxc', action: 'update', reason: 'changed', patch: [], unknownPaths: [], dependsOn: [], notes: [], ...c }) as Change);
  const count = (a: string) => full.filter((c) => c.action === a).length;
  return {
    formatVersion: 1,
    stack: 'default',
    manifest: { file: 'plumb.yaml', hash: 'h' },
    state: { lineage: 'l', serial: 1 },
    mode: 'normal',
    request: { targets: [], excludes: [], replace: [] },
    createdAt: 'x',
    changes: full,
    summary: { add: count('create'), change: count('update'), replace: count('replace'), destroy: count('delete'), import: count('import'), noop: 0 },
    warnings: [],
    settled: [],
    outputs: { portUid: 'p-1' },
    ...extra,
  };
}

async function text(p: Plan, opts: { outputs?: boolean; verbose?: boolean } = {}): Promise<string> {
  let out = '';
  await writePlan(p, paint(false), opts, (t) => (out += t));
  return out;
}

const bgp = (description: string, peerAsn = 65020) => ({ partner: 'vrouter', interfaces: [{ ipAddresses: ['10.0.0.1/30'], bgpConnections: [{ peerAsn, description, password: '[secret]' }] }] });

describe('plan text', () => {
  it('a nested update shows each changed field on its own line with its marker, counts the unchanged ones, cuts nothing', async () => {
    const before = { productName: 'vxc', rateLimit: 100, bEndPartnerConfig: bgp('old') };
    const after = { productName: 'vxc', rateLimit: 100, bEndPartnerConfig: bgp(LONG, 65021) };
    const out = await text(
      plan([
        {
          address: 'toRouter',
          before,
          after,
          patch: [
            { op: 'replace', path: '/bEndPartnerConfig/interfaces/0/bgpConnections/0/peerAsn', value: 65021 },
            { op: 'replace', path: '/bEndPartnerConfig/interfaces/0/bgpConnections/0/description', value: LONG },
          ],
        },
      ]),
    );
    expect(out).toContain(`                          ~ description = "old" -> "${LONG}"\n`);
    expect(out).toContain('                          ~ peerAsn     = 65020 -> 65021\n');
    expect(out).toContain('                            # (1 unchanged attribute hidden)\n');
    expect(out).toContain('        # (2 unchanged attributes hidden)\n');
    expect(out).not.toMatch(/\.\.\.|…/);
  });

  it('a value known only after apply shows as the manifest wrote it, a known one says where it came from, and the rest are counted', async () => {
    const after = {
      aEnd: { requestedProductUid: { $unknown: 'port.productUid' }, vlan: 100 },
      bEnd: { requestedProductUid: 'mcr-1' },
      name: { $unknown: '${port.productName}-vxc' },
      productUid: { $unknown: 'vxc.productUid' },
    };
    const out = await text(plan([{ address: 'vxc', action: 'create', after, references: { 'aEnd.requestedProductUid': 'port.productUid', 'bEnd.requestedProductUid': 'router.productUid' } }]));
    expect(out).toContain('          + requestedProductUid = ${port.productUid}\n');
    expect(out).toContain('          + requestedProductUid = "mcr-1"  # router.productUid\n');
    expect(out).toContain('      + name = "${port.productName}-vxc"\n');
    expect(out).toContain('        # (1 value known after apply)\n');
    expect(out).not.toContain('known after apply)  #');
    expect(out).not.toContain('productUid = (known');
  });

  it('--verbose lists every value known only after apply, bare, with the reference it comes from', async () => {
    const after = { aEnd: { requestedProductUid: { $unknown: 'port.productUid' }, vlan: 100 }, productUid: { $unknown: 'vxc.productUid' } };
    const out = await text(plan([{ address: 'vxc', action: 'create', after, references: { 'aEnd.requestedProductUid': 'port.productUid' } }]), { verbose: true });
    expect(out).toContain('          + requestedProductUid = (known after apply)  # port.productUid\n');
    expect(out).toContain('      + productUid = (known after apply)\n');
    expect(out).not.toContain('"(known after apply)"');
    expect(out).not.toContain('values known after apply');
  });

  it('-/+ deletes first, +/- creates first, each with its forcing field marked', async () => {
    const change = (address: string, order: 'delete-first' | 'create-first'): Partial<Change> => ({
      address,
      action: 'replace',
      reason: 'forced-replace',
      replaceOrder: order,
      replacePaths: [{ path: 'portSpeed', reason: 'fixed once ordered' }],
      before: { portSpeed: 1000 },
      after: { portSpeed: 10000 },
      patch: [{ op: 'replace', path: '/portSpeed', value: 10000 }],
    });
    const out = await text(plan([change('first', 'delete-first'), change('second', 'create-first')]));
    expect(out).toContain('  # first must be replaced (delete first, then create): portSpeed: fixed once ordered\n-/+ first');
    expect(out).toContain('  # second must be replaced (create first, then delete): portSpeed: fixed once ordered\n+/- second');
    expect(out).toContain('      ~ portSpeed = 1000 -> 10000  # forces replacement\n');
  });

  it('an import has its own marker, and one that also updates says so', async () => {
    const out = await text(
      plan([
        { address: 'adopted', action: 'import', id: 'p-9', before: { productName: 'old' }, after: { productName: 'new' }, patch: [{ op: 'replace', path: '/productName', value: 'new' }] },
        { address: 'kept', action: 'import', id: 'p-8', before: { productName: 'same' }, after: { productName: 'same' } },
      ]),
    );
    expect(out).toContain('  # adopted will be imported, then updated in place\n  = adopted (interconnect:index/vxc:Vxc) id=p-9 {\n      ~ productName = "old" -> "new"\n');
    expect(out).toContain('  # kept will be imported\n  = kept (interconnect:index/vxc:Vxc) id=p-8 {\n        productName = "same"\n');
  });

  it('an object set aside by a replacement reads as deposed, in its heading and its symbol line', async () => {
    const out = await text(plan([{ address: 'port~p-old', action: 'delete', reason: 'deposed', id: 'p-old', before: { productName: 'x' } }]));
    expect(out).toContain('  # port (deposed p-old) will be destroyed (set aside by an earlier replacement)\n  - port (deposed p-old) (');
    expect(out).not.toContain('port~');
  });

  it('apply leaves the outputs to its report: the plan it shows first has none', async () => {
    expect(await text(plan([{ address: 'x', action: 'create', after: { a: 1 } }]), { outputs: false })).not.toContain('Outputs:');
  });

  it('destroy asks its own question and reports its own summary, with no outputs', () => {
    const destroy = plan([{ address: 'port', action: 'delete', reason: 'destroy-requested', before: {} }], { mode: 'destroy', outputs: {} });
    expect(confirmQuestion(destroy)).toMatch(/^\nDo you really want to destroy all resources\?\n/);
    expect(confirmQuestion(plan([]))).toMatch(/^\nDo you want to perform these actions\?\n/);
    const report = { results: [{ address: 'port', action: 'delete' as const, status: 'done' as const }], outputs: { portUid: 'stale' }, warnings: [], ok: true };
    const out = renderReport(report, paint(false), destroy);
    expect(out).toContain('Destroy complete! Resources: 1 destroyed.');
    expect(out).not.toContain('Outputs');
    expect(out).not.toContain('stale');
  });

  it('counts an old object deleted whose replacement failed as destroyed: the summary says what is gone', () => {
    const replace = plan([{ address: 'exchange', action: 'replace', replaceOrder: 'delete-first', before: {}, after: {} }]);
    const results = [
      { address: 'exchange', action: 'delete-old' as const, status: 'done' as const },
      { address: 'exchange', action: 'create-new' as const, status: 'failed' as const, error: 'VLAN 2001 is not available' },
    ];
    const out = renderReport({ results, outputs: {}, warnings: [], ok: false }, paint(false), replace);
    expect(out).toContain('Apply failed! Resources: 0 added, 0 changed, 0 replaced, 1 destroyed.');
  });
});
