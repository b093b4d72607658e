// Bundles the CLI into dist/bundle/plumb.cjs (what bin/plumb.cjs runs), one CommonJS file, and
// makes a V8 code cache for it by running it.
//
// Why one CommonJS file: node resolves, reads, links and compiles each ES module on its own, and
// the CLI as tsc emits it is about 160 modules (95 of them zod's). An ES-module bundle split into
// lazily imported chunks was better, but node's module loader still cost a good part of every
// command's start-up, and V8's code cache (compiled code kept from an earlier run) can be handed
// only to a script: with it, `plumb validate` and a small plan start about a third faster.
// Modules the commands import lazily stay lazy: esbuild runs a module's top level only when it
// is first imported, and V8 compiles a function only when it is first called.
//
// The tsc output in dist/ stays: the benchmark imports modules from it and `npm run docs` runs it.

import { isAscii } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'plumb.cjs');
rmSync(join(root, 'dist', 'bundle'), { recursive: true, force: true });

// commander requires node:child_process when it loads, for subcommands run as separate
// executables, which plumb has none of: a few milliseconds of every command's start-up. Its
// require gets a stand-in that loads the module on first use (never, in practice).
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.namespace === 'lazy-child-process' ? { path: 'node:child_process', external: true } : { path: 'child_process', namespace: 'lazy-child-process' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      loader: 'js',
      contents: "let loaded;\nconst load = () => (loaded ??= require('node:child_process'));\nmodule.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });\n",
    }));
  },
};

const { metafile } = await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/bundle/plumb.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // Whitespace and syntax minified, names kept: the bundle is a third smaller and all ASCII
  // (comments held its only other characters), so node keeps its source as one byte per
  // character, about 3 MiB less for every command; stack traces keep function names, and the
  // map lets PLUMB_DEBUG=1 print them against src/.
  sourcemap: true,
  minifyWhitespace: true,
  minifySyntax: true,
  // pg and pino are loaded with createRequire where first needed, on purpose (they take a
  // while to load and most runs do not need them); leave them to node, not to the bundle. yaml
  // reads every manifest, so it is bundled, and the code cache covers it.
  external: ['pg', 'pino'],
  // A CommonJS file has no import.meta; its URL is worked out once from __filename instead.
  define: { 'import.meta.url': 'bundleModuleUrl' },
  banner: { js: "const bundleModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [lazyChildProcess],
  metafile: true,
  logLevel: 'warning',
});

// zod's `z` object re-exports every locale (63 modules of messages), which the bundler cannot
// drop once any module imports `{ z }` and uses it as a value; `import * as z from 'zod'` lets
// it keep only what is used. Fail here rather than let start-up quietly slow down again.
const bundled = Object.values(metafile.outputs).flatMap((output) => Object.entries(output.inputs).filter(([, use]) => use.bytesInOutput > 0).map(([file]) => file));
const locales = bundled.filter((file) => /zod\/v4\/locales\/(?!en\.js|index\.js)/.test(file));
if (locales.length) {
  throw new Error(
    `the bundle contains ${locales.length} zod locales (${locales[0]}, ...): a module imports { z } from 'zod' and uses it as a value; write import * as z from 'zod'`,
  );
}

// bin/plumb.cjs reads the bundle as Latin-1, which is exact only for ASCII: esbuild escapes
// every other character in code, and minifying leaves no comments to hold one.
if (!isAscii(readFileSync(join(root, 'dist', 'bundle', 'plumb.cjs')))) throw new Error('the bundle is not all ASCII; bin/plumb.cjs reads it as Latin-1');

// The code cache: what V8 compiled while running `validate` and a plan on a small manifest of
// ports and VXCs, the code most commands run. It is made with the flags of bin/plumb.cjs's
// `#!` line, since V8 refuses a cache made under other flags.
const flags = readFileSync(bin, 'utf8').split('\n')[0].split(' ').filter((word) => word.startsWith('--'));
const work = mkdtempSync(join(tmpdir(), 'plumb-code-cache-'));
try {
  const ports = Array.from({ length: 4 }, (_, i) => `  port${i}:\n    type: interconnect:Port\n    properties:\n      productName: port-${i}\n      portSpeed: 10000\n      locationId: 2\n      contractTermMonths: 1\n      marketplaceVisibility: false\n`);
  const vxcs = Array.from({ length: 4 }, (_, i) => `  vxc${i}:\n    type: interconnect:Vxc\n    properties:\n      productName: vxc-${i}\n      rateLimit: 100\n      contractTermMonths: 1\n      aEnd:\n        requestedProductUid: \${port${i}.productUid}\n      bEnd:\n        requestedProductUid: \${port${(i + 1) % 4}.productUid}\n`);
  writeFileSync(join(work, 'plumb.yaml'), `name: code-cache\nresources:\n${ports.join('')}${vxcs.join('')}`);
  for (const command of [['validate'], ['plan', '--no-refresh']]) {
    execFileSync(process.execPath, [...flags, bin, ...command], { cwd: work, env: { ...process.env, PLUMB_WRITE_CODE_CACHE: '1', NO_COLOR: '1' }, stdio: 'ignore' });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
