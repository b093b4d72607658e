import { describe, expect, it } from 'vitest';
import { applyTargets } from '../../../src/engine/planning/targets.js';
import type { Change } from '../../../src/engine/types.js';

const change = (address: string, action: Change['action'], dependsOn: string[] = []): Change => ({
  address,
  type: 'fake:index/thing:Thing',
  action,
  reason: 'changed',
  patch: [],
  unknownPaths: [],
  dependsOn,
  notes: [],
});

// port <- vxc <- bgp ; lone
const plan = [change('port', 'update'), change('vxc', 'update', ['port']), change('bgp', 'create', ['vxc']), change('lone', 'create')];
const kept = (targets: string[], excludes: string[], changes = plan) =>
  applyTargets(changes, targets, excludes)
    .changes.map((c) => c.address)
    .sort();

describe('--target and --exclude', () => {
  const cases: Array<[string, string[], string[], string[]]> = [
    ['no flags keep everything', [], [], ['bgp', 'lone', 'port', 'vxc']],
    ['a target keeps what it depends on', ['vxc'], [], ['port', 'vxc']],
    ['a leaf target pulls its whole chain', ['bgp'], [], ['bgp', 'port', 'vxc']],
    ['an exclude drops what depends on it', [], ['port'], ['lone']],
    ['an exclude of a leaf drops only it', [], ['bgp'], ['lone', 'port', 'vxc']],
    ['exclude wins over target', ['bgp'], ['vxc'], ['port']],
  ];
  for (const [name, targets, excludes, expected] of cases) it(name, () => expect(kept(targets, excludes)).toEqual(expected));

  it('a targeted delete also deletes what depends on it, which must go first', () => {
    const deletes = [change('port', 'delete'), change('vxc', 'delete', ['port']), change('lone', 'delete')];
    expect(kept(['port'], [], deletes)).toEqual(['port', 'vxc']);
  });
  it('left-out changes are reported; unknown addresses are named', () => {
    const result = applyTargets(plan, ['vxc', 'nope'], []);
    expect(result.leftOut.sort()).toEqual(['bgp', 'lone']);
    expect(result.unknown).toEqual(['nope']);
  });
});
