/**
 * A connection's or destination's config compared by what it means (kit.ts): each case names
 * the API habit that would otherwise be a perpetual diff, or the real change that must still show.
 */
import { describe, expect, it } from 'vitest';
import { changedConfig, declaredConfig, observedConfig, sameMeaning } from '../../../src/resources/pipeline/kit.js';
import { Secret } from '../../../src/kernel/values.js';

describe('sameMeaning', () => {
  const cases: Array<[string, unknown, unknown, boolean]> = [
    ['the API drops an empty string', '', undefined, true],
    ['the API drops an empty list', [], undefined, true],
    ['null and absent are both nothing', null, undefined, true],
    ['a port sent as text comes back a number', '5432', 5432, true],
    ['a flag sent as text comes back a boolean', 'true', true, true],
    ['a list the API keeps as a set comes back sorted, repeats gone', ['b', 'a', 'b'], ['a', 'b'], true],
    ['maps compare key by key', { a: '1', b: '' }, { a: 1 }, true],
    ['a secret is compared by its value', new Secret('pw'), 'pw', true],
    ['another port is a change', 5432, 5433, false],
    ['a value removed remotely is a change', 'x', undefined, false],
    ['another member of a set is a change', ['a'], ['a', 'b'], false],
  ];
  for (const [why, declared, reported, same] of cases) it(why, () => expect(sameMeaning(declared, reported)).toBe(same));
});

describe('observedConfig', () => {
  it('keeps declared values where they mean the same, takes masked secrets as unchanged, ignores keys the API filled', () => {
    const declared = { host: 'db', port: '5432', password: new Secret('pw'), hosts: ['b', 'a'], note: '' };
    const reported = { host: 'db', port: 5432, password: '******', hosts: ['a', 'b'], update_method: 'WAL', connection_type: 'Directly' };
    expect(observedConfig(declared, reported)).toEqual(declared);
  });

  it('an empty value asks for nothing: whatever default the API filled in meets it', () => {
    expect(observedConfig({ compression: '' }, { compression: 'infer' })).toEqual({ compression: '' });
  });

  it('a real change shows as the API holds it, and only there', () => {
    expect(observedConfig({ host: 'db', port: 5432 }, { host: 'db', port: 6543 })).toEqual({ host: 'db', port: 6543 });
  });

  it('without a declared config (an import) reports everything but the skipped keys', () => {
    expect(observedConfig(undefined, { schema_prefix: 'pg', host: 'db' }, ['schema_prefix'])).toEqual({ host: 'db' });
  });
});

describe('declaredConfig and changedConfig', () => {
  it('an imported config reads as the manifest states it: masked secrets and defaults it leaves out are its', () => {
    const recorded = { host: 'db', port: 5432, password: '******', update_method: 'WAL' };
    const desired = { host: 'db', port: '5432', password: new Secret('pw') };
    expect(declaredConfig(recorded, desired, undefined)).toEqual(desired);
  });

  it('a PATCH carries only the keys whose meaning changed', () => {
    expect(changedConfig({ host: 'db', port: 5432, tags: ['a', 'b'] }, { host: 'db', port: '5433', tags: ['b', 'a'] })).toEqual({ port: '5433' });
  });
});
