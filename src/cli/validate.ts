import { diagnosticJson, formatWarning } from '../kernel/diagnostics.js';
import { loadManifest, manifestPath, type GlobalOptions } from './session.js';

/**
 * `plumb validate [--json]`: checks the manifest and every input with no remote call. Problems
 * are thrown (as DiagnosticsError) and reported like any command's, as JSON with --json.
 */
export async function validateCommand(arg: string | undefined, opts: GlobalOptions & { json?: boolean }): Promise<number> {
  const { manifest, warnings } = await loadManifest(manifestPath(arg, opts), { stack: { name: opts.stack, config: opts.config, state: opts.state } });
  const resources = Object.keys(manifest.resources).length;
  const variables = Object.keys(manifest.variables).length;
  if (opts.json) {
    const diagnostics = warnings.map(diagnosticJson);
    process.stdout.write(`${JSON.stringify({ ok: true, file: manifest.file, resources, variables, diagnostics }, null, 2)}\n`);
    return 0;
  }
  for (const w of warnings) process.stderr.write(`${formatWarning(w)}\n`);
  process.stdout.write(`${manifest.file}: valid (${resources} resources, ${variables} variables)\n`);
  return 0;
}
