// Bundles the CLI into dist/bundle/plumb.cjs, one CommonJS file (what bin/plumb.cjs runs): node
// then reads and compiles one file at start-up instead of about 160 modules (95 of them zod's).
// The tsc output in dist/ stays: the benchmark imports modules from it and `npm run docs` runs it.
// The bundle is replaced, never removed: each file is written beside its old self and renamed over
// it, so a plumb started during a build (a test, `npx plumb` in another terminal) runs the old CLI
// or the new one, never a missing or half-written file.

import { fileURLToPath } from 'node:url';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

const { metafile, outputFiles } = await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/bundle/plumb.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  // Without its comments the file is ASCII, which V8 keeps in memory at one byte a character for
  // as long as the command runs (one "§" or "—" in a comment makes it keep the whole file at two).
  // Names are kept, and PLUMB_DEBUG's stacks point into src/ through the source map.
  minifyWhitespace: true,
  // The workspace packages (the sandbox) are bundled from their TypeScript sources, as the tests
  // run them, so PLUMB_DEBUG's stacks point into packages/*/src too.
  conditions: ['plumb-source'],
  // pg and pino are loaded where first needed: most commands never need them. yaml reads every
  // manifest, so it is bundled.
  external: ['pg', 'pino'],
  // A CommonJS file has no import.meta; its URL is worked out once from __filename instead.
  define: { 'import.meta.url': 'bundleModuleUrl' },
  banner: { js: "const bundleModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  metafile: true,
  write: false,
  logLevel: 'warning',
});

// zod's `z` object re-exports every locale (63 modules of messages), which the bundler cannot drop
// once a module imports `{ z }` and uses it as a value: fail here rather than let every command load them.
const bundled = Object.values(metafile.outputs).flatMap((output) =>
  Object.entries(output.inputs)
    .filter(([, use]) => use.bytesInOutput > 0)
    .map(([file]) => file),
);
const locales = bundled.filter((file) => /zod\/v4\/locales\/(?!en\.js|index\.js)/.test(file));
if (locales.length) {
  throw new Error(`the bundle contains ${locales.length} zod locales (${locales[0]}, ...): a module imports { z } from 'zod' and uses it as a value; write import * as z from 'zod'`);
}

// The source map first, so the moment plumb.cjs is the new one its map is too.
const files = [...outputFiles].sort((a, b) => Number(b.path.endsWith('.map')) - Number(a.path.endsWith('.map')));
for (const file of files) {
  mkdirSync(dirname(file.path), { recursive: true });
  const temporary = join(dirname(file.path), `.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(temporary, file.contents);
  renameSync(temporary, file.path);
}
