#!/usr/bin/env node
// Runs the bundled CLI that `npm run build` writes (scripts/bundle.js). PLUMB_DEBUG prints internal
// errors' stacks against src/ through the source map.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const bundle = join(__dirname, '..', 'dist', 'bundle', 'plumb.cjs');
if (!existsSync(bundle)) {
  // A checkout that was never built (npx plumb before npm install): say what to run, not a stack.
  process.stderr.write(`Error: plumb is not built (${bundle} is missing): run \`npm install\` or \`npm run build\` in ${join(__dirname, '..')}\n`);
  process.exit(1);
}
if (process.env.PLUMB_DEBUG) process.setSourceMapsEnabled(true);
require(bundle);
