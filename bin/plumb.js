#!/usr/bin/env node
// Runs the bundled CLI that `npm run build` writes (scripts/bundle.js says why it is bundled).
// PLUMB_DEBUG prints internal errors' stacks; the source map points them at src/. Node reads
// maps only for modules loaded after this call, and reading them costs start-up time.
if (process.env.PLUMB_DEBUG) process.setSourceMapsEnabled(true);
await import('../dist/bundle/main.js');
