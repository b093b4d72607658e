import { describe, expect, it } from 'vitest';
import { diffInputs, effectiveInputs, pathMatches, pointerToPath } from '../../../src/engine/planning/diff/diff.js';
import { Secret, Unknown } from '../../../src/kernel/values.js';

describe('input diff', () => {
  const cases: Array<{ name: string; prior: Record<string, unknown>; desired: Record<string, unknown>; changed: string[] }> = [
    { name: 'identical inputs are no change', prior: { a: 1, b: { c: 'x' } }, desired: { a: 1, b: { c: 'x' } }, changed: [] },
    { name: 'a renamed product is one changed path', prior: { productName: 'a' }, desired: { productName: 'b' }, changed: ['productName'] },
    { name: 'an absent map equals an empty one (tags read back as {})', prior: { resourceTags: {} }, desired: {}, changed: [] },
    { name: 'nested fields are diffed one by one', prior: { aEnd: { vlan: 100, innerVlan: 5 } }, desired: { aEnd: { vlan: 200, innerVlan: 5 } }, changed: ['aEnd.vlan'] },
    { name: 'list items are addressed by index', prior: { entries: [{ prefix: '10.0.0.0/8' }] }, desired: { entries: [{ prefix: '10.0.0.0/16' }] }, changed: ['entries[0].prefix'] },
    { name: 'a changed secret is a change though both show [secret]', prior: { key: new Secret('a') }, desired: { key: new Secret('b') }, changed: ['key'] },
    { name: 'an unknown value is a change', prior: { uid: 'x' }, desired: { uid: new Unknown('port.productUid') }, changed: ['uid'] },
  ];
  for (const c of cases) {
    it(c.name, () => expect(diffInputs(c.prior, c.desired).changed).toEqual(c.changed));
  }
  it('secrets never appear in the patch', () => {
    const { patch } = diffInputs({ key: new Secret('old-secret') }, { key: new Secret('new-secret') });
    expect(JSON.stringify(patch)).not.toMatch(/secret"/);
    expect(JSON.stringify(patch)).toContain('[secret]');
  });
  it('unknown paths are listed', () => {
    expect(diffInputs({}, { a: { b: new Unknown('x') } }).unknown).toEqual(['a.b']);
  });
});

describe('effective inputs', () => {
  it('an omitted computed input keeps the value the API chose', () => {
    expect(effectiveInputs({ diversityZone: 'red', a: 1 }, { a: 1 }, { computed: ['diversityZone'] })).toEqual({ a: 1, diversityZone: 'red' });
  });
  it('an ignoreChanges path keeps the recorded value', () => {
    expect(effectiveInputs({ productName: 'old', a: { b: 1 } }, { productName: 'new', a: { b: 2 } }, { ignore: ['productName', 'a.b'] })).toEqual({ productName: 'old', a: { b: 1 } });
  });
});

describe('paths', () => {
  it('a rule on a parent covers its fields', () => expect(pathMatches('aEnd.vlan', 'aEnd')).toBe(true));
  it('a rule does not cover a sibling with a common prefix', () => expect(pathMatches('portSpeedX', 'portSpeed')).toBe(false));
  it('pointers become dotted paths with indexes', () => expect(pointerToPath('/entries/0/prefix')).toBe('entries[0].prefix'));
});

describe('secret paths', () => {
  it('wraps nested values, with [*] for every list item, and leaves absent paths alone', async () => {
    const { wrapSecrets, mask } = await import('../../../src/kernel/values.js');
    const config = { partner: 'vrouter', interfaces: [{ bgpConnections: [{ peerAsn: 1, password: 'p1' }, { peerAsn: 2 }] }] };
    const wrapped = wrapSecrets({ bEndPartnerConfig: config }, ['bEndPartnerConfig.interfaces[*].bgpConnections[*].password', 'aEndPartnerConfig.authKey']);
    expect(mask(wrapped)).toEqual({ bEndPartnerConfig: { partner: 'vrouter', interfaces: [{ bgpConnections: [{ peerAsn: 1, password: '[secret]' }, { peerAsn: 2 }] }] } });
    expect(config.interfaces[0].bgpConnections[0].password).toBe('p1');
  });
});
