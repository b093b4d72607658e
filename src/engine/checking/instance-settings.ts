/**
 * The settings of each provider resource (`pulumi:providers:<provider>`), checked as config
 * settings are, each problem at its property. An instance's settings are its properties; one it
 * does not give is taken from the provider's own environment variable, as Pulumi's providers do,
 * never from the default provider's config: another account must not inherit this one's keys.
 */
import type { Diagnostic } from '../../kernel/diagnostics.js';
import type { Manifest, ProviderDecl } from '../../manifest/ast.js';
import { keyPosAt, posAt } from '../../manifest/ast.js';
import { closestName } from '../../kernel/did-you-mean.js';
import { noteSecretText } from '../../kernel/secret-mask.js';
import { containsUnknown, reveal, Unknown } from '../../kernel/values.js';
import { objectKeys } from './check-inputs.js';
import type { CatalogProvider } from '../contracts/catalog.js';
import { EvalError, evaluate, type Scope } from '../evaluation/evaluate.js';
import { valueProblems } from './messages.js';
import { Evaluation } from '../evaluation/scope.js';

/** One provider resource's parsed settings and the provider it configures. */
export interface InstanceSettings {
  provider: string;
  settings: Record<string, unknown>;
}

/** Parses every provider resource's settings; problems are positioned at the property (or the resource). */
export async function checkInstances(
  manifest: Manifest,
  providers: readonly CatalogProvider[],
  env: Record<string, string | undefined>,
): Promise<{ instances: Map<string, InstanceSettings>; diagnostics: Diagnostic[] }> {
  const instances = new Map<string, InstanceSettings>();
  const diagnostics: Diagnostic[] = [];
  const decls = Object.values(manifest.providers ?? {});
  if (!decls.length) return { instances, diagnostics };
  const scope = new Evaluation(manifest, undefined, () => new Unknown()).scope();
  for (const decl of decls) {
    const provider = providers.find((p) => p.name === decl.provider);
    if (!provider) continue;
    const problem = (summary: string, detail: string | undefined, path: string[], at = posAt(decl.properties, path)) =>
      diagnostics.push({ severity: 'error', summary, detail, address: decl.address, pos: { file: manifest.file, ...at } });
    const raw = await instanceValues(decl, scope, problem);
    if (!raw) continue;
    const known = objectKeys(provider.settings);
    for (const name of Object.keys(raw)) {
      if (!known.length || known.includes(name)) continue;
      const hint = closestName(name, known);
      problem(
        `${decl.address}: unknown setting "${name}" of the ${provider.name} provider`,
        `${hint ? `did you mean ${hint}? ` : ''}settings: ${known.join(', ')}`,
        [],
        keyPosAt(decl.properties, [], name),
      );
      delete raw[name];
    }
    for (const [variable, name] of Object.entries(provider.envVars)) if (raw[name] === undefined && env[variable]) raw[name] = env[variable];
    const parsed = provider.settings.safeParse(raw);
    if (!parsed.success) {
      for (const p of valueProblems(provider.settings, parsed.error.issues, raw, 'setting', (name) => `${decl.address}.${name}`)) {
        problem(p.summary, p.detail, [p.name.slice(decl.address.length + 1).split(/[.[]/)[0]]);
      }
      continue;
    }
    const settings = parsed.data as Record<string, unknown>;
    for (const message of provider.check?.(settings) ?? []) problem(`${decl.address}: ${message}`, undefined, []);
    for (const secret of provider.secretSettings) if (typeof settings[secret] === 'string') noteSecretText(settings[secret] as string);
    instances.set(decl.address, { provider: provider.name, settings });
  }
  return { instances, diagnostics };
}

/** A provider resource's properties evaluated; undefined (reported) when one is not known before planning. */
async function instanceValues(decl: ProviderDecl, scope: Scope, problem: (summary: string, detail: string | undefined, path: string[]) => void): Promise<Record<string, unknown> | undefined> {
  try {
    const value = await evaluate(decl.properties, scope);
    for (const entry of decl.properties.entries) {
      const v = (value as Record<string, unknown>)[entry.key];
      if (containsUnknown(v)) {
        problem(`${decl.address}.${entry.key} must be known before planning`, 'a provider setting may use config values and variables, not the outputs of resources', [entry.key]);
        return undefined;
      }
    }
    // Settings are read in the clear: a secret one (a key) is noted for masking once parsed.
    return reveal(value) as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof EvalError)) throw err;
    problem(err.message, err.detail, []);
    return undefined;
  }
}
