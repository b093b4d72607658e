#!/usr/bin/env -S node --max-semi-space-size=4
// A 4 MB young generation (V8's default grows to 16 MB per half): a large apply keeps promoting
// what is still in flight into the old generation, and the bigger nursery only added to the
// peak memory (about 190 MiB instead of 146 MiB for 3,000 resources) without saving time.
// Runs the bundled CLI that `npm run build` writes (scripts/bundle.js says why it is bundled).
// PLUMB_DEBUG prints internal errors' stacks; the source map points them at src/. Node reads
// maps only for modules loaded after this call, and reading them costs start-up time.
if (process.env.PLUMB_DEBUG) process.setSourceMapsEnabled(true);
await import('../dist/bundle/main.js');
