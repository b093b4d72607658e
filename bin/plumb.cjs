#!/usr/bin/env -S node --max-semi-space-size=4 --no-turbo-inlining
// Two V8 settings, for a command that runs for seconds rather than a server that runs for days:
// - A 4 MB young generation (V8's default grows to 16 MB per half): a large apply keeps
//   promoting what is still in flight into the old generation, and the bigger nursery only
//   added to the peak memory (about 190 MiB instead of 146 MiB for 3,000 resources) without
//   saving time. A 1 MB one saved memory at 3,000 resources but made a 30,000-resource apply
//   two fifths slower.
// - The optimizing compiler does not inline: on two cores its work competes with the command's
//   own, and inlining made it compile more without running faster. A no-change plan of 3,000
//   resources takes about a twelfth less time and 4 MiB less memory, one of 30,000 a little
//   less; applies are unchanged.
// Any V8 flag makes node compile the built-in modules a command loads afresh (its compiled copies
// are made under the default flags): about 15 ms of a small command, less than these save.
//
// Runs the bundled CLI that `npm run build` writes, one CommonJS file, with the V8 code cache
// the build made by running it (scripts/bundle.js says why). The cache is used only while the
// bundle is the very file it was made from (same size and modification time) and V8 accepts it
// (same node and flags); otherwise the bundle is compiled as usual. PLUMB_DEBUG prints internal
// errors' stacks against src/ through the source map, which node reads only for files it loads.
'use strict';
const { readFileSync, statSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { join } = require('node:path');
const vm = require('node:vm');

const file = join(__dirname, '../dist/bundle/plumb.cjs');
const cacheFile = `${file}.cache`;

if (process.env.PLUMB_DEBUG) {
  process.setSourceMapsEnabled(true);
  require(file);
} else {
  run();
}

function run() {
  // All ASCII (the build checks), so read without UTF-8 decoding.
  const source = readFileSync(file, 'latin1');
  const { size, mtimeMs } = statSync(file);
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: cacheFor(size, mtimeMs) });
  // The build runs a few commands to make the cache; the code they compiled is what it holds.
  if (process.env.PLUMB_WRITE_CODE_CACHE) {
    process.on('exit', () => writeFileSync(cacheFile, Buffer.concat([stamp(size, mtimeMs), script.createCachedData()])));
  }
  const module = new Module(file, null);
  module.filename = file;
  module.paths = Module._nodeModulePaths(join(__dirname, '../dist/bundle'));
  script.runInThisContext()(module.exports, Module.createRequire(file), module, file, join(__dirname, '../dist/bundle'));
}

/** The cache, when it was made from this bundle; undefined otherwise (or when there is none). */
function cacheFor(size, mtimeMs) {
  let cache;
  try {
    cache = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  return cache.subarray(0, 16).equals(stamp(size, mtimeMs)) ? cache.subarray(16) : undefined;
}

/** What a cache records of the bundle it was made from. */
function stamp(size, mtimeMs) {
  const out = Buffer.alloc(16);
  out.writeDoubleLE(size, 0);
  out.writeDoubleLE(mtimeMs, 8);
  return out;
}
