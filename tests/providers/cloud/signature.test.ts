import { describe, expect, it } from 'vitest';
import { flattenParams, formBody, signParams, stringToSign, wireString } from '../../../src/providers/cloud/signature.js';

describe('cloud request signature', () => {
  it('reproduces the worked example of the API reference', () => {
    const flat = flattenParams({
      Action: 'AddNapAllowListDomain',
      Region: 'cn-bj2',
      ProjectId: 'org-demo01',
      ResourceId: 'usecure_ghp-abc123',
      Domain: ['example.com'],
      PublicKey: 'demo-public-key',
    });
    expect(stringToSign(flat, 'demo-private-key')).toBe(
      'ActionAddNapAllowListDomainDomain.0example.comProjectIdorg-demo01PublicKeydemo-public-keyRegioncn-bj2ResourceIdusecure_ghp-abc123demo-private-key',
    );
    const signature = signParams(flat, 'demo-private-key');
    expect(signature).toBe('6f1915e1b34bb3b834c5cadda6209c1dc7b9a4af');
    expect(formBody({ ...flat, Signature: signature })).toBe(
      'Action=AddNapAllowListDomain&Domain.0=example.com&ProjectId=org-demo01&PublicKey=demo-public-key&Region=cn-bj2&ResourceId=usecure_ghp-abc123&Signature=6f1915e1b34bb3b834c5cadda6209c1dc7b9a4af',
    );
  });

  it('leaves Signature itself out of the string to sign', () => {
    const flat = flattenParams({ Action: 'X', PublicKey: 'p' });
    expect(signParams({ ...flat, Signature: 'anything' }, 'k')).toBe(signParams(flat, 'k'));
  });

  it('flattens arrays, arrays of objects and nested objects; drops empty values', () => {
    expect(flattenParams({ Ids: ['a', 'b'], Labels: [{ Key: 'env', Value: 'prod' }], Domain: { Src: 'x' }, Empty: '', Missing: undefined, Null: null, Flag: false, N: 0 })).toEqual({
      'Ids.0': 'a',
      'Ids.1': 'b',
      'Labels.0.Key': 'env',
      'Labels.0.Value': 'prod',
      'Domain.Src': 'x',
      Flag: false,
      N: 0,
    });
  });

  it('sorts keys by bytes, so Domain.10 comes before Domain.2', () => {
    const domains = Array.from({ length: 11 }, (_, i) => `d${i}.com`);
    const text = stringToSign(flattenParams({ Domain: domains }), '');
    expect(text.indexOf('Domain.10')).toBeLessThan(text.indexOf('Domain.2'));
    expect(text.startsWith('Domain.0d0.comDomain.1d1.comDomain.10d10.comDomain.2')).toBe(true);
  });

  it.each([
    ['integer', 100, '100'],
    ['float with zero fraction', 42.0, '42'],
    ['small float, no exponent', 0.0000001, '0.0000001'],
    ['large integer, no exponent', 12345678901234, '12345678901234'],
    ['boolean true', true, 'true'],
    ['boolean false', false, 'false'],
    ['string as is', 'a b+c', 'a b+c'],
  ])('writes a %s the way the API signs it', (_name, value, expected) => {
    expect(wireString(value)).toBe(expected);
  });
});
