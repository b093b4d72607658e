// Bundles the CLI into dist/bundle/ (what bin/plumb.js runs): one ESM entry, plus a chunk for
// each thing main.ts and session.ts load with import() — the per-command modules, the lookup
// functions, the sandbox — so those stay unloaded until a command needs them.
//
// Why: node resolves, reads and compiles each ES module on its own. The CLI as tsc emits it is
// about 160 modules (95 of them zod's) before a command does anything, and that alone made
// `plumb validate` take more than twice as long as with the bundle's handful of files.
//
// The tsc output in dist/ stays: the benchmark imports modules from it and `npm run docs` runs it.

import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = 'dist/bundle';
// Chunk names carry a content hash: clear the old ones rather than let them pile up.
rmSync(new URL(`../${outdir}`, import.meta.url), { recursive: true, force: true });

const { metafile } = await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/main.ts'],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Not minified: it made no measurable difference to start-up, and unminified code keeps
  // function names in stack traces. The map lets PLUMB_DEBUG=1 print them against src/.
  sourcemap: true,
  // pg, pino and yaml are loaded with createRequire where first needed, on purpose (they take
  // a while to load and most runs do not need them); leave them to node, not to the bundle.
  external: ['pg', 'pino', 'yaml'],
  // commander is CommonJS and require()s node's built-ins; an ES module has no `require`, so
  // every chunk gets one (under a name no bundled module declares).
  banner: { js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);" },
  metafile: true,
  logLevel: 'warning',
});

// zod's `z` object re-exports every locale (63 modules of messages), which the bundler cannot
// drop once any module imports `{ z }` and uses it as a value; `import * as z from 'zod'` lets
// it keep only what is used. Fail here rather than let start-up quietly slow down again.
const bundled = Object.values(metafile.outputs).flatMap((output) => Object.entries(output.inputs).filter(([, use]) => use.bytesInOutput > 0).map(([file]) => file));
const locales = bundled.filter((file) => /zod\/v4\/locales\/(?!en\.js)/.test(file));
if (locales.length) {
  throw new Error(
    `the bundle contains ${locales.length} zod locales (${locales[0]}, ...): a module imports { z } from 'zod' and uses it as a value; write import * as z from 'zod'`,
  );
}
