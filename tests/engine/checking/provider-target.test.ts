/**
 * The line between a real account and the built-in sandbox, derived from each registered
 * provider's own declaration (RealAccount): a provider added later is held to it without a case
 * of its own.
 */
import { describe, expect, it } from 'vitest';
import { classifyTargets, targetKey, type Origin, type TargetInput } from '../../../src/engine/checking/provider-target.js';
import type { ProviderDef } from '../../../src/engine/contracts/provider.js';
import { providers } from '../../../src/cli/catalog.js';
import { signsInAlone, valueFor, variableOf } from '../../support/real-settings.js';

const AT = { file: 'm.yaml', line: 3, column: 3 };

/** A default connection given these settings in the manifest (or, with `variables`, by their environment variables). */
function input(provider: ProviderDef, given: Record<string, unknown>, variables = false): TargetInput {
  const origin = (name: string): Origin | undefined => {
    if (!(name in given)) return undefined;
    return variables ? { label: variableOf(provider, name)! } : { pos: AT };
  };
  return { provider, settings: provider.settings.parse(given) as Record<string, unknown>, origin };
}

const targetOf = (inputs: TargetInput[], name: string) => classifyTargets(inputs).targets.get(targetKey(name));

describe.each(providers.map((p) => [p.name, p] as const))('%s', (_name, provider) => {
  it('with nothing real given (defaults included), the sandbox serves it', () => {
    expect(targetOf([input(provider, {})], provider.name)).toBe('sandbox');
  });

  it.each(provider.real.credentials.map((way) => [way.join(' + '), way] as const))('given %s whole, it reaches a real account', (_way, way) => {
    expect(targetOf([input(provider, Object.fromEntries(way.map((name) => [name, valueFor(provider, name)])))], provider.name)).toBe('real');
  });

  const alone = provider.real.settings.filter((name) => !signsInAlone(provider, name));
  it.each(alone)('given %s without whole credentials, it is refused at the setting, naming what to set', (name) => {
    const { targets, diagnostics } = classifyTargets([input(provider, { [name]: valueFor(provider, name) })]);
    expect(targets.size).toBe(0);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ severity: 'error', pos: AT });
    expect(diagnostics[0].summary).toContain(`${provider.name}:${name}`);
    // Every setting that would complete the way to sign in it is part of (or any way, for one that is in none) is named with its variable.
    const own = provider.real.credentials.filter((way) => way.includes(name));
    for (const way of own.length ? own : provider.real.credentials) {
      for (const setting of way.filter((s) => s !== name)) {
        const variable = variableOf(provider, setting);
        expect(`${diagnostics[0].summary}\n${diagnostics[0].detail}`).toContain(variable ? `${provider.name}:${setting} (${variable})` : `${provider.name}:${setting}`);
      }
    }
  });

  const byVariable = alone.filter((name) => variableOf(provider, name));
  it.each(byVariable)('given %s by its environment variable alone, the problem names the variable', (name) => {
    const { diagnostics } = classifyTargets([input(provider, { [name]: valueFor(provider, name) }, true)]);
    expect(diagnostics[0]).toMatchObject({ address: variableOf(provider, name) });
    expect(diagnostics[0].pos).toBeUndefined();
  });
});

it("a switch among any provider's real settings, turned off, asks for nothing real: the sandbox serves it", () => {
  const switches = providers.flatMap((provider) =>
    provider.real.settings.filter((name) => (provider.settings.safeParse({ [name]: false }).data as Record<string, unknown> | undefined)?.[name] === false).map((name) => [provider, name] as const),
  );
  expect(switches.map(([provider, name]) => `${provider.name}:${name}`)).toEqual(expect.arrayContaining(['interconnect:acceptPurchaseTerms', 'cloud:insecure']));
  for (const [provider, name] of switches) expect(targetOf([input(provider, { [name]: false })], provider.name), `${provider.name}:${name}`).toBe('sandbox');
});

describe('one command, one side of the line', () => {
  const [interconnect, cloud, pipeline] = ['interconnect', 'cloud', 'pipeline'].map((name) => providers.find((p) => p.name === name)!);
  const keys = { accessKey: 'ak', secretKey: 'sk' };

  it('a provider without credentials beside one that reaches a real account is refused, naming what would sign it in', () => {
    const { diagnostics } = classifyTargets([input(interconnect, keys), input(pipeline, {})]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0].summary).toBe('the pipeline provider has no credentials, while the interconnect provider reaches a real account');
    expect(diagnostics[0].detail).toContain('pipeline:apiKey (FIVETRAN_APIKEY) and pipeline:apiSecret (FIVETRAN_APISECRET)');
  });

  it('providers all without anything real are all served by the sandbox; all with credentials, all reach their accounts', () => {
    expect(classifyTargets([input(interconnect, {}), input(cloud, { region: 'r', projectId: 'p' })]).diagnostics).toEqual([]);
    const both = classifyTargets([input(interconnect, keys), input(pipeline, { apiKey: 'k', apiSecret: 's' })]);
    expect([...both.targets.values()]).toEqual(['real', 'real']);
  });

  it('a provider resource is named by its address, at its declaration', () => {
    const decl = { file: 'm.yaml', line: 9, column: 5 };
    const instance: TargetInput = { ...input(cloud, { region: 'r', projectId: 'p' }), instance: 'shanghai', at: decl };
    const { diagnostics } = classifyTargets([input(interconnect, keys), instance]);
    expect(diagnostics[0]).toMatchObject({ summary: 'shanghai (cloud) has no credentials, while the interconnect provider reaches a real account', pos: decl });
  });

  it('a running sandbox the user named serves every connection; credentials given in part are still refused', () => {
    const chosen = classifyTargets(
      [input(interconnect, { environment: 'production' }), input(pipeline, { apiKey: 'k' }), input(cloud, { region: 'r', projectId: 'p', publicKey: 'a', privateKey: 'b' })],
      true,
    );
    expect([...chosen.targets.values()]).toEqual(['sandbox', 'sandbox', 'sandbox']);
    expect(chosen.diagnostics.map((d) => d.summary)).toEqual(['pipeline:apiKey (FIVETRAN_APIKEY) is set without pipeline:apiSecret (FIVETRAN_APISECRET)']);
  });

  it('a blank value is not given', () => {
    expect(targetOf([input(pipeline, { apiKey: '', apiSecret: '' })], 'pipeline')).toBe('sandbox');
  });
});
