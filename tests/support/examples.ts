/** The example manifests under examples/, which the CLI tests apply, check and break. */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The examples folder. */
export const EXAMPLES = resolve(import.meta.dirname, '../../examples');

/** Every example manifest, as `provider/file.yaml`, in order. */
export function exampleManifests(): string[] {
  return readdirSync(EXAMPLES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((dir) =>
      readdirSync(join(EXAMPLES, dir.name))
        .filter((file) => /\.ya?ml$/.test(file))
        .map((file) => `${dir.name}/${file}`),
    )
    .sort();
}
