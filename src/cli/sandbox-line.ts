import { DiagnosticsError } from '../kernel/diagnostics.js';
import type { CheckedManifest } from '../engine/checking/check-manifest.js';
import { classifyTargets, envOrigin, manifestTargets, targetKey, type Target, type TargetInput } from '../engine/checking/provider-target.js';
import { providers } from './catalog.js';

/**
 * Where a command's connections go, decided before its first call (see engine/checking/provider-target.ts):
 * `sandboxFor` gives the sandbox's URL for a connection the sandbox serves, undefined for one that
 * reaches a real account. PLUMB_SANDBOX_URL names a running sandbox, which serves every
 * connection whatever real account its settings name (the user chose it), only not credentials
 * given in part, which no account would take.
 */
export interface SandboxLine {
  /** Throws DiagnosticsError for a connection whose settings cannot be used (decided up front for the manifest's, here for another). */
  sandboxFor(name: string, settings: Record<string, unknown>, instance?: string): (() => Promise<string>) | undefined;
  /** The providers the built-in sandbox serves so far, each told once on stderr. */
  served(): string[];
}

/** What the sandbox's field in a command's JSON says of it. */
export const SANDBOX_NOTE = 'the built-in sandbox: nothing real is ordered';

/**
 * The field a command's own JSON document (plan --json, drift --json, apply --json's first line)
 * carries when the built-in sandbox serves it: `sandbox: {providers, note}`; none otherwise.
 */
export function sandboxField(served: string[]): { sandbox?: { providers: string[]; note: string } } {
  return served.length ? { sandbox: { providers: [...served], note: SANDBOX_NOTE } } : {};
}

/** What the command says once, on stderr, when the built-in sandbox serves it. */
export function sandboxNotice(names: string[]): string {
  const listed = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
  return `Note: the built-in sandbox serves ${listed}: nothing real is ordered (no credentials are configured).\n`;
}

/**
 * Draws the line for a manifest's connections (or, without one, for connections made from the
 * environment alone), refusing every connection that cannot be used at once; prints the notice
 * when the built-in sandbox serves any.
 */
export function drawSandboxLine(sandboxUrl: () => Promise<string>, checked?: Pick<CheckedManifest, 'manifest' | 'settings' | 'instances'>): SandboxLine {
  const env = process.env;
  const chosen = Boolean(env.PLUMB_SANDBOX_URL);
  const inputs = checked ? manifestTargets(checked.manifest, providers, checked.settings, checked.instances, env) : [];
  let targets = decide(inputs, chosen);
  if (chosen) {
    return {
      sandboxFor(name, settings, instance) {
        const provider = providers.find((p) => p.name === name);
        if (provider && !targets.has(targetKey(name, instance))) decide([{ provider, instance, settings, origin: envOrigin(provider, env) }], true);
        return sandboxUrl;
      },
      served: () => [],
    };
  }
  let told = false;
  const served = () => [...new Set(inputs.filter((i) => targets.get(targetKey(i.provider.name, i.instance)) === 'sandbox').map((i) => i.provider.name))];
  const tell = () => {
    const names = served();
    if (names.length && !told) process.stderr.write(sandboxNotice(names));
    told ||= names.length > 0;
  };
  tell();
  return {
    sandboxFor(name, settings, instance) {
      const key = targetKey(name, instance);
      if (!targets.has(key)) {
        // A connection the manifest does not make (a provider only state still records): its settings come from the environment alone.
        const provider = providers.find((p) => p.name === name);
        if (!provider) return undefined;
        inputs.push({ provider, instance, settings, origin: envOrigin(provider, env) } satisfies TargetInput);
        targets = decide(inputs, false);
        tell();
      }
      return targets.get(key) === 'sandbox' ? sandboxUrl : undefined;
    },
    served,
  };
}

function decide(inputs: TargetInput[], sandboxChosen: boolean): Map<string, Target> {
  const { targets, diagnostics } = classifyTargets(inputs, sandboxChosen);
  if (diagnostics.length) throw new DiagnosticsError(diagnostics);
  return targets;
}
