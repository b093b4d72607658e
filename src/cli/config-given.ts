import type { Manifest } from '../manifest/ast.js';
import { holdsSecretText } from '../kernel/secret-mask.js';
import { holdsSecret } from '../kernel/values.js';
import { providers } from './catalog.js';
import type { ConfigGiven } from './saved-plan.js';

/**
 * The config values in effect that were given for this run alone (`--config` flags and
 * `PLUMB_CONFIG_*` variables), for a saved plan and its review page. A value is left out, and
 * marked secret, when its key is declared secret, is a provider's secret setting, or holds the text
 * of a secret plumb has met.
 */
export function configGiven(manifest: Manifest): ConfigGiven[] {
  const secretSettings = new Set(providers.flatMap((p) => p.secretSettings.map((s) => `${p.name}:${s}`)));
  const given: ConfigGiven[] = [];
  for (const [key, entry] of Object.entries(manifest.config)) {
    if ((entry.source !== 'flag' && entry.source !== 'environment') || !entry.label) continue;
    const value = entry.value.kind === 'value' ? entry.value.value : undefined;
    const secret = holdsSecret(value) || secretSettings.has(key) || holdsSecretText(JSON.stringify(value ?? null));
    given.push(secret ? { key, from: entry.label, secret: true } : { key, from: entry.label, value });
  }
  return given.sort((a, b) => a.from.localeCompare(b.from));
}
