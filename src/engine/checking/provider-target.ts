/**
 * The line between a real account and the built-in sandbox: one rule for every provider, from the
 * settings it declares real (RealAccount). A connection given none of them has nothing real
 * configured, and the sandbox may serve it; one given any reaches a real account, and must be
 * given one way to sign in whole, or it is refused before any call, at the place the setting
 * came from and naming what to set. A command that reaches a real account has no connection
 * served by the sandbox: a provider left without credentials beside it is refused too (the
 * secrets of a CI job that failed to load would otherwise order nothing and report success).
 */
import type { Diagnostic, SourcePos } from '../../kernel/diagnostics.js';
import { posAt, type Manifest } from '../../manifest/ast.js';
import { configPlace } from '../../manifest/config-resolve.js';
import { usedProviders } from './check-manifest.js';
import type { ProviderDef } from '../contracts/provider.js';
import type { InstanceSettings } from './instance-settings.js';

/** Where a setting was given: a place in a file, or the name of what gave it (an environment variable, a flag). */
export type Origin = { pos: SourcePos } | { label: string };

/** What the rule needs of a provider. */
export type TargetProvider = Pick<ProviderDef, 'name' | 'envVars' | 'real'>;

/** One connection: a provider's default one, or a provider resource's (`instance`). */
export interface TargetInput {
  provider: TargetProvider;
  instance?: string;
  /** Its parsed settings. */
  settings: Record<string, unknown>;
  /** Where a setting was given explicitly; undefined for one left to its default. */
  origin(name: string): Origin | undefined;
  /** Where the provider resource is declared. */
  at?: SourcePos;
}

/** Who serves a connection: the real API, or the built-in sandbox. */
export type Target = 'real' | 'sandbox';

/** The key of a connection in the map `classifyTargets` returns. */
export function targetKey(name: string, instance?: string): string {
  return instance === undefined ? name : `${name}\u0000${instance}`;
}

/**
 * Each connection's target, by `targetKey`, with a problem for each that cannot be used as it is.
 * With `sandboxChosen` (a running sandbox the user named) every connection is the sandbox's,
 * whatever real account its settings name; only credentials given in part, which no account
 * would take either, are refused.
 */
export function classifyTargets(inputs: TargetInput[], sandboxChosen = false): { targets: Map<string, Target>; diagnostics: Diagnostic[] } {
  const targets = new Map<string, Target>();
  const diagnostics: Diagnostic[] = [];
  for (const input of inputs) {
    const found = classify(input);
    const key = targetKey(input.provider.name, input.instance);
    if (sandboxChosen) {
      targets.set(key, 'sandbox');
      if (typeof found !== 'string' && found.partial) diagnostics.push(found.diagnostic);
    } else if (typeof found === 'string') targets.set(key, found);
    else diagnostics.push(found.diagnostic);
  }
  if (sandboxChosen) return { targets, diagnostics };
  const real = inputs.filter((input) => targets.get(targetKey(input.provider.name, input.instance)) === 'real');
  if (!real.length) return { targets, diagnostics };
  const reaching = [...new Set(real.map((input) => who(input)))].join(', ');
  for (const input of inputs) {
    if (targets.get(targetKey(input.provider.name, input.instance)) !== 'sandbox') continue;
    diagnostics.push({
      severity: 'error',
      summary: `${who(input)} has no credentials, while ${reaching} ${real.length === 1 ? 'reaches' : 'reach'} a real account`,
      detail: `set ${ways(input)}: one command is never served by a real account and the built-in sandbox together`,
      ...(input.at ? { pos: input.at } : {}),
    });
  }
  return { targets, diagnostics };
}

/** The target of one connection, or the problem that stops it (`partial` when it is credentials given in part). */
function classify(input: TargetInput): Target | { diagnostic: Diagnostic; partial: boolean } {
  const { provider } = input;
  // A switch turned off (`insecure: false`, `acceptPurchaseTerms: false`) asks for nothing real.
  const given = (name: string) => input.origin(name) !== undefined && ![undefined, '', false].includes(input.settings[name] as never);
  const real = provider.real.settings.filter(given);
  if (!real.length) return 'sandbox';
  const ways = provider.real.credentials;
  if (ways.some((way) => way.every(given))) return 'real';
  // The way to sign in the settings come nearest to: what it still lacks is named.
  const nearest = [...ways].sort((a, b) => b.filter(given).length - a.filter(given).length)[0];
  const partial = real.find((name) => nearest.includes(name));
  const setting = partial ?? real[0];
  const prefix = input.instance === undefined ? '' : `${input.instance}: `;
  const summary = partial
    ? `${prefix}${named(input, setting)} is set without ${nearest
        .filter((name) => !given(name))
        .map((name) => named(input, name))
        .join(' and ')}`
    : `${prefix}${named(input, setting)} aims at the real ${provider.name} API, but no credentials are set`;
  const origin = input.origin(setting)!;
  const diagnostic: Diagnostic = {
    severity: 'error',
    summary,
    detail: `set ${credentialsOf(input, partial ? [nearest] : ways)}; or unset ${real.map((name) => named(input, name, false)).join(', ')} to use the built-in sandbox, where nothing real is ordered`,
    ...('pos' in origin ? { pos: origin.pos } : { address: origin.label }),
  };
  return { diagnostic, partial: partial !== undefined };
}

/** `interconnect:secretKey (INTERCONNECT_SECRET_KEY)`, or a provider resource's `secretKey (…)`. */
function named(input: TargetInput, name: string, withVariable = true): string {
  const variable = Object.entries(input.provider.envVars).find(([, setting]) => setting === name)?.[0];
  const shown = input.instance === undefined ? `${input.provider.name}:${name}` : name;
  return withVariable && variable ? `${shown} (${variable})` : shown;
}

/** The ways to sign in, as settings to set. */
function credentialsOf(input: TargetInput, ways: string[][]): string {
  return ways.map((way) => way.map((name) => named(input, name)).join(' and ')).join(', or ');
}

/** Every way a connection signs in. */
function ways(input: TargetInput): string {
  return credentialsOf(input, input.provider.real.credentials);
}

/** `the interconnect provider`, or `edge (interconnect)` for a provider resource. */
function who(input: TargetInput): string {
  return input.instance === undefined ? `the ${input.provider.name} provider` : `${input.instance} (${input.provider.name})`;
}

/**
 * The connections a manifest's commands may make, to classify before any call: the default one of
 * every provider its resources or functions use or its config sets, and every provider resource.
 */
export function manifestTargets(
  manifest: Manifest,
  providers: readonly TargetProvider[],
  settings: ReadonlyMap<string, Record<string, unknown>>,
  instances: ReadonlyMap<string, InstanceSettings>,
  env: Record<string, string | undefined>,
): TargetInput[] {
  const configured = new Set(Object.keys(manifest.config).map((key) => key.split(':')[0]));
  const wanted = new Set([...usedProviders(manifest), ...configured]);
  const inputs: TargetInput[] = [];
  for (const provider of providers) {
    const parsed = settings.get(provider.name);
    if (wanted.has(provider.name) && parsed) inputs.push({ provider, settings: parsed, origin: configOrigin(manifest, provider, env) });
  }
  for (const [address, instance] of instances) {
    const provider = providers.find((p) => p.name === instance.provider);
    const decl = manifest.providers[address];
    if (!provider || !decl) continue;
    const at = { file: manifest.file, ...decl.pos };
    const fromEnv = envOrigin(provider, env);
    const origin = (name: string): Origin | undefined =>
      decl.properties.entries.some((entry) => entry.key === name) ? { pos: { file: manifest.file, ...posAt(decl.properties, [name]) } } : fromEnv(name);
    inputs.push({ provider, instance: address, settings: instance.settings, origin, at });
  }
  return inputs;
}

/** Where a default connection's setting came from, as config and the environment combine (see check-manifest). */
function configOrigin(manifest: Manifest, provider: TargetProvider, env: Record<string, string | undefined>): (name: string) => Origin | undefined {
  const fromEnv = envOrigin(provider, env);
  return (name) => {
    const entry = manifest.config[`${provider.name}:${name}`];
    // A provider's own variable wins over config, except over --config.
    if (entry?.source !== 'flag') {
      const variable = fromEnv(name);
      if (variable) return variable;
    }
    if (!entry) return undefined;
    const place = configPlace(manifest, entry);
    return place.pos ? { pos: place.pos } : { label: place.address ?? `config ${provider.name}:${name}` };
  };
}

/** Where a setting came from when only the environment gives settings: its variable, when set. */
export function envOrigin(provider: TargetProvider, env: Record<string, string | undefined>): (name: string) => Origin | undefined {
  return (name) => {
    const variable = Object.entries(provider.envVars).find(([v, setting]) => setting === name && env[v])?.[0];
    return variable ? { label: variable } : undefined;
  };
}
